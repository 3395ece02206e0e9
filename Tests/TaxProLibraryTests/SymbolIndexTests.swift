import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `SymbolIndex.occurrence(at:in:)` finds what is under the cursor by binary search over occurrences in place order;
/// it must answer exactly as looking at every occurrence does.
@Suite struct SymbolIndexTests {
  @Test func theCursorLookupAgreesWithALookAtEveryOccurrence() throws {
    var trees = StandardLibraryTests.program(includeTests: true).trees
    for (name, text) in try EditScenarios.examples() {
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

  /// A whole check numbers each formula's parameters one after the other and keeps only the first's id
  /// (`FormulaSymbolIDs`): looking up every symbol must give the id it was first numbered with — what a table hashing
  /// every symbol gave — and every occurrence's symbol must lead back to its id, for the library, every `.tax` file of
  /// the repository alone and all of them at once, and formulas that declare a parameter twice (with few parameters
  /// and with many).
  @Test func everySymbolIsFoundUnderTheIDItWasFirstNumberedWith() throws {
    let library = StandardLibrary.trees(includeTests: true)
    var trees: [SyntaxTree] = []
    for folder in ["examples", "Tests/TaxProCoreTests/Fixtures", "tests/lsp/project", "tests/editors/samples"] {
      for url in try ParallelCheckTests.files(under: folder) {
        let text = try String(contentsOf: url, encoding: .utf8)
        trees.append(ParallelCheckTests.tree(text, id: library.count + 5 + trees.count, name: url.lastPathComponent))
      }
    }
    #expect(trees.count > 15)
    let many = (0..<20).map { "p\($0): Money" }.joined(separator: ", ")
    let repeats = """
      formula repeats_twice(income: Money, rate: Rate, income: Money): Money =
        income * rate
      formula repeats_wide(\(many), p3: Money, last: Rate): Money =
        p0 + p3 + p19 * last
      formula repeats_calls(x: Money): Money =
        repeats_twice(x, 5%, x) + repeats_twice(income: x, rate: 1%) + repeats_wide(last: 2%, p3: x)
      formula repeats_after(a: Money, b: Money): Money =
        a + b
      """
    let repeated = ParallelCheckTests.tree(repeats, id: library.count + 4, name: "repeats.tax")
    var programs = [("the library", Checker.check(library)), ("repeats", Checker.check(library + [repeated]))]
    for tree in trees { programs.append((tree.source.name, Checker.check([tree]))) }
    programs.append(("everything", Checker.check(library + trees + [repeated])))
    var numbered = 0
    for (name, program) in programs {
      let table = program.symbols
      var firstID: [Symbol: Int32] = [:]
      for id in 0..<table.count {
        let symbol = table.symbol(Int32(id))
        if firstID[symbol] == nil { firstID[symbol] = Int32(id) }
      }
      numbered += firstID.count
      for (symbol, id) in firstID {
        #expect(table.id(of: symbol) == id, "\(name): \(symbol)")
      }
      for stored in program.storedOccurrences.all {
        let occurrence = table.occurrence(stored)
        #expect(table.key(of: occurrence.symbol)?.id == stored.symbol, "\(name): \(occurrence.symbol)")
      }
      // A parameter declared again is its first declaration's symbol: its uses are references to that one.
      if name == "repeats" || name == "everything" {
        let index = SymbolIndex(program)
        let twice = index.occurrences(of: .formulaParameter(formula: "repeats_twice", name: "income"))
        #expect(twice.filter(\.isDefinition).count == 2, "\(name)")
        #expect(twice.count == 4, "\(name)")
        #expect(index.occurrences(of: .formulaParameter(formula: "repeats_wide", name: "p3")).count == 4, "\(name)")
        #expect(index.occurrences(of: .formulaParameter(formula: "repeats_wide", name: "last")).count == 3, "\(name)")
        #expect(index.occurrences(of: .formulaParameter(formula: "repeats_after", name: "b")).count == 2, "\(name)")
        #expect(index.occurrences(of: .formulaParameter(formula: "repeats_twice", name: "nothing")).isEmpty, "\(name)")
      }
    }
    #expect(numbered > 1_000)
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
