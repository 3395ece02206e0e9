/// Why a decimal operation could not produce a value.
public enum ArithmeticError: Error, Sendable, Equatable {
  /// The result is larger than TaxPro's decimal range (magnitude 10^100 and up).
  case overflow
  case divisionByZero
  /// A result that is no real number: the square root or logarithm of a negative number. The text says which.
  case noRealValue(String)
}

/// How to round when a decimal has more digits than wanted.
public enum RoundingMode: Sendable {
  /// Ties go away from zero: the rule on tax forms (`$0.005` → `$0.01`).
  case halfAwayFromZero
  /// Ties go to the even digit; used only below the 34th significant digit.
  case halfEven
  case towardNegativeInfinity
  case towardPositiveInfinity
  case towardZero
}

/// An exact decimal number: `±magnitude × 10^exponent`, with at most 34 significant digits.
///
/// TaxPro never uses binary floating point for values: `0.1 + 0.2` is exactly `0.3`. Sums, differences and products are exact
/// as long as they fit in 34 digits (any realistic amount of money or rate does); division and longer results are rounded
/// to 34 significant digits, half to even. Magnitudes of 10^100 and more are an overflow; below 10^-100 they become zero.
public struct ExactDecimal: Sendable {
  /// Significant digits kept in every result.
  public static let precision = 34
  /// The largest allowed decimal exponent of the leading digit.
  public static let maxAdjustedExponent = 99

  // The 128-bit magnitude is stored as two 64-bit halves, first: the decimal takes 26 bytes (a `Value` holding one,
  // 27) and is aligned to 8 bytes rather than `UInt128`'s 16. Every syntax node, checked node and value that can hold
  // a number would otherwise be 16-aligned too: larger strides, and each box of one allocated by `posix_memalign`
  // (much slower than `malloc`) — 230,000 of them in a check of 10,000 formulas.
  @usableFromInline var magnitudeLow: UInt64
  @usableFromInline var magnitudeHigh: UInt64
  @usableFromInline var exponent: Int
  @usableFromInline var negative: Bool
  /// True when a digit was rounded away on the way to this value (a division that did not terminate, a product longer
  /// than 34 digits, an approximation such as `sqrt`): the value is then a close neighbour of the true result, and
  /// `ValueFormatter` marks it (`0.333333333333…`) so that a display never looks exact when it is not. Equality and
  /// hashing ignore it. Explicit rounding (`round`, cents) gives an exact value again.
  public var isInexact: Bool

  @inlinable init(negative: Bool, magnitude: UInt128, exponent: Int, inexact: Bool = false) {
    self.negative = magnitude == 0 ? false : negative
    magnitudeLow = UInt64(truncatingIfNeeded: magnitude)
    magnitudeHigh = UInt64(truncatingIfNeeded: magnitude >> 64)
    self.exponent = exponent
    self.isInexact = inexact
  }

  /// The significand's digits as one number (stored in two halves).
  @inlinable var magnitude: UInt128 {
    get { UInt128(magnitudeHigh) << 64 | UInt128(magnitudeLow) }
    set {
      magnitudeLow = UInt64(truncatingIfNeeded: newValue)
      magnitudeHigh = UInt64(truncatingIfNeeded: newValue >> 64)
    }
  }

  /// The same value, marked as rounded (or not).
  public func marked(inexact: Bool) -> ExactDecimal {
    var copy = self
    copy.isInexact = inexact
    return copy
  }

  public static let zero = ExactDecimal(negative: false, magnitude: 0, exponent: 0)
  public static let one = ExactDecimal(negative: false, magnitude: 1, exponent: 0)

  /// An integer value.
  public init(_ value: Int) {
    self.init(negative: value < 0, magnitude: UInt128(value.magnitude), exponent: 0)
  }

  /// `significand × 10^exponent`, e.g. `ExactDecimal(significand: 505, exponent: -4)` is `0.0505`.
  public init(significand: Int, exponent: Int) {
    self.init(negative: significand < 0, magnitude: UInt128(significand.magnitude), exponent: exponent)
  }

  public var isZero: Bool { magnitude == 0 }
  public var isNegative: Bool { negative }
  public var sign: Int { magnitude == 0 ? 0 : (negative ? -1 : 1) }
}

