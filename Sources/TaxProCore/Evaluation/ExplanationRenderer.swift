/// Turns explanation steps into indented text a learner can read, one step per line.
public struct ExplanationRenderer {
  public var program: Program
  public var style: (String, TextRole) -> String

  public init(program: Program, style: @escaping (String, TextRole) -> String = { text, _ in text }) {
    self.program = program
    self.style = style
  }

  /// The explanation of `expression` (its source text) that evaluated to `value` through `steps`.
  public func render(expression: String, value: Value, steps: [ExplanationStep]) -> String {
    var lines: [String] = []
    lines.append(style(expression, .emphasis) + " = " + style(ValueFormatter.format(value), .emphasis))
    for step in steps { render(step, depth: 1, into: &lines) }
    // The concept behind the outermost formula, for learners.
    if let formulaName = outermostFormula(steps), let formula = program.formula(named: formulaName) {
      let documentation = formula.documentation
      if let definition = documentation.definition {
        lines.append("")
        lines.append(style("Definition:", .note) + " " + definition)
      }
      if let tip = documentation.tip {
        lines.append(style("Tip:", .help) + " " + tip)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  func outermostFormula(_ steps: [ExplanationStep]) -> String? {
    for step in steps {
      if case .formula(let name, _) = step.kind { return name }
    }
    return nil
  }

  func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

  func render(_ step: ExplanationStep, depth: Int, into lines: inout [String]) {
    let pad = indent(depth)
    let value = ValueFormatter.format(step.value)
    switch step.kind {
    case .formula(let name, let arguments):
      let list = arguments.map { "\($0.name) = \(ValueFormatter.format($0.value))" }.joined(separator: ", ")
      lines.append(pad + style(name, .emphasis) + "(\(list)) = " + style(value, .emphasis))
      if let summary = program.formula(named: name)?.documentation.summary, !summary.isEmpty {
        lines.append(pad + "  " + style(firstSentence(summary), .note))
      }
      for child in step.children { render(child, depth: depth + 1, into: &lines) }
    case .binding(let name):
      for child in step.children { render(child, depth: depth + 1, into: &lines) }
      lines.append(pad + "let " + style(name, .emphasis) + " = " + value)
    case .parameter(let jurisdiction, let year, let name):
      let owner = jurisdiction == "federal" ? "federal" : jurisdiction
      let fullName = program.jurisdictions[jurisdiction]?.fullName ?? owner
      if case .brackets = step.value {
        lines.append(pad + "\(owner).\(name): \(fullName)'s \(year) bracket table")
      } else {
        lines.append(pad + "\(owner).\(name) = \(value)  (\(fullName), \(year))")
      }
    case .constant(let name):
      lines.append(pad + "\(name) = \(value)")
    case .brackets(let computation, let builtin):
      renderBrackets(computation, builtin: builtin, depth: depth, into: &lines)
    case .builtin(let builtin, let arguments):
      for child in step.children { render(child, depth: depth + 1, into: &lines) }
      let list = arguments.map(ValueFormatter.format).joined(separator: ", ")
      lines.append(pad + "\(builtin.name)(\(list)) = \(value)")
    case .arithmetic(let operation, let left, let right):
      for child in step.children { render(child, depth: depth, into: &lines) }
      lines.append(pad + describe(operation, left, right) + " = " + value)
    case .comparison(let op, let left, let right):
      for child in step.children { render(child, depth: depth, into: &lines) }
      lines.append(pad + "\(ValueFormatter.format(left)) \(op.rawValue) \(ValueFormatter.format(right)) is \(value)")
    case .condition(let taken):
      lines.append(pad + "if: the condition is \(taken), so the \(taken ? "'then'" : "'else'") branch applies")
      for child in step.children { render(child, depth: depth + 1, into: &lines) }
    case .check:
      for child in step.children { render(child, depth: depth, into: &lines) }
    }
  }

  func describe(_ operation: ArithmeticOperation, _ left: Value, _ right: Value) -> String {
    let a = ValueFormatter.format(left)
    let b = ValueFormatter.format(right)
    switch operation {
    case .addPercentage: return "\(a) + \(b) of \(a)"
    case .subtractPercentage: return "\(a) - \(b) of \(a)"
    default: return "\(a) \(operation.symbol) \(b)"
    }
  }

  func renderBrackets(_ computation: BracketComputation, builtin: Builtin, depth: Int, into lines: inout [String]) {
    let pad = indent(depth)
    let origin = computation.table.origin.map { " under \($0)" } ?? ""
    let amount = ValueFormatter.money(computation.amount)
    lines.append(pad + "Tax on \(amount)\(origin), bracket by bracket:")
    if computation.portions.isEmpty {
      lines.append(pad + "  no bracket reaches \(amount): no tax")
    }
    let ranges = computation.portions.map { portion in
      ValueFormatter.money(portion.lower) + (portion.upper.map { " to " + ValueFormatter.money($0) } ?? " and up")
    }
    let width = ranges.map(\.count).max() ?? 0
    for (portion, range) in zip(computation.portions, ranges) {
      let padded = range + String(repeating: " ", count: width - range.count)
      lines.append(
        pad + "  \(padded)  at \(ValueFormatter.rate(portion.rate)): \(ValueFormatter.money(portion.portion)) × \(ValueFormatter.rate(portion.rate)) = \(ValueFormatter.exact(portion.tax))"
      )
    }
    if computation.exactTotal != computation.total {
      lines.append(pad + "  total \(ValueFormatter.exact(computation.exactTotal)), rounded to the cent: \(ValueFormatter.money(computation.total))")
    } else {
      lines.append(pad + "  total: \(ValueFormatter.money(computation.total))")
    }
    lines.append(
      pad + "  marginal rate \(ValueFormatter.rate(computation.marginalRate)), average rate \(ValueFormatter.rate(computation.averageRate))")
    if builtin != .tax {
      lines.append(pad + "  \(builtin.name) = \(ValueFormatter.rate(builtin == .marginalRate ? computation.marginalRate : computation.averageRate))")
    }
  }

  func firstSentence(_ text: String) -> String {
    let flat = text.replacingOccurrences("\n", with: " ")
    if let end = flat.firstIndex(of: "."), flat.index(after: end) < flat.endIndex {
      return String(flat[...end])
    }
    return flat
  }
}

extension ValueFormatter {
  /// An exact amount of money with as many decimals as it has (at least two): `$2,670.743`.
  public static func exact(_ amount: ExactDecimal) -> String {
    let trimmed = amount.trimmed
    let (_, exponent) = trimmed.digitsAndExponent
    let decimals = max(2, -exponent)
    let plain = fixed(trimmed.absoluteValue, decimals: decimals)
    let parts = plain.split(separator: ".", maxSplits: 1)
    let integer = groupThousands(String(parts[0]))
    let fraction = parts.count > 1 ? "." + String(parts[1]) : ""
    return (amount.isNegative ? "-$" : "$") + integer + fraction
  }
}
