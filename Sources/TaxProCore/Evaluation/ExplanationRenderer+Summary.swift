/// The summary (`ExplanationSummary`) as text: the inputs, each named value with what decided it, the result in
/// words, and what a difference between two amounts was taxed at. Names and values are the readable ones.
extension ExplanationRenderer {
  func renderSummary(_ summary: ExplanationSummary, readable: ReadableText, into output: inout Output) {
    let root = summary.root
    if let call = root.call, let inputs = inputsLine(call.arguments, formula: call.name) {
      output.line(style("Inputs:", .note) + " " + inputs, depth: 1)
    }
    for child in root.children { renderNode(child, depth: 1, readable: readable, into: &output) }
    if case .formula(let name) = root.kind, let body = program.body(ofFormulaNamed: name),
      let words = readable.describeIfSimple(body.result)
    {
      output.line("result: " + words + " = " + style(formatted(root.value), .emphasis), depth: 1)
    }
    renderPoints(root.points, depth: 1, readable: readable, into: &output)
  }

  /// `income $85,000.00, province Ontario`: the inputs that say something (a zero amount or a false flag after the
  /// first input is a default left alone).
  func inputsLine(_ arguments: [NamedValue], formula: String) -> String? {
    let parts = telling(arguments, formula: formula).map { ReadableText.humanise($0.name) + " " + readableValue($0.value) }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// The arguments that say something: a zero amount or a false flag after the first is a default left alone, and
  /// so is an input that copies another (`net_income = income`).
  func telling(_ arguments: [NamedValue], formula: String) -> [NamedValue] {
    let parameters = program.formula(named: formula)?.parameters ?? []
    return arguments.enumerated().filter { index, argument in
      if index > 0, argument.value.decimal?.isZero == true || argument.value == .bool(false) { return false }
      if let parameter = parameters.first(where: { $0.name == argument.name }),
        case .local(_, let source)? = parameter.defaultValue?.kind,
        arguments.first(where: { $0.name == source })?.value == argument.value
      {
        return false
      }
      return true
    }.map(\.element)
  }

  func readableValue(_ value: Value) -> String {
    switch value {
    case .province(let code): return program.jurisdictions[code]?.fullName ?? code
    case .bool(let flag): return flag ? "yes" : "no"
    default: return formatted(value)
    }
  }

  /// `label = value: what it is`, then its events, then the values inside it.
  func renderNode(_ node: ExplanationSummary.Node, depth: Int, readable: ReadableText, into output: inout Output) {
    var line: String
    let value = style(formatted(node.value), .emphasis)
    switch node.kind {
    case .binding(let name):
      line = ReadableText.humanise(name) + " = " + value
      if let call = node.call {
        line += ": " + callPhrase(call.name, call.arguments, readable: readable)
      } else if node.points.isEmpty, node.children.isEmpty, let words = letWords(node.span, readable: readable) {
        line += ": " + words
      }
    case .formula(let name):
      line = callPhrase(name, node.call?.arguments ?? [], readable: readable) + " = " + value
    case .expression:
      line = value
    }
    output.line(line, depth: depth)
    renderPoints(node.points, depth: depth + 1, readable: readable, into: &output)
    for child in node.children { renderNode(child, depth: depth + 1, readable: readable, into: &output) }
  }

  /// "combined income tax ($60,000.00, Ontario)": the formula's title and the inputs that say something. A number
  /// left at its written default (`age = 40`) is not repeated, since a bare "40" says nothing there (a province
  /// names itself); a text says what it chooses (`line income tax`).
  func callPhrase(_ name: String, _ arguments: [NamedValue], readable: ReadableText) -> String {
    let parameters = program.formula(named: name)?.parameters ?? []
    let values = telling(arguments, formula: name).compactMap { argument -> String? in
      let parameter = parameters.first { $0.name == argument.name }
      if case .literal(let written)? = parameter?.defaultValue?.kind, written == argument.value,
        argument.value.decimal != nil
      {
        return nil
      }
      if case .text(let text) = argument.value {
        return ReadableText.humanise(argument.name) + " " + ReadableText.humanise(text)
      }
      return readableValue(argument.value)
    }
    return readable.title(ofFormula: name) + (values.isEmpty ? "" : " (" + values.joined(separator: ", ") + ")")
  }

  /// A `let`'s expression in words, when it says it simply.
  func letWords(_ span: Span, readable: ReadableText) -> String? {
    if let step = program.letStep(namedAt: span) { return readable.describeIfSimple(step.value) }
    return nil
  }

  // MARK: Events

  func renderPoints(
    _ points: [ExplanationSummary.Point], depth: Int, readable: ReadableText, into output: inout Output
  ) {
    var index = 0
    while index < points.count {
      switch points[index] {
      case .between(_, let low, let high, _):
        // Differences over the same two amounts share one heading.
        var group: [ExplanationSummary.Point] = []
        while index < points.count, case .between(_, let otherLow, let otherHigh, _) = points[index], otherLow == low,
          otherHigh == high
        {
          group.append(points[index])
          index += 1
        }
        let size = (try? high.subtracting(low)).map(ValueFormatter.money) ?? "difference"
        output.line(
          "The \(size) between \(ValueFormatter.money(low)) and \(ValueFormatter.money(high)) was taxed at:",
          depth: depth)
        for case .between(let table, _, _, let portions) in group {
          output.line(betweenText(table, portions, readable: readable), depth: depth + 1)
        }
        continue
      case .brackets(let computation):
        output.line(bracketsText(computation, readable: readable), depth: depth)
      case .limit(let limit):
        output.line(limitText(limit, readable: readable), depth: depth)
      case .threshold(let threshold):
        output.line(thresholdText(threshold, readable: readable), depth: depth)
      }
      index += 1
    }
  }

  /// "the federal brackets on $85,000.00: 14% on the first $58,523.00, then 20.5% on the $26,477.00 above
  /// $58,523.00".
  func bracketsText(_ computation: BracketComputation, readable: ReadableText) -> String {
    let name = readable.tableName(origin: computation.table.origin)
    let head = name + " on " + ValueFormatter.money(computation.amount) + ": "
    let portions = computation.portions
    guard let last = portions.last else { return head + "no tax: the amount is below the first bracket" }
    if portions.count == 1 {
      var text = head + "all of it at " + ValueFormatter.rate(last.rate)
      if let next = computation.table.rows.first(where: { $0.threshold > computation.amount }) {
        text += "; the next bracket, at \(ValueFormatter.rate(next.rate)), starts at \(ValueFormatter.money(next.threshold))"
      }
      return text
    }
    var parts: [String] = []
    for (index, portion) in portions.enumerated() {
      let rate = ValueFormatter.rate(portion.rate)
      let amount = ValueFormatter.money(portion.portion)
      if index == 0 {
        parts.append("\(rate) on the first \(amount)")
      } else if index == portions.count - 1 {
        parts.append("\(rate) on the \(amount) above \(ValueFormatter.money(portion.lower))")
      } else {
        parts.append("\(rate) on the next \(amount)")
      }
    }
    return head + ReadableText.list(parts)
  }

  /// "under the federal brackets, $1,477.00 of it lies above the $58,523.00 threshold, at 20.5%, and $3,523.00
  /// below it, at 14%".
  func betweenText(_ table: BracketTable, _ portions: [BracketPortion], readable: ReadableText) -> String {
    let head = "under " + readable.tableName(origin: table.origin) + ", "
    guard portions.count > 1 else {
      return head + "all of it at " + (portions.first.map { ValueFormatter.rate($0.rate) } ?? "0%")
    }
    let top = portions[portions.count - 1]
    var parts = [
      "\(ValueFormatter.money(top.portion)) of it lies above the \(ValueFormatter.money(top.lower)) threshold, at \(ValueFormatter.rate(top.rate))"
    ]
    if portions.count == 2 {
      parts.append("\(ValueFormatter.money(portions[0].portion)) below it, at \(ValueFormatter.rate(portions[0].rate))")
    } else {
      for portion in portions.dropLast().reversed() {
        parts.append(
          "\(ValueFormatter.money(portion.portion)) above \(ValueFormatter.money(portion.lower)), at \(ValueFormatter.rate(portion.rate))")
      }
    }
    return head + parts.joined(separator: "; ")
  }

  func limitText(_ limit: ExplanationSummary.Limit, readable: ReadableText) -> String {
    let value = formatted(limit.value)
    let unlimited = formatted(limit.unlimited)
    let name = limit.parameter.map { readable.phrase(forParameter: $0.name, in: $0.code, withValue: false) }
    switch limit.kind {
    case .cap:
      return "capped at " + (name.map { "\($0), \(value)" } ?? value) + " (not \(unlimited))"
    case .floor:
      if let name { return "raised to \(name), \(value) (not \(unlimited))" }
      return "at least \(value), not \(unlimited)"
    }
  }

  func thresholdText(_ threshold: ExplanationSummary.Threshold, readable: ReadableText) -> String {
    let name = readable.phrase(forParameter: threshold.parameter.name, in: threshold.parameter.code)
    let amount = formatted(threshold.amount)
    let subject = threshold.amountName.map { ReadableText.humanise($0) + " " + amount } ?? amount
    guard let comparison = threshold.comparison else {
      guard let a = threshold.amount.decimal, let b = threshold.threshold.decimal,
        let difference = try? a.subtracting(b)
      else { return subject + " measured against " + name }
      let distance = Value.numeric(threshold.amount.type, difference.absoluteValue)
      return subject + " is " + formatted(distance) + (threshold.holds ? " above " : " below ") + name
    }
    let verb: String
    switch (comparison, threshold.holds) {
    case (.lessEqual, true), (.greater, false): verb = "is at most"
    case (.lessEqual, false), (.greater, true): verb = "is above"
    case (.less, true), (.greaterEqual, false): verb = "is below"
    case (.less, false), (.greaterEqual, true): verb = "is at least"
    default: verb = threshold.holds ? "meets" : "does not meet"
    }
    return subject + " " + verb + " " + name
  }
}
