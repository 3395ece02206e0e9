/// Bracket arithmetic: progressive tax, marginal rate, average rate.
public enum BracketMath {
  /// Works out the tax on `amount`: each row's rate applies to the part of the amount between its threshold and the next
  /// row's. The sum is exact and rounded once to the cent, half away from zero.
  public static func compute(_ table: BracketTable, amount: ExactDecimal) throws(ArithmeticError) -> BracketComputation {
    var portions: [BracketPortion] = []
    var total = ExactDecimal.zero
    var marginal = ExactDecimal.zero
    for (index, row) in table.rows.enumerated() {
      guard amount > row.threshold else {
        if amount == row.threshold { marginal = row.rate }
        break
      }
      marginal = row.rate
      let upper = index + 1 < table.rows.count ? table.rows[index + 1].threshold : nil
      let top = upper.map { min($0, amount) } ?? amount
      let portion = try top.subtracting(row.threshold)
      let tax = try portion.multiplied(by: row.rate)
      total = try total.adding(tax)
      portions.append(BracketPortion(lower: row.threshold, upper: upper, rate: row.rate, portion: portion, tax: tax))
    }
    let rounded = total.rounded(places: 2, .halfAwayFromZero)
    let average = amount > .zero ? try rounded.divided(by: amount) : .zero
    return BracketComputation(
      table: table, amount: amount, portions: portions, exactTotal: total, total: rounded, marginalRate: marginal,
      averageRate: average)
  }

  /// What `tax`, `marginal_rate` or `average_rate` gives, without the portions an explanation shows: the same
  /// arithmetic in the same order as `compute` (so the same value and the same errors), with nothing allocated.
  static func value(of builtin: Builtin, _ table: BracketTable, amount: ExactDecimal) throws(ArithmeticError)
    -> ExactDecimal
  {
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
      let top = index + 1 < rows.count ? min(rows[index + 1].threshold, amount) : amount
      let portion = try top.subtracting(row.threshold)
      total = try total.adding(try portion.multiplied(by: row.rate))
    }
    let rounded = total.rounded(places: 2, .halfAwayFromZero)
    switch builtin {
    case .marginalRate: return marginal
    case .averageRate: return amount > .zero ? try rounded.divided(by: amount) : .zero
    default: return rounded
    }
  }
}
