/// A checked expression compiled once into a tree of node objects, for evaluating it many times with different locals
/// (the rows of `taxpro eval --csv`).
///
/// Re-walking a `TypedExpression` pays, at every node, for projecting an indirect enum's payload, retaining and
/// releasing it, and switching on its kind; parameters are looked up by name every time. Compiled, each node is an
/// object whose children and constants are `let` properties (called without retaining anything), parameters are read
/// once per node, and `tax()` on a jurisdiction's table uses that table prepared into integers (`PreparedBrackets`).
///
/// The results are the tree-walking evaluator's, errors included: every node counts one step and one level of depth
/// and checks the limits and cancellation where the evaluator does, formula calls keep the same call stack for error
/// notes, and everything uncommon (jurisdiction names, bracket literals, range checks, parameter definitions) is run by
/// the evaluator itself on the same counters. There is no explanation: use `Evaluator.explain` for that.
///
/// Like its evaluator, a compiled expression is not thread-safe; compile one per thread.
public final class CompiledExpression {
  let evaluator: Evaluator
  let compiler: ExpressionCompiler
  let root: Node

  /// Compiles `expression` to run with `evaluator`'s program, year and limits.
  public init(_ expression: TypedExpression, evaluator: Evaluator) {
    self.evaluator = evaluator
    compiler = ExpressionCompiler(evaluator: evaluator)
    root = compiler.compile(expression)
  }

  /// `Evaluator.evaluate(expression, locals: locals)`, faster.
  public func evaluate(locals: [Value]) throws(RuntimeError) -> Value {
    // The call stack is empty here: every call, compiled or walked, takes itself off it on the way out, thrown or not.
    var machine = Machine(frame: locals, evaluator: evaluator)
    return try root.run(&machine)
  }
}

/// What compiled code runs on: the frame of the formula being evaluated, the step and depth counters and their limits.
/// A struct passed `inout`, so that counting costs no exclusivity checks (the evaluator's own counters are a class's).
struct Machine {
  var frame: [Value]
  var steps = 0
  var depth = 0
  let maxSteps: Int
  let maxDepth: Int
  /// Held by the compiled expression for as long as any machine runs.
  unowned(unsafe) let evaluator: Evaluator

  init(frame: [Value], evaluator: Evaluator) {
    self.frame = frame
    self.evaluator = evaluator
    maxSteps = evaluator.limits.steps
    maxDepth = evaluator.limits.depth
  }

  /// One step and one level deeper, as `Evaluator.evaluate(_:in:)` begins every node: the limits and cancellation
  /// checked in its order.
  @inline(__always) mutating func enter(_ span: Span) throws(RuntimeError) {
    steps &+= 1
    if steps > maxSteps { throw stepLimit(span) }
    if steps & 4095 == 0, let isCancelled = evaluator.isCancelled, isCancelled() { throw cancelled(span) }
    depth &+= 1
    if depth > maxDepth { throw depthLimit(span) }
  }

  /// One step without a level of depth, as a link inside a chain of operators takes it (`Evaluator.step`).
  /// The steps of a chain's links below its top (`count` links, `span(i)` the i-th's span, bottom up), taken top
  /// down as the recursion would have entered them.
  @inline(__always) mutating func stepBelowTop(_ count: Int, span: (Int) -> Span) throws(RuntimeError) {
    var index = count - 2
    while index >= 0 {
      try step(span(index))
      index -= 1
    }
  }

  @inline(__always) mutating func step(_ span: Span) throws(RuntimeError) {
    steps &+= 1
    if steps > maxSteps { throw stepLimit(span) }
    if steps & 4095 == 0, let isCancelled = evaluator.isCancelled, isCancelled() { throw cancelled(span) }
  }

  /// Back up a level, as a node ends.
  @inline(__always) mutating func leave() {
    depth &-= 1
  }

  @inline(never) func stepLimit(_ span: Span) -> RuntimeError {
    evaluator.fail(.stepLimit(maxSteps), at: span)
  }

  @inline(never) func cancelled(_ span: Span) -> RuntimeError {
    evaluator.fail(.evaluationCancelled, at: span)
  }

  @inline(never) func depthLimit(_ span: Span) -> RuntimeError {
    evaluator.fail(.depthLimit(maxDepth), at: span)
  }

  @inline(never) func internalError(_ message: String, _ span: Span) -> RuntimeError {
    evaluator.fail(.internalError(message), at: span)
  }

  @inline(never) func arithmeticFailure(_ error: ArithmeticError, _ span: Span) -> RuntimeError {
    evaluator.arithmeticFailure(error, at: span)
  }

  /// Runs evaluator code (which counts on the evaluator's own counters) as part of the compiled code.
  @inline(never) mutating func outside<Result>(
    _ body: () throws(RuntimeError) -> Result
  ) throws(RuntimeError) -> Result {
    evaluator.steps = steps
    evaluator.depth = depth
    let result = try body()
    steps = evaluator.steps
    return result
  }

  /// Runs a node with the tree-walking evaluator in the current frame.
  @inline(never) mutating func walk(_ expression: TypedExpression) throws(RuntimeError) -> Value {
    evaluator.steps = steps
    evaluator.depth = depth
    let result = try evaluator.evaluate(expression, in: &frame)
    steps = evaluator.steps
    return result
  }
}