// MARK: - Powers of ten and digit counts

@usableFromInline let powersOfTen: [UInt128] = {
  var table: [UInt128] = [1]
  for _ in 1...38 { table.append(table[table.count - 1] * 10) }
  return table
}()

/// 10^0 … 10^19: every power of ten below 2^64, written out so that the table needs no initialization at run time.
@usableFromInline let powersOfTen64: [UInt64] = [
  1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
  100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
  10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
]

@usableFromInline func digitCount(_ value: UInt64) -> Int {
  if value == 0 { return 1 }
  let bits = 64 - value.leadingZeroBitCount
  var digits = (bits * 1233) >> 12
  if value >= powersOfTen64[digits] { digits += 1 }
  return max(digits, 1)
}

@usableFromInline func digitCount(_ value: UInt128) -> Int {
  if value >> 64 == 0 { return digitCount(UInt64(truncatingIfNeeded: value)) }
  let bits = 128 - value.leadingZeroBitCount
  // bits × log10(2), a lower estimate of the digit count minus one.
  var digits = (bits * 1233) >> 12
  if digits < 38, value >= powersOfTen[digits + 1] { digits += 1 }
  if digits < 39, value >= powersOfTen[digits] { digits += 1 }
  return max(digits, 1)
}

// MARK: - Rounding a raw result to the precision

extension ExactDecimal {
  /// Rounds a raw result to `precision` digits and checks the range. `sticky` says the true value lies strictly above
  /// `magnitude` (by less than one unit in its last place): digits already discarded were not all zero.
  @usableFromInline static func normalized(
    negative: Bool, magnitude: UInt128, exponent: Int, sticky: Bool = false
  ) throws(ArithmeticError) -> ExactDecimal {
    var magnitude = magnitude
    var exponent = exponent
    var inexact = sticky
    let digits = digitCount(magnitude)
    if digits > precision {
      let drop = digits - precision
      let divisor = powersOfTen[drop]
      let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: divisor)
      magnitude = quotient
      exponent += drop
      let half = divisor / 2
      if remainder != 0 { inexact = true }
      if remainder > half || (remainder == half && (sticky || quotient & 1 == 1)) {
        magnitude += 1
        if magnitude == powersOfTen[precision] {
          magnitude /= 10
          exponent += 1
        }
      }
    }
    if magnitude == 0 { return ExactDecimal.zero.marked(inexact: inexact) }
    let adjusted = exponent + digitCount(magnitude) - 1
    if adjusted > maxAdjustedExponent { throw .overflow }
    if adjusted < -maxAdjustedExponent - 1 { return ExactDecimal.zero.marked(inexact: true) }
    return ExactDecimal(negative: negative, magnitude: magnitude, exponent: exponent, inexact: inexact)
  }
}

// MARK: - Arithmetic

extension ExactDecimal {
  public static prefix func - (value: ExactDecimal) -> ExactDecimal {
    ExactDecimal(
      negative: !value.negative, magnitude: value.magnitude, exponent: value.exponent, inexact: value.isInexact)
  }

  public var absoluteValue: ExactDecimal {
    ExactDecimal(negative: false, magnitude: magnitude, exponent: exponent, inexact: isInexact)
  }

  /// Exponents within which a result of at most 20 digits can neither overflow nor underflow, so the small-value fast
  /// paths need no range check.
  @usableFromInline static let fastExponents = -60...60

  public func adding(_ other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    if other.magnitude == 0 && !other.isInexact { return self }
    if magnitude == 0 && !isInexact { return other }
    var sum: ExactDecimal
    if let small = smallSum(other) { sum = small } else { sum = try addingGeneral(other) }
    if isInexact || other.isInexact { sum.isInexact = true }
    return sum
  }

