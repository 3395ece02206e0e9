/// A natural number of any size in base 10^9, for the working digits of the approximated functions.
///
/// `ExactDecimal` keeps 34 digits, which is too few to compute `sqrt`, `ln`, `exp` and powers in: each step rounds, and
/// the errors add up in the last digits. The functions instead work on integers of 50 to 300 digits (fixed point: an
/// integer `v` stands for `v × 10^-W`) and round once, at the end, to 34. Base 10^9 keeps powers of ten, which are
/// most of the scaling, to moving limbs. Only what those functions need is here; sizes stay below a few hundred
/// digits, so the schoolbook algorithms are fast enough.
struct DecimalNatural: Sendable, Equatable {
  static let base: UInt64 = 1_000_000_000

  /// Limbs below 10^9, least significant first, with no zero limb at the top (zero has none).
  private(set) var limbs: [UInt32]

  init(limbs: [UInt32]) {
    self.limbs = limbs
    trim()
  }

  init(_ value: UInt128) {
    var limbs: [UInt32] = []
    var rest = value
    while rest > 0 {
      limbs.append(UInt32(rest % UInt128(Self.base)))
      rest /= UInt128(Self.base)
    }
    self.limbs = limbs
  }

  static let zero = DecimalNatural(limbs: [])

  /// 10^power.
  static func powerOfTen(_ power: Int) -> DecimalNatural {
    DecimalNatural(1).shiftedUp(byDigits: power)
  }

  var isZero: Bool { limbs.isEmpty }

  private mutating func trim() {
    while let last = limbs.last, last == 0 { limbs.removeLast() }
  }

  var decimalDigits: Int {
    guard let top = limbs.last else { return 0 }
    return (limbs.count - 1) * 9 + digitCount(UInt64(top))
  }

  /// The value when it fits in 128 bits.
  var uint128: UInt128? {
    guard decimalDigits <= 39 else { return nil }
    var value: UInt128 = 0
    for limb in limbs.reversed() {
      let (scaled, overflow) = value.multipliedReportingOverflow(by: UInt128(Self.base))
      let (sum, carry) = scaled.addingReportingOverflow(UInt128(limb))
      if overflow || carry { return nil }
      value = sum
    }
    return value
  }

