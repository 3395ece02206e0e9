import JSONValue
import TaxProCore

/// `taxpro explain --json`: the whole explanation as JSON for other tools (editors, notebooks, tests).
///
/// The shape is documented in docs/EXPLAIN_JSON.md and only grows: fields are added, never renamed or removed, so that
/// tools written against one version keep working. Exact figures are strings of decimal digits, so that no JSON reader
/// turns money into binary floating point. Built as a `JSON` value (members in the order written here) and written by
/// the one serializer the language server and the REPL's files use.
public enum ExplanationJSON {
  /// The explanation as JSON text, as `taxpro explain --json` prints it.
  public static func render(
    expression: String, value: Value, steps: [ExplanationStep], year: Int, renderer: ExplanationRenderer
  ) -> String {
    json(expression: expression, value: value, steps: steps, year: year, renderer: renderer).serializedString()
  }

  /// The explanation as a `JSON` value, for a message that carries it inside (the REPL's JSON mode).
  public static func json(
    expression: String, value: Value, steps: [ExplanationStep], year: Int, renderer: ExplanationRenderer
  ) -> JSON {
    var object: JSONObject = [
      "expression": .string(expression), "year": .integer(year), "value": valueJSON(value),
      // What the result leaves out, beside it (the outermost formula's notes).
      "notes": .array(renderer.notes(for: steps).map(JSON.string)),
    ]
    if let (name, documentation) = renderer.documentation(for: steps) {
      object["documentation"] = documentationJSON(name: name, documentation)
    }
    object["steps"] = .array(steps.map { stepJSON($0, renderer) })
    return .object(object)
  }

  // MARK: Building blocks

  static func decimal(_ value: ExactDecimal) -> JSON { .string(value.trimmed.description) }

  static func strings(_ list: [String]) -> JSON { .array(list.map(JSON.string)) }

  static func valueJSON(_ value: Value) -> JSON {
    var object: JSONObject = ["type": .string(value.type.description), "text": .string(ValueFormatter.format(value))]
    if let decimal = value.decimal { object["exact"] = .string(decimal.trimmed.description) }
    return .object(object)
  }

  static func documentationJSON(name: String, _ documentation: Documentation) -> JSON {
    var object: JSONObject = ["name": .string(name), "summary": .string(documentation.summary)]
    object["definition"] = documentation.definition.map(JSON.string)
    object["instruction"] = documentation.instruction.map(JSON.string)
    object["tip"] = documentation.tip.map(JSON.string)
    object["topic"] = strings(documentation.topic)
    object["references"] = strings(documentation.references)
    object["notes"] = strings(documentation.notes)
    return .object(object)
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
    case .power: "power"
    case .modulo: "modulo"
    }
  }

  // MARK: Steps

  static func stepJSON(_ step: ExplanationStep, _ renderer: ExplanationRenderer) -> JSON {
    var object = JSONObject()
    switch step.kind {
    case .formula(let name, let arguments):
      object["kind"] = "formula"
      object["name"] = .string(name)
      object["arguments"] = .object(JSONObject(arguments.map { ($0.name, valueJSON($0.value)) }))
      if let documentation = renderer.program.formula(named: name)?.documentation {
        if !documentation.summary.isEmpty { object["summary"] = .string(documentation.summary) }
        if !documentation.notes.isEmpty { object["notes"] = .array(documentation.notes.map(JSON.string)) }
      }
    case .binding(let name):
      object["kind"] = "let"
      object["name"] = .string(name)
      object["expression"] = renderer.letExpression(of: step).map(JSON.string)
    case .parameter(let jurisdiction, let year, let name):
      object["kind"] = "parameter"
      object["jurisdiction"] = .string(jurisdiction)
      object["year"] = .integer(year)
      object["name"] = .string(name)
      object["jurisdictionName"] = (renderer.program.jurisdictions[jurisdiction]?.fullName).map(JSON.string)
    case .constant(let name):
      object["kind"] = "constant"
      object["name"] = .string(name)
    case .brackets(let computation, let builtin):
      bracketFields(computation, builtin: builtin, renderer, into: &object)
    case .builtin(let builtin, let arguments):
      object["kind"] = "builtin"
      object["name"] = .string(builtin.name)
      object["arguments"] = .array(arguments.map(valueJSON))
    case .arithmetic(let operation, let left, let right):
      object["kind"] = "arithmetic"
      object["operation"] = .string(operationName(operation))
      object["symbol"] = .string(operation.symbol)
      object["left"] = valueJSON(left)
      object["right"] = valueJSON(right)
    case .comparison(let op, let left, let right):
      object["kind"] = "comparison"
      object["operator"] = .string(op.rawValue)
      object["left"] = valueJSON(left)
      object["right"] = valueJSON(right)
    case .condition(let taken):
      object["kind"] = "condition"
      object["taken"] = .bool(taken)
      object["condition"] = renderer.conditionText(of: step).map(JSON.string)
    case .check:
      object["kind"] = "check"
    }
    object["value"] = valueJSON(step.value)
    if let location = renderer.location(of: step.span) {
      object["location"] = [
        "file": .string(location.file), "line": .integer(location.line), "column": .integer(location.column),
      ]
    }
    if !step.children.isEmpty { object["steps"] = .array(step.children.map { stepJSON($0, renderer) }) }
    return .object(object)
  }

  static func bracketFields(
    _ computation: BracketComputation, builtin: Builtin, _ renderer: ExplanationRenderer, into object: inout JSONObject
  ) {
    object["kind"] = "brackets"
    object["function"] = .string(builtin.name)
    if let origin = computation.table.origin {
      object["table"] = .string(origin)
      if let (code, name, year) = ExplanationRenderer.parseOrigin(origin) {
        object["jurisdiction"] = .string(code)
        object["parameter"] = .string(name)
        object["tableYear"] = .integer(year)
        object["jurisdictionName"] = (renderer.program.jurisdictions[code]?.fullName).map(JSON.string)
      }
    }
    object["amount"] = .string(computation.amount.description)
    object["brackets"] = .array(
      computation.portions.map { portion in
        [
          "lower": .string(portion.lower.description),
          "upper": portion.upper.map { .string($0.description) } ?? .null,
          "rate": decimal(portion.rate),
          "portion": .string(portion.portion.description),
          "tax": decimal(portion.tax),
        ]
      })
    object["rows"] = .array(
      computation.table.rows.map { ["threshold": decimal($0.threshold), "rate": decimal($0.rate)] })
    object["exactTotal"] = decimal(computation.exactTotal)
    object["total"] = .string(computation.total.description)
    object["marginalRate"] = decimal(computation.marginalRate)
    object["averageRate"] = decimal(computation.averageRate)
    if let next = computation.table.rows.first(where: { $0.threshold > computation.amount }) {
      object["nextBracket"] = ["threshold": decimal(next.threshold), "rate": decimal(next.rate)]
    } else {
      object["nextBracket"] = .null
    }
  }
}