  /// The sum when both magnitudes, aligned, fit in 63 bits (amounts of money, rates): the same result as the general
  /// path, which would find nothing to round. Nil when the values are larger.
  @inlinable func smallSum(_ other: ExactDecimal) -> ExactDecimal? {
    guard magnitude >> 63 == 0, other.magnitude >> 63 == 0, Self.fastExponents.contains(exponent),
      Self.fastExponents.contains(other.exponent)
    else { return nil }
    let (high, low) = exponent >= other.exponent ? (self, other) : (other, self)
    let shift = high.exponent - low.exponent
    guard shift <= 18 else { return nil }
    let (scaled, overflow) = UInt64(truncatingIfNeeded: high.magnitude).multipliedReportingOverflow(
      by: powersOfTen64[shift])
    guard !overflow, scaled >> 63 == 0 else { return nil }
    let a = scaled
    let b = UInt64(truncatingIfNeeded: low.magnitude)
    if high.negative == low.negative {
      return ExactDecimal(negative: high.negative, magnitude: UInt128(a + b), exponent: low.exponent)
    }
    if a == b { return .zero }
    return a > b
      ? ExactDecimal(negative: high.negative, magnitude: UInt128(a - b), exponent: low.exponent)
      : ExactDecimal(negative: low.negative, magnitude: UInt128(b - a), exponent: low.exponent)
  }

  /// `adding` without the small-value fast path (the tests hold the two to the same results).
  func addingGeneral(_ other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    if other.magnitude == 0 { return self }
    if magnitude == 0 { return other }
    let (high, low) = exponent >= other.exponent ? (self, other) : (other, self)
    let shift = high.exponent - low.exponent
    let highDigits = digitCount(high.magnitude)
    if highDigits + shift <= 38 {
      let scaled = high.magnitude * powersOfTen[shift]
      return try Self.combine(
        scaled, negative: high.negative, with: low.magnitude, negative: low.negative,
        exponent: low.exponent, sticky: false)
    }
    // The smaller operand lies entirely below the 37th digit of the larger: keep 37 digits of the larger, truncate
    // the smaller and remember that something was cut off.
    let up = 37 - highDigits
    let scaled = high.magnitude * powersOfTen[up]
    let resultExponent = high.exponent - up
    let down = resultExponent - low.exponent
    var truncated: UInt128 = 0
    var sticky = true
    if down <= 38 {
      let (quotient, remainder) = low.magnitude.quotientAndRemainder(dividingBy: powersOfTen[down])
      truncated = quotient
      sticky = remainder != 0
    }
    return try Self.combine(
      scaled, negative: high.negative, with: truncated, negative: low.negative,
      exponent: resultExponent, sticky: sticky)
  }

  /// Adds two aligned signed magnitudes. When `sticky`, the second operand's true magnitude is a little above `b`.
  @usableFromInline static func combine(
    _ a: UInt128, negative aNegative: Bool, with b: UInt128, negative bNegative: Bool, exponent: Int, sticky: Bool
  ) throws(ArithmeticError) -> ExactDecimal {
    if aNegative == bNegative {
      let (sum, overflow) = a.addingReportingOverflow(b)
      if overflow {
        // Both below 10^38, so the sum is below 2 × 10^38 < 2^128; cannot happen, but never trap on it.
        throw .overflow
      }
      return try normalized(negative: aNegative, magnitude: sum, exponent: exponent, sticky: sticky)
    }
    if a >= b {
      // a − (b + f) = (a − b − 1) + (1 − f): round from below with the sticky fraction.
      if sticky && a > b {
        return try normalized(negative: aNegative, magnitude: a - b - 1, exponent: exponent, sticky: true)
      }
      return try normalized(negative: aNegative, magnitude: a - b, exponent: exponent, sticky: sticky)
    }
    return try normalized(negative: bNegative, magnitude: b - a, exponent: exponent, sticky: sticky)
  }

  public func subtracting(_ other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    try adding(-other)
  }

  public func multiplied(by other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    // An exact zero times anything is exactly zero.
    if (magnitude == 0 && !isInexact) || (other.magnitude == 0 && !other.isInexact) { return .zero }
    var product = try multipliedUnmarked(by: other)
    if isInexact || other.isInexact { product.isInexact = true }
    return product
  }

