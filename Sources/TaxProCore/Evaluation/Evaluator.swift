/// A problem found while evaluating: division by zero, a value out of range, missing figures for a year…
public struct RuntimeError: Error, Sendable {
  public var diagnostic: Diagnostic
  public init(_ diagnostic: Diagnostic) { self.diagnostic = diagnostic }
}

/// Bounds that make every evaluation finish.
public struct EvaluationLimits: Sendable {
  /// Expression nodes evaluated, at most.
  public var steps: Int
  /// Nested formula calls and expression levels, at most.
  public var depth: Int
  public init(steps: Int = 50_000_000, depth: Int = 1_500) {
    self.steps = steps
    self.depth = depth
  }
}

/// Runs checked expressions for one tax year.
///
/// Parameters are read lazily and cached per evaluator. The evaluator is not thread-safe; make one per thread.
public final class Evaluator {
  public let program: Program
  /// The tax year whose figures parameters read.
  public let year: Int
  public let limits: EvaluationLimits
  /// Polled during long evaluations; return true to stop with a "cancelled" error (the REPL's Ctrl-C).
  public var isCancelled: (() -> Bool)?

  /// Parameters read so far, by jurisdiction, then by name. Searched linearly: there are a handful of jurisdictions
  /// and an evaluation reads a handful of names, and comparing short strings is cheaper than hashing them.
  var parameterCache: [(code: String, values: [(name: String, value: Value)])] = []

  func cachedParameter(_ code: String, _ name: String) -> Value? {
    for index in parameterCache.indices where parameterCache[index].code == code {
      for entry in parameterCache[index].values.indices where parameterCache[index].values[entry].name == name {
        return parameterCache[index].values[entry].value
      }
      return nil
    }
    return nil
  }

  func cacheParameter(_ code: String, _ name: String, _ value: Value) {
    if let index = parameterCache.firstIndex(where: { $0.code == code }) {
      parameterCache[index].values.append((name, value))
    } else {
      parameterCache.append((code, [(name, value)]))
    }
  }
  var constantCache: [Int: Value] = [:]
  var steps = 0
  var depth = 0
  var recorder: ExplanationRecorder?
  /// Formula calls being evaluated, innermost last, for error notes.
  var callStack: [(name: String, span: Span)] = []

  /// `year` defaults to the latest year with data (or the current one if there is none).
  public init(program: Program, year: Int? = nil, limits: EvaluationLimits = EvaluationLimits()) {
    self.program = program
    self.year = year ?? program.latestYear ?? 2025
    self.limits = limits
  }

  // MARK: Entry points

  /// Evaluates a top-level expression (no locals).
  public func evaluate(_ expression: TypedExpression) throws(RuntimeError) -> Value {
    steps = 0
    depth = 0
    callStack = []
    var frame: [Value] = []
    return try evaluate(expression, in: &frame)
  }

  /// Evaluates an expression checked with `locals` (see `Checker.check(_:source:against:predefined:locals:)`), giving
  /// their values in the same order.
  public func evaluate(_ expression: TypedExpression, locals: [Value]) throws(RuntimeError) -> Value {
    steps = 0
    depth = 0
    callStack = []
    var frame = locals
    return try evaluate(expression, in: &frame)
  }

  /// Evaluates and records the steps a learner reads.
  public func explain(_ expression: TypedExpression) throws(RuntimeError) -> (Value, [ExplanationStep]) {
    let recorder = ExplanationRecorder()
    self.recorder = recorder
    defer { self.recorder = nil }
    let value = try evaluate(expression)
    return (value, recorder.steps)
  }

  /// Calls a formula with arguments by parameter name; missing ones take their defaults.
  public func call(_ formulaName: String, arguments: [String: Value], at span: Span) throws(RuntimeError) -> Value {
    guard let index = program.formulaIndex[formulaName] else {
      throw RuntimeError(.error(.unknownFormula(formulaName), at: span))
    }
    let formula = program.formulas[index]
    let typedArguments: [TypedExpression?] = formula.parameters.map { parameter in
      arguments[parameter.name].map { TypedExpression(.literal($0), $0.type, span) }
    }
    return try evaluate(TypedExpression(.call(formula: index, arguments: typedArguments), formula.returnType, span))
  }

