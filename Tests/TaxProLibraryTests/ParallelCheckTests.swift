import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// Checking the formula bodies in two halves at once (`Checker+Parallel`) must give exactly the serial check's
/// program: every input is checked both ways (the threshold forced to never and to always) and the two programs are
/// compared whole — trees, typed formulas, constants, tests, diagnostics in order, occurrences with their raw symbol
/// ids, the symbol table in id order and the checker's tables.
@Suite struct ParallelCheckTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Everything compared, as text.
  static func dump(_ program: Program) -> String {
    var output = ProgramDump.program(program)
    for tree in program.trees { output += ProgramDump.tables(program, file: tree.source.id) }
    output += "diagnostics in order\n"
    for diagnostic in program.diagnostics { output += ProgramDump.text(diagnostic) }
    output += "stored occurrences\n" + ProgramDump.text(program.storedOccurrences.all)
    output += "symbols\n" + ProgramDump.text(program.symbols.symbols)
    output += "formula ids \(program.symbols.formulaIDs?.formulas ?? []) \(program.symbols.formulaIDs?.parameters ?? [])\n"
    return output
  }

  /// Checks `trees` both ways; returns how many bodies the halves kept (so that a test can require that the parallel
  /// path was taken), or nil after recording the difference.
  @discardableResult
  static func compare(_ trees: [SyntaxTree], _ context: String) -> Int? {
    let serial = onLargeStack { Checker.check(trees, parallelThreshold: .max) }
    let (parallel, kept) = onLargeStack { () -> (Program, Int) in
      let checker = Checker(trees: trees, recordOccurrences: true)
      checker.parallelThreshold = 0
      return (checker.run(), checker.checkedAheadCount)
    }
    let (expected, got) = (dump(serial), dump(parallel))
    guard expected == got else {
      let line = zip(expected.split(separator: "\n"), got.split(separator: "\n")).first { $0 != $1 }
      Issue.record("\(context): the programs differ; first different line: \(line.map { "\($0.0)\n vs \($0.1)" } ?? "(one is longer)")")
      return nil
    }
    return kept
  }

  static func files(under folder: String) throws -> [URL] {
    let directory = root.appendingPathComponent(folder)
    guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
    return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".tax") }.sorted()
      .map { directory.appendingPathComponent($0) }
  }

  static func tree(_ text: String, id: Int, name: String = "doc.tax") -> SyntaxTree {
    Parser.parse(SourceFile(id: FileID(id), name: name, bytes: Array(text.utf8)))
  }

  /// The library alone; each example and fixture alone (a program of its own, its calls into the library unknown);
  /// then all of them at once after the library, as the files of one workspace (their formulas calling the library's,
  /// and each other's names clashing).
  @Test func theLibraryAloneAndWithTheExamplesAndFixtures() throws {
    let library = StandardLibrary.trees()
    let kept = Self.compare(library, "the library")
    #expect((kept ?? 0) > 0)
    var inputs: [URL] = []
    for folder in ["examples", "Tests/TaxProCoreTests/Fixtures", "tests/lsp/project", "tests/editors/samples"] {
      inputs += try Self.files(under: folder)
    }
    #expect(inputs.count > 15)
    var trees: [SyntaxTree] = []
    for (number, url) in inputs.enumerated() {
      let text = try String(contentsOf: url, encoding: .utf8)
      let tree = Self.tree(text, id: library.count + 5 + number, name: url.lastPathComponent)
      Self.compare([tree], url.path)
      trees.append(tree)
    }
    let keptWithLibrary = Self.compare(library + trees, "the library and every example and fixture")
    #expect((keptWithLibrary ?? 0) > (kept ?? 0))
  }

  @Test func generatedFormulasLikeTheBenchmarks() {
    let library = StandardLibrary.trees()
    let trees = library + [Self.tree(EditScenarios.formulas(600), id: library.count + 5)]
    let kept = Self.compare(trees, "600 generated formulas")
    // Each calls the one before with a written result type: nearly all are checked ahead.
    #expect((kept ?? 0) > 560)
  }

  /// Written to cross the split: with the library (which comes first) the document's formulas are in the second
  /// half, so each is written in two documents, and the halves split the document too when it is checked alone.
  static let adversarial = """
    ## Inferred results, called across the halves both ways.
    formula early(x: Money) =
      late(x) + middle_inferred(x)
    formula cycle_a(x: Money) =
      cycle_b(x) * 2
    formula declared_cycle(x: Money): Money =
      declared_cycle_b(x)
    formula named(income: Money, rate: Rate = 5%, income: Money): Money =
      let income = income * rate
      income
    formula uses_constant(x: Money): Money =
      x + big
    formula unknowns(x: Money): Money =
      incme + nosuch(x) + ON.surtax_threshold_1 + ON.no_such_thing + ON.income_tax.rate * 0
    formula typed_error(x: Money): Money =
      x * x
    formula calls_named(x: Money): Money =
      named(income: x, rate: 3%) + named(rate: 1%, income: x) + later_named(amount: x)
    formula dup(x: Money): Money = x
    let big = late($10) + $1
    test "across" {
      let y = early($100)
      y > $0
    }
    formula middle_inferred(x: Money) =
      x / 2
    formula dup(x: Money): Money = x * 2
    formula late(x: Money) =
      early_declared(x) + x
    formula early_declared(x: Money): Money =
      x + $1
    formula cycle_b(x: Money) =
      cycle_a(x) + $1
    formula declared_cycle_b(x: Money): Money =
      declared_cycle(x)
    formula later_named(amount: Money, unused: Rate = 1%): Money =
      amount * unused + uses_constant(amount) + typed_error(amount, $1) + dup(amount)
    formula mismatch(x: Money): Rate =
      x
    ## parts: whole = a + missing
    formula parts(x: Money): Money =
      let a = x
      let whole = a
      whole
    let late_constant = early_declared($3) * 2
    test "late" {
      late_constant == $8
      "not bool"
    }

    """

  @Test func formulasConstantsAndErrorsAcrossTheSplit() {
    let library = StandardLibrary.trees()
    // Alone, then with the library, then twice (duplicates across the halves), then with its halves swapped.
    let lines = Self.adversarial.split(separator: "\n", omittingEmptySubsequences: false)
    let cut = lines.firstIndex { $0.hasPrefix("formula middle_inferred") } ?? lines.count / 2
    let swapped = (lines[cut...] + lines[..<cut]).joined(separator: "\n")
    let cases: [(String, [SyntaxTree])] = [
      ("alone", [Self.tree(Self.adversarial, id: 1)]),
      ("with the library", library + [Self.tree(Self.adversarial, id: library.count + 5)]),
      ("twice", [Self.tree(Self.adversarial, id: 1), Self.tree(Self.adversarial, id: 2, name: "again.tax")]),
      ("swapped", [Self.tree(swapped, id: 1)]),
      ("swapped with the library", library + [Self.tree(swapped, id: library.count + 5)]),
    ]
    for (name, trees) in cases {
      let kept = Self.compare(trees, name)
      #expect(kept != nil && kept! > 0, "\(name): nothing was checked ahead")
    }
  }

  /// A chain of inferred results longer than the inference depth limit, declared from the end so that the serial
  /// check meets it from the first half: where the limit is reported depends on the order of checking.
  @Test func inferenceDeeperThanTheLimitAcrossTheHalves() {
    var text = ""
    let count = Checker.maximumInferenceDepth + 60
    for i in 0..<count {
      text += "formula chain\(i)(x: Money) =\n  \(i + 1 < count ? "chain\(i + 1)(x)" : "x") + $1\n"
      text += "formula plain\(i)(x: Money): Money =\n  x + plain\((i + 1) % count)(x)\n"
    }
    #expect(Self.compare([Self.tree(text, id: 1)], "a long chain") != nil)
    let reversed = text.split(separator: "\n").reversed().joined(separator: "\n")
    Self.compare([Self.tree(reversed, id: 1)], "the chain's lines reversed")
  }

  /// Random edits of the examples and of generated formulas, as a person typing makes them: programs with errors of
  /// every kind, checked both ways.
  @Test func randomlyEditedPrograms() throws {
    let library = StandardLibrary.trees()
    var texts = [EditScenarios.formulas(120)]
    for url in try Self.files(under: "examples") { texts.append(try String(contentsOf: url, encoding: .utf8)) }
    var compared = 0
    for (number, initial) in texts.enumerated() {
      for (step, bytes) in EditScenarios.versions(of: initial, seed: UInt64(700 + number), steps: 12).enumerated() {
        let source = SourceFile(id: FileID(library.count + 5), name: "doc.tax", bytes: bytes)
        // Alone, the split falls inside the document; with the library (after the last edit of the first two texts:
        // a library program takes seconds to compare in a debug build), the document's formulas may call the
        // library's.
        let tree = Parser.parse(source)
        guard Self.compare([tree], "text \(number) alone, edit \(step)") != nil,
          step != 11 || number > 1 || Self.compare(library + [tree], "text \(number), edit \(step)") != nil
        else { return }
        compared += 1
      }
    }
    #expect(compared == texts.count * 12)
  }

  @Test func withoutOccurrencesAndWithPredefinedValues() {
    let trees = [Self.tree(Self.adversarial + "formula uses_ans(x: Money): Money =\n  x + ans\n", id: 1)]
    let predefined: [String: Value] = ["ans": .money(ExactDecimal(negative: false, magnitude: 500, exponent: -2))]
    let serial = Checker.check(trees, predefined: predefined, recordOccurrences: false, parallelThreshold: .max)
    let parallel = Checker.check(trees, predefined: predefined, recordOccurrences: false, parallelThreshold: 0)
    #expect(Self.dump(serial) == Self.dump(parallel))
  }

  @Test func aCancelledCheckStopsBothHalves() {
    let trees = [Self.tree(EditScenarios.formulas(2_000), id: 1)]
    // Touched by the large-stack thread alone, and read here after it is done.
    final class Counter: @unchecked Sendable { var asked = 0 }
    let counter = Counter()
    // Asked every 32 formulas: through the signatures, then by the half on the calling thread, which says yes to the
    // other half at its second question.
    let signatureQuestions = (2_000 + 31) / 32
    let program = onLargeStack {
      Checker.check(trees, parallelThreshold: 0) {
        counter.asked += 1
        return counter.asked > signatureQuestions + 1
      }
    }
    #expect(program == nil)
    #expect(counter.asked == signatureQuestions + 2)
    let kept = onLargeStack { Checker.check(trees, parallelThreshold: 0) { false } }
    #expect(kept != nil)
  }
}