  func multipliedUnmarked(by other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    if magnitude == 0 || other.magnitude == 0 { return .zero }
    // Small values (an amount times a rate): a product below 2^64 has at most 20 digits, nothing to round.
    if magnitude >> 64 == 0, other.magnitude >> 64 == 0 {
      let exponentSum = exponent + other.exponent
      let (product, overflow) = UInt64(truncatingIfNeeded: magnitude).multipliedReportingOverflow(
        by: UInt64(truncatingIfNeeded: other.magnitude))
      if !overflow, Self.fastExponents.contains(exponentSum) {
        return ExactDecimal(negative: negative != other.negative, magnitude: UInt128(product), exponent: exponentSum)
      }
    }
    return try multipliedGeneral(by: other)
  }

  /// `multiplied(by:)` without the small-value fast path.
  func multipliedGeneral(by other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    let resultNegative = negative != other.negative
    if magnitude == 0 || other.magnitude == 0 { return .zero }
    let exponentSum = exponent + other.exponent
    let (high, low) = magnitude.multipliedFullWidth(by: other.magnitude)
    if high == 0 {
      return try Self.normalized(negative: resultNegative, magnitude: low, exponent: exponentSum)
    }
    var wide = WideUInt(high: high, low: low)
    let (reduced, dropped, sticky) = wide.reduceToDigits(37)
    return try Self.normalized(
      negative: resultNegative, magnitude: reduced, exponent: exponentSum + dropped, sticky: sticky)
  }

  public func divided(by other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    if other.magnitude == 0 { throw .divisionByZero }
    if magnitude == 0 && !isInexact { return .zero }
    var quotient = try dividedUnmarked(by: other)
    if isInexact || other.isInexact { quotient.isInexact = true }
    return quotient
  }

  func dividedUnmarked(by other: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    if magnitude == 0 { return .zero }
    let (quotient, exponent, remainderIsZero) = try wideQuotient(by: other)
    return try Self.normalized(
      negative: negative != other.negative, magnitude: quotient, exponent: exponent, sticky: !remainderIsZero)
  }

  /// The magnitudes' quotient to 37 or 38 digits, three more than the precision (the dividend scaled up so), its
  /// exponent, and whether the division left no remainder: what both divisions round from.
  private func wideQuotient(
    by other: ExactDecimal
  ) throws(ArithmeticError) -> (quotient: UInt128, exponent: Int, remainderIsZero: Bool) {
    let scale = 37 + digitCount(other.magnitude) - digitCount(magnitude)
    var wide = WideUInt(high: 0, low: magnitude)
    wide.multiplyByPowerOfTen(scale)
    guard let (quotient, remainderIsZero) = wide.divided(by: other.magnitude) else { throw .overflow }
    return (quotient, exponent - other.exponent - scale, remainderIsZero)
  }

  /// The quotient rounded once, half away from zero, to `places` decimals: what a `Money` result needs. Rounding the
  /// 34-digit quotient to cents would round twice (`$729,823.48 / 992957.1156462585034013605442176871` is
  /// 0.734999…, which rounds to 0.7350000… in 34 digits and then to `$0.74`); this rounds the exact quotient, known
  /// to 37 digits and whether anything is left below them, straight to cents (`$0.73`).
  public func divided(by other: ExactDecimal, places: Int) throws(ArithmeticError) -> ExactDecimal {
    if other.magnitude == 0 { throw .divisionByZero }
    if magnitude == 0 { return .zero }
    let resultNegative = negative != other.negative
    let (quotient, exponent, remainderIsZero) = try wideQuotient(by: other)
    let drop = -exponent - places
    guard drop > 0 else {
      // A quotient of more than 34 digits before the point: it is rounded to the precision as any result is.
      let value = try Self.normalized(
        negative: resultNegative, magnitude: quotient, exponent: exponent, sticky: !remainderIsZero)
      return value.rounded(places: places, .halfAwayFromZero)
    }
    var rounded: UInt128 = 0
    if drop <= 38 {
      let divisor = powersOfTen[drop]
      let (kept, rest) = quotient.quotientAndRemainder(dividingBy: divisor)
      // The true rest is `rest` plus something below it when the division left a remainder: at or above half either
      // way exactly when `rest` is.
      rounded = rest >= divisor / 2 ? kept + 1 : kept
    }
    return try Self.normalized(negative: resultNegative, magnitude: rounded, exponent: -places)
  }

