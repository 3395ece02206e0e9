/// Powers, remainders and the approximated functions (`sqrt`, `ln`, `exp`, `log10`), computed in decimal.
///
/// A whole-number power is repeated multiplication, exact as long as the result fits in 34 digits. The other functions
/// have results that are almost never decimals of 34 digits. They are computed on wide integers (`DecimalNatural`,
/// 50 to 300 digits, never through `Double`) with a bound on the error, and rounded once to 34 digits, half to even:
/// when the bound leaves the rounding in doubt the computation is repeated with more digits (50, then 100, then 200;
/// Ziv's strategy). The result is then the correctly rounded one, the same as Python's `decimal` at 34 digits, and is
/// marked inexact, so that it prints with `…` or `≈`; a result that is exactly a decimal of at most 34 digits
/// (`sqrt(2.25)`, `4^0.5`, `log10(1000)`) is found exactly and is not marked.
extension ExactDecimal {
  /// ln 10 and ln 2, the digits without the point, to 330 decimals: enough for the widest working scale.
  static let ln10Digits =
    "2302585092994045684017991454684364207601101488628772976033327900967572609677352480235997205089598298" +
    "3419677840422862486334095254650828067566662873690987816894829072083255546808437998948262331985283935" +
    "0530896537773262884616336622228769821988674654366747440424327436515504893431493939147961940440022210" +
    "5101714174800368808401264708068"
  static let ln2Digits =
    "0693147180559945309417232121458176568075500134360255254120680009493393621969694715605863326996418687" +
    "5420014810205706857336855202357581305570326707516350759619307275708283714351903070386238916734711233" +
    "5011536449795523912047517268157493206515552473413952588295045300709532636664265410423915781495204374" +
    "0430385500801944170641671518644"
  static let two = ExactDecimal(2)

  /// `self ^ exponent` for a whole exponent: exact when the result fits in 34 digits, else correctly rounded to 34
  /// (`1.05^30`, whose exact value has 61 digits). `0 ^ 0` is 1; `0` to a negative power is a division by zero.
  public func raised(toInteger exponent: Int) throws(ArithmeticError) -> ExactDecimal {
    let result = try raisedByMultiplying(exponent)
    // Rounded on the way: once more from the exact power, while it has at most 4,000 digits (powers of a value
    // that is itself rounded stay marked either way).
    guard result.isInexact, !isInexact, !result.isZero, exponent.magnitude <= 4_000 / digitCount(magnitude) else {
      return result
    }
    let base = trimmed
    var power = DecimalNatural(1)
    var square = DecimalNatural(base.magnitude)
    var remaining = exponent.magnitude
    while remaining > 0 {
      if remaining & 1 == 1 { power = power * square }
      remaining >>= 1
      if remaining > 0 { square = square * square }
    }
    let scale = base.exponent * exponent
    var rounded: ExactDecimal
    if exponent > 0 {
      rounded = try Self.rounded(power, exponent: scale, sticky: false)
    } else {
      // The power is 10^scale / digits^|exponent|: the quotient to at least 38 digits, and whether it left anything.
      let shift = power.decimalDigits + 38
      let (quotient, exact) = DecimalNatural.powerOfTen(shift).divided(by: power)
      rounded = try Self.rounded(quotient, exponent: scale - shift, sticky: !exact)
    }
    if base.isNegative && exponent.magnitude & 1 == 1 { rounded = -rounded }
    return rounded.marked(inexact: true)
  }

