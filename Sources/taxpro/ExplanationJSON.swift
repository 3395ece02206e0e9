import TaxProCore

/// `taxpro explain --json`: the explanation as JSON for other tools.
enum ExplanationJSON {
  static func render(expression: String, value: Value, steps: [ExplanationStep], year: Int) -> String {
    var object: [(String, String)] = [
      ("expression", string(expression)), ("year", String(year)), ("value", valueJSON(value)),
      ("steps", "[" + steps.map(stepJSON).joined(separator: ",") + "]"),
    ]
    object = object.filter { !$0.1.isEmpty }
    return "{" + object.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

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
          result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
            + String(scalar.value, radix: 16)
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  static func valueJSON(_ value: Value) -> String {
    var fields = [("type", string(value.type.description)), ("text", string(ValueFormatter.format(value)))]
    if let decimal = value.decimal { fields.append(("exact", string(decimal.trimmed.description))) }
    return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }

  static func stepJSON(_ step: ExplanationStep) -> String {
    var fields: [(String, String)] = []
    switch step.kind {
    case .formula(let name, let arguments):
      fields.append(("kind", string("formula")))
      fields.append(("name", string(name)))
      fields.append(
        ("arguments", "{" + arguments.map { "\(string($0.name)):\(valueJSON($0.value))" }.joined(separator: ",") + "}"))
    case .binding(let name):
      fields += [("kind", string("let")), ("name", string(name))]
    case .parameter(let jurisdiction, let year, let name):
      fields += [
        ("kind", string("parameter")), ("jurisdiction", string(jurisdiction)), ("year", String(year)),
        ("name", string(name)),
      ]
    case .constant(let name):
      fields += [("kind", string("constant")), ("name", string(name))]
    case .brackets(let computation, let builtin):
      fields += [("kind", string("brackets")), ("function", string(builtin.name))]
      if let origin = computation.table.origin { fields.append(("table", string(origin))) }
      fields.append(("amount", string(computation.amount.description)))
      let rows = computation.portions.map { portion in
        "{" + [
          ("lower", string(portion.lower.description)),
          ("upper", portion.upper.map { string($0.description) } ?? "null"),
          ("rate", string(portion.rate.trimmed.description)),
          ("portion", string(portion.portion.description)),
          ("tax", string(portion.tax.trimmed.description)),
        ].map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
      }
      fields.append(("brackets", "[" + rows.joined(separator: ",") + "]"))
      fields.append(("exactTotal", string(computation.exactTotal.trimmed.description)))
      fields.append(("total", string(computation.total.description)))
      fields.append(("marginalRate", string(computation.marginalRate.trimmed.description)))
      fields.append(("averageRate", string(computation.averageRate.trimmed.description)))
    case .builtin(let builtin, let arguments):
      fields += [
        ("kind", string("builtin")), ("name", string(builtin.name)),
        ("arguments", "[" + arguments.map(valueJSON).joined(separator: ",") + "]"),
      ]
    case .arithmetic(let operation, let left, let right):
      fields += [
        ("kind", string("arithmetic")), ("operation", string(String(describing: operation))),
        ("left", valueJSON(left)), ("right", valueJSON(right)),
      ]
    case .comparison(let op, let left, let right):
      fields += [
        ("kind", string("comparison")), ("operator", string(op.rawValue)), ("left", valueJSON(left)),
        ("right", valueJSON(right)),
      ]
    case .condition(let taken):
      fields += [("kind", string("condition")), ("taken", taken ? "true" : "false")]
    case .check:
      fields.append(("kind", string("check")))
    }
    fields.append(("value", valueJSON(step.value)))
    if !step.children.isEmpty { fields.append(("steps", "[" + step.children.map(stepJSON).joined(separator: ",") + "]")) }
    return "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
  }
}
