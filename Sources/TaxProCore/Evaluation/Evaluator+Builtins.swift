extension Evaluator {
  func builtin(
    _ builtin: Builtin, _ values: [Value], _ arguments: [TypedExpression], span: Span
  ) throws(RuntimeError) -> Value {
    func number(_ index: Int) throws(RuntimeError) -> ExactDecimal {
      guard index < values.count, let decimal = values[index].decimal else {
        throw fail(.internalError("'\(builtin.name)' expected a number"), at: span)
      }
      return decimal
    }
    let result: Value
    switch builtin {
    case .min, .max:
      var best = values[0]
      for value in values.dropFirst() {
        guard let candidate = value.decimal, let current = best.decimal else { continue }
        if builtin == .min ? candidate < current : candidate > current { best = value }
      }
      result = best
    case .abs:
      result = Value.numeric(values[0].type, try number(0).absoluteValue)
    case .round, .floor, .ceil:
      var places = 0
      if values.count > 1 {
        let requested = try number(1)
        guard let whole = requested.intValue, whole >= -20, whole <= 20 else {
          throw fail(
            .placesOutOfRange(ValueFormatter.format(values[1])),
            at: arguments[1].span)
        }
        places = whole
      }
      let mode: RoundingMode =
        builtin == .round ? .halfAwayFromZero : (builtin == .floor ? .towardNegativeInfinity : .towardPositiveInfinity)
      let value = try number(0)
      // A Rate rounds its percentage: round(15.0198%, 2) is 15.02%.
      let effectivePlaces = values[0].type == .rate ? places + 2 : places
      result = Value.numeric(values[0].type, value.rounded(places: effectivePlaces, mode))
    case .clamp:
      let value = try number(0)
      let low = try number(1)
      let high = try number(2)
      if low > high {
        throw fail(
          .clampReversed(low: ValueFormatter.format(values[1]), high: ValueFormatter.format(values[2])),
          at: span)
      }
      result = value < low ? values[1] : (value > high ? values[2] : values[0])
    case .tax, .marginalRate, .averageRate:
      guard case .brackets(let table) = values[0], case .money(let amount) = values[1] else {
        throw fail(.internalError("'\(builtin.name)' expected a bracket table and an amount"), at: span)
      }
      let computation: BracketComputation
      do {
        computation = try BracketMath.compute(table, amount: amount)
      } catch {
        throw arithmeticFailure(error, at: span)
      }
      switch builtin {
      case .tax: result = .money(computation.total)
      case .marginalRate: result = .rate(computation.marginalRate)
      default: result = .rate(computation.averageRate)
      }
      recorder?.end(.brackets(computation, builtin: builtin), span: span, value: result)
      return result
    }
    recorder?.end(.builtin(builtin, arguments: values), span: span, value: result)
    return result
  }

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
        throw fail(
          .unorderedBrackets(threshold, after: previous.threshold),
          at: row.threshold.span)
      }
      values.append(BracketRowValue(threshold: threshold, rate: rate))
    }
    return .brackets(BracketTable(rows: values))
  }
}