  func fail(_ message: DiagnosticMessage, at span: Span, notes: [DiagnosticNote] = []) -> RuntimeError {
    var allNotes = notes
    for frame in callStack.reversed().prefix(8) {
      allNotes.append(DiagnosticNote(.note, "in '\(frame.name)', called here", span: frame.span))
    }
    return RuntimeError(.error(message, at: span, notes: allNotes))
  }

  func arithmeticFailure(_ error: ArithmeticError, at span: Span) -> RuntimeError {
    switch error {
    case .divisionByZero: fail(.divisionByZero, at: span)
    case .overflow: fail(.overflow, at: span)
    case .noRealValue(let why): fail(.noRealValue(why), at: span)
    }
  }

  // MARK: The interpreter

  func evaluate(_ expression: TypedExpression, in frame: inout [Value]) throws(RuntimeError) -> Value {
    steps += 1
    if steps > limits.steps {
      throw fail(.stepLimit(limits.steps), at: expression.span)
    }
    if steps & 4095 == 0, let isCancelled, isCancelled() {
      throw fail(.evaluationCancelled, at: expression.span)
    }
    depth += 1
    defer { depth -= 1 }
    if depth > limits.depth {
      throw fail(.depthLimit(limits.depth), at: expression.span)
    }
    switch expression.kind {
    case .literal(let value):
      return value
    case .local(let slot, _):
      return slot < frame.count ? frame[slot] : .bool(false)
    case .constant(let index):
      return try constant(index, at: expression.span)
    case .parameter(let jurisdiction, let name):
      return try parameter(jurisdiction, name, at: expression.span)
    case .provinceParameter(let object, let name):
      guard case .province(let code) = try evaluate(object, in: &frame) else {
        throw fail(.internalError("expected a province"), at: object.span)
      }
      return try parameter(code, name, at: expression.span)
    case .jurisdictionName(let object):
      if case .federal = object.kind { return .text(program.jurisdictions["federal"]?.fullName ?? "Canada") }
      guard case .province(let code) = try evaluate(object, in: &frame) else {
        throw fail(.internalError("expected a province"), at: object.span)
      }
      return .text(program.jurisdictions[code]?.fullName ?? code)
    case .federal:
      throw fail(.federalNotAValueAtRun, at: expression.span)
    case .negate(let operand):
      let value = try evaluate(operand, in: &frame)
      guard let decimal = value.decimal else { throw fail(.internalError("expected a number"), at: operand.span) }
      return Value.numeric(value.type, -decimal)
    case .not(let operand):
      guard case .bool(let flag) = try evaluate(operand, in: &frame) else {
        throw fail(.internalError("expected true or false"), at: operand.span)
      }
      return .bool(!flag)
    case .arithmetic(_, let left, _) where left.isArithmetic:
      return try arithmeticChain(expression, in: &frame)
    case .and(let left, _) where left.isLogical:
      return try logicalChain(expression, in: &frame)
    case .or(let left, _) where left.isLogical:
      return try logicalChain(expression, in: &frame)
    case .arithmetic(let operation, let left, let right):
      let leftValue = try evaluate(left, in: &frame)
      let rightValue = try evaluate(right, in: &frame)
      let result = try arithmetic(operation, leftValue, rightValue, type: expression.type, span: expression.span)
      if let recorder {
        recorder.begin()
        recorder.end(.arithmetic(operation, leftValue, rightValue), span: expression.span, value: result)
      }
      return result
    case .comparison(let op, let left, let right):
      let leftValue = try evaluate(left, in: &frame)
      let rightValue = try evaluate(right, in: &frame)
      let result = Value.bool(compare(op, leftValue, rightValue))
      if let recorder {
        recorder.begin()
        recorder.end(.comparison(op, leftValue, rightValue), span: expression.span, value: result)
      }
      return result
    case .and(let left, let right):
      guard case .bool(let first) = try evaluate(left, in: &frame) else { return .bool(false) }
      if !first { return .bool(false) }
      return try evaluate(right, in: &frame)
    case .or(let left, let right):
      guard case .bool(let first) = try evaluate(left, in: &frame) else { return .bool(false) }
      if first { return .bool(true) }
      return try evaluate(right, in: &frame)
    case .conditional(let condition, let thenBranch, let elseBranch):
      recorder?.begin()
      guard case .bool(let taken) = try evaluate(condition, in: &frame) else {
        recorder?.abandon()
        throw fail(.internalError("expected true or false"), at: condition.span)
      }
      let value: Value
      do throws(RuntimeError) {
        value = try evaluate(taken ? thenBranch : elseBranch, in: &frame)
      } catch {
        recorder?.abandon()
        throw error
      }
      recorder?.end(.condition(taken: taken), span: expression.span, value: value)
      return value
    case .call(let index, let arguments):
      return try call(index, arguments, at: expression.span, callerFrame: &frame)
    case .builtin(let builtin, let arguments) where recorder == nil && arguments.count == 2 && builtin.isBracketFunction:
      // The bracket functions without an explanation: no argument array, no portions.
      let tableValue = try evaluate(arguments[0], in: &frame)
      let amountValue = try evaluate(arguments[1], in: &frame)
      return try bracketFunction(builtin, tableValue, amountValue, at: expression.span)
    case .builtin(let builtin, let arguments):
      var values: [Value] = []
      values.reserveCapacity(arguments.count)
      recorder?.begin()
      do throws(RuntimeError) {
        for argument in arguments { values.append(try evaluate(argument, in: &frame)) }
        return try self.builtin(builtin, values, arguments, span: expression.span)
      } catch {
        recorder?.abandon()
        throw error
      }
    case .brackets(let rows):
      return try brackets(rows, in: &frame)
    case .invalid:
      throw fail(.expressionHasErrors, at: expression.span)
    }
  }

