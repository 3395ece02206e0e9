/// Powers, remainders and the approximated functions (`sqrt`, `ln`, `exp`, `log10`), computed in decimal.
///
/// A whole-number power is repeated multiplication, exact as long as the result fits in 34 digits. The other functions
/// have results that are almost never decimals of 34 digits: they are computed with decimal series and Newton steps
/// (never through `Double`, whose 16 digits would show in the 34 printed), and their results are marked inexact, so
/// that they print with `…` or `≈`. They are correct to about 32 significant digits; the last one or two may differ
/// from the true value's.
extension ExactDecimal {
  /// ln 2 and ln 10 to 45 digits (rounded to the precision when read).
  static let ln2 = ExactDecimal("0.693147180559945309417232121458176568075500134") ?? .zero
  static let ln10 = ExactDecimal("2.30258509299404568401799145468436420760110149") ?? .zero
  static let two = ExactDecimal(2)

  /// `self ^ exponent` for a whole exponent: exact when the result fits in 34 digits. `0 ^ 0` is 1; `0` to a
  /// negative power is a division by zero.
  public func raised(toInteger exponent: Int) throws(ArithmeticError) -> ExactDecimal {
    if exponent == 0 { return isInexact ? ExactDecimal.one.marked(inexact: true) : .one }
    if isZero {
      if exponent < 0 { throw .divisionByZero }
      return self
    }
    // A negative power is the reciprocal's positive power, which cannot overflow on the way to a tiny result.
    var base = exponent < 0 ? try ExactDecimal.one.divided(by: self) : self
    var remaining = exponent.magnitude
    var result = ExactDecimal.one
    while remaining > 0 {
      if remaining & 1 == 1 { result = try result.multiplied(by: base) }
      remaining >>= 1
      if remaining > 0 { base = try base.multiplied(by: base) }
      if result.isZero { break }
    }
    return result
  }

  /// `self ^ exponent`: a whole exponent by `raised(toInteger:)`; any other as `exp(exponent × ln self)`, an
  /// approximation, which needs a base above zero.
  public func raised(to exponent: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    if exponent.isInteger, let whole = exponent.intValue, whole.magnitude <= 1 << 40 {
      let result = try raised(toInteger: whole)
      return exponent.isInexact ? result.marked(inexact: true) : result
    }
    if isZero {
      if exponent.isNegative { throw .divisionByZero }
      return self
    }
    if isNegative {
      throw .noRealValue("a negative number to a power that is not a whole number has no real value")
    }
    if self == .one { return self }
    return try (try exponent.multiplied(by: try naturalLogarithm())).exponential()
  }

  /// The remainder of `self / divisor` with the sign of the divisor (floored, as in Python): `-7 mod 3` is 2.
  public func modulo(_ divisor: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    if divisor.isZero { throw .divisionByZero }
    if isZero { return self }
    let inexact = isInexact || divisor.isInexact
    let common = Swift.min(exponent, divisor.exponent)
    let shiftSelf = exponent - common
    let shiftDivisor = divisor.exponent - common
    var remainder: ExactDecimal
    if digitCount(magnitude) + shiftSelf <= 38 && digitCount(divisor.magnitude) + shiftDivisor <= 38 {
      // Both aligned to one exponent as integers below 10^38: the remainder is exact.
      let a = magnitude * powersOfTen[shiftSelf]
      let b = divisor.magnitude * powersOfTen[shiftDivisor]
      remainder = try Self.normalized(negative: negative, magnitude: a % b, exponent: common)
    } else {
      // Too far apart to align: through a rounded quotient.
      let quotient = try divided(by: divisor).rounded(places: 0, .towardZero)
      remainder = try subtracting(try divisor.multiplied(by: quotient)).marked(inexact: true)
    }
    if !remainder.isZero && remainder.isNegative != divisor.isNegative {
      remainder = try remainder.adding(divisor)
    }
    return inexact ? remainder.marked(inexact: true) : remainder
  }