  public static func + (lhs: ExactDecimal, rhs: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    try lhs.adding(rhs)
  }
  public static func - (lhs: ExactDecimal, rhs: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    try lhs.subtracting(rhs)
  }
  public static func * (lhs: ExactDecimal, rhs: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    try lhs.multiplied(by: rhs)
  }
  public static func / (lhs: ExactDecimal, rhs: ExactDecimal) throws(ArithmeticError) -> ExactDecimal {
    try lhs.divided(by: rhs)
  }
}

// MARK: - Rounding to a number of decimal places

extension ExactDecimal {
  /// The value rounded to `places` digits after the decimal point (negative `places` round to tens, hundreds, …).
  public func rounded(places: Int, _ mode: RoundingMode) -> ExactDecimal {
    let drop = -exponent - places
    if drop <= 0 || magnitude == 0 { return self }
    // Small values divide in 64 bits.
    if magnitude >> 64 == 0, drop <= 19 {
      let divisor = powersOfTen64[drop]
      let (q, r) = UInt64(truncatingIfNeeded: magnitude).quotientAndRemainder(dividingBy: divisor)
      var roundUp = false
      if r != 0 {
        let half = divisor / 2
        switch mode {
        case .halfAwayFromZero: roundUp = r >= half
        case .halfEven: roundUp = r > half || (r == half && q & 1 == 1)
        case .towardZero: roundUp = false
        case .towardPositiveInfinity: roundUp = !negative
        case .towardNegativeInfinity: roundUp = negative
        }
      }
      return ExactDecimal(negative: negative, magnitude: UInt128(roundUp ? q + 1 : q), exponent: -places)
    }
    return roundedGeneral(places: places, mode)
  }

  /// `rounded(places:_:)` without the small-value fast path.
  func roundedGeneral(places: Int, _ mode: RoundingMode) -> ExactDecimal {
    let drop = -exponent - places
    if drop <= 0 || magnitude == 0 { return self }
    var quotient: UInt128 = 0
    var remainderComparedToHalf: Int  // -1 below half, 0 exactly half, 1 above
    var remainderIsZero: Bool
    if drop <= 38 {
      let divisor = powersOfTen[drop]
      let (q, r) = magnitude.quotientAndRemainder(dividingBy: divisor)
      quotient = q
      let half = divisor / 2
      remainderComparedToHalf = r < half ? -1 : (r == half ? 0 : 1)
      remainderIsZero = r == 0
    } else {
      // The whole magnitude (below 10^38) is less than half of 10^drop.
      remainderComparedToHalf = -1
      remainderIsZero = false
    }
    var roundUp = false
    if !remainderIsZero {
      switch mode {
      case .halfAwayFromZero: roundUp = remainderComparedToHalf >= 0
      case .halfEven: roundUp = remainderComparedToHalf > 0 || (remainderComparedToHalf == 0 && quotient & 1 == 1)
      case .towardZero: roundUp = false
      case .towardPositiveInfinity: roundUp = !negative
      case .towardNegativeInfinity: roundUp = negative
      }
    }
    if roundUp { quotient += 1 }
    // The result has no more digits than the input, plus at most one: always representable.
    return ExactDecimal(negative: negative, magnitude: quotient, exponent: -places)
  }

  /// The value rounded to `digits` significant digits, half away from zero.
  public func rounded(significantDigits digits: Int) -> ExactDecimal {
    if magnitude == 0 { return self }
    let adjusted = exponent + digitCount(magnitude) - 1
    return rounded(places: digits - 1 - adjusted, .halfAwayFromZero)
  }

  /// True when the value has no fractional part.
  public var isInteger: Bool {
    if exponent >= 0 || magnitude == 0 { return true }
    if -exponent > 38 { return false }
    return magnitude % powersOfTen[-exponent] == 0
  }

  /// The value as an `Int` when it is a whole number that fits.
  public var intValue: Int? {
    guard isInteger else { return nil }
    let trimmed = rounded(places: 0, .towardZero)
    var value = trimmed.magnitude
    var exponent = trimmed.exponent
    while exponent > 0 {
      guard value <= UInt128(Int.max) / 10 else { return nil }
      value *= 10
      exponent -= 1
    }
    guard value <= UInt128(Int.max) else { return nil }
    let result = Int(value)
    return negative ? -result : result
  }