  func compare(_ op: BinaryOperator, _ left: Value, _ right: Value) -> Bool {
    Self.compare(op, left, right)
  }

  /// A comparison's result (the checker has made both sides of one type).
  static func compare(_ op: BinaryOperator, _ left: Value, _ right: Value) -> Bool {
    if let a = left.decimal, let b = right.decimal {
      let order = ExactDecimal.compare(a, b)
      switch op {
      case .equal: return order == 0
      case .notEqual: return order != 0
      case .less: return order < 0
      case .lessEqual: return order <= 0
      case .greater: return order > 0
      case .greaterEqual: return order >= 0
      default: return false
      }
    }
    switch op {
    case .equal: return left == right
    case .notEqual: return left != right
    default: return false
    }
  }

  func arithmetic(
    _ operation: ArithmeticOperation, _ left: Value, _ right: Value, type: TaxType, span: Span
  ) throws(RuntimeError) -> Value {
    guard let a = left.decimal, let b = right.decimal else {
      throw fail(.internalError("arithmetic on a value that is not a number"), at: span)
    }
    do throws(ArithmeticError) {
      return try Self.arithmetic(operation, a, b, type: type)
    } catch {
      throw arithmeticFailure(error, at: span)
    }
  }

  /// An arithmetic node's value from its operands' decimals; Money rounded to the cent (a quotient once, from the
  /// exact quotient).
  @inline(__always)
  static func arithmetic(
    _ operation: ArithmeticOperation, _ a: ExactDecimal, _ b: ExactDecimal, type: TaxType
  ) throws(ArithmeticError) -> Value {
    let result: ExactDecimal
    switch operation {
    case .add: result = try a.adding(b)
    case .subtract: result = try a.subtracting(b)
    case .addPercentage: result = try a.adding(try a.multiplied(by: b))
    case .subtractPercentage: result = try a.subtracting(try a.multiplied(by: b))
    case .multiply: result = try a.multiplied(by: b)
    case .divide: result = type == .money ? try a.divided(by: b, places: 2) : try a.divided(by: b)
    case .power: result = try a.raised(to: b)
    case .modulo: result = try a.modulo(b)
    }
    return Value.numeric(type, result)
  }

  // MARK: Chains of operators