  /// The square root, by Newton's method in decimal; exact (unmarked) when its square is exactly the value.
  public func squareRoot() throws(ArithmeticError) -> ExactDecimal {
    if isNegative { throw .noRealValue("the square root of a negative number has no real value") }
    if isZero { return self }
    // Start from 10^(half the exponent): Newton's step then converges from above in a few dozen steps at most.
    let adjusted = exponent + digitCount(magnitude) - 1
    var root = try ExactDecimal.one.scaled(byPowerOfTen: (adjusted + (adjusted >= 0 ? 2 : 1)) / 2)
    var previous = ExactDecimal.zero
    for _ in 0..<200 {
      let next = try (try root.adding(try divided(by: root))).divided(by: Self.two)
      if next == root || next == previous { break }
      previous = root
      root = next
    }
    // Exact when the square of the digits found is the value itself.
    let candidate = root.marked(inexact: false)
    let square = try candidate.multiplied(by: candidate)
    let exact = !square.isInexact && square == self && !isInexact
    return root.marked(inexact: !exact)
  }

  /// The natural logarithm: `x = m × 2^j × 10^k` with m near 1, then `ln m = 2 atanh((m − 1)/(m + 1))` by its series.
  public func naturalLogarithm() throws(ArithmeticError) -> ExactDecimal {
    if isZero || isNegative { throw .noRealValue("the logarithm of zero or a negative number has no real value") }
    if self == .one { return isInexact ? ExactDecimal.zero.marked(inexact: true) : .zero }
    let k = exponent + digitCount(magnitude) - 1
    var m = try marked(inexact: false).scaled(byPowerOfTen: -k)  // 1 ≤ m < 10
    var j = 0
    let high = ExactDecimal(significand: 15, exponent: -1)
    while m > high {
      m = try m.divided(by: Self.two)
      j += 1
    }
    let z = try (try m.subtracting(.one)).divided(by: try m.adding(.one))
    let zSquared = try z.multiplied(by: z)
    var power = z
    var sum = z
    var n = 1
    while n < 400 {
      n += 2
      power = try power.multiplied(by: zSquared)
      let term = try power.divided(by: ExactDecimal(n))
      let next = try sum.adding(term)
      if next == sum { break }
      sum = next
    }
    var result = try sum.multiplied(by: Self.two)
    result = try result.adding(try Self.ln2.multiplied(by: ExactDecimal(j)))
    result = try result.adding(try Self.ln10.multiplied(by: ExactDecimal(k)))
    return result.marked(inexact: true)
  }

  /// `e^x`: `x = n ln 2 + r` with |r| ≤ 0.35, `e^r` by its series, times `2^n`.
  public func exponential() throws(ArithmeticError) -> ExactDecimal {
    if isZero { return isInexact ? ExactDecimal.one.marked(inexact: true) : .one }
    // e^231 is past 10^100; e^-232 is below 10^-100.
    if self > ExactDecimal(231) { throw .overflow }
    if self < ExactDecimal(-232) { return ExactDecimal.zero.marked(inexact: true) }
    let n = try divided(by: Self.ln2).rounded(places: 0, .halfEven)
    let r = try subtracting(try Self.ln2.multiplied(by: n))
    var term = ExactDecimal.one
    var sum = ExactDecimal.one
    var index = 0
    while index < 400 {
      index += 1
      term = try (try term.multiplied(by: r)).divided(by: ExactDecimal(index))
      let next = try sum.adding(term)
      if next == sum { break }
      sum = next
    }
    let scale = try Self.two.raised(toInteger: n.intValue ?? 0)
    return try sum.multiplied(by: scale).marked(inexact: true)
  }

  /// The logarithm in base 10: exact for a power of ten (`log10(1000)` is 3), else `ln x / ln 10`.
  public func commonLogarithm() throws(ArithmeticError) -> ExactDecimal {
    if isZero || isNegative { throw .noRealValue("the logarithm of zero or a negative number has no real value") }
    let trimmedValue = trimmed
    if trimmedValue.magnitude == 1 && !isInexact { return ExactDecimal(trimmedValue.exponent) }
    return try (try naturalLogarithm().divided(by: Self.ln10)).marked(inexact: true)
  }
}
