import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `CompiledExpression` (what `taxpro eval --csv` runs) gives what the tree-walking evaluator gives — the same value,
/// to the decimal's representation, or the same diagnostic — on the standard library's formulas and on files that
/// reach every kind of node and every run-time error, row after row, under any step or depth limit and when cancelled.
@Suite struct CompiledExpressionTests {
  static let locals: [(name: String, type: TaxType)] = [
    ("income", .money), ("province", .province), ("rate", .rate), ("n", .number), ("flag", .bool), ("name", .text),
  ]

  /// Constants, a bracket table literal, defaults using earlier parameters, ranges, `let`s, conditionals, a chain of
  /// calls that doubles its steps at every level, and a formula with an error.
  static let extra = """
    let base = $1,000
    let steep = brackets {
      $0 -> 10%
      $1,000 -> 20.5%
    }

    formula edge(x: Money in $0..$10,000,000 = base, y: Number in 1..100 = 2, z: Money = x * y): Money =
      let a = x * y
      let b = if a > $100 then a / y else -a
      b + 1% + tax(steep, z)

    formula d0(x: Number): Number = x + 1
    formula d1(x: Number): Number = d0(x) + d0(x)
    formula d2(x: Number): Number = d1(x) + d1(x)
    formula d3(x: Number): Number = d2(x) + d2(x)
    formula d4(x: Number): Number = d3(x) + d3(x)
    formula d5(x: Number): Number = d4(x) + d4(x)
    formula d6(x: Number): Number = d5(x) + d5(x)
    formula d7(x: Number): Number = d6(x) + d6(x)
    formula d8(x: Number): Number = d7(x) + d7(x)
    formula d9(x: Number): Number = d8(x) + d8(x)
    formula d10(x: Number): Number = d9(x) + d9(x)

    formula broken(x: Money): Money = x + 1
    """

  static let expressions = [
    "tax(province.income_tax, income) + tax(federal.income_tax, income)",
    "tax(ON.income_tax, income) - tax(province.income_tax, income * n)",
    "marginal_rate(province.income_tax, income) + average_rate(federal.income_tax, income)",
    "combined_tax(income, province)",
    "take_home_pay(income, province)",
    "rrsp_refund(income / 10, income, province)",
    "if flag then provincial_tax(income, province) else federal_tax(income)",
    "dividend_tax(income, $50,000, province) + capital_gains_tax(income) + ontario_health_premium(income)",
    "oas_recovery_tax(income, n)",
    "combined_average_rate(income, province) * rate",
    "income * rate + n * $1 - income / n",
    "income + rate - (income - rate) + -income * -n",
    "min(income, $50,000) + max(income * rate, $1) + clamp(income, $0, $1,000) + round(income * rate, -2)",
    "abs(income) + floor(income) - ceil(income) + round(income, n)",
    "not flag and income > $10,000 or province == ON",
    "if income >= $0 and (rate < 10% or n != 3) then province.name else name",
    "federal.name",
    "tax(brackets { $0 -> rate\n income -> 2 * rate }, income * 2)",
    "tax(steep, income) + base * n + edge(income) + edge(income, n) + edge(income, 3, income)",
    "d10(n)",
    "broken(income)",
    "income * n * n * n * n * n",
  ]

  static func session(year: Int? = nil, limits: EvaluationLimits = EvaluationLimits()) -> Session {
    let extraTree = Parser.parse(SourceFile(id: FileID(900), name: "extra.tax", text: extra), mode: .file)
    return Session(
      trees: StandardLibrary.trees() + [extraTree], year: year, firstInputFileID: 1_000, limits: limits)
  }

  static func randomRow(_ generator: inout SeededGenerator, provinces: [String]) -> [Value] {
    let cents: Int
    switch Int.random(in: 0..<10, using: &generator) {
    case 0: cents = 0
    case 1: cents = -Int.random(in: 1...10_000_000, using: &generator)
    case 2: cents = Int.random(in: 1...Int.max / 2, using: &generator)
    default: cents = Int.random(in: 0...50_000_000, using: &generator)
    }
    let income = ExactDecimal(significand: cents, exponent: -2)
    let rate = ExactDecimal(significand: Int.random(in: -100...6_000, using: &generator), exponent: -4)
    let n: ExactDecimal
    switch Int.random(in: 0..<6, using: &generator) {
    case 0: n = .zero
    case 1: n = ExactDecimal(significand: Int.random(in: 1...9, using: &generator), exponent: 25)
    case 2: n = ExactDecimal(significand: -Int.random(in: 1...200, using: &generator), exponent: -1)
    default: n = ExactDecimal(Int.random(in: 1...140, using: &generator))
    }
    return [
      .money(income), .province(provinces[Int.random(in: 0..<provinces.count, using: &generator)]), .rate(rate),
      .number(n), .bool(Bool.random(using: &generator)), .text(["Ann", "Bo", ""][Int.random(in: 0..<3, using: &generator)]),
    ]
  }