  /// A left-associated chain of arithmetic (`a + b - c * d …`, a left spine of arithmetic nodes in the tree), walked
  /// down its left side without recursion: the chain is one level deep however long it is (the parser allows 10,000
  /// operators in a row, which are not nesting), and each of its nodes takes its step, in the order the recursion
  /// took them (top down), with the limits checked there. Values and recorded steps are the recursion's.
  func arithmeticChain(_ top: TypedExpression, in frame: inout [Value]) throws(RuntimeError) -> Value {
    var spine = [top]
    var node = top
    while case .arithmetic(_, let left, _) = node.kind, left.isArithmetic {
      try step(left.span)
      spine.append(left)
      node = left
    }
    guard case .arithmetic(_, let leftmost, _) = node.kind else {
      throw fail(.internalError("expected arithmetic"), at: node.span)
    }
    var value = try evaluate(leftmost, in: &frame)
    for link in spine.reversed() {
      guard case .arithmetic(let operation, _, let right) = link.kind else { continue }
      let rightValue = try evaluate(right, in: &frame)
      let result = try arithmetic(operation, value, rightValue, type: link.type, span: link.span)
      if let recorder {
        recorder.begin()
        recorder.end(.arithmetic(operation, value, rightValue), span: link.span, value: result)
      }
      value = result
    }
    return value
  }

  /// A left-associated chain of `and` and `or`, walked like `arithmeticChain`, each keeping its short circuit.
  func logicalChain(_ top: TypedExpression, in frame: inout [Value]) throws(RuntimeError) -> Value {
    var spine = [top]
    var node = top
    while let left = node.logicalLeft, left.isLogical {
      try step(left.span)
      spine.append(left)
      node = left
    }
    guard let leftmost = node.logicalLeft else { throw fail(.internalError("expected and or or"), at: node.span) }
    var value = try evaluate(leftmost, in: &frame)
    for link in spine.reversed() {
      switch link.kind {
      case .and(_, let right):
        guard case .bool(true) = value else {
          value = .bool(false)
          continue
        }
        value = try evaluate(right, in: &frame)
      case .or(_, let right):
        guard case .bool(let first) = value else {
          value = .bool(false)
          continue
        }
        value = first ? .bool(true) : try evaluate(right, in: &frame)
      default:
        continue
      }
    }
    return value
  }

  /// One step of a node walked without its own level of depth (inside a chain): the step limit and cancellation
  /// checked as `evaluate` checks them.
  @inline(__always) func step(_ span: Span) throws(RuntimeError) {
    steps += 1
    if steps > limits.steps {
      throw fail(.stepLimit(limits.steps), at: span)
    }
    if steps & 4095 == 0, let isCancelled, isCancelled() {
      throw fail(.evaluationCancelled, at: span)
    }
  }

  // MARK: Globals

  func constant(_ index: Int, at span: Span) throws(RuntimeError) -> Value {
    if let cached = constantCache[index] { return cached }
    let info = program.constants[index]
    let value = try evaluateGlobal(info.value)
    recorder?.end(.constant(name: info.name), span: span, value: value)
    constantCache[index] = value
    return value
  }

  /// A constant's or a parameter's expression, in a frame of its own, as the start of an explanation step (which the
  /// caller ends; an error drops it).
  func evaluateGlobal(_ expression: TypedExpression) throws(RuntimeError) -> Value {
    recorder?.begin()
    var frame: [Value] = []
    do throws(RuntimeError) {
      return try evaluate(expression, in: &frame)
    } catch {
      recorder?.abandon()
      throw error
    }
  }

  /// A jurisdiction's parameter for the evaluator's year.
  public func parameter(_ code: String, _ name: String, at span: Span) throws(RuntimeError) -> Value {
    if let cached = cachedParameter(code, name) {
      if let recorder {
        recorder.begin()
        recorder.end(.parameter(jurisdiction: code, year: year, name: name), span: span, value: cached)
      }
      return cached
    }
    guard let jurisdiction = program.jurisdictions[code] else {
      throw fail(.unknownJurisdiction(code), at: span)
    }
    let shown = code == "federal" ? "federal" : code
    guard let definitions = jurisdiction.years[year] else {
      let years = jurisdiction.sortedYears.map(String.init).joined(separator: ", ")
      throw fail(
        .noFigures(shown, year), at: span,
        notes: [DiagnosticNote(.note, years.isEmpty ? "it has no figures at all" : "it has figures for \(years)")])
    }
    guard let definition = definitions[name] else {
      let years = jurisdiction.sortedYears.filter { jurisdiction.years[$0]?[name] != nil }
      throw fail(
        .noFigure(shown, name, year), at: span,
        notes: years.isEmpty
          ? [] : [DiagnosticNote(.note, "it is given for \(years.map(String.init).joined(separator: ", "))")])
    }
    var value = try evaluateGlobal(definition.value)
    if case .brackets(var table) = value {
      table.origin = "\(shown).\(name) (\(year))"
      value = .brackets(table)
    }
    recorder?.end(.parameter(jurisdiction: code, year: year, name: name), span: span, value: value)
    cacheParameter(code, name, value)
    return value
  }