  /// The same value with trailing zeros removed from the magnitude (for hashing and printing).
  public var trimmed: ExactDecimal {
    if magnitude == 0 { return ExactDecimal.zero.marked(inexact: isInexact) }
    var magnitude = self.magnitude
    var exponent = self.exponent
    while magnitude % 10 == 0 {
      magnitude /= 10
      exponent += 1
    }
    return ExactDecimal(negative: negative, magnitude: magnitude, exponent: exponent, inexact: isInexact)
  }

  /// The decimal digits of the magnitude and the exponent of the last one; for formatting.
  public var digitsAndExponent: (digits: [UInt8], exponent: Int) {
    var digits: [UInt8] = []
    var value = magnitude
    repeat {
      digits.append(UInt8(value % 10))
      value /= 10
    } while value > 0
    return (digits.reversed(), exponent)
  }

  /// Multiplies by 10^power exactly (used for percent conversions).
  public func scaled(byPowerOfTen power: Int) throws(ArithmeticError) -> ExactDecimal {
    try Self.normalized(negative: negative, magnitude: magnitude, exponent: exponent + power).marked(
      inexact: isInexact)
  }
}

// MARK: - Comparison, equality, hashing

extension ExactDecimal: Comparable, Hashable {
  public static func == (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
    compare(lhs, rhs) == 0
  }

  public static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
    compare(lhs, rhs) < 0
  }

  /// -1, 0 or 1.
  public static func compare(_ lhs: ExactDecimal, _ rhs: ExactDecimal) -> Int {
    if lhs.sign != rhs.sign { return lhs.sign < rhs.sign ? -1 : 1 }
    if lhs.sign == 0 { return 0 }
    let magnitudeOrder = compareMagnitudes(lhs, rhs)
    return lhs.negative ? -magnitudeOrder : magnitudeOrder
  }

  static func compareMagnitudes(_ lhs: ExactDecimal, _ rhs: ExactDecimal) -> Int {
    // One exponent (amounts in cents, say): the magnitudes compare directly.
    if lhs.exponent == rhs.exponent {
      return lhs.magnitude == rhs.magnitude ? 0 : (lhs.magnitude < rhs.magnitude ? -1 : 1)
    }
    // Small magnitudes (an amount in cents against a threshold in dollars): align them in 64 bits.
    if lhs.magnitude >> 64 == 0, rhs.magnitude >> 64 == 0 {
      let lhsHigher = lhs.exponent > rhs.exponent
      let shift = lhsHigher ? lhs.exponent - rhs.exponent : rhs.exponent - lhs.exponent
      if shift < powersOfTen64.count {
        let high = UInt64(truncatingIfNeeded: (lhsHigher ? lhs : rhs).magnitude)
        let low = UInt64(truncatingIfNeeded: (lhsHigher ? rhs : lhs).magnitude)
        let (scaled, overflow) = high.multipliedReportingOverflow(by: powersOfTen64[shift])
        // On overflow the scaled magnitude is at least 2^64, above any 64-bit one.
        let order = overflow || scaled > low ? 1 : (scaled == low ? 0 : -1)
        return lhsHigher ? order : -order
      }
    }
    let lhsDigits = digitCount(lhs.magnitude)
    let rhsDigits = digitCount(rhs.magnitude)
    let lhsAdjusted = lhs.exponent + lhsDigits - 1
    let rhsAdjusted = rhs.exponent + rhsDigits - 1
    if lhsAdjusted != rhsAdjusted { return lhsAdjusted < rhsAdjusted ? -1 : 1 }
    // Same leading position: align the shorter magnitude to the longer one (both stay below 10^38).
    var a = lhs.magnitude
    var b = rhs.magnitude
    if lhsDigits < rhsDigits { a *= powersOfTen[rhsDigits - lhsDigits] }
    if rhsDigits < lhsDigits { b *= powersOfTen[lhsDigits - rhsDigits] }
    return a == b ? 0 : (a < b ? -1 : 1)
  }

  public func hash(into hasher: inout Hasher) {
    let canonical = trimmed
    hasher.combine(canonical.negative)
    hasher.combine(canonical.magnitude)
    hasher.combine(canonical.exponent)
  }
}

