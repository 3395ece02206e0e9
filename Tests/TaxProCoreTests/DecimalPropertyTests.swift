import Testing

@testable import TaxProCore
import TestSupport

/// An independent decimal: a sign, base-10 digits (most significant first) and an exponent, with schoolbook
/// arithmetic on digit arrays. It shares nothing with `ExactDecimal` (which works on 128-bit binary integers), so
/// agreement between the two is evidence, not tautology.
struct ReferenceDecimal: Equatable, CustomStringConvertible {
  var negative: Bool
  var digits: [Int]
  var exponent: Int

  init(negative: Bool, digits: [Int], exponent: Int) {
    var trimmed = Array(digits.drop { $0 == 0 })
    var exponent = exponent
    while let last = trimmed.last, last == 0 {
      trimmed.removeLast()
      exponent += 1
    }
    self.negative = trimmed.isEmpty ? false : negative
    self.digits = trimmed
    self.exponent = trimmed.isEmpty ? 0 : exponent
  }

  var isZero: Bool { digits.isEmpty }

  var description: String {
    if digits.isEmpty { return "0" }
    let text = digits.map(String.init).joined()
    if exponent >= 0 { return (negative ? "-" : "") + text + String(repeating: "0", count: exponent) }
    let fraction = -exponent
    let padded = fraction >= text.count ? String(repeating: "0", count: fraction - text.count + 1) + text : text
    let split = padded.index(padded.endIndex, offsetBy: -fraction)
    return (negative ? "-" : "") + padded[..<split] + "." + padded[split...]
  }

  /// Digits aligned to a common exponent.
  static func align(_ a: ReferenceDecimal, _ b: ReferenceDecimal) -> ([Int], [Int], Int) {
    let exponent = min(a.exponent, b.exponent)
    let x = a.digits + Array(repeating: 0, count: a.exponent - exponent)
    let y = b.digits + Array(repeating: 0, count: b.exponent - exponent)
    let width = max(x.count, y.count)
    return (Array(repeating: 0, count: width - x.count) + x, Array(repeating: 0, count: width - y.count) + y, exponent)
  }

  static func compareMagnitude(_ x: [Int], _ y: [Int]) -> Int {
    for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
    return 0
  }

  static func addMagnitudes(_ x: [Int], _ y: [Int]) -> [Int] {
    var result = [Int](repeating: 0, count: x.count + 1)
    var carry = 0
    for index in stride(from: x.count - 1, through: 0, by: -1) {
      let sum = x[index] + y[index] + carry
      result[index + 1] = sum % 10
      carry = sum / 10
    }
    result[0] = carry
    return result
  }

  /// x − y for x ≥ y.
  static func subtractMagnitudes(_ x: [Int], _ y: [Int]) -> [Int] {
    var result = [Int](repeating: 0, count: x.count)
    var borrow = 0
    for index in stride(from: x.count - 1, through: 0, by: -1) {
      var difference = x[index] - y[index] - borrow
      borrow = 0
      if difference < 0 {
        difference += 10
        borrow = 1
      }
      result[index] = difference
    }
    return result
  }

  static func + (a: ReferenceDecimal, b: ReferenceDecimal) -> ReferenceDecimal {
    let (x, y, exponent) = align(a, b)
    if a.negative == b.negative {
      return ReferenceDecimal(negative: a.negative, digits: addMagnitudes(x, y), exponent: exponent)
    }
    let order = compareMagnitude(x, y)
    if order == 0 { return ReferenceDecimal(negative: false, digits: [], exponent: 0) }
    return order > 0
      ? ReferenceDecimal(negative: a.negative, digits: subtractMagnitudes(x, y), exponent: exponent)
      : ReferenceDecimal(negative: b.negative, digits: subtractMagnitudes(y, x), exponent: exponent)
  }

  static prefix func - (a: ReferenceDecimal) -> ReferenceDecimal {
    ReferenceDecimal(negative: !a.negative, digits: a.digits, exponent: a.exponent)
  }

  static func * (a: ReferenceDecimal, b: ReferenceDecimal) -> ReferenceDecimal {
    if a.isZero || b.isZero { return ReferenceDecimal(negative: false, digits: [], exponent: 0) }
    var result = [Int](repeating: 0, count: a.digits.count + b.digits.count)
    for (i, p) in a.digits.reversed().enumerated() {
      for (j, q) in b.digits.reversed().enumerated() { result[i + j] += p * q }
    }
    var carry = 0
    for index in result.indices {
      let total = result[index] + carry
      result[index] = total % 10
      carry = total / 10
    }
    while carry > 0 {
      result.append(carry % 10)
      carry /= 10
    }
    return ReferenceDecimal(
      negative: a.negative != b.negative, digits: result.reversed(), exponent: a.exponent + b.exponent)
  }