  /// `raised(toInteger:)` by repeated squaring in 34 digits: exact when nothing had to be rounded.
  func raisedByMultiplying(_ exponent: Int) throws(ArithmeticError) -> ExactDecimal {
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

  /// `self ^ exponent`: a whole exponent by `raised(toInteger:)`; any other as an approximation (exact when the
  /// result is a decimal of at most 34 digits), which needs a base above zero.
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
    if self == .one { return isInexact || exponent.isInexact ? marked(inexact: true) : self }
    if !isInexact && !exponent.isInexact, let exact = try exactPower(exponent) { return exact }
    return try powerApproximation(exponent)
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

  /// The square root, correctly rounded; exact (unmarked) when the value is the square of a decimal. The digits are
  /// those of the integer square root of the value scaled to at least 76 digits, with whether it left a remainder.
  public func squareRoot() throws(ArithmeticError) -> ExactDecimal {
    if isNegative { throw .noRealValue("the square root of a negative number has no real value") }
    if isZero { return self }
    let value = trimmed
    var shift = Swift.max(0, 76 - digitCount(value.magnitude))
    if (value.exponent - shift) % 2 != 0 { shift += 1 }
    let (root, exact) = DecimalNatural(value.magnitude).shiftedUp(byDigits: shift).squareRoot()
    let result = try Self.rounded(root, exponent: (value.exponent - shift) / 2, sticky: !exact)
    return result.marked(inexact: result.isInexact || isInexact)
  }

  /// The natural logarithm, correctly rounded; `ln(1)` is exactly 0.
  public func naturalLogarithm() throws(ArithmeticError) -> ExactDecimal {
    if isZero || isNegative { throw .noRealValue("the logarithm of zero or a negative number has no real value") }
    if self == .one { return isInexact ? ExactDecimal.zero.marked(inexact: true) : .zero }
    let x = self
    return try Self.approximated { (scale, final) throws(ArithmeticError) in
      try Self.roundedOnce(x.logarithmFixed(scale: scale), exponent: -scale, error: 10_000, final: final)
    }
  }

  /// `e^x`, correctly rounded; `exp(0)` is exactly 1. Beyond e^231 the result is too large; below e^-232, zero.
  public func exponential() throws(ArithmeticError) -> ExactDecimal {
    if isZero { return isInexact ? ExactDecimal.one.marked(inexact: true) : .one }
    if self > ExactDecimal(231) { throw .overflow }
    if self < ExactDecimal(-232) { return ExactDecimal.zero.marked(inexact: true) }
    let x = self
    return try Self.approximated { (scale, final) throws(ArithmeticError) in
      let (digits, power) = Self.exponentialFixed(x.fixed(scale: scale), scale: scale)
      return try Self.roundedOnce(SignedNatural(digits), exponent: power - scale, error: 10_000, final: final)
    }
  }

  /// `self ^ exponent` for a base above zero and an exponent that is not whole, as `e^(exponent × ln self)` computed
  /// wide and rounded once. The exponent's magnitude adds working digits to the logarithm, so that `t = y ln x` is
  /// known to the same absolute error whatever `y` is.
  func powerApproximation(_ exponent: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    let y = exponent.trimmed
    let extra = Swift.max(0, y.exponent + digitCount(y.magnitude))
    let x = self
    return try Self.approximated { (scale, final) throws(ArithmeticError) in
      let logarithm = x.logarithmFixed(scale: scale + extra)
      var product = logarithm.magnitude * DecimalNatural(y.magnitude)
      product =
        y.exponent >= 0 ? product.shiftedUp(byDigits: y.exponent) : product.shiftedDown(byDigits: -y.exponent).value
      let t = SignedNatural(negative: logarithm.negative != y.isNegative, product.shiftedDown(byDigits: extra).value)
      if DecimalNatural.compare(t.magnitude, DecimalNatural(232).shiftedUp(byDigits: scale)) > 0 {
        if t.negative { return ExactDecimal.zero.marked(inexact: true) }
        throw .overflow
      }
      let (digits, power) = Self.exponentialFixed(t, scale: scale)
      return try Self.roundedOnce(SignedNatural(digits), exponent: power - scale, error: 100_000, final: final)
    }
  }

  /// `self ^ exponent` when it is exactly a decimal of at most 34 digits (`4^0.5`, `0.25^1.5`, `100^0.5`), else nil.
  /// With the exponent `p/q` in lowest terms, that needs the base to be some `r^q`; a decimal `r` other than a power of
  /// ten has `r^q` at least `2^q` in its digits, so beyond q = 112 only powers of ten remain.
  func exactPower(_ exponent: ExactDecimal) throws(ArithmeticError) -> ExactDecimal? {
    let y = exponent.trimmed
    guard y.exponent < 0, -y.exponent <= 38 else { return nil }
    let denominator = powersOfTen[-y.exponent]
    var (a, b) = (y.magnitude, denominator)
    while b != 0 { (a, b) = (b, a % b) }
    let q = denominator / a
    let p = y.magnitude / a
    let base = trimmed
    if base.magnitude == 1 {
      // 10^k to the power p/q: 10^(k p / q) when q divides k p.
      let k = base.exponent
      let (whole, rest) = (UInt128(k.magnitude) * y.magnitude).quotientAndRemainder(dividingBy: denominator)
      guard rest == 0 else { return nil }
      guard whole <= 200 else {
        if (k < 0) != y.isNegative { return ExactDecimal.zero.marked(inexact: true) }
        throw .overflow
      }
      let power = (k < 0) != y.isNegative ? -Int(whole) : Int(whole)
      return try ExactDecimal.one.scaled(byPowerOfTen: power)
    }
    guard q <= 128, p <= 1 << 20 else { return nil }
    let root = try powerApproximation(try ExactDecimal.one.divided(by: ExactDecimal(Int(q)))).trimmed.marked(
      inexact: false)
    guard let check = try? root.raised(toInteger: Int(q)), !check.isInexact, check == self else { return nil }
    let result = try root.raised(toInteger: y.isNegative ? -Int(p) : Int(p))
    return result.isInexact ? nil : result
  }

  /// The logarithm in base 10, correctly rounded: exact for a power of ten (`log10(1000)` is 3).
  public func commonLogarithm() throws(ArithmeticError) -> ExactDecimal {
    if isZero || isNegative { throw .noRealValue("the logarithm of zero or a negative number has no real value") }
    let trimmedValue = trimmed
    if trimmedValue.magnitude == 1 && !isInexact { return ExactDecimal(trimmedValue.exponent) }
    let x = self
    return try Self.approximated { (scale, final) throws(ArithmeticError) in
      let quotient = x.logarithmFixed(scale: scale).divided(
        by: Self.constant(Self.ln10Digits, scale: scale), scale: scale)
      return try Self.roundedOnce(quotient, exponent: -scale, error: 10_000, final: final)
    }
  }
}

// MARK: - Wide kernels

extension ExactDecimal {
  /// The working scales tried in turn, in digits after the point.
  static let workingScales = [50, 100, 200]

