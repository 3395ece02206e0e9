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

  /// The checker's occurrences come mostly in text order per file, with files interleaved and short stretches out of
  /// order: `Checker.sortedByPlace` sorts those by buckets, and must give exactly the stable order by file and start.
  @Test func sortingNearlyOrderedItemsByPlaceIsStable() {
    var random = SeededGenerator(seed: 18)
    for round in 0..<300 {
      var items: [(Span, Int)] = []
      var starts = [Int](repeating: 0, count: 5)
      for position in 0..<Int.random(in: 0...200, using: &random) {
        let file = Int.random(in: 0...9, using: &random) < 7 ? 1 : Int.random(in: -1...3, using: &random)
        // Mostly onwards in its file, now and then back a little or to the same place.
        let step = Int.random(in: 0...9, using: &random) == 0 ? -Int.random(in: 0...5, using: &random) : 1
        starts[file + 1] = max(0, starts[file + 1] + step)
        items.append((Span(file: FileID(file), start: starts[file + 1], end: 0), position))
      }
      // A slice that does not start at index 0, as the checker's diagnostics are sorted.
      let skipped = round % 3 == 0 ? min(items.count, 2) : 0
      let slice = items[skipped...]
      let expected = slice.sorted { a, b in (a.0.file, a.0.start, a.1) < (b.0.file, b.0.start, b.1) }
      #expect(Checker.sortedByPlace(slice, by: \.0).map(\.1) == expected.map(\.1))
    }
  }
}
