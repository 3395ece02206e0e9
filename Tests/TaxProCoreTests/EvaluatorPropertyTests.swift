import Testing

@testable import TaxProCore
import TestSupport

/// Random arithmetic typed as source text, run through the parser, checker and evaluator, compared with the independent
/// `ReferenceDecimal`.
struct EvaluatorPropertyTests {
  /// Evaluates source text as one expression against an empty program.
  static func evaluate(_ text: String) throws -> Value {
    let session = Session(trees: [], firstInputFileID: 1)
    switch session.submit(text) {
    case .value(let value): return value
    case .failed(let diagnostics):
      Issue.record("\(text): \(DiagnosticRenderer(sources: session.sources).render(diagnostics))")
      throw DiagnosticList(diagnostics)
    default:
      throw DiagnosticList([])
    }
  }

  /// A random expression over small numbers and its exact value.
  static func expression(_ generator: inout SeededGenerator, depth: Int) -> (String, ReferenceDecimal) {
    if depth == 0 || Int.random(in: 0..<4, using: &generator) == 0 {
      return DecimalPropertyTests.randomPair(&generator)
    }
    let (leftText, left) = expression(&generator, depth: depth - 1)
    let (rightText, right) = expression(&generator, depth: depth - 1)
    switch Int.random(in: 0..<3, using: &generator) {
    case 0: return ("(\(leftText)) + (\(rightText))", left + right)
    case 1: return ("(\(leftText)) - (\(rightText))", left + -right)
    default: return ("(\(leftText)) * (\(rightText))", left * right)
    }
  }

  @Test func randomNumberArithmeticMatchesTheReference() throws {
    var generator = SeededGenerator(seed: 7)
    var compared = 0
    for _ in 0..<400 {
      let (text, expected) = Self.expression(&generator, depth: 2)
      // Stay where results are exact (34 digits).
      guard expected.digits.count <= 34 else { continue }
      guard case .number(let value) = try Self.evaluate(text) else {
        Issue.record("\(text) is not a Number")
        continue
      }
      #expect(value.description == expected.description, "\(text)")
      compared += 1
    }
    #expect(compared > 300)
  }

  @Test func moneyTimesRateRoundsOnceToTheCent() throws {
    var generator = SeededGenerator(seed: 13)
    for _ in 0..<500 {
      let cents = Int.random(in: -10_000_000...10_000_000, using: &generator)
      let basisPoints = Int.random(in: 0...10_000, using: &generator)
      let amount = ReferenceDecimal(negative: cents < 0, digits: String(abs(cents)).compactMap(\.wholeNumberValue), exponent: -2)
      let rate = ReferenceDecimal(negative: false, digits: String(basisPoints).compactMap(\.wholeNumberValue), exponent: -4)
      let product = amount * rate
      // Round half away from zero to cents by hand.
      let exact = try #require(ExactDecimal(product.description))
      let expected = exact.rounded(places: 2, .halfAwayFromZero)
      let percent = ExactDecimal(significand: basisPoints, exponent: -2).description
      let text = "\(cents < 0 ? "-" : "")$\(ExactDecimal(significand: abs(cents), exponent: -2)) * \(percent)%"
      guard case .money(let value) = try Self.evaluate(text) else {
        Issue.record("\(text) is not Money")
        continue
      }
      #expect(value == expected, "\(text)")
    }
  }

  @Test func printing() throws {
    let cases: [(String, String)] = [
      ("$85,000", "$85,000.00"), ("-$12", "-$12.00"), ("$0.5", "$0.50"), ("$1,234,567.89", "$1,234,567.89"),
      ("13%", "13%"), ("5.05%", "5.05%"), ("15.0198%", "15.0198%"), ("1 / 3 * 100%", "33.3333…%"),
      ("12.34567%", "12.3456…%"), ("-2 / 3 * 1%", "-0.6666…%"), ("8^(1/3) * 1%", "≈ 2%"),
      ("3", "3"), ("2.50", "2.5"), ("1/3", "0.333333333333…"), ("2/3", "0.666666666666…"), ("true", "true"),
      ("\"Ontario\"", "Ontario"), ("1_000_000 * 1_000_000 * 1_000", "1000000000000000"), ("0.000001", "0.000001"),
      ("12345678901234", "12345678901234"), ("1e40", "1e40"), ("1/3*3", "0.999999999999…"), ("sqrt(2.25)", "1.5"),
      ("0.0000001", "1e-7"), ("-0.5", "-0.5"),
    ]
    for (input, expected) in cases {
      #expect(ValueFormatter.format(try Self.evaluate(input)) == expected, "\(input)")
    }
  }
}
