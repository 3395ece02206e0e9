/// A bracket table turned into integers once, so that `tax(b, amount)` on an amount of money is a short search, one
/// multiplication and one rounding instead of a decimal subtraction, multiplication and sum per bracket.
///
/// Amounts are whole cents in an `Int64`, each rate an integer numerator over `10^scale`, and the tax on the full
/// brackets below each row is summed once, exactly, in units of `10^-(2 + scale)` dollars. The sum on an amount is then
/// exact, and rounded once to the cent, half away from zero — the arithmetic of `BracketMath.value`.
///
/// It answers only where that general path is exact too, and it also reproduces the general path's *representation*
/// of the result (its decimal exponent), so nothing can tell the two apart: tables with a negative rate, a threshold
/// beyond 10^15 cents or a rate with more than 16 digits are not prepared (`init` fails), and `tax` answers nil for an
/// amount that is not a whole number of cents or beyond 10^15 cents. Those take the general path.
final class PreparedBrackets: @unchecked Sendable {
  struct Row {
    /// The threshold in cents.
    var threshold: Int64
    /// The threshold's decimal exponent, and whether it is zero: the general path's sums take their exponent from
    /// their terms, and a term's from the threshold.
    var thresholdExponent: Int
    var thresholdIsZero: Bool
    /// The rate times `10^scale`.
    var rate: Int64
    var rateExponent: Int
    /// The tax on the full brackets below this row, in units of `10^-(2 + scale)` dollars.
    var below: Int128
    /// The least exponent of the general path's non-zero terms for those brackets (`Int.max` when there are none).
    var belowExponent: Int
  }

  /// The largest threshold and amount taken, in cents ($10 trillion): portions stay below 2 × 10^15 cents, so a term
  /// (at most 2 × 10^15 × 10^16 units) and any sum of them stay far below the 34 digits the general path keeps exact.
  static let maxCents: Int64 = 1_000_000_000_000_000
  /// The largest rate numerator (and rate magnitude) taken.
  static let maxRate: UInt128 = 10_000_000_000_000_000
  /// The largest `scale`: 10^18 still fits in 64 bits.
  static let maxScale = 18

  /// The rows, in memory of their own (read-only once built), so that reading them retains nothing.
  let rows: UnsafeMutableBufferPointer<Row>
  /// Rates are numerators over `10^scale`.
  let scale: Int
  let unit: UInt64

  init?(_ table: BracketTable) {
    var scale = 0
    for row in table.rows {
      guard !row.rate.isNegative, row.rate.magnitude <= Self.maxRate else { return nil }
      if !row.rate.isZero { scale = max(scale, -row.rate.exponent) }
    }
    guard scale <= Self.maxScale else { return nil }
    let unit = powersOfTen64[scale]
    var rows: [Row] = []
    rows.reserveCapacity(table.rows.count)
    for row in table.rows {
      guard let threshold = Self.cents(row.threshold) else { return nil }
      if let previous = rows.last, threshold <= previous.threshold { return nil }
      var rate: Int64 = 0
      if !row.rate.isZero {
        // `scale` ≥ -exponent, so the shift is at least 0; the numerator stays within `maxRate` or is refused.
        let shift = row.rate.exponent + scale
        guard shift < powersOfTen64.count else { return nil }
        let (numerator, overflow) = UInt64(truncatingIfNeeded: row.rate.magnitude).multipliedReportingOverflow(
          by: powersOfTen64[shift])
        guard !overflow, UInt128(numerator) <= Self.maxRate else { return nil }
        rate = Int64(numerator)
      }
      rows.append(
        Row(
          threshold: threshold, thresholdExponent: row.threshold.exponent, thresholdIsZero: row.threshold.isZero,
          rate: rate, rateExponent: row.rate.exponent, below: 0, belowExponent: .max))
    }
    // The full brackets below each row: `BracketMath.sum` itself up to the last threshold, whose running total after a
    // bracket is the tax on the brackets below the next row — its value and its representation (the least exponent
    // of its terms: sums align, and no term is negative) — or nothing while every rate so far is zero.
    if let last = table.rows.last, rows.count > 1 {
      var exact = true
      do {
        _ = try BracketMath.sum(table, amount: last.threshold) { index, _, _, _, total in
          guard let units = Self.units(total, scale: scale) else {
            exact = false
            return
          }
          rows[index + 1].below = units
          rows[index + 1].belowExponent = total.isZero ? .max : total.exponent
        }
      } catch {
        return nil
      }
      guard exact else { return nil }
    }
    self.rows = UnsafeMutableBufferPointer.allocate(capacity: rows.count)
    _ = self.rows.initialize(from: rows)
    self.scale = scale
    self.unit = unit
  }

  deinit {
    rows.deallocate()
  }

  /// A decimal's value in cents, when it is a whole number of them within `maxCents`.
  static func cents(_ value: ExactDecimal) -> Int64? {
    if value.isZero { return 0 }
    let shift = value.exponent + 2
    guard shift >= 0, shift < powersOfTen64.count, value.magnitude <= UInt128(maxCents) else { return nil }
    let (cents, overflow) = UInt64(truncatingIfNeeded: value.magnitude).multipliedReportingOverflow(
      by: powersOfTen64[shift])
    guard !overflow, cents <= UInt64(maxCents) else { return nil }
    return value.isNegative ? -Int64(cents) : Int64(cents)
  }

