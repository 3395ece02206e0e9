extension Evaluator {
  /// A built-in function's value (`Builtin.evaluate`), its explanation step recorded when explaining.
  func builtin(
    _ builtin: Builtin, _ values: [Value], _ arguments: [TypedExpression], span: Span
  ) throws(RuntimeError) -> Value {
    try builtin.evaluate(BuiltinCall(builtin: builtin, values: values, arguments: arguments, span: span, evaluator: self))
  }

  /// `tax`, `marginal_rate` or `average_rate` of a table and an amount, without an explanation: the one place both
  /// the evaluator's and compiled code's fast paths (and `Builtin.evaluate`) get their value from.
  func bracketFunction(
    _ builtin: Builtin, _ tableValue: Value, _ amountValue: Value, at span: Span
  ) throws(RuntimeError) -> Value {
    guard case .brackets(let table) = tableValue, case .money(let amount) = amountValue else {
      throw fail(.internalError("'\(builtin.name)' expected a bracket table and an amount"), at: span)
    }
    do throws(ArithmeticError) {
      let result = try BracketMath.value(of: builtin, table, amount: amount)
      return builtin == .tax ? .money(result) : .rate(result)
    } catch {
      throw arithmeticFailure(error, at: span)
    }
  }

  /// A bracket table written in the source: rows in order, thresholds rising.
  func brackets(_ rows: [TypedBracketRow], in frame: inout [Value]) throws(RuntimeError) -> Value {
    var values: [BracketRowValue] = []
    values.reserveCapacity(rows.count)
    for row in rows {
      guard case .money(let threshold) = try evaluate(row.threshold, in: &frame),
        case .rate(let rate) = try evaluate(row.rate, in: &frame)
      else {
        throw fail(.internalError("a bracket row must be an amount and a rate"), at: row.threshold.span)
      }
      if let previous = values.last, threshold <= previous.threshold {
        throw fail(.unorderedBrackets(threshold, after: previous.threshold), at: row.threshold.span)
      }
      values.append(BracketRowValue(threshold: threshold, rate: rate))
    }
    return .brackets(BracketTable(rows: values))
  }
}
