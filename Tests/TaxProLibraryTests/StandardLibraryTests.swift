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
