/// The built-in functions, each declared once: `declare()` writes its parameters, result and documentation, which the
/// checker, completion, hover, signature help, the REPL's `:help` and `taxpro vocabulary` (and through it the test of
/// the editor grammars) read; `evaluate` binds it to what it does. Adding one touches this file, and
/// `DiagnosticMessages.swift` if it can fail in a new way (ARCHITECTURE.md has the recipe).
public enum Builtin: String, CaseIterable, Sendable {
  case min, max, abs, round, floor, ceil, clamp, tax
  case marginalRate = "marginal_rate"
  case averageRate = "average_rate"
  case sqrt, ln, exp, log10

  public var name: String { rawValue }

  /// What the function takes and gives.
  public var declaration: BuiltinDeclaration { Builtin.declarations[self] ?? declare() }

  static let declarations = [Builtin: BuiltinDeclaration](uniqueKeysWithValues: allCases.map { ($0, $0.declare()) })

  func declare() -> BuiltinDeclaration {
    let x = BuiltinDeclaration.Parameter.numeric("x")
    let brackets: [BuiltinDeclaration.Parameter] = [
      .init("b", .exactly(.brackets), role: "the first argument"), .init("amount", .exactly(.money), role: "the amount"),
    ]
    let rounding = "Money to whole dollars, a Rate to whole percents, a Number to a whole number"
    let number = BuiltinDeclaration.Parameter("x", .exactly(.number), role: "the argument of '\(name)'")
    let approximate = "an approximation to about 32 digits, shown with `…` or `≈`. Numbers only, never Money."
    switch self {
    case .min:
      return BuiltinDeclaration(
        name, [x], variadic: true, result: .numeric,
        summary: "The smallest of its arguments (Money, Rate or Number, all of one type).")
    case .max:
      return BuiltinDeclaration(
        name, [x], variadic: true, result: .numeric,
        summary: "The largest of its arguments (Money, Rate or Number, all of one type).")
    case .abs:
      return BuiltinDeclaration(name, [x], result: .numeric, summary: "The value without its sign.")
    case .round:
      return BuiltinDeclaration(
        name, [x, .init("places", .exactly(.number), role: "the number of places", defaultText: "0")],
        result: .numeric,
        summary: "Rounds half away from zero: \(rounding) — or to `places` decimals.")
    case .floor:
      return BuiltinDeclaration(name, [x], result: .numeric, summary: "Rounds down: \(rounding).")
    case .ceil:
      return BuiltinDeclaration(name, [x], result: .numeric, summary: "Rounds up: \(rounding).")
    case .clamp:
      return BuiltinDeclaration(
        name, [x, .numeric("lo"), .numeric("hi")], result: .numeric, summary: "`x` kept between `lo` and `hi`.")
    case .tax:
      return BuiltinDeclaration(
        name, brackets, result: .exactly(.money),
        summary:
          "Tax on `amount` under bracket table `b`: each bracket's rate applies to the part of the amount inside the bracket; summed exactly, rounded once to the cent."
      )
    case .marginalRate:
      return BuiltinDeclaration(
        name, brackets, result: .exactly(.rate),
        summary: "The rate that applies to the next dollar of `amount` under bracket table `b`.")
    case .averageRate:
      return BuiltinDeclaration(
        name, brackets, result: .exactly(.rate),
        summary: "Tax as a share of the whole amount: `tax(b, amount) / amount` (0% when the amount is not positive).")
    case .sqrt:
      return BuiltinDeclaration(
        name, [number], result: .exactly(.number),
        summary: "The square root: exact when it is a decimal (`sqrt(2.25)` is 1.5), otherwise \(approximate)")
    case .ln:
      return BuiltinDeclaration(
        name, [number], result: .exactly(.number), summary: "The natural logarithm (base e), \(approximate)")
    case .exp:
      return BuiltinDeclaration(name, [number], result: .exactly(.number), summary: "e to the power x, \(approximate)")
    case .log10:
      return BuiltinDeclaration(
        name, [number], result: .exactly(.number),
        summary: "The logarithm in base 10: exact for a power of ten (`log10(1000)` is 3), otherwise \(approximate)")
    }
  }

