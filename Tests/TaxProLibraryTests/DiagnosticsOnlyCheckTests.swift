import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `Checker.diagnostics(of:)`, the check `taxpro check` runs: exactly a whole check's diagnostics, in order, while no
/// checked body is kept (each is dropped once checked, so that the check's peak memory does not hold them all).
@Suite struct DiagnosticsOnlyCheckTests {
  /// The inputs compared: the library alone; each example, fixture and test document, the parallel check's
  /// adversarial document (inferred results, cycles, constants, tests, errors) and generated formulas, each alone;
  /// then the library with all of those documents, as the files of one workspace (their formulas calling the
  /// library's). One program with the library rather than one per document: each takes a second in a debug build.
  static func inputs() throws -> [(name: String, trees: [SyntaxTree])] {
    let library = StandardLibrary.trees()
    var documents: [(String, String)] = [
      ("adversarial", ParallelCheckTests.adversarial), ("generated", EditScenarios.formulas(300)),
    ]
    for folder in ["examples", "Tests/TaxProCoreTests/Fixtures", "tests/lsp/project", "tests/editors/samples"] {
      for url in try ParallelCheckTests.files(under: folder) {
        documents.append((url.path, try String(contentsOf: url, encoding: .utf8)))
      }
    }
    let trees = documents.enumerated().map { ParallelCheckTests.tree($0.element.1, id: library.count + 5 + $0.offset) }
    return [("the library", library)] + zip(documents, trees).map { ($0.0.0, [$0.1]) }
      + [("the library and every document", library + trees)]
  }

  @Test func theSameDiagnosticsAsAWholeCheck() throws {
    let inputs = try Self.inputs()
    #expect(inputs.count > 15)
    var withErrors = 0
    for (name, trees) in inputs {
      let whole = onLargeStack { Checker.check(trees, recordOccurrences: false).diagnostics }
      let only = onLargeStack { Checker.diagnostics(of: trees) }
      #expect(only.map(ProgramDump.text) == whole.map(ProgramDump.text), "\(name)")
      if whole.contains(where: { $0.severity == .error }) { withErrors += 1 }
    }
    // The comparison means something only if some inputs have errors to report.
    #expect(withErrors > 5)
  }

  @Test func noCheckedBodyIsKept() {
    let library = StandardLibrary.trees()
    let trees = library + [ParallelCheckTests.tree(ParallelCheckTests.adversarial, id: library.count + 5)]
    let checker = onLargeStack { Checker.checkedForDiagnostics(trees) }
    #expect(checker.formulas.count > 50)
    for case let formula? in checker.formulas {
      #expect(formula.parameters.isEmpty && formula.lets.isEmpty, "\(formula.name)")
      guard case .invalid = formula.result.kind else {
        Issue.record("\(formula.name) kept its result")
        continue
      }
    }
    for case let constant? in checker.constants {
      guard case .invalid = constant.value.kind else {
        Issue.record("\(constant.name) kept its value")
        continue
      }
    }
    #expect(checker.tests.count >= 2)
    #expect(checker.tests.allSatisfy { $0.steps.isEmpty })
    // What later checks read is kept: result types, written or inferred.
    let index = checker.formulaIndex["middle_inferred"] ?? -1
    #expect(checker.formula(at: index)?.returnType == .money)
    // A whole check of the same trees keeps them all (so the expectations above are not met by chance).
    let program = onLargeStack { Checker.check(trees, recordOccurrences: false) }
    #expect(program.formulas.filter { !$0.lets.isEmpty }.count > 10)
    #expect(program.tests.allSatisfy { !$0.steps.isEmpty })
  }
}

