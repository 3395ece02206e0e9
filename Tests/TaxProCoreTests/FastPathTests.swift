import Testing

@testable import TaxProCore
import TestSupport

/// The small-value fast paths (decimal arithmetic in 64 bits, money printed digit by digit, bracket functions without
/// portions) hold to the same results as the general code, down to the representation, and to the independent
/// reference decimal.
@Suite struct FastPathTests {
  /// A decimal likely to take the fast paths: up to 19 digits, exponents around those of money and rates, and now and
  /// then a large or tiny one that must not.
  static func randomDecimal(_ generator: inout SeededGenerator) -> ExactDecimal {
    let digits = Int.random(in: 1...19, using: &generator)
    var magnitude: UInt128 = 0
    for _ in 0..<digits { magnitude = magnitude * 10 + UInt128(Int.random(in: 0...9, using: &generator)) }
    // Now and then a magnitude of up to 33 digits (valid decimals stay below 10^34 and 10^100).
    if Int.random(in: 0..<20, using: &generator) == 0 { magnitude *= 100_000_000_000_000 }
    let exponent: Int
    switch Int.random(in: 0..<10, using: &generator) {
    case 0: exponent = Int.random(in: -99...60, using: &generator)
    case 1: exponent = Int.random(in: -62...(-58), using: &generator)
    default: exponent = Int.random(in: -6...2, using: &generator)
    }
    return ExactDecimal(negative: Bool.random(using: &generator), magnitude: magnitude, exponent: exponent)
  }

  static func same(_ a: ExactDecimal, _ b: ExactDecimal) -> Bool {
    a.negative == b.negative && a.magnitude == b.magnitude && a.exponent == b.exponent
  }

  static func reference(_ value: ExactDecimal) -> ReferenceDecimal {
    let (digits, exponent) = value.digitsAndExponent
    return ReferenceDecimal(negative: value.isNegative, digits: digits.map(Int.init), exponent: exponent)
  }

  @Test func sumsProductsRoundingAndComparisonsMatchTheGeneralPaths() {
    var generator = SeededGenerator(seed: 64)
    for _ in 0..<20_000 {
      let x = Self.randomDecimal(&generator)
      let y = Self.randomDecimal(&generator)
      let sum = Result { () throws(ArithmeticError) in try x.adding(y) }
      let generalSum = Result { () throws(ArithmeticError) in try x.addingGeneral(y) }
      switch (sum, generalSum) {
      case (.success(let a), .success(let b)): #expect(Self.same(a, b), "\(x) + \(y)")
      case (.failure(let a), .failure(let b)): #expect(a == b)
      default: Issue.record("\(x) + \(y): one path failed, the other did not")
      }
      let product = Result { () throws(ArithmeticError) in try x.multiplied(by: y) }
      let generalProduct = Result { () throws(ArithmeticError) in try x.multipliedGeneral(by: y) }
      switch (product, generalProduct) {
      case (.success(let a), .success(let b)): #expect(Self.same(a, b), "\(x) * \(y)")
      case (.failure(let a), .failure(let b)): #expect(a == b)
      default: Issue.record("\(x) * \(y): one path failed, the other did not")
      }
      let places = Int.random(in: -3...8, using: &generator)
      for mode in [RoundingMode.halfAwayFromZero, .halfEven, .towardZero, .towardPositiveInfinity, .towardNegativeInfinity] {
        #expect(Self.same(x.rounded(places: places, mode), x.roundedGeneral(places: places, mode)), "\(x) \(places)")
      }
      let order = ExactDecimal.compare(x, y)
      let referenceOrder = Self.referenceCompare(Self.reference(x), Self.reference(y))
      #expect(order == referenceOrder, "compare \(x) \(y)")
    }
  }

  /// Orders two reference decimals through their difference's sign.
  static func referenceCompare(_ a: ReferenceDecimal, _ b: ReferenceDecimal) -> Int {
    let difference = a + -b
    return difference.isZero ? 0 : (difference.negative ? -1 : 1)
  }

  @Test func moneyIsPrintedLikeTheGeneralFormatter() {
    var generator = SeededGenerator(seed: 2)
    var values: [ExactDecimal] = [
      .zero, ExactDecimal(significand: 5, exponent: -3), ExactDecimal(significand: -5, exponent: -3),
      ExactDecimal(significand: 4, exponent: -3), ExactDecimal(significand: 999_999, exponent: -2),
      ExactDecimal(significand: 100_000, exponent: 0), ExactDecimal(significand: 1, exponent: 15),
      ExactDecimal(significand: 18_446_744_073_709_551, exponent: 0), ExactDecimal(significand: 1, exponent: 17),
      ExactDecimal(significand: -123_456_789, exponent: -2), ExactDecimal(significand: 1, exponent: 40),
    ]
    for _ in 0..<20_000 { values.append(Self.randomDecimal(&generator)) }
    for value in values {
      #expect(ValueFormatter.money(value) == ValueFormatter.moneyGeneral(value), "\(value)")
      var bytes: [UInt8] = []
      ValueFormatter.write(.money(value), to: &bytes)
      #expect(String(decoding: bytes, as: UTF8.self) == ValueFormatter.moneyGeneral(value), "\(value)")
    }
  }

  @Test func bracketFunctionsWithoutPortionsMatchTheFullComputation() throws {
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<2_000 {
      var threshold = ExactDecimal.zero
      var rows: [BracketRowValue] = []
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        let rate = ExactDecimal(significand: Int.random(in: 0...3000, using: &generator), exponent: -4)
        rows.append(BracketRowValue(threshold: threshold, rate: rate))
        threshold = try threshold.adding(ExactDecimal(significand: Int.random(in: 1...9_000_000, using: &generator), exponent: -2))
      }
      let table = BracketTable(rows: rows)
      let amount = ExactDecimal(significand: Int.random(in: -100_000...60_000_000, using: &generator), exponent: -2)
      let full = try BracketMath.compute(table, amount: amount)
      #expect(Self.same(try BracketMath.value(of: .tax, table, amount: amount), full.total))
      #expect(Self.same(try BracketMath.value(of: .marginalRate, table, amount: amount), full.marginalRate))
      #expect(Self.same(try BracketMath.value(of: .averageRate, table, amount: amount), full.averageRate))
    }
  }
}
