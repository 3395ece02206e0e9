/// Bracket arithmetic: progressive tax, marginal rate, average rate.
///
/// There is one bracket sum, `sum`: `compute` (with the portions an explanation shows), `value` (the number alone) and
/// `PreparedBrackets` (a table turned into integers, whose running totals it takes from `sum`) are all built on it.
public enum BracketMath {
  /// Walks the brackets `amount` reaches: each row's rate applies to the part of the amount between its threshold and
  /// the next row's. `each` is given every bracket in order — its row, its upper threshold (nil for the top one), the
  /// part of the amount in it, that part's tax, and the exact total so far. Returns the exact total and the marginal
  /// rate (the rate of the bracket the amount ends in, or of the row it sits exactly on).
  @inline(__always)
  static func sum(
    _ table: BracketTable, amount: ExactDecimal,
    each: (_ row: Int, _ upper: ExactDecimal?, _ portion: ExactDecimal, _ tax: ExactDecimal, _ total: ExactDecimal)
      -> Void
  ) throws(ArithmeticError) -> (total: ExactDecimal, marginal: ExactDecimal) {
    var total = ExactDecimal.zero
    var marginal = ExactDecimal.zero
    let rows = table.rows
    for index in rows.indices {
      let row = rows[index]
      guard amount > row.threshold else {
        if amount == row.threshold { marginal = row.rate }
        break
      }
      marginal = row.rate
      let hasNext = index + 1 < rows.count
      // At a threshold equal to the amount, `min` keeps the threshold (and its representation).
      let top = hasNext ? min(rows[index + 1].threshold, amount) : amount
      let portion = try top.subtracting(row.threshold)
      let tax = try portion.multiplied(by: row.rate)
      total = try total.adding(tax)
      each(index, hasNext ? rows[index + 1].threshold : nil, portion, tax, total)
    }
    return (total, marginal)
  }

  /// Works out the tax on `amount` bracket by bracket, for an explanation. The sum is exact and rounded once to the
  /// cent, half away from zero.
  public static func compute(_ table: BracketTable, amount: ExactDecimal) throws(ArithmeticError) -> BracketComputation {
    var portions: [BracketPortion] = []
    let (total, marginal) = try sum(table, amount: amount) { row, upper, portion, tax, _ in
      let bracket = table.rows[row]
      portions.append(BracketPortion(lower: bracket.threshold, upper: upper, rate: bracket.rate, portion: portion, tax: tax))
    }
    let rounded = total.rounded(places: 2, .halfAwayFromZero)
    let average = amount > .zero ? try rounded.divided(by: amount) : .zero
    return BracketComputation(
      table: table, amount: amount, portions: portions, exactTotal: total, total: rounded, marginalRate: marginal,
      averageRate: average)
  }

  /// What `tax`, `marginal_rate` or `average_rate` gives, without the portions: the same sum, nothing allocated.
  static func value(of builtin: Builtin, _ table: BracketTable, amount: ExactDecimal) throws(ArithmeticError)
    -> ExactDecimal
  {
    let (total, marginal) = try sum(table, amount: amount) { _, _, _, _, _ in }
    if builtin == .marginalRate { return marginal }
    let rounded = total.rounded(places: 2, .halfAwayFromZero)
    if builtin == .averageRate { return amount > .zero ? try rounded.divided(by: amount) : .zero }
    return rounded
  }
}
