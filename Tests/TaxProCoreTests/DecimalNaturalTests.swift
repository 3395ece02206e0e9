import Testing

@testable import TaxProCore
import TestSupport

/// The wide integers under `sqrt`, `ln`, `exp` and powers, held to Swift's own 128-bit arithmetic where the values fit
/// (a reference that shares no code with them), and to the identities that define a quotient and a root where not.
/// The end-to-end comparison with Python's `decimal` is in tests/cli/test_calculator.py.
@Suite struct DecimalNaturalTests {
  static func random(_ generator: inout SeededGenerator, digits: Int) -> UInt128 {
    var value: UInt128 = 0
    for _ in 0..<Int.random(in: 1...digits, using: &generator) {
      value = value * 10 + UInt128(Int.random(in: 0...9, using: &generator))
    }
    return value
  }

  @Test func arithmeticAgreesWithUInt128() {
    var generator = SeededGenerator(seed: 10)
    for _ in 0..<3000 {
      let a = Self.random(&generator, digits: 38)
      let b = Self.random(&generator, digits: 19)
      let c = Self.random(&generator, digits: 19)
      let (x, y, z) = (DecimalNatural(a), DecimalNatural(b), DecimalNatural(c))
      #expect((y * z).uint128 == b * c, "\(b) * \(c)")
      if a <= UInt128.max / 2 { #expect((x + x).uint128 == a + a, "\(a) + \(a)") }
      if a >= b { #expect((x - y).uint128 == a - b, "\(a) - \(b)") }
      if b > 0 {
        let (quotient, exact) = x.divided(by: y)
        #expect(quotient.uint128 == a / b && exact == (a % b == 0), "\(a) / \(b)")
      }
      let shift = Int.random(in: 0...20, using: &generator)
      let (down, sticky) = x.shiftedDown(byDigits: shift)
      #expect(down.uint128 == a / powersOfTen[shift] && sticky == (a % powersOfTen[shift] != 0), "\(a) >> \(shift)")
      #expect(DecimalNatural.compare(x, y) == (a < b ? -1 : (a == b ? 0 : 1)))
    }
  }

  @Test func wideQuotientsAndRootsSatisfyTheirDefinitions() {
    var generator = SeededGenerator(seed: 11)
    for _ in 0..<500 {
      // Up to 114-digit dividends and 57-digit divisors: q × b + r = a with r < b.
      let a = DecimalNatural(Self.random(&generator, digits: 38)) * DecimalNatural(Self.random(&generator, digits: 38))
        * DecimalNatural(Self.random(&generator, digits: 38))
      let b = DecimalNatural(Self.random(&generator, digits: 38)) * DecimalNatural(Self.random(&generator, digits: 19))
      guard !b.isZero else { continue }
      let (q, exact) = a.divided(by: b)
      let product = q * b
      #expect(DecimalNatural.compare(product, a) <= 0)
      let remainder = a - product
      #expect(DecimalNatural.compare(remainder, b) < 0)
      #expect(exact == remainder.isZero)
      // The root r of a: r² ≤ a < (r + 1)².
      let (root, isSquare) = a.squareRoot()
      let next = root + DecimalNatural(1)
      #expect(DecimalNatural.compare(root * root, a) <= 0)
      #expect(DecimalNatural.compare(next * next, a) > 0)
      #expect(isSquare == (root * root == a))
      #expect((q * q).squareRoot() == (q, true))
    }
  }
}
