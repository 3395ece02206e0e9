import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `SymbolIndex.occurrence(at:in:)` finds what is under the cursor by binary search over occurrences in place order;
/// it must answer exactly as looking at every occurrence does.
@Suite struct SymbolIndexTests {
  @Test func theCursorLookupAgreesWithALookAtEveryOccurrence() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let examples = root.appendingPathComponent("examples")
    var trees = StandardLibraryTests.program(includeTests: true).trees
    for name in try FileManager.default.contentsOfDirectory(atPath: examples.path).filter({ $0.hasSuffix(".tax") })
      .sorted()
    {
      let text = try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)
      trees.append(Parser.parse(SourceFile(id: FileID(1_000 + trees.count), name: name, text: text)))
    }
    let program = Checker.check(trees)
    let index = SymbolIndex(program)
    #expect(index.inPlaceOrder)
    #expect(index.longest > 0)
    var random = SeededGenerator(seed: 42)
    var found = 0
    for tree in program.trees {
      let file = tree.source.id
      // Around the ends of some occurrences (where touching and containing differ), and anywhere at random.
      var offsets = index.occurrences.filter { $0.span.file == file }.prefix(40).flatMap { occurrence in
        [occurrence.span.start - 1, occurrence.span.start, occurrence.span.end - 1, occurrence.span.end,
         occurrence.span.end + 1]
      }
      offsets += (0..<40).map { _ in Int.random(in: 0...tree.source.bytes.count, using: &random) }
      for offset in offsets {
        let fast = index.occurrence(at: offset, in: file)
        let slow = index.linearOccurrence(at: offset, in: file)
        #expect(fast?.span == slow?.span && fast?.symbol == slow?.symbol, "\(tree.source.name) at \(offset)")
        if fast != nil { found += 1 }
      }
    }
    #expect(found > 1_000)
    // Another file's occurrences are never found.
    #expect(index.occurrence(at: 10, in: FileID(99_999)) == nil)
  }
}