  /// Runs `attempt` at each working scale until one can round its result with certainty; the last scale's attempt
  /// (`final`) rounds whatever it has. Bounded: three attempts at most.
  static func approximated(
    _ attempt: (_ scale: Int, _ final: Bool) throws(ArithmeticError) -> ExactDecimal?
  ) throws(ArithmeticError) -> ExactDecimal {
    for (index, scale) in workingScales.enumerated() {
      if let result = try attempt(scale, index == workingScales.count - 1) { return result.marked(inexact: true) }
    }
    // The final attempt always returns a value; kept for the compiler.
    throw .overflow
  }

  /// `value × 10^exponent`, known to within `error` units of its last digit, rounded to the precision; nil when values
  /// that far either way would round differently (unless `final`).
  static func roundedOnce(
    _ value: SignedNatural, exponent: Int, error: Int, final: Bool
  ) throws(ArithmeticError) -> ExactDecimal? {
    let center = try rounded(value.magnitude, exponent: exponent, sticky: false)
    if !final {
      let margin = DecimalNatural(UInt128(error))
      guard DecimalNatural.compare(value.magnitude, margin) > 0 else { return nil }
      let low = try rounded(value.magnitude - margin, exponent: exponent, sticky: false)
      let high = try rounded(value.magnitude + margin, exponent: exponent, sticky: false)
      guard low == high, low == center else { return nil }
    }
    return value.negative ? -center : center
  }

  /// `digits × 10^exponent` (plus a little when `sticky`) rounded to the precision, half to even.
  static func rounded(_ digits: DecimalNatural, exponent: Int, sticky: Bool) throws(ArithmeticError) -> ExactDecimal {
    let drop = Swift.max(0, digits.decimalDigits - 38)
    let (kept, dropped) = digits.shiftedDown(byDigits: drop)
    return try normalized(
      negative: false, magnitude: kept.uint128 ?? 0, exponent: exponent + drop, sticky: sticky || dropped)
  }