  // MARK: Calls

  func call(
    _ index: Int, _ arguments: [TypedExpression?], at span: Span, callerFrame: inout [Value]
  ) throws(RuntimeError) -> Value {
    let formula = program.formulas[index]
    if formula.hasErrors {
      throw fail(
        .formulaHasErrors(formula.name), at: span,
        notes: [DiagnosticNote(.note, "defined here", span: formula.nameSpan)])
    }
    var frame = [Value](repeating: .bool(false), count: formula.slotCount)
    // Arguments are evaluated in the caller's frame, defaults in the callee's (they may use earlier parameters).
    var argumentValues: [NamedValue] = []
    argumentValues.reserveCapacity(formula.parameters.count)
    for (position, parameter) in formula.parameters.enumerated() {
      let value: Value
      let valueSpan: Span
      if position < arguments.count, let argument = arguments[position] {
        value = try evaluate(argument, in: &callerFrame)
        valueSpan = argument.span
      } else if let defaultValue = parameter.defaultValue {
        value = try evaluate(defaultValue, in: &frame)
        valueSpan = span
      } else {
        throw fail(.missingArgumentAtRun(parameter.name), at: span)
      }
      if parameter.lower != nil || parameter.upper != nil {
        try checkRange(value, parameter, frame: &frame, span: valueSpan, formula: formula.name)
      }
      frame[position] = value
      argumentValues.append(NamedValue(name: parameter.name, value: value))
    }
    callStack.append((formula.name, span))
    defer { callStack.removeLast() }
    recorder?.begin()
    let body = program.body(ofFormula: index)
    do throws(RuntimeError) {
      for step in body.lets {
        recorder?.begin()
        let value: Value
        do throws(RuntimeError) {
          value = try evaluate(step.value, in: &frame)
        } catch {
          recorder?.abandon()
          throw error
        }
        recorder?.end(.binding(name: step.name), span: step.nameSpan, value: value)
        frame[step.slot] = value
      }
      let result = try evaluate(body.result, in: &frame)
      recorder?.end(.formula(name: formula.name, arguments: argumentValues), span: span, value: result)
      return result
    } catch {
      recorder?.abandon()
      throw error
    }
  }

  func checkRange(
    _ value: Value, _ parameter: FormulaParameter, frame: inout [Value], span: Span, formula: String
  ) throws(RuntimeError) {
    guard let decimal = value.decimal else { return }
    let lower = try parameter.lower.map { (expression) throws(RuntimeError) in try evaluate(expression, in: &frame) }
    let upper = try parameter.upper.map { (expression) throws(RuntimeError) in try evaluate(expression, in: &frame) }
    let tooLow = lower?.decimal.map { decimal < $0 } ?? false
    let tooHigh = upper?.decimal.map { decimal > $0 } ?? false
    guard tooLow || tooHigh else { return }
    let range = [lower, upper].map { $0.map { ValueFormatter.format($0) } ?? "…" }.joined(separator: " to ")
    throw fail(
      .argumentOutOfRange(parameter.name, of: formula, range: range, value: ValueFormatter.format(value)),
      at: span, notes: [DiagnosticNote(.note, "the range is declared here", span: parameter.span)])
  }
}

extension TypedExpression {
  /// Whether this is an arithmetic node (a link of an arithmetic chain).
  var isArithmetic: Bool {
    if case .arithmetic = kind { return true }
    return false
  }

  /// Whether this is an `and` or an `or` (a link of a logical chain).
  var isLogical: Bool { logicalLeft != nil }

  /// The left operand of an `and` or an `or`.
  var logicalLeft: TypedExpression? {
    switch kind {
    case .and(let left, _), .or(let left, _): return left
    default: return nil
    }
  }
}