  static func compare(_ a: DecimalNatural, _ b: DecimalNatural) -> Int {
    if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count ? -1 : 1 }
    for index in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[index] != b.limbs[index] {
      return a.limbs[index] < b.limbs[index] ? -1 : 1
    }
    return 0
  }

  static func + (a: DecimalNatural, b: DecimalNatural) -> DecimalNatural {
    var result: [UInt32] = []
    result.reserveCapacity(max(a.limbs.count, b.limbs.count) + 1)
    var carry: UInt64 = 0
    for index in 0..<max(a.limbs.count, b.limbs.count) {
      let sum =
        UInt64(index < a.limbs.count ? a.limbs[index] : 0) + UInt64(index < b.limbs.count ? b.limbs[index] : 0) + carry
      result.append(UInt32(sum % base))
      carry = sum / base
    }
    if carry > 0 { result.append(UInt32(carry)) }
    return DecimalNatural(limbs: result)
  }

  /// `a − b`; the caller guarantees `a ≥ b`.
  static func - (a: DecimalNatural, b: DecimalNatural) -> DecimalNatural {
    var result = a.limbs
    var borrow: Int64 = 0
    for index in 0..<result.count {
      var difference = Int64(result[index]) - borrow - Int64(index < b.limbs.count ? b.limbs[index] : 0)
      borrow = 0
      if difference < 0 {
        difference += Int64(base)
        borrow = 1
      }
      result[index] = UInt32(difference)
    }
    return DecimalNatural(limbs: result)
  }

  static func * (a: DecimalNatural, b: DecimalNatural) -> DecimalNatural {
    if a.isZero || b.isZero { return .zero }
    var result = [UInt64](repeating: 0, count: a.limbs.count + b.limbs.count)
    for i in 0..<a.limbs.count {
      var carry: UInt64 = 0
      let factor = UInt64(a.limbs[i])
      for j in 0..<b.limbs.count {
        // At most (10^9 − 1)^2 + 2 × 10^9: well inside 64 bits.
        let value = result[i + j] + factor * UInt64(b.limbs[j]) + carry
        result[i + j] = value % base
        carry = value / base
      }
      var index = i + b.limbs.count
      while carry > 0 {
        let value = result[index] + carry
        result[index] = value % base
        carry = value / base
        index += 1
      }
    }
    return DecimalNatural(limbs: result.map { UInt32($0) })
  }

  /// The product by a factor below 2^32.
  func multiplied(bySmall factor: UInt32) -> DecimalNatural {
    var result: [UInt32] = []
    result.reserveCapacity(limbs.count + 2)
    var carry: UInt64 = 0
    for limb in limbs {
      let value = UInt64(limb) * UInt64(factor) + carry
      result.append(UInt32(value % Self.base))
      carry = value / Self.base
    }
    while carry > 0 {
      result.append(UInt32(carry % Self.base))
      carry /= Self.base
    }
    return DecimalNatural(limbs: result)
  }

  /// The quotient by a divisor from 1 to below 2^32, truncated, and the remainder.
  func divided(bySmall divisor: UInt32) -> (quotient: DecimalNatural, remainder: UInt32) {
    var result = [UInt32](repeating: 0, count: limbs.count)
    var remainder: UInt64 = 0
    for index in stride(from: limbs.count - 1, through: 0, by: -1) {
      let value = remainder * Self.base + UInt64(limbs[index])
      result[index] = UInt32(value / UInt64(divisor))
      remainder = value % UInt64(divisor)
    }
    return (DecimalNatural(limbs: result), UInt32(remainder))
  }

  /// The value times 10^digits.
  func shiftedUp(byDigits digits: Int) -> DecimalNatural {
    if isZero || digits <= 0 { return self }
    let scaled = multiplied(bySmall: UInt32(powersOfTen64[digits % 9]))
    return DecimalNatural(limbs: [UInt32](repeating: 0, count: digits / 9) + scaled.limbs)
  }

  /// The value divided by 10^digits, truncated; `sticky` when a dropped digit was not zero.
  func shiftedDown(byDigits digits: Int) -> (value: DecimalNatural, sticky: Bool) {
    if isZero || digits <= 0 { return (self, false) }
    let whole = digits / 9
    if whole >= limbs.count { return (.zero, true) }
    var sticky = limbs[..<whole].contains { $0 != 0 }
    let (quotient, remainder) = DecimalNatural(limbs: Array(limbs[whole...])).divided(
      bySmall: UInt32(powersOfTen64[digits % 9]))
    if remainder != 0 { sticky = true }
    return (quotient, sticky)
  }

  /// The quotient, truncated, and whether the division left no remainder. Long division one limb at a time, each
  /// limb of the quotient found by bisection: slower than Knuth's estimate, but short and plainly right, and the
  /// numbers here have a few dozen limbs at most.
  func divided(by divisor: DecimalNatural) -> (quotient: DecimalNatural, exact: Bool) {
    if divisor.limbs.count == 1 {
      let (quotient, remainder) = divided(bySmall: divisor.limbs[0])
      return (quotient, remainder == 0)
    }
    if Self.compare(self, divisor) < 0 { return (.zero, isZero) }
    var quotient = [UInt32](repeating: 0, count: limbs.count)
    var remainder = DecimalNatural.zero
    for index in stride(from: limbs.count - 1, through: 0, by: -1) {
      // remainder × 10^9 + the next limb, then the largest q with divisor × q ≤ it.
      remainder = DecimalNatural(limbs: [limbs[index]] + remainder.limbs)
      if Self.compare(remainder, divisor) < 0 { continue }
      var low: UInt32 = 1
      var high = UInt32(Self.base - 1)
      while low < high {
        let middle = low + (high - low + 1) / 2
        if Self.compare(divisor.multiplied(bySmall: middle), remainder) <= 0 { low = middle } else { high = middle - 1 }
      }
      quotient[index] = low
      remainder = remainder - divisor.multiplied(bySmall: low)
    }
    return (DecimalNatural(limbs: quotient), remainder.isZero)
  }

  /// The integer square root (the largest r with r² ≤ self) by Newton's method from above, and whether r² is self.
  func squareRoot() -> (root: DecimalNatural, exact: Bool) {
    if isZero { return (.zero, true) }
    var root = DecimalNatural.powerOfTen((decimalDigits + 1) / 2)
    // From above, each step decreases until the root is reached; the count is only a backstop.
    for _ in 0..<400 {
      let next = (root + divided(by: root).quotient).divided(bySmall: 2).quotient
      if Self.compare(next, root) >= 0 { break }
      root = next
    }
    return (root, root * root == self)
  }
}

/// A signed fixed-point number for the approximations: `magnitude × 10^-scale`, the scale carried by the caller.
struct SignedNatural: Sendable {
  var negative: Bool
  var magnitude: DecimalNatural

  init(negative: Bool = false, _ magnitude: DecimalNatural) {
    self.negative = magnitude.isZero ? false : negative
    self.magnitude = magnitude
  }

  static let zero = SignedNatural(.zero)

  static func + (a: SignedNatural, b: SignedNatural) -> SignedNatural {
    if a.negative == b.negative { return SignedNatural(negative: a.negative, a.magnitude + b.magnitude) }
    return DecimalNatural.compare(a.magnitude, b.magnitude) >= 0
      ? SignedNatural(negative: a.negative, a.magnitude - b.magnitude)
      : SignedNatural(negative: b.negative, b.magnitude - a.magnitude)
  }

  static prefix func - (a: SignedNatural) -> SignedNatural { SignedNatural(negative: !a.negative, a.magnitude) }

  static func - (a: SignedNatural, b: SignedNatural) -> SignedNatural { a + (-b) }

  /// The product of two fixed-point values at `scale`, truncated back to it.
  func multiplied(by other: SignedNatural, scale: Int) -> SignedNatural {
    SignedNatural(negative: negative != other.negative, (magnitude * other.magnitude).shiftedDown(byDigits: scale).value)
  }

  /// The product by a whole number.
  func multiplied(byInteger factor: Int) -> SignedNatural {
    let magnitude = self.magnitude * DecimalNatural(UInt128(factor.magnitude))
    return SignedNatural(negative: negative != (factor < 0), magnitude)
  }

  func divided(bySmall divisor: UInt32) -> SignedNatural {
    SignedNatural(negative: negative, magnitude.divided(bySmall: divisor).quotient)
  }

  /// The quotient of two fixed-point values at `scale`, truncated.
  func divided(by other: SignedNatural, scale: Int) -> SignedNatural {
    SignedNatural(
      negative: negative != other.negative, magnitude.shiftedUp(byDigits: scale).divided(by: other.magnitude).quotient)
  }
}