  /// The first `scale` decimals of a constant given by its digits (one before the point).
  static func constant(_ digits: String, scale: Int) -> SignedNatural {
    var value = DecimalNatural.zero
    var chunk: UInt32 = 0
    var length = 0
    for byte in digits.utf8.prefix(scale + 1) {
      chunk = chunk * 10 + UInt32(byte - 48)
      length += 1
      if length == 9 {
        value = value.multiplied(bySmall: 1_000_000_000) + DecimalNatural(UInt128(chunk))
        chunk = 0
        length = 0
      }
    }
    if length > 0 { value = value.multiplied(bySmall: UInt32(powersOfTen64[length])) + DecimalNatural(UInt128(chunk)) }
    return SignedNatural(value)
  }

  /// The value at `scale` decimals, truncated.
  func fixed(scale: Int) -> SignedNatural {
    let digits = DecimalNatural(magnitude)
    let shift = exponent + scale
    return SignedNatural(
      negative: negative, shift >= 0 ? digits.shiftedUp(byDigits: shift) : digits.shiftedDown(byDigits: -shift).value)
  }

  /// ln self (above zero) at `scale` decimals, within 10^4 units of the last. `x = m × 2^j × 10^k` with m from 0.75
  /// to 1.5 (exact: halving a decimal adds a digit), then `ln m = 2 atanh((m − 1)/(m + 1))` by its series, whose
  /// terms shrink at least 25 times each.
  func logarithmFixed(scale: Int) -> SignedNatural {
    let value = trimmed
    let digits = digitCount(value.magnitude)
    var k = value.exponent + digits - 1
    var shift = value.exponent - k
    // m from 1 to 10; from √10 on, m / 10 and k + 1, so that a value just below 1 has k = 0 and nothing cancels.
    if ExactDecimal(negative: false, magnitude: value.magnitude, exponent: shift) > ExactDecimal(
      significand: 316_227_766, exponent: -8)
    {
      k += 1
      shift -= 1
    }
    var m = DecimalNatural(value.magnitude).shiftedUp(byDigits: shift + scale)
    let one = DecimalNatural.powerOfTen(scale)
    let high = one.multiplied(bySmall: 3).divided(bySmall: 2).quotient
    let low = one.multiplied(bySmall: 3).divided(bySmall: 4).quotient
    var j = 0
    while DecimalNatural.compare(m, high) > 0 && j < 8 {
      m = m.divided(bySmall: 2).quotient
      j += 1
    }
    while DecimalNatural.compare(m, low) < 0 && j > -8 {
      m = m.multiplied(bySmall: 2)
      j -= 1
    }
    let z = (SignedNatural(m) - SignedNatural(one)).divided(by: SignedNatural(m + one), scale: scale)
    let zSquared = z.multiplied(by: z, scale: scale)
    var sum = z
    var power = z
    var n: UInt32 = 1
    while n < 4_000 {
      n += 2
      power = power.multiplied(by: zSquared, scale: scale)
      if power.magnitude.isZero { break }
      sum = sum + power.divided(bySmall: n)
    }
    return sum.multiplied(byInteger: 2) + Self.constant(Self.ln2Digits, scale: scale).multiplied(byInteger: j)
      + Self.constant(Self.ln10Digits, scale: scale).multiplied(byInteger: k)
  }

  /// e^t for t at `scale` decimals (|t| at most 232): digits and a power of ten n with e^t ≈ digits × 10^(n − scale),
  /// within 10^4 units of the last digit. `t = n ln 10 + r` with |r| ≤ 1.16, e^r by its series.
  static func exponentialFixed(_ t: SignedNatural, scale: Int) -> (digits: DecimalNatural, power: Int) {
    let ln10 = constant(ln10Digits, scale: scale)
    let ratio = t.divided(by: ln10, scale: scale)
    let half = DecimalNatural.powerOfTen(scale).divided(bySmall: 2).quotient
    let nearest = Int((ratio.magnitude + half).shiftedDown(byDigits: scale).value.uint128 ?? 0)
    let n = ratio.negative ? -nearest : nearest
    let r = t - ln10.multiplied(byInteger: n)
    let one = SignedNatural(DecimalNatural.powerOfTen(scale))
    var sum = one
    var term = one
    var index: UInt32 = 0
    while index < 4_000 {
      index += 1
      term = term.multiplied(by: r, scale: scale).divided(bySmall: index)
      if term.magnitude.isZero { break }
      sum = sum + term
    }
    return (sum.magnitude, n)
  }
}
