import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// The language server's check leaves formula bodies out (`Checker.defersFormulaBodies`) and checks each again when
/// first read (`Program.body(ofFormula:)`): what every query and the evaluator read must be exactly what a whole
/// check that keeps the bodies gives, for the library, the examples, fixtures and test documents, each alone and all
/// together, by both of the server's ways of checking (whole, and on top of the library checked once).
@Suite struct DeferredBodyTests {
  /// How many formulas of `program` have their body left out, after checking that such a formula keeps no steps
  /// and no result.
  static func deferredCount(_ program: Program) -> Int {
    var count = 0
    for formula in program.formulas where formula.bodyDeferred {
      #expect(formula.lets.isEmpty, "\(formula.name)")
      if case .invalid = formula.result.kind {} else { Issue.record("\(formula.name) kept its result") }
      count += 1
    }
    return count
  }

  @Test func aDeferredCheckReadsAsAWholeCheck() throws {
    let inputs = try DiagnosticsOnlyCheckTests.inputs()
    var deferred = 0
    for (name, trees) in inputs {
      let whole = onLargeStack { Checker.check(trees) }
      let program = onLargeStack { Checker.check(trees, defersFormulaBodies: true, isCancelled: { false }) }
      guard let program else {
        Issue.record("\(name): not checked")
        continue
      }
      deferred += Self.deferredCount(program)
      // Read in reverse order: a body checked when first read must not depend on which were read before it.
      let reversed = program.formulas.indices.reversed().map { ProgramDump.formula(program, $0) }
      #expect(Array(reversed.reversed()) == program.formulas.indices.map { ProgramDump.formula(whole, $0) }, "\(name)")
      #expect(ProgramDump.program(program) == ProgramDump.program(whole), "\(name)")
    }
    // The comparison means something only if the check really left bodies out.
    #expect(deferred > 500)
  }

  @Test func documentsCheckedOnTheLibraryReadAsAWholeCheck() throws {
    let library = StandardLibrary.trees()
    let checked = onLargeStack { CheckedLibrary(library) }
    let examples = try ParallelCheckTests.files(under: "examples").enumerated().map {
      ParallelCheckTests.tree(try String(contentsOf: $0.element, encoding: .utf8), id: library.count + 5 + $0.offset)
    }
    guard let (_, all) = try DiagnosticsOnlyCheckTests.inputs().last else { return }
    let everyDocument = Array(all[library.count...])
    // The examples are checked on top of the library; every document together needs a whole check (one declares
    // jurisdictions), which defers the library's bodies too.
    #expect(checked.admits(examples))
    for documents in [examples, everyDocument] {
      #expect(documents.count > 3)
      let whole = onLargeStack { Checker.check(library + documents) }
      let program = onLargeStack {
        Checker.check(documents, after: checked, defersFormulaBodies: true, isCancelled: { false })
      }
      guard let program else {
        Issue.record("not checked")
        continue
      }
      let documentFiles = Set(documents.map(\.source.id))
      let admitted = checked.admits(documents)
      #expect(
        program.formulas.allSatisfy { $0.bodyDeferred == (documentFiles.contains($0.span.file) || !admitted) })
      #expect(Self.deferredCount(program) > 10)
      #expect(ProgramDump.program(program) == ProgramDump.program(whole))
    }
  }

  @Test func aDeferredProgramEvaluatesAsAWholeOne() throws {
    let library = StandardLibrary.trees()
    let text = try String(contentsOf: ParallelCheckTests.files(under: "examples")[0], encoding: .utf8)
    let trees = library + [ParallelCheckTests.tree(text, id: library.count + 5)]
    let whole = onLargeStack { Checker.check(trees) }
    guard let program = onLargeStack({ Checker.check(trees, defersFormulaBodies: true, isCancelled: { false }) })
    else {
      Issue.record("not checked")
      return
    }
    #expect(Self.deferredCount(program) > 50)
    var compared = 0
    // Every library formula of one Money parameter, called with $85,000 through each program's evaluator.
    for index in whole.formulas.indices {
      let formula = whole.formulas[index]
      guard !formula.hasErrors, formula.parameters.count == 1, formula.parameters[0].type == .money else { continue }
      let arguments = [formula.parameters[0].name: Value.money(ExactDecimal(85_000))]
      let span = Span.nowhere
      let expected = Result { () throws(RuntimeError) in
        try Evaluator(program: whole).call(formula.name, arguments: arguments, at: span)
      }
      let got = Result { () throws(RuntimeError) in
        try Evaluator(program: program).call(formula.name, arguments: arguments, at: span)
      }
      #expect(ProgramDump.text(got) == ProgramDump.text(expected), "\(formula.name)")
      compared += 1
    }
    #expect(compared >= 10)
  }

  @Test func rechecksOfADeferredProgramReadAsWholeChecks() {
    let rechecked = RecheckTests.run(
      text: EditScenarios.formulas(12), library: StreamCheckTests.smallLibrary, edits: 60, seed: 18,
      defersFormulaBodies: true)
    #expect(rechecked > 10)
  }
}