  /// The quotient rounded half to even at `precision` significant digits, by long division.
  static func divide(_ a: ReferenceDecimal, _ b: ReferenceDecimal, precision: Int) -> ReferenceDecimal {
    if a.isZero { return a }
    // Long division of integers: a.digits × 10^k by b.digits, producing precision + 1 digits plus a sticky flag.
    var remainder: [Int] = []
    var quotient: [Int] = []
    var consumed = 0
    var extraZeros = 0
    func less(_ x: [Int], _ y: [Int]) -> Bool {
      let x = Array(x.drop { $0 == 0 })
      let y = Array(y.drop { $0 == 0 })
      if x.count != y.count { return x.count < y.count }
      return compareMagnitude(x, y) < 0
    }
    func subtract(_ x: [Int], _ y: [Int]) -> [Int] {
      let width = max(x.count, y.count)
      let padX = Array(repeating: 0, count: width - x.count) + x
      let padY = Array(repeating: 0, count: width - y.count) + y
      return Array(subtractMagnitudes(padX, padY).drop { $0 == 0 })
    }
    var significant = 0
    while significant < precision + 1 {
      if consumed < a.digits.count {
        remainder.append(a.digits[consumed])
        consumed += 1
      } else {
        remainder.append(0)
        extraZeros += 1
      }
      remainder = Array(remainder.drop { $0 == 0 })
      var digit = 0
      while !less(remainder, b.digits) {
        remainder = subtract(remainder, b.digits)
        digit += 1
      }
      quotient.append(digit)
      if digit != 0 || significant > 0 { significant += 1 }
    }
    let sticky = !remainder.isEmpty || consumed < a.digits.count && a.digits[consumed...].contains { $0 != 0 }
    // Integer quotient digits correspond to a.digits[0..<consumed] + extraZeros zeros, divided by b.digits.
    let exponent = a.exponent - b.exponent + (a.digits.count - consumed) - extraZeros
    var kept = Array(quotient.drop { $0 == 0 })
    let guardDigit = kept.removeLast()
    var rounded = ReferenceDecimal(negative: false, digits: kept, exponent: exponent + 1)
    let roundUp = guardDigit > 5 || (guardDigit == 5 && (sticky || (kept.last ?? 0) % 2 == 1))
    if roundUp { rounded = rounded + ReferenceDecimal(negative: false, digits: [1], exponent: exponent + 1) }
    rounded.negative = a.negative != b.negative && !rounded.isZero
    return rounded
  }
}

struct DecimalPropertyTests {
  static func randomPair(_ generator: inout SeededGenerator) -> (String, ReferenceDecimal) {
    let length = Int.random(in: 1...15, using: &generator)
    var digits = (0..<length).map { _ in Int.random(in: 0...9, using: &generator) }
    if digits.allSatisfy({ $0 == 0 }) { digits[0] = Int.random(in: 1...9, using: &generator) }
    let point = Int.random(in: 0...min(length, 8), using: &generator)
    let negative = Bool.random(using: &generator)
    var text = digits.map(String.init).joined()
    if point > 0 {
      text.insert(".", at: text.index(text.endIndex, offsetBy: -point))
      if text.hasPrefix(".") { text = "0" + text }
    }
    return ((negative ? "-" : "") + text, ReferenceDecimal(negative: negative, digits: digits, exponent: -point))
  }

  @Test func sumsDifferencesAndProductsAreExact() throws {
    var generator = SeededGenerator(seed: 2025)
    for _ in 0..<3000 {
      let (aText, a) = Self.randomPair(&generator)
      let (bText, b) = Self.randomPair(&generator)
      let x = try #require(ExactDecimal(aText))
      let y = try #require(ExactDecimal(bText))
      #expect(try x.adding(y).description == (a + b).description, "\(aText) + \(bText)")
      #expect(try x.subtracting(y).description == (a + -b).description, "\(aText) - \(bText)")
      #expect(try x.multiplied(by: y).description == (a * b).description, "\(aText) * \(bText)")
    }
  }

  @Test func quotientsAreCorrectlyRoundedTo34Digits() throws {
    var generator = SeededGenerator(seed: 34)
    for _ in 0..<1500 {
      let (aText, a) = Self.randomPair(&generator)
      let (bText, b) = Self.randomPair(&generator)
      let x = try #require(ExactDecimal(aText))
      let y = try #require(ExactDecimal(bText))
      let expected = ReferenceDecimal.divide(a, b, precision: 34)
      #expect(try x.divided(by: y).description == expected.description, "\(aText) / \(bText)")
    }
  }