  /// The function's value for `call`'s arguments, which the checker has matched with the declaration. Records its
  /// explanation step when the evaluator explains.
  func evaluate(_ call: BuiltinCall) throws(RuntimeError) -> Value {
    let values = call.values
    let result: Value
    switch self {
    case .min, .max:
      var best = values[0]
      for value in values.dropFirst() {
        guard let candidate = value.decimal, let current = best.decimal else { continue }
        if self == .min ? candidate < current : candidate > current { best = value }
      }
      result = best
    case .abs:
      result = Value.numeric(values[0].type, try call.number(0).absoluteValue)
    case .round, .floor, .ceil:
      var places = 0
      if values.count > 1 {
        let requested = try call.number(1)
        guard let whole = requested.intValue, whole >= -20, whole <= 20 else {
          throw call.fail(.placesOutOfRange(ValueFormatter.format(values[1])), at: call.arguments[1].span)
        }
        places = whole
      }
      let mode: RoundingMode =
        self == .round ? .halfAwayFromZero : (self == .floor ? .towardNegativeInfinity : .towardPositiveInfinity)
      let value = try call.number(0)
      // A Rate rounds its percentage: round(15.0198%, 2) is 15.02%.
      let effectivePlaces = values[0].type == .rate ? places + 2 : places
      result = Value.numeric(values[0].type, value.rounded(places: effectivePlaces, mode))
    case .clamp:
      let value = try call.number(0)
      let low = try call.number(1)
      let high = try call.number(2)
      if low > high {
        throw call.fail(
          .clampReversed(low: ValueFormatter.format(values[1]), high: ValueFormatter.format(values[2])), at: call.span)
      }
      result = value < low ? values[1] : (value > high ? values[2] : values[0])
    case .sqrt, .ln, .exp, .log10:
      let x = try call.number(0)
      do throws(ArithmeticError) {
        switch self {
        case .sqrt: result = .number(try x.squareRoot())
        case .ln: result = .number(try x.naturalLogarithm())
        case .exp: result = .number(try x.exponential())
        default: result = .number(try x.commonLogarithm())
        }
      } catch {
        throw call.evaluator.arithmeticFailure(error, at: call.span)
      }
    case .tax, .marginalRate, .averageRate:
      guard let recorder = call.evaluator.recorder else {
        return try call.evaluator.bracketFunction(self, values[0], values[1], at: call.span)
      }
      guard case .brackets(let table) = values[0], case .money(let amount) = values[1] else {
        throw call.fail(.internalError("'\(name)' expected a bracket table and an amount"), at: call.span)
      }
      let computation: BracketComputation
      do {
        computation = try BracketMath.compute(table, amount: amount)
      } catch {
        throw call.evaluator.arithmeticFailure(error, at: call.span)
      }
      switch self {
      case .tax: result = .money(computation.total)
      case .marginalRate: result = .rate(computation.marginalRate)
      default: result = .rate(computation.averageRate)
      }
      recorder.end(.brackets(computation, builtin: self), span: call.span, value: result)
      return result
    }
    call.evaluator.recorder?.end(.builtin(self, arguments: values), span: call.span, value: result)
    return result
  }

  /// `tax`, `marginal_rate` and `average_rate`: the functions of a bracket table and an amount, which evaluation
  /// takes a path of its own for (no argument array, no portions, prepared tables).
  var isBracketFunction: Bool { self == .tax || self == .marginalRate || self == .averageRate }
}

/// A built-in function's signature and documentation: what every tool shows and the checker enforces.
public struct BuiltinDeclaration: Sendable {
  /// An argument's type.
  public enum ValueType: Sendable, Equatable {
    /// `T`: Money, Rate or Number, one of them for every `T` argument of a call (and the result, if `T`).
    case numeric
    case exactly(TaxType)

    var written: String {
      switch self {
      case .numeric: "T"
      case .exactly(let type): type.description
      }
    }
  }

  public struct Parameter: Sendable {
    public let name: String
    public let type: ValueType
    /// How a type error names the argument: "the amount" → "the amount of 'tax' must be Money, but this is Number".
    let role: String
    /// The value taken when the argument is left out, as written (`round`'s places: `0`); nil when it is required.
    public let defaultText: String?

    init(_ name: String, _ type: ValueType, role: String, defaultText: String? = nil) {
      self.name = name
      self.type = type
      self.role = role
      self.defaultText = defaultText
    }

    static func numeric(_ name: String) -> Parameter {
      Parameter(name, .numeric, role: "the argument '\(name)'")
    }
  }

  public let name: String
  public let parameters: [Parameter]
  /// Whether the last parameter may be repeated (`min(x, …)`).
  public let isVariadic: Bool
  public let result: ValueType
  /// One or two sentences of Markdown, for completion, hover, signature help and `:help`.
  public let summary: String
  /// How many arguments a call may have (worked out once: the checker asks at every call).
  let arity: ClosedRange<Int>

  init(_ name: String, _ parameters: [Parameter], variadic: Bool = false, result: ValueType, summary: String) {
    self.name = name
    self.parameters = parameters
    self.isVariadic = variadic
    self.result = result
    self.summary = summary
    let required = parameters.filter { $0.defaultText == nil }.count
    arity = required...(variadic ? Int.max : parameters.count)
  }

  /// `round(x: T, places: Number = 0): T`, `min(x: T, …): T`.
  public var signature: String { labelled.label }

  /// The signature and where each parameter is written in it (UTF-8 byte ranges; a variadic function's `…` is one more
  /// slot), for signature help.
  var labelled: (label: String, slots: [(name: String, range: Range<Int>)]) {
    var label = name + "("
    var slots: [(name: String, range: Range<Int>)] = []
    func slot(_ name: String, _ text: String) {
      if !slots.isEmpty { label += ", " }
      let start = label.utf8.count
      label += text
      slots.append((name, start..<label.utf8.count))
    }
    for parameter in parameters {
      slot(parameter.name, "\(parameter.name): \(parameter.type.written)" + (parameter.defaultText.map { " = \($0)" } ?? ""))
    }
    if isVariadic { slot("…", "…") }
    return (label + "): " + result.written, slots)
  }

  /// The parameter an argument at `position` is given for (the last one repeats in a variadic function).
  func parameter(at position: Int) -> Parameter? {
    position < parameters.count ? parameters[position] : (isVariadic ? parameters.last : nil)
  }
}

/// A built-in's arguments as `Builtin.evaluate` gets them.
struct BuiltinCall {
  let builtin: Builtin
  let values: [Value]
  /// The checked arguments, for the spans of errors.
  let arguments: [TypedExpression]
  let span: Span
  let evaluator: Evaluator

  func number(_ index: Int) throws(RuntimeError) -> ExactDecimal {
    guard index < values.count, let decimal = values[index].decimal else {
      throw fail(.internalError("'\(builtin.name)' expected a number"), at: span)
    }
    return decimal
  }

  func fail(_ message: DiagnosticMessage, at span: Span) -> RuntimeError { evaluator.fail(message, at: span) }
}
