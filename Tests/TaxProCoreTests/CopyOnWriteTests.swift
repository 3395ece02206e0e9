import Testing

@testable import TaxProCore

/// Formulas and their declarations keep their fields behind one shared reference; they must still behave as values.
@Suite struct CopyOnWriteTests {
  static let text = "formula f(income: Money): Money =\n  let part = income * 2\n  part + $1\n"

  @Test func aChangedDeclarationLeavesItsCopiesAlone() throws {
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "t", text: CopyOnWriteTests.text))
    guard case .formula(let original) = try #require(tree.declarations.first) else {
      Issue.record("not a formula")
      return
    }
    var changed = original
    changed.name = Identifier("g", span: original.name.span)
    changed.lets = []
    #expect(original.name.name == "f" && original.lets.count == 1)
    #expect(changed.name.name == "g" && changed.lets.isEmpty)
    // The tree's own copy is untouched too.
    guard case .formula(let again) = tree.declarations[0] else { return }
    #expect(again.name.name == "f" && again.lets.count == 1)
  }

  @Test func aChangedFormulaLeavesTheProgramAlone() throws {
    let program = Checker.check([Parser.parse(SourceFile(id: FileID(0), name: "t", text: CopyOnWriteTests.text))])
    var formula = try #require(program.formula(named: "f"))
    formula.hasErrors = true
    formula.returnType = .rate
    formula.span = Span(file: FileID(0), start: 1, end: 2)
    #expect(formula.hasErrors && formula.returnType == .rate && formula.span.start == 1)
    let kept = try #require(program.formula(named: "f"))
    #expect(!kept.hasErrors && kept.returnType == .money && kept.span.start == 0)
    // A copy of a changed copy is a value too.
    var second = formula
    second.name = "h"
    #expect(formula.name == "f" && second.name == "h")
  }
}
