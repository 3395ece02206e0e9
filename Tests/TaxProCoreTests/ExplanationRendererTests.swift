import Testing

@testable import TaxProCore

/// What a learner reads from `taxpro explain`: brackets as a table, `let` steps with their source, parameters with
/// jurisdiction and year, the branch a condition took, defaults under their call, and no arithmetic that says nothing.
@Suite struct ExplanationRendererTests {
  static let library = """
    province ZZ "Zedland" {
      year 2025 {
        income_tax = brackets {
          $0 -> 10%
          $10,000 -> 20%
          $50,000 -> 30%
        }
        credit_rate = 10%
      }
    }

    ## Zedland tax after a credit.
    ## definition: Bracket tax minus the credit, never below zero.
    ## tip: The credit is worth the same at every income.
    formula zed_tax(
      ## Taxable income.
      income: Money,
      ## Credit amount.
      credit_amount: Money = $1,000 * 2
    ): Money =
      let bracket_tax = tax(ZZ.income_tax, income)
      let credit = ZZ.credit_rate * credit_amount
      max($0, bracket_tax - credit - $0)

    formula pick(flag: Bool): Money =
      if flag then $1 + 10% else $2
    """

  func explain(_ expression: String) -> String {
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "zed.tax", text: Self.library))
    let session = Session(trees: [tree], year: 2025, firstInputFileID: 1)
    guard case .success(let (value, steps)) = session.explain(expression, name: "<expr>") else {
      Issue.record("\(expression) did not evaluate")
      return ""
    }
    return ExplanationRenderer(program: session.program, sources: session.sources)
      .render(expression: expression, value: value, steps: steps)
  }

  @Test func bracketsAreATableWithTheirPortionRateAndTax() {
    // 10,000 × 10% = 1,000; 15,000 × 20% = 3,000; total 4,000
    let text = explain("tax(ZZ.income_tax, $25,000)")
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "tax(ZZ.income_tax, $25,000) = $4,000.00")
    #expect(text.contains("Tax on $25,000.00 under ZZ.income_tax (Zedland, 2025), bracket by bracket:"))
    #expect(lines.contains { $0.contains("$0.00 to $10,000.00") && $0.contains("$10,000.00") && $0.hasSuffix("10%   $1,000.00") })
    #expect(lines.contains { $0.contains("$10,000.00 to $50,000.00") && $0.contains("$15,000.00") && $0.hasSuffix("$3,000.00") })
    #expect(!text.contains("$50,000.00 to"))
    #expect(text.contains("The next bracket, at 30%, starts at $50,000.00."))
    #expect(text.contains("marginal rate 20%: the rate on the next dollar"))
    #expect(text.contains("average rate 16%: $4,000.00 ÷ $25,000.00"))
  }

  @Test func aFormulaShowsItsInputsStepsParametersAndDocumentation() {
    // bracket tax 4,000; credit 10% × 2,000 = 200; 4,000 − 200 = 3,800
    let text = explain("zed_tax($25,000)")
    #expect(text.contains("zed_tax(income = $25,000.00, credit_amount = $2,000.00) = $3,800.00"))
    #expect(text.contains("  Zedland tax after a credit."))
    #expect(text.contains("default credit_amount = $1,000 * 2 = $2,000.00"))
    #expect(text.contains("let bracket_tax = tax(ZZ.income_tax, income) = $4,000.00"))
    #expect(text.contains("let credit = ZZ.credit_rate * credit_amount = $200.00"))
    #expect(text.contains("ZZ.credit_rate = 10%  (Zedland, 2025)"))
    #expect(text.contains("$4,000.00 - $200.00 = $3,800.00"))
    // subtracting $0 adds nothing for a learner
    #expect(!text.contains("- $0.00 ="))
    #expect(text.contains("Definition: Bracket tax minus the credit, never below zero."))
    #expect(text.contains("Tip: The credit is worth the same at every income."))
  }

  @Test func aConditionSaysWhichBranchItTook() {
    let taken = explain("pick(true)")
    #expect(taken.contains("if flag: the condition is true, so the 'then' branch applies"))
    #expect(taken.contains("$1.00 + 10% of $1.00 = $1.10"))
    let skipped = explain("pick(false)")
    #expect(skipped.contains("if flag: the condition is false, so the 'else' branch applies: $2.00"))
  }

  @Test func theThenOfANestedIfIsNotTheOuterOne() {
    let text = explain("if (if 1 > 2 then false else true) then $5 else $6")
    #expect(text.contains("is true, so the 'then' branch applies"))
    #expect(text.hasPrefix("if (if 1 > 2 then false else true) then $5 else $6 = $5.00"))
  }
}

/// A documentation title read in the middle of a sentence starts in lower case unless it starts with a name.
@Suite struct TitleCaseTests {
  @Test func aTitleStartsInLowerCaseUnlessItStartsWithAName() {
    let cases = [
      ("Federal basic personal amount", "federal basic personal amount"),
      ("Base CPP or QPP contributions through employment", "base CPP or QPP contributions through employment"),
      ("Enhanced EI premium", "enhanced EI premium"),
      ("Old Age Security recovery threshold", "Old Age Security recovery threshold"),
      ("RRSP dollar limit", "RRSP dollar limit"),
      ("Ontario surtax", "Ontario surtax"),
      ("the pension plan contribution", "the pension plan contribution"),
    ]
    for (title, expected) in cases {
      #expect(ReadableText.lowercasingFirstWord(title) == expected)
    }
  }
}