/// Turns typed expressions into nodes; keeps the compiled formulas.
final class ExpressionCompiler {
  unowned let evaluator: Evaluator
  var formulas: [Int: FormulaCode] = [:]

  init(evaluator: Evaluator) {
    self.evaluator = evaluator
  }

  func compile(_ expression: TypedExpression) -> Node {
    let span = expression.span
    switch expression.kind {
    case .literal(let value):
      return LiteralNode(value, span)
    case .local(let slot, _):
      return LocalNode(slot, span)
    case .constant(let index):
      return ConstantNode(index, span)
    case .parameter(let jurisdiction, let name):
      return ParameterNode(jurisdiction, name, span)
    case .provinceParameter(let object, let name):
      return ProvinceParameterNode(compile(object), name, span)
    case .jurisdictionName, .federal, .brackets:
      return WalkNode(expression)
    case .negate(let operand):
      return NegateNode(compile(operand), span)
    case .not(let operand):
      return NotNode(compile(operand), span)
    case .arithmetic(_, let left, _) where left.isArithmetic:
      // The chain's links top down, then compiled bottom up, without recursion down the left side.
      var spine = [expression]
      var node = expression
      while case .arithmetic(_, let next, _) = node.kind, next.isArithmetic {
        spine.append(next)
        node = next
      }
      guard case .arithmetic(_, let leftmost, _) = node.kind else { return InvalidNode(span) }
      let links = spine.reversed().compactMap { link -> ArithmeticChainNode.Link? in
        guard case .arithmetic(let operation, _, let right) = link.kind else { return nil }
        return ArithmeticChainNode.Link(operation: operation, right: compile(right), type: link.type, span: link.span)
      }
      return ArithmeticChainNode(compile(leftmost), links, span)
    case .and(let left, _) where left.isLogical, .or(let left, _) where left.isLogical:
      // (Each pattern has its own condition.)
      var spine = [expression]
      var node = expression
      while let next = node.logicalLeft, next.isLogical {
        spine.append(next)
        node = next
      }
      guard let leftmost = node.logicalLeft else { return InvalidNode(span) }
      let links = spine.reversed().compactMap { link -> LogicalChainNode.Link? in
        switch link.kind {
        case .and(_, let right): return LogicalChainNode.Link(isAnd: true, right: compile(right), span: link.span)
        case .or(_, let right): return LogicalChainNode.Link(isAnd: false, right: compile(right), span: link.span)
        default: return nil
        }
      }
      return LogicalChainNode(compile(leftmost), links, span)
    case .arithmetic(let operation, let left, let right):
      return ArithmeticNode(operation, compile(left), compile(right), expression.type, span)
    case .comparison(let operation, let left, let right):
      return ComparisonNode(operation, compile(left), compile(right), span)
    case .and(let left, let right):
      return AndNode(compile(left), compile(right), span)
    case .or(let left, let right):
      return OrNode(compile(left), compile(right), span)
    case .conditional(let condition, let thenBranch, let elseBranch):
      return ConditionalNode(compile(condition), compile(thenBranch), compile(elseBranch), span)
    case .call(let index, let arguments):
      return CallNode(
        formulaCode(index), evaluator.program.formulas[index], arguments.map { $0.map(compile) },
        arguments.map { $0?.span ?? span }, span)
    case .builtin(let builtin, let arguments) where arguments.count == 2 && builtin.isBracketFunction:
      let table = compile(arguments[0])
      let amount = compile(arguments[1])
      if builtin == .tax, let entry = table as? EntryNode { return PreparedTaxNode(entry, amount, span) }
      return BracketFunctionNode(builtin, table, amount, span)
    case .builtin(let builtin, let arguments):
      return BuiltinNode(builtin, arguments, arguments.map(compile), span)
    case .invalid:
      return InvalidNode(span)
    }
  }

  func formulaCode(_ index: Int) -> FormulaCode {
    if let existing = formulas[index] { return existing }
    let code = FormulaCode(index: index, compiler: self)
    formulas[index] = code
    return code
  }
}

/// A formula's body, compiled when it is first called (so that compiling follows calls no deeper than evaluating
/// does, and a formula never called is never compiled).
final class FormulaCode {
  struct Body {
    var defaults: [Node?]
    var lets: [(slot: Int, node: Node)]
    var result: Node
  }

  let index: Int
  unowned let compiler: ExpressionCompiler
  @exclusivity(unchecked) var compiled: Body?

  init(index: Int, compiler: ExpressionCompiler) {
    self.index = index
    self.compiler = compiler
  }

  @inline(__always) var body: Body {
    if let compiled { return compiled }
    return compile()
  }

  @inline(never) func compile() -> Body {
    let program = compiler.evaluator.program
    let checked = program.body(ofFormula: index)
    let body = Body(
      defaults: program.formulas[index].parameters.map { $0.defaultValue.map(compiler.compile) },
      lets: checked.lets.map { ($0.slot, compiler.compile($0.value)) },
      result: compiler.compile(checked.result))
    compiled = body
    return body
  }
}
