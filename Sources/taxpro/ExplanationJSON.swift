import TaxProCore

/// `taxpro explain --json`: the whole explanation as JSON for other tools (editors, notebooks, tests).
///
/// The shape is documented in docs/EXPLAIN_JSON.md and only grows: fields are added, never renamed or removed, so that
/// tools written against one version keep working. Exact figures are strings of decimal digits, so that no JSON reader
/// turns money into binary floating point.
enum ExplanationJSON {
  static func render(
    expression: String, value: Value, steps: [ExplanationStep], year: Int, renderer: ExplanationRenderer
  ) -> String {
    var fields: [(String, String)] = [
      ("expression", string(expression)), ("year", String(year)), ("value", valueJSON(value)),
      // What the result leaves out, beside it (the outermost formula's notes).
      ("notes", array(renderer.notes(for: steps).map(string))),
    ]
    if let (name, documentation) = renderer.documentation(for: steps) {
      fields.append(("documentation", documentationJSON(name: name, documentation)))
    }
    fields.append(("steps", array(steps.map { stepJSON($0, renderer) })))
    return object(fields)
  }

  // MARK: Building blocks

  static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }

  static func string(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  static func decimal(_ value: ExactDecimal) -> String { string(value.trimmed.description) }

  static func valueJSON(_ value: Value) -> String {
    var fields = [("type", string(value.type.description)), ("text", string(ValueFormatter.format(value)))]
    if let decimal = value.decimal { fields.append(("exact", string(decimal.trimmed.description))) }
    return object(fields)
  }

  static func documentationJSON(name: String, _ documentation: Documentation) -> String {
    var fields: [(String, String)] = [("name", string(name)), ("summary", string(documentation.summary))]
    let optional: [(String, String?)] = [
      ("definition", documentation.definition), ("instruction", documentation.instruction), ("tip", documentation.tip),
    ]
    for (key, text) in optional {
      if let text { fields.append((key, string(text))) }
    }
    fields.append(("topic", array(documentation.topic.map(string))))
    fields.append(("references", array(documentation.references.map(string))))
    fields.append(("notes", array(documentation.notes.map(string))))
    return object(fields)
  }

  /// A stable name for each arithmetic operation (the Swift case names, spelled out so that a rename cannot leak).
  static func operationName(_ operation: ArithmeticOperation) -> String {
    switch operation {
    case .add: "add"
    case .subtract: "subtract"
    case .addPercentage: "addPercentage"
    case .subtractPercentage: "subtractPercentage"
    case .multiply: "multiply"
    case .divide: "divide"
    }
  }

  // MARK: Steps

  static func stepJSON(_ step: ExplanationStep, _ renderer: ExplanationRenderer) -> String {
    var fields: [(String, String)] = []
    switch step.kind {
    case .formula(let name, let arguments):
      fields.append(("kind", string("formula")))
      fields.append(("name", string(name)))
      fields.append(("arguments", object(arguments.map { ($0.name, valueJSON($0.value)) })))
      if let documentation = renderer.program.formula(named: name)?.documentation {
        if !documentation.summary.isEmpty { fields.append(("summary", string(documentation.summary))) }
        if !documentation.notes.isEmpty { fields.append(("notes", array(documentation.notes.map(string)))) }
      }
    case .binding(let name):
      fields += [("kind", string("let")), ("name", string(name))]
      if let expression = renderer.letExpression(of: step) { fields.append(("expression", string(expression))) }
    case .parameter(let jurisdiction, let year, let name):
      fields += [
        ("kind", string("parameter")), ("jurisdiction", string(jurisdiction)), ("year", String(year)),
        ("name", string(name)),
      ]
      if let fullName = renderer.program.jurisdictions[jurisdiction]?.fullName {
        fields.append(("jurisdictionName", string(fullName)))
      }
    case .constant(let name):
      fields += [("kind", string("constant")), ("name", string(name))]
    case .brackets(let computation, let builtin):
      fields += bracketFields(computation, builtin: builtin, renderer)
    case .builtin(let builtin, let arguments):
      fields += [
        ("kind", string("builtin")), ("name", string(builtin.name)), ("arguments", array(arguments.map(valueJSON))),
      ]
    case .arithmetic(let operation, let left, let right):
      fields += [
        ("kind", string("arithmetic")), ("operation", string(operationName(operation))),
        ("symbol", string(operation.symbol)), ("left", valueJSON(left)), ("right", valueJSON(right)),
      ]
    case .comparison(let op, let left, let right):
      fields += [
        ("kind", string("comparison")), ("operator", string(op.rawValue)), ("left", valueJSON(left)),
        ("right", valueJSON(right)),
      ]
    case .condition(let taken):
      fields += [("kind", string("condition")), ("taken", taken ? "true" : "false")]
      if let condition = renderer.conditionText(of: step) { fields.append(("condition", string(condition))) }
    case .check:
      fields.append(("kind", string("check")))
    }
    fields.append(("value", valueJSON(step.value)))
    if let location = renderer.location(of: step.span) {
      fields.append(
        ("location", object([
          ("file", string(location.file)), ("line", String(location.line)), ("column", String(location.column)),
        ])))
    }
    if !step.children.isEmpty { fields.append(("steps", array(step.children.map { stepJSON($0, renderer) }))) }
    return object(fields)
  }

  static func bracketFields(
    _ computation: BracketComputation, builtin: Builtin, _ renderer: ExplanationRenderer
  ) -> [(String, String)] {
    var fields: [(String, String)] = [("kind", string("brackets")), ("function", string(builtin.name))]
    if let origin = computation.table.origin {
      fields.append(("table", string(origin)))
      if let (code, name, year) = ExplanationRenderer.parseOrigin(origin) {
        fields += [("jurisdiction", string(code)), ("parameter", string(name)), ("tableYear", String(year))]
        if let fullName = renderer.program.jurisdictions[code]?.fullName {
          fields.append(("jurisdictionName", string(fullName)))
        }
      }
    }
    fields.append(("amount", string(computation.amount.description)))
    let portions = computation.portions.map { portion in
      object([
        ("lower", string(portion.lower.description)),
        ("upper", portion.upper.map { string($0.description) } ?? "null"),
        ("rate", decimal(portion.rate)),
        ("portion", string(portion.portion.description)),
        ("tax", decimal(portion.tax)),
      ])
    }
    fields.append(("brackets", array(portions)))
    fields.append(
      ("rows", array(computation.table.rows.map { object([("threshold", decimal($0.threshold)), ("rate", decimal($0.rate))]) })))
    fields.append(("exactTotal", decimal(computation.exactTotal)))
    fields.append(("total", string(computation.total.description)))
    fields.append(("marginalRate", decimal(computation.marginalRate)))
    fields.append(("averageRate", decimal(computation.averageRate)))
    if let next = computation.table.rows.first(where: { $0.threshold > computation.amount }) {
      fields.append(("nextBracket", object([("threshold", decimal(next.threshold)), ("rate", decimal(next.rate))])))
    } else {
      fields.append(("nextBracket", "null"))
    }
    return fields
  }
}