extension ExactDecimal: CustomStringConvertible {
  /// Plain decimal notation with every digit, e.g. `-1234.5`.
  public var description: String {
    let (digits, exponent) = trimmed.digitsAndExponent
    var text = negative ? "-" : ""
    if exponent >= 0 {
      text += digits.map { String($0) }.joined() + String(repeating: "0", count: exponent)
      return text
    }
    let fraction = -exponent
    if fraction >= digits.count {
      text += "0." + String(repeating: "0", count: fraction - digits.count) + digits.map { String($0) }.joined()
    } else {
      let split = digits.count - fraction
      text += digits[..<split].map { String($0) }.joined() + "." + digits[split...].map { String($0) }.joined()
    }
    return text
  }
}

// MARK: - Parsing

extension ExactDecimal {
  /// Parses plain decimal digits such as `1234.5678` (no sign, no separators). Digits beyond the precision are
  /// rounded, half to even; `isExact` is false then. Throws `.overflow` for magnitudes of 10^100 and more.
  @inlinable public static func parse<Bytes: Collection<UInt8>>(digits text: Bytes) throws(ArithmeticError) -> (
    value: ExactDecimal, isExact: Bool
  ) {
    var magnitude: UInt128 = 0
    var exponent = 0
    var kept = 0
    var seenPoint = false
    var firstDropped: UInt8? = nil
    var laterDroppedNonZero = false
    for byte in text {
      if byte == UInt8(ascii: ".") {
        seenPoint = true
        continue
      }
      guard byte >= 48, byte <= 57 else { continue }
      let digit = byte - 48
      if kept == 0 && digit == 0 {
        if seenPoint { exponent -= 1 }
        continue
      }
      if kept < 38 {
        magnitude = magnitude * 10 + UInt128(digit)
        kept += 1
        if seenPoint { exponent -= 1 }
      } else {
        if firstDropped == nil { firstDropped = digit } else if digit != 0 { laterDroppedNonZero = true }
        if !seenPoint { exponent += 1 }
      }
    }
    // Digits beyond the 38th are rounded half up there; `normalized` then rounds to the precision.
    let droppedNonZero = (firstDropped ?? 0) != 0 || laterDroppedNonZero
    if let first = firstDropped, first >= 5 { magnitude += 1 }
    // Exact when no digit but zeros was dropped, here or by `normalized` (a long run of trailing zeros, as in
    // 1219326311370000000000000000000000000000, is exact).
    let value = try normalized(negative: false, magnitude: magnitude, exponent: exponent, sticky: false)
    let exact = !droppedNonZero && !value.isInexact
    return (value.marked(inexact: !exact), exact)
  }

  /// Parses an optionally signed decimal string such as `-12.50`; nil when it is not one (CSV fields and forms read
  /// plain decimals only; scientific notation is the lexer's).
  public init?(_ text: String) {
    var bytes = Array(text.utf8)
    var negative = false
    if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
      negative = first == UInt8(ascii: "-")
      bytes.removeFirst()
    }
    var digits = 0
    var points = 0
    for byte in bytes {
      if byte == UInt8(ascii: ".") { points += 1 } else if byte >= 48 && byte <= 57 { digits += 1 } else { return nil }
    }
    guard digits > 0, points <= 1 else { return nil }
    guard let parsed = try? Self.parse(digits: bytes) else { return nil }
    self = negative ? -parsed.value : parsed.value
  }

  /// Parses digits with an optional exponent, `1.2e39`, `2.5E-3`, `1_000e-2` (no sign before the digits; `_` and
  /// anything that is not a digit or a point before the `e` are skipped). `isExact` is false when digits were rounded.
  /// Throws `.overflow` for magnitudes of 10^100 and more.
  public static func parse<Bytes: Collection<UInt8>>(scientific text: Bytes) throws(ArithmeticError) -> (
    value: ExactDecimal, isExact: Bool
  ) {
    guard let marker = text.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
      return try parse(digits: text)
    }
    let mantissa = try parse(digits: text[..<marker])
    var exponent = 0
    var negativeExponent = false
    for byte in text[text.index(after: marker)...] {
      if byte == UInt8(ascii: "-") { negativeExponent = true }
      guard byte >= 48 && byte <= 57 else { continue }
      // Beyond a thousand the value has overflowed or vanished whatever the digits: stop counting there.
      exponent = Swift.min(exponent * 10 + Int(byte - 48), 100_000)
    }
    if mantissa.value.isZero { return mantissa }
    let scaled = try mantissa.value.scaled(byPowerOfTen: negativeExponent ? -exponent : exponent)
    return (scaled, mantissa.isExact && !scaled.isZero)
  }
}