  @Test func longProductsRoundLikeTheReference() throws {
    // Products of two 34-digit quotients need the 256-bit path.
    let third = try ExactDecimal.one.divided(by: ExactDecimal(3))
    let seventh = try ExactDecimal.one.divided(by: ExactDecimal(7))
    let product = try third.multiplied(by: seventh)
    let a = ReferenceDecimal(negative: false, digits: Array(repeating: 3, count: 34), exponent: -34)
    let b = ReferenceDecimal(
      negative: false, digits: seventh.digitsAndExponent.digits.map(Int.init), exponent: seventh.digitsAndExponent.exponent)
    let exact = a * b
    // Round the reference's exact product to 34 digits, half to even.
    let digits = exact.digits
    let kept = Array(digits.prefix(34))
    let rest = Array(digits.dropFirst(34))
    var rounded = ReferenceDecimal(negative: false, digits: kept, exponent: exact.exponent + rest.count)
    let first = rest.first ?? 0
    let tail = rest.dropFirst().contains { $0 != 0 }
    if first > 5 || (first == 5 && (tail || (kept.last ?? 0) % 2 == 1)) {
      rounded = rounded + ReferenceDecimal(negative: false, digits: [1], exponent: exact.exponent + rest.count)
    }
    #expect(product.description == rounded.description)
  }

  /// A Money quotient is the exact quotient rounded once to the cent, half away from zero: with the result r and the
  /// exact products of the reference, (|r| − ½¢)·|b| ≤ |a| < (|r| + ½¢)·|b|.
  @Test func moneyQuotientsRoundOnceFromTheExactQuotient() throws {
    var generator = SeededGenerator(seed: 73)
    let halfCent = ReferenceDecimal(negative: false, digits: [5], exponent: -3)
    func reference(_ value: ExactDecimal) -> ReferenceDecimal {
      let (digits, exponent) = value.digitsAndExponent
      return ReferenceDecimal(negative: value.isNegative, digits: digits.map(Int.init), exponent: exponent)
    }
    func atMost(_ x: ReferenceDecimal, _ y: ReferenceDecimal) -> Bool { !(y + -x).negative }
    for _ in 0..<3000 {
      let (aText, a) = Self.randomPair(&generator)
      let (bText, b) = Self.randomPair(&generator)
      let x = try #require(ExactDecimal(aText))
      let y = try #require(ExactDecimal(bText))
      let result = try x.divided(by: y, places: 2)
      #expect(result.rounded(places: 2, .towardZero).description == result.description, "\(aText) / \(bText)")
      let r = reference(result.absoluteValue)
      let absA = ReferenceDecimal(negative: false, digits: a.digits, exponent: a.exponent)
      let absB = ReferenceDecimal(negative: false, digits: b.digits, exponent: b.exponent)
      let low = (r + -halfCent) * absB
      let high = (r + halfCent) * absB
      #expect(atMost(low, absA) && atMost(absA, high) && absA != high, "\(aText) / \(bText) = \(result)")
      if !result.isZero { #expect(result.isNegative == (a.negative != b.negative), "\(aText) / \(bText)") }
    }
    // The case that rounded twice: 0.734999… became 0.7350000… in 34 digits, then $0.74.
    let amount = try #require(ExactDecimal("729823.48"))
    let divisor = try #require(ExactDecimal("992957.1156462585034013605442176871"))
    #expect(try amount.divided(by: divisor, places: 2).description == "0.73")
    #expect(try amount.divided(by: divisor).rounded(places: 2, .halfAwayFromZero).description == "0.74")
  }

  /// A literal is exact when only zeros were left out: 10^41 is, 37 significant digits are not.
  @Test func literalsAreExactUnlessDigitsAreLost() throws {
    #expect(try ExactDecimal.parse(digits: Array(("1" + String(repeating: "0", count: 41)).utf8)).isExact)
    #expect(try ExactDecimal.parse(digits: Array((String(repeating: "9", count: 34) + "000000").utf8)).isExact)
    #expect(try ExactDecimal.parse(digits: Array(("0." + String(repeating: "0", count: 50) + "1").utf8)).isExact)
    #expect(try !ExactDecimal.parse(digits: Array("1234567890123456789012345678901234567000".utf8)).isExact)
    #expect(try !ExactDecimal.parse(digits: Array(("1" + String(repeating: "0", count: 40) + "1").utf8)).isExact)
    #expect(try !ExactDecimal.parse(digits: Array(("0." + String(repeating: "3", count: 35)).utf8)).isExact)
  }

  @Test func moneyRoundsHalfAwayFromZero() throws {
    let cases: [(String, String)] = [
      ("0.005", "0.01"), ("-0.005", "-0.01"), ("0.004999", "0"), ("2.675", "2.68"), ("-2.675", "-2.68"),
      ("1234.565", "1234.57"), ("0.015", "0.02"), ("0.025", "0.03"),
    ]
    for (input, expected) in cases {
      let value = try #require(ExactDecimal(input))
      #expect(value.rounded(places: 2, .halfAwayFromZero).description == expected, "\(input)")
    }
  }

  @Test func overflowAndDivisionByZeroAreErrors() throws {
    let big = try #require(ExactDecimal("1" + String(repeating: "0", count: 60)))
    #expect(throws: ArithmeticError.overflow) { try big.multiplied(by: big) }
    #expect(throws: ArithmeticError.divisionByZero) { try ExactDecimal.one.divided(by: .zero) }
    #expect(throws: ArithmeticError.overflow) {
      try ExactDecimal.parse(digits: Array(("1" + String(repeating: "0", count: 10_000)).utf8))
    }
  }
}
