import Testing

@testable import TaxProCore

/// `federal` is both the keyword that declares the federal jurisdiction and the name its parameters are read through.
/// An input line that starts with `federal.` is an expression, not a broken declaration.
@Suite struct FederalExpressionTests {
  static let library = """
    federal "Canada" {
      year 2025 {
        credit_rate = 14.5%
        basic_personal_amount = $16,129
      }
    }
    """

  func session() -> Session {
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "federal.tax", text: Self.library))
    return Session(trees: [tree], year: 2025, firstInputFileID: 1)
  }

  @Test func aLineStartingWithFederalDotIsAnExpression() {
    let session = session()
    guard case .value(let value) = session.submit("federal.basic_personal_amount") else {
      Issue.record("federal.basic_personal_amount was not evaluated")
      return
    }
    #expect(ValueFormatter.format(value) == "$16,129.00")
    // 14.5% × 16,129 = 2,338.705 → 2,338.71
    guard case .value(let credit) = session.submit("federal.credit_rate * federal.basic_personal_amount") else {
      Issue.record("a product starting with federal. was not evaluated")
      return
    }
    #expect(ValueFormatter.format(credit) == "$2,338.71")
  }

  @Test func federalStillDeclaresTheJurisdictionInAFile() {
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "federal.tax", text: Self.library))
    #expect(tree.diagnostics.isEmpty)
    let program = Checker.check([tree])
    #expect(program.jurisdictions["federal"]?.years[2025]?["credit_rate"] != nil)
  }

  @Test func aFileLineStartingWithFederalDotInsideAFormulaBody() {
    let text = Self.library + "\n" + """
      formula credit(): Money =
        federal.credit_rate * federal.basic_personal_amount
      """
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "f.tax", text: text))
    #expect(tree.diagnostics.isEmpty)
  }
}