// MARK: - Wide intermediate results

/// A 256-bit unsigned integer as four 64-bit limbs, most significant first; only what products and quotients need.
@usableFromInline struct WideUInt {
  var limbs: [UInt64]  // 4 limbs, big-endian

  @usableFromInline init(high: UInt128, low: UInt128) {
    limbs = [UInt64(high >> 64), UInt64(truncatingIfNeeded: high), UInt64(low >> 64), UInt64(truncatingIfNeeded: low)]
  }

  var isZero: Bool { limbs.allSatisfy { $0 == 0 } }
  var fitsIn128: Bool { limbs[0] == 0 && limbs[1] == 0 }
  var low128: UInt128 { UInt128(limbs[2]) << 64 | UInt128(limbs[3]) }
  var high128: UInt128 { UInt128(limbs[0]) << 64 | UInt128(limbs[1]) }

  var bitWidth: Int {
    for (index, limb) in limbs.enumerated() where limb != 0 {
      return (4 - index) * 64 - limb.leadingZeroBitCount
    }
    return 0
  }

  /// Divides in place by a 64-bit divisor; returns the remainder.
  mutating func divide(by divisor: UInt64) -> UInt64 {
    var remainder: UInt64 = 0
    for index in 0..<4 {
      let (quotient, rest) = divisor.dividingFullWidth((remainder, limbs[index]))
      limbs[index] = quotient
      remainder = rest
    }
    return remainder
  }

  /// Multiplies in place by a 64-bit factor; the caller guarantees the product fits.
  mutating func multiply(by factor: UInt64) {
    var carry: UInt64 = 0
    for index in stride(from: 3, through: 0, by: -1) {
      let (high, low) = limbs[index].multipliedFullWidth(by: factor)
      let (sum, overflow) = low.addingReportingOverflow(carry)
      limbs[index] = sum
      carry = high &+ (overflow ? 1 : 0)
    }
  }

  mutating func multiplyByPowerOfTen(_ power: Int) {
    var remaining = power
    while remaining > 0 {
      let step = min(remaining, 19)
      multiply(by: UInt64(powersOfTen[step]))
      remaining -= step
    }
  }

  /// Divides by a power of ten until at most `digits` digits are left; returns the reduced value, how many digits were
  /// dropped, and whether any dropped digit was non-zero.
  mutating func reduceToDigits(_ digits: Int) -> (UInt128, Int, Bool) {
    var dropped = 0
    var sticky = false
    // A lower estimate of the digit count from the bit width.
    while true {
      let estimate = (bitWidth * 1233) >> 12
      let excess = estimate - digits
      if excess <= 0 && fitsIn128 {
        let value = low128
        let extra = digitCount(value) - digits
        if extra <= 0 { return (value, dropped, sticky) }
        let divisor = powersOfTen[extra]
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        // Keep the guard digits exact: fold a non-zero remainder into the sticky flag only.
        if remainder != 0 { sticky = true }
        return (quotient, dropped + extra, sticky)
      }
      let step = min(max(excess, 1), 19)
      if divide(by: UInt64(powersOfTen[step])) != 0 { sticky = true }
      dropped += step
    }
  }

  /// Divides by a 128-bit divisor; nil if the quotient does not fit in 128 bits.
  func divided(by divisor: UInt128) -> (UInt128, Bool)? {
    if divisor <= UInt128(UInt64.max) {
      var copy = self
      let remainder = copy.divide(by: UInt64(divisor))
      guard copy.fitsIn128 else { return nil }
      return (copy.low128, remainder == 0)
    }
    let high = high128
    guard high < divisor else { return nil }
    let (quotient, remainder) = divisor.dividingFullWidth((high: high, low: low128))
    return (quotient, remainder == 0)
  }
}