  /// Equal values of the same type with decimals of the same representation, or equal diagnostics.
  static func same(_ a: Result<Value, RuntimeError>, _ b: Result<Value, RuntimeError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)):
      guard x == y, x.type == y.type else { return false }
      if let p = x.decimal, let q = y.decimal {
        return p.isNegative == q.isNegative && p.magnitude == q.magnitude && p.exponent == q.exponent
      }
      return ValueFormatter.format(x) == ValueFormatter.format(y)
    case (.failure(let x), .failure(let y)):
      return x.diagnostic == y.diagnostic
    default:
      return false
    }
  }

  static func compile(_ session: Session, _ text: String) throws -> TypedExpression {
    switch session.compile(text, name: "<expr>", locals: locals) {
    case .success(let typed): return typed
    case .failure(let list):
      Issue.record("\(text): \(DiagnosticRenderer(sources: session.sources).render(list.diagnostics))")
      throw list
    }
  }

  static func run(_ evaluator: Evaluator, _ typed: TypedExpression, _ row: [Value]) -> Result<Value, RuntimeError> {
    Result { () throws(RuntimeError) in try evaluator.evaluate(typed, locals: row) }
  }

  static func run(_ compiled: CompiledExpression, _ row: [Value]) -> Result<Value, RuntimeError> {
    Result { () throws(RuntimeError) in try compiled.evaluate(locals: row) }
  }

  @Test func rowAfterRowTheCompiledExpressionGivesTheEvaluatorsResults() throws {
    for year in [nil, 2025, 2024] {
      let session = Self.session(year: year)
      let provinces = session.program.provinceCodes
      var generator = SeededGenerator(seed: 11)
      var failures = 0
      for text in Self.expressions {
        let typed = try Self.compile(session, text)
        // Each side keeps its evaluator for all rows, so parameters are read once and cached on both.
        let walker = Evaluator(program: session.program, year: session.year, limits: session.limits)
        let compiled = CompiledExpression(
          typed, evaluator: Evaluator(program: session.program, year: session.year, limits: session.limits))
        for _ in 0..<400 {
          let row = Self.randomRow(&generator, provinces: provinces)
          let expected = Self.run(walker, typed, row)
          let result = Self.run(compiled, row)
          #expect(Self.same(result, expected), "\(year ?? 0) \(text) with \(row): \(result) against \(expected)")
          if case .failure = expected { failures += 1 }
        }
      }
      // The rows reach errors too: division by zero, overflow, ranges, figures missing in 2024, broken formulas.
      #expect(failures > 1_000)
    }
  }

  @Test func everyStepAndDepthLimitStopsBothAtTheSameNode() throws {
    let texts = [
      "tax(province.income_tax, income) + tax(federal.income_tax, income)", "combined_tax(income, province)",
      "rrsp_refund(income / 10, income, province)", "tax(steep, income) + edge(income, n)",
      "if flag then province.name else name", "d3(n)",
    ]
    var generator = SeededGenerator(seed: 3)
    let session = Self.session()
    for text in texts {
      let row = Self.randomRow(&generator, provinces: session.program.provinceCodes).enumerated().map { index, value in
        // A row that evaluates without error.
        index == 0 ? .money(ExactDecimal(significand: 8_500_000, exponent: -2)) : (index == 3 ? .number(ExactDecimal(5)) : value)
      }
      let typed = try Self.compile(session, text)
      for steps in 1...400 {
        let limits = EvaluationLimits(steps: steps, depth: steps % 7 == 0 ? steps / 7 : 1_500)
        let walker = Evaluator(program: session.program, year: session.year, limits: limits)
        let compiled = CompiledExpression(
          typed, evaluator: Evaluator(program: session.program, year: session.year, limits: limits))
        // Twice: the first row reads the parameters' definitions (steps), the second finds them cached.
        for _ in 0..<2 {
          let expected = Self.run(walker, typed, row)
          let result = Self.run(compiled, row)
          #expect(Self.same(result, expected), "\(text) within \(steps) steps: \(result) against \(expected)")
        }
      }
    }
  }

  @Test func cancellingStopsBothAtTheSameNode() throws {
    let session = Self.session()
    let typed = try Self.compile(session, "d10(n) * $1 + tax(province.income_tax, income)")
    var generator = SeededGenerator(seed: 1)
    let row = Self.randomRow(&generator, provinces: session.program.provinceCodes)
    let walker = Evaluator(program: session.program, year: session.year)
    let evaluator = Evaluator(program: session.program, year: session.year)
    let compiled = CompiledExpression(typed, evaluator: evaluator)
    for cancelled in [false, true] {
      walker.isCancelled = { cancelled }
      evaluator.isCancelled = { cancelled }
      let expected = Self.run(walker, typed, row)
      let result = Self.run(compiled, row)
      #expect(Self.same(result, expected), "\(result) against \(expected)")
      if cancelled, case .failure(let error) = result { #expect(error.diagnostic.code == .cancelled) }
    }
  }

  @Test func everyTableOfTheLibraryIsPreparedAndAgreesWithBracketMath() throws {
    for year in [2025, 2026] {
      let session = Self.session(year: year)
      let evaluator = Evaluator(program: session.program, year: year)
      var generator = SeededGenerator(seed: UInt64(year))
      for code in ["federal"] + session.program.provinceCodes {
        guard case .brackets(let table) = try evaluator.parameter(code, "income_tax", at: Span(file: FileID(0), start: 0, end: 0))
        else {
          Issue.record("\(code) has no income_tax table")
          continue
        }
        let prepared = try #require(PreparedBrackets(table), "\(code) \(year)")
        var amounts: [Int] = [0, -1, 1]
        for row in table.rows {
          let cents = try #require(PreparedBrackets.cents(row.threshold))
          amounts += [Int(cents) - 1, Int(cents), Int(cents) + 1]
        }
        for _ in 0..<5_000 { amounts.append(Int.random(in: 0...100_000_000, using: &generator)) }
        for cents in amounts {
          let amount = ExactDecimal(significand: cents, exponent: -2)
          let total = try #require(prepared.tax(amount))
          let general = try BracketMath.value(of: .tax, table, amount: amount)
          #expect(
            total.isNegative == general.isNegative && total.magnitude == general.magnitude
              && total.exponent == general.exponent, "\(code) \(year) \(amount)")
        }
      }
    }
  }
}
