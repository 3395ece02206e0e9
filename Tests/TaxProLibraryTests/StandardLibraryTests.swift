import Testing

@testable import TaxProCore
@testable import TaxProLibrary

/// The standard library as shipped: it loads cleanly, documents every formula for learners, has figures for every
/// jurisdiction in both years, and passes its own `test` blocks in both years.
@Suite struct StandardLibraryTests {
  static let years = [2025, 2026]
  static let provinces = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]

  static func program(includeTests: Bool = true) -> Program {
    Checker.check(StandardLibrary.trees(includeTests: includeTests), recordOccurrences: false)
  }

  @Test func theLibraryIsFound() {
    let files = StandardLibrary.files(includeTests: true)
    #expect(files.contains { $0.name == "<std>/interfaces.tax" })
    #expect(files.contains { $0.name == "<std>/income_tax.tax" })
    #expect(files.contains { $0.isTest && $0.name.hasPrefix("<std>/tests/formulas_") })
  }

  @Test func theLibraryLoadsWithNoDiagnosticsAtAll() {
    let program = Self.program()
    let rendered = DiagnosticRenderer(sources: program.sources).render(program.diagnostics)
    #expect(program.diagnostics.isEmpty, "\(rendered)")
  }

  @Test func everyFormulaIsDocumentedForLearners() {
    let program = Self.program(includeTests: false)
    #expect(program.formulas.count >= 25)
    for formula in program.formulas {
      let documentation = formula.documentation
      #expect(!documentation.summary.isEmpty, "\(formula.name) has no summary")
      #expect(!(documentation.definition ?? "").isEmpty, "\(formula.name) has no definition")
      #expect(!(documentation.instruction ?? "").isEmpty, "\(formula.name) has no instruction")
      #expect(!(documentation.tip ?? "").isEmpty, "\(formula.name) has no tip")
      #expect(documentation.topic.count >= 2, "\(formula.name) has no topic path")
      for parameter in formula.parameters {
        #expect(!parameter.documentation.summary.isEmpty, "\(formula.name)(\(parameter.name)) is not documented")
      }
    }
  }

  @Test func theBriefsTopicsHaveFormulas() {
    let program = Self.program(includeTests: false)
    let names = Set(program.formulas.map(\.name))
    let expected = [
      "federal_tax", "provincial_tax", "combined_tax", "combined_marginal_rate", "combined_average_rate",
      "federal_basic_personal_amount", "provincial_basic_personal_amount", "taxable_income", "rrsp_limit",
      "rrsp_refund", "cpp_contribution", "cpp2_contribution", "ei_premium", "take_home_pay", "interest_tax",
      "taxable_dividend", "federal_dividend_tax_credit", "dividend_tax", "foreign_tax_credit", "taxable_capital_gain",
      "capital_gains_tax", "oas_recovery_tax", "ontario_surtax", "ontario_health_premium", "quebec_abatement",
    ]
    for name in expected { #expect(names.contains(name), "no formula \(name)") }
  }

  @Test func everyJurisdictionHasBothYears() {
    let program = Self.program(includeTests: false)
    #expect(program.provinceCodes.sorted() == Self.provinces)
    for code in Self.provinces + ["federal"] {
      #expect(program.jurisdictions[code]?.sortedYears == Self.years, "\(code)")
    }
    #expect(program.years == Self.years)
  }

  @Test(arguments: years)
  func theLibrarysOwnTestsPass(year: Int) {
    let program = Self.program()
    let outcomes = TestRunner.run(program, year: year)
    // The generated bracket tests (one per jurisdiction and year) and the formula tests.
    #expect(outcomes.count >= 60)
    let renderer = DiagnosticRenderer(sources: program.sources)
    for outcome in outcomes where !outcome.passed {
      Issue.record("\(outcome.name) (\(outcome.year)): \(renderer.render(outcome.failures))")
    }
    #expect(outcomes.allSatisfy { $0.checks > 0 })
  }

  @Test func theSelectedYearDecidesTheFigures() {
    let session2025 = Session(trees: StandardLibrary.trees(), year: 2025, firstInputFileID: 1000)
    let session2026 = Session(trees: StandardLibrary.trees(), year: 2026, firstInputFileID: 1000)
    // 5.05% × 12,747 = 643.7235 → 643.72; 5.05% × 12,989 = 655.9445 → 655.94
    if case .value(let value) = session2025.submit("provincial_credits($85,000)") {
      #expect(ValueFormatter.format(value) == "$643.72")
    } else {
      Issue.record("provincial_credits did not evaluate in 2025")
    }
    if case .value(let value) = session2026.submit("provincial_credits($85,000)") {
      #expect(ValueFormatter.format(value) == "$655.94")
    } else {
      Issue.record("provincial_credits did not evaluate in 2026")
    }
  }
}

/// The library's declared breakdowns (`## parts:` lines) add up in every jurisdiction and year, for households that
/// reach each part: a chart of them is never the `chart-parts` error a formula change would make it.
@Suite struct LibraryBreakdownTests {
  static let households = [
    "employment_income: $85,000",
    "employment_income: $250,000, eligible_dividends: $10,000, capital_gains: $20,000",
    "age: 70, pension_income: $30,000, interest: $5,000",
    "age: 72, pension_income: $120,000, other_dividends: $8,000",
    "employment_income: $14,000",
  ]

  @Test(arguments: StandardLibraryTests.years)
  func everyPartsLineAddsUpForEveryProvince(year: Int) throws {
    let session = Session(trees: StandardLibrary.trees(), year: year, firstInputFileID: 1)
    let declared = session.program.formulas.filter { $0.documentation.parts != nil }.map(\.name)
    #expect(declared.contains("return_summary"))
    for name in declared {
      for province in StandardLibraryTests.provinces {
        for household in Self.households {
          let call = "\(name)(\(household), province: \(province))"
          switch session.breakdown(call) {
          case .failure(let list): Issue.record("\(call) in \(year): \(list.diagnostics.map(\.message))")
          case .success(let breakdown):
            let sum = try breakdown.parts.reduce(ExactDecimal.zero) { try $0 + $1.amount }
            #expect(sum == breakdown.whole, "\(call) in \(year)")
          }
        }
      }
    }
  }

  /// The return summary's chart: where the income received goes, in the words of its lines.
  @Test func theReturnSummarysPartsAreItsLines() throws {
    let session = Session(trees: StandardLibrary.trees(), year: 2025, firstInputFileID: 1)
    let breakdown = try session.breakdown("return_summary(employment_income: $85,000, province: QC)").get()
    #expect(breakdown.wholeLabel == "Income received")
    #expect(breakdown.whole == ExactDecimal(85000))
    #expect(
      Set(breakdown.parts.map(\.label)) == [
        "After-tax income", "Federal tax", "Provincial tax", "CPP or QPP", "EI premiums", "QPIP premiums",
      ])
    func line(_ name: String) throws -> ExactDecimal {
      let text = #"return_summary(employment_income: $85,000, province: QC, line: "\#(name)")"#
      guard case .money(let amount) = try session.explain(text).get().0 else { throw Failure("\(name) is not Money") }
      return amount
    }
    let federal = breakdown.parts.first { $0.label == "Federal tax" }?.amount
    #expect(federal == (try line("federal_tax") - line("quebec_abatement")))
    #expect(breakdown.parts.first { $0.label == "After-tax income" }?.amount == (try line("after_tax_income")))
  }

  struct Failure: Error { var message: String; init(_ message: String) { self.message = message } }
}