  /// A non-negative sum of brackets in units of `10^-(2 + scale)` dollars, when it is a whole number of them within
  /// `Int128` (always, for a table within the bounds).
  static func units(_ value: ExactDecimal, scale: Int) -> Int128? {
    if value.isZero { return 0 }
    let shift = value.exponent + 2 + scale
    guard !value.isNegative, shift >= 0, shift < powersOfTen.count else { return nil }
    let (units, overflow) = value.magnitude.multipliedReportingOverflow(by: powersOfTen[shift])
    guard !overflow, units >> 126 == 0 else { return nil }
    return Int128(units)
  }

  /// `value` divided by `10^scale`, with the remainder: by a constant divisor per scale, which the compiler turns into
  /// a multiplication (a division instruction takes dozens of cycles).
  @inline(__always)
  static func divide(_ value: UInt64, scale: Int) -> (quotient: UInt64, remainder: UInt64) {
    switch scale {
    case 0: (value, 0)
    case 1: value.quotientAndRemainder(dividingBy: 10)
    case 2: value.quotientAndRemainder(dividingBy: 100)
    case 3: value.quotientAndRemainder(dividingBy: 1_000)
    case 4: value.quotientAndRemainder(dividingBy: 10_000)
    case 5: value.quotientAndRemainder(dividingBy: 100_000)
    case 6: value.quotientAndRemainder(dividingBy: 1_000_000)
    case 7: value.quotientAndRemainder(dividingBy: 10_000_000)
    case 8: value.quotientAndRemainder(dividingBy: 100_000_000)
    default: value.quotientAndRemainder(dividingBy: powersOfTen64[scale])
    }
  }

  /// The exponent of `top - row.threshold` as `ExactDecimal.subtracting` makes it: either operand alone when the other
  /// is zero, otherwise aligned to the smaller exponent.
  @inline(__always)
  static func portionExponent(top: Int, topIsZero: Bool, _ row: Row) -> Int {
    if row.thresholdIsZero { return top }
    if topIsZero { return row.thresholdExponent }
    return Swift.min(top, row.thresholdExponent)
  }

  /// `BracketMath.value(of: .tax, table, amount: amount)`, to the representation; nil when the amount is not a whole
  /// number of cents within `maxCents` (the general path then answers).
  func tax(_ amount: ExactDecimal) -> ExactDecimal? {
    view.tax(amount)
  }

  /// The table without its ownership: copied and read without retaining anything, valid while the table lives.
  var view: View { View(rows: UnsafeBufferPointer(rows), scale: scale, unit: unit) }

  /// See `view`.
  struct View {
    let rows: UnsafeBufferPointer<Row>
    let scale: Int
    let unit: UInt64

    /// See `PreparedBrackets.tax`.
    func tax(_ amount: ExactDecimal) -> ExactDecimal? {
      guard let cents = PreparedBrackets.cents(amount) else { return nil }
      // The last row whose threshold is below the amount: its bracket holds the top of the amount. Thresholds rise,
      // so that is the number of thresholds below it; counted without branches in small tables (random amounts make
      // an early exit a guess the processor often gets wrong).
      var count = 0
      if rows.count <= 16 {
        // The sign bit of `threshold - cents` (no overflow within the bounds) is 1 exactly when it is below.
        for row in rows { count &-= Int(truncatingIfNeeded: (row.threshold &- cents) >> 63) }
      } else {
        var high = rows.count
        while count < high {
          let middle = (count + high) / 2
          if rows[middle].threshold < cents { count = middle + 1 } else { high = middle }
        }
      }
      guard count > 0 else { return .zero }
      let row = rows[count - 1]
      var exponent = row.belowExponent
      if row.rate != 0 {
        // The general path's top is the amount, or the next threshold (its representation) when they are equal.
        let topIsNext = count < rows.count && rows[count].threshold == cents
        let top = topIsNext ? rows[count].thresholdExponent : amount.exponent
        let topIsZero = topIsNext ? rows[count].thresholdIsZero : amount.isZero
        let portion = PreparedBrackets.portionExponent(top: top, topIsZero: topIsZero, row)
        exponent = Swift.min(exponent, portion + row.rateExponent)
      }
      // No term at all (every rate so far is zero): the general path's sum is still `ExactDecimal.zero`.
      guard exponent != .max else { return .zero }
      // Within the bounds above, nothing here can overflow.
      let units = row.below &+ Int128(cents &- row.threshold) &* Int128(row.rate)
      // Every rate is at least zero, so the sum is too; rounded half away from zero, i.e. half up.
      let magnitude = UInt128(truncatingIfNeeded: units)
      var rounded: UInt128
      if magnitude >> 64 == 0 {
        let (quotient, remainder) = PreparedBrackets.divide(UInt64(truncatingIfNeeded: magnitude), scale: scale)
        rounded = UInt128(remainder >= unit - remainder && remainder != 0 ? quotient + 1 : quotient)
      } else {
        let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: UInt128(unit))
        rounded = remainder != 0 && remainder >= UInt128(unit) - remainder ? quotient + 1 : quotient
      }
      // The general path keeps a sum with no digits below the cent as it is (`rounded(places:)` returns it), at its
      // own exponent; any other is rounded to exponent -2.
      if exponent >= -2 {
        rounded /= powersOfTen[exponent + 2]
        return ExactDecimal(negative: false, magnitude: rounded, exponent: exponent)
      }
      return ExactDecimal(negative: false, magnitude: rounded, exponent: -2)
    }
  }
}
