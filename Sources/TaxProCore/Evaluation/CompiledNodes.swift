// The nodes of a `CompiledExpression`. Each `run` is the matching case of `Evaluator.evaluate(_:in:)`: it enters (one
// step, one level), runs its children in the evaluator's order, fails with the evaluator's messages and spans, and
// leaves. Children and constants are `let` properties of final classes, which Swift reads and calls without retaining.

/// A compiled node.
class Node {
  let span: Span

  init(_ span: Span) {
    self.span = span
  }

  /// The node's value (every subclass overrides this).
  func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    throw machine.internalError("this node cannot be run", span)
  }
}

final class LiteralNode: Node {
  let value: Value

  init(_ value: Value, _ span: Span) {
    self.value = value
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    machine.leave()
    return value
  }
}

final class LocalNode: Node {
  let slot: Int

  init(_ slot: Int, _ span: Span) {
    self.slot = slot
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    machine.leave()
    return slot < machine.frame.count ? machine.frame[slot] : .bool(false)
  }

}

/// Where a child that is a local lives, copied out of it: read through an optional reference, the child would be
/// retained and released on every row.
struct LocalPlace {
  /// The frame slot, or -1 when the child is not a local.
  let slot: Int
  let span: Span

  init(_ node: Node) {
    let local = node as? LocalNode
    slot = local?.slot ?? -1
    span = local?.span ?? node.span
  }

  /// `LocalNode.run`'s counting alone.
  @inline(__always) func count(_ machine: inout Machine) throws(RuntimeError) {
    try machine.enter(span)
    machine.leave()
  }
}

/// A node run by the tree-walking evaluator (jurisdiction names, `federal`, bracket literals: rare in a row).
final class WalkNode: Node {
  let expression: TypedExpression

  init(_ expression: TypedExpression) {
    self.expression = expression
    super.init(expression.span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.walk(expression)
  }
}

final class InvalidNode: Node {
  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    throw machine.evaluator.fail(.expressionHasErrors, at: span)
  }
}

final class ConstantNode: Node {
  let index: Int
  /// The evaluator caches a constant once it is read; from then on reading it costs no steps.
  @exclusivity(unchecked) var cached: Value?

  init(_ index: Int, _ span: Span) {
    self.index = index
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    if let cached {
      machine.leave()
      return cached
    }
    let evaluator = machine.evaluator
    let (index, span) = (index, span)
    let value = try machine.outside { () throws(RuntimeError) in try evaluator.constant(index, at: span) }
    cached = value
    machine.leave()
    return value
  }
}

// MARK: Parameters

/// A parameter's value as read once, and its table prepared when it is a bracket table.
final class ParameterEntry {
  let value: Value
  let prepared: PreparedBrackets?
  /// `prepared` without ownership, which the hot path copies without retaining it.
  let view: PreparedBrackets.View?

  init(_ value: Value) {
    self.value = value
    if case .brackets(let table) = value { prepared = PreparedBrackets(table) } else { prepared = nil }
    view = prepared?.view
  }
}

/// A node that reads a parameter (`federal.income_tax`, `province.income_tax`): its entry, borrowed from the node's
/// cache. The evaluator keeps a parameter once read, after which reading it costs no steps; so does each node here.
class EntryNode: Node {
  let name: String
  let cache = ParameterCache()

  init(_ name: String, _ span: Span) {
    self.name = name
    super.init(span)
  }

  /// The entry, counted as the node is (subclasses override this).
  func entry(_ machine: inout Machine) throws(RuntimeError) -> Unmanaged<ParameterEntry> {
    throw machine.internalError("this node cannot be run", span)
  }

  final override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try entry(&machine)._withUnsafeGuaranteedRef { $0.value }
  }

  /// A parameter read for the first time by this node, through the evaluator (which counts its definition's steps).
  @inline(never) final func read(_ code: String, _ machine: inout Machine) throws(RuntimeError)
    -> Unmanaged<ParameterEntry>
  {
    let evaluator = machine.evaluator
    let (name, span) = (name, span)
    let value = try machine.outside { () throws(RuntimeError) in try evaluator.parameter(code, name, at: span) }
    return cache.add(code, ParameterEntry(value))
  }
}

final class ParameterNode: EntryNode {
  let jurisdiction: String

  init(_ jurisdiction: String, _ name: String, _ span: Span) {
    self.jurisdiction = jurisdiction
    super.init(name, span)
  }

  override func entry(_ machine: inout Machine) throws(RuntimeError) -> Unmanaged<ParameterEntry> {
    try machine.enter(span)
    if let entry = cache.single {
      machine.leave()
      return entry
    }
    let entry = try read(jurisdiction, &machine)
    machine.leave()
    return entry
  }
}

final class ProvinceParameterNode: EntryNode {
  let object: Node
  let objectLocal: LocalPlace

  init(_ object: Node, _ name: String, _ span: Span) {
    self.object = object
    objectLocal = LocalPlace(object)
    super.init(name, span)
  }

  override func entry(_ machine: inout Machine) throws(RuntimeError) -> Unmanaged<ParameterEntry> {
    try machine.enter(span)
    let objectValue: Value
    if objectLocal.slot >= 0 {
      // The usual object, a Province column or parameter: read in place rather than copied out of the frame.
      try objectLocal.count(&machine)
      let slot = objectLocal.slot
      if slot < machine.frame.count, case .province(let code) = machine.frame[slot], let entry = cache.entry(code) {
        machine.leave()
        return entry
      }
      objectValue = slot < machine.frame.count ? machine.frame[slot] : .bool(false)
    } else {
      objectValue = try object.run(&machine)
    }
    guard case .province(let code) = objectValue else {
      throw machine.internalError("expected a province", object.span)
    }
    if let entry = cache.entry(code) {
      machine.leave()
      return entry
    }
    let entry = try read(code, &machine)
    machine.leave()
    return entry
  }
}

/// A node's cache of the parameters it has read: one, or one per province.
///
/// Looked up once per node per row, so it is built for that: provinces are told apart by their codes' bytes packed
/// into an integer (faster to compare than strings), and the keys and entries live in memory of the cache's own,
/// entries unmanaged (the cache holds one reference to each), so that a lookup retains and releases nothing.
final class ParameterCache {
  @exclusivity(unchecked) private(set) var count = 0
  @exclusivity(unchecked) private var capacity = 0
  @exclusivity(unchecked) private var keys = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
  @exclusivity(unchecked) private var entries = UnsafeMutablePointer<Unmanaged<ParameterEntry>>.allocate(capacity: 0)
  /// Codes too long for a key, with their entries' positions.
  @exclusivity(unchecked) private var longCodes: [(code: String, index: Int)] = []

  deinit {
    for index in 0..<count { entries[index].release() }
    keys.deallocate()
    entries.deallocate()
  }

  /// A code's bytes (up to 7) and their count in one integer; 0 for longer codes, which are compared as strings.
  @inline(__always) static func key(_ code: String) -> UInt64 {
    var code = code
    return code.withUTF8 { bytes in
      guard bytes.count <= 7 else { return 0 }
      var key = UInt64(bytes.count) << 56
      for index in bytes.indices { key |= UInt64(bytes[index]) << (index * 8) }
      return key
    }
  }

  /// The entry read for `code`, borrowed from the cache (which outlives every use).
  @inline(__always) func entry(_ code: String) -> Unmanaged<ParameterEntry>? {
    let key = Self.key(code)
    if key == 0 { return longEntry(code) }
    for index in 0..<count where keys[index] == key { return entries[index] }
    return nil
  }

  /// The only entry of a cache that holds one (a jurisdiction's parameter).
  @inline(__always) var single: Unmanaged<ParameterEntry>? {
    count > 0 ? entries[0] : nil
  }

  @inline(never) func longEntry(_ code: String) -> Unmanaged<ParameterEntry>? {
    for long in longCodes where long.code == code { return entries[long.index] }
    return nil
  }

  func add(_ code: String, _ entry: ParameterEntry) -> Unmanaged<ParameterEntry> {
    if count == capacity {
      let larger = max(4, capacity * 2)
      let newKeys = UnsafeMutablePointer<UInt64>.allocate(capacity: larger)
      newKeys.moveInitialize(from: keys, count: count)
      keys.deallocate()
      keys = newKeys
      let newEntries = UnsafeMutablePointer<Unmanaged<ParameterEntry>>.allocate(capacity: larger)
      newEntries.moveInitialize(from: entries, count: count)
      entries.deallocate()
      entries = newEntries
      capacity = larger
    }
    let key = Self.key(code)
    if key == 0 { longCodes.append((code, count)) }
    let unmanaged = Unmanaged.passRetained(entry)
    keys[count] = key
    entries[count] = unmanaged
    count += 1
    return unmanaged
  }
}

// MARK: Operators

final class NegateNode: Node {
  let operand: Node

  init(_ operand: Node, _ span: Span) {
    self.operand = operand
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    let value = try operand.run(&machine)
    guard let decimal = value.decimal else { throw machine.internalError("expected a number", operand.span) }
    machine.leave()
    return Value.numeric(value.type, -decimal)
  }
}

final class NotNode: Node {
  let operand: Node

  init(_ operand: Node, _ span: Span) {
    self.operand = operand
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    guard case .bool(let flag) = try operand.run(&machine) else {
      throw machine.internalError("expected true or false", operand.span)
    }
    machine.leave()
    return .bool(!flag)
  }
}

final class ArithmeticNode: Node {
  let operation: ArithmeticOperation
  let left: Node
  let right: Node
  let type: TaxType

  init(_ operation: ArithmeticOperation, _ left: Node, _ right: Node, _ type: TaxType, _ span: Span) {
    self.operation = operation
    self.left = left
    self.right = right
    self.type = type
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    let leftValue = try left.run(&machine)
    let rightValue = try right.run(&machine)
    guard let a = leftValue.decimal, let b = rightValue.decimal else {
      throw machine.internalError("arithmetic on a value that is not a number", span)
    }
    do throws(ArithmeticError) {
      let result = try Evaluator.arithmetic(operation, a, b, type: type)
      machine.leave()
      return result
    } catch {
      throw machine.arithmeticFailure(error, span)
    }
  }
}

/// `Evaluator.arithmeticChain`: a left-associated chain of arithmetic, one level deep, each link a step, run without
/// recursion down its left side.
final class ArithmeticChainNode: Node {
  struct Link {
    let operation: ArithmeticOperation
    let right: Node
    let type: TaxType
    let span: Span
  }

  let leftmost: Node
  /// Bottom-up: the first link's left operand is `leftmost`; the last is the chain's top (this node's span).
  let links: [Link]

  init(_ leftmost: Node, _ links: [Link], _ span: Span) {
    self.leftmost = leftmost
    self.links = links
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    try machine.stepBelowTop(links.count) { links[$0].span }
    var value = try leftmost.run(&machine)
    for link in links {
      let rightValue = try link.right.run(&machine)
      guard let a = value.decimal, let b = rightValue.decimal else {
        throw machine.internalError("arithmetic on a value that is not a number", link.span)
      }
      do throws(ArithmeticError) {
        value = try Evaluator.arithmetic(link.operation, a, b, type: link.type)
      } catch {
        throw machine.arithmeticFailure(error, link.span)
      }
    }
    machine.leave()
    return value
  }
}

/// `Evaluator.logicalChain`: a left-associated chain of `and` and `or`, each with its short circuit.
final class LogicalChainNode: Node {
  struct Link {
    let isAnd: Bool
    let right: Node
    let span: Span
  }

  let leftmost: Node
  let links: [Link]

  init(_ leftmost: Node, _ links: [Link], _ span: Span) {
    self.leftmost = leftmost
    self.links = links
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    try machine.stepBelowTop(links.count) { links[$0].span }
    var value = try leftmost.run(&machine)
    for link in links {
      guard case .bool(let first) = value else {
        value = .bool(false)
        continue
      }
      if link.isAnd {
        value = first ? try link.right.run(&machine) : .bool(false)
      } else {
        value = first ? .bool(true) : try link.right.run(&machine)
      }
    }
    machine.leave()
    return value
  }
}

final class ComparisonNode: Node {
  let operation: BinaryOperator
  let left: Node
  let right: Node

  init(_ operation: BinaryOperator, _ left: Node, _ right: Node, _ span: Span) {
    self.operation = operation
    self.left = left
    self.right = right
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    let leftValue = try left.run(&machine)
    let rightValue = try right.run(&machine)
    machine.leave()
    return .bool(Evaluator.compare(operation, leftValue, rightValue))
  }
}

final class AndNode: Node {
  let left: Node
  let right: Node

  init(_ left: Node, _ right: Node, _ span: Span) {
    self.left = left
    self.right = right
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    guard case .bool(let first) = try left.run(&machine), first else {
      machine.leave()
      return .bool(false)
    }
    let value = try right.run(&machine)
    machine.leave()
    return value
  }
}

final class OrNode: Node {
  let left: Node
  let right: Node

  init(_ left: Node, _ right: Node, _ span: Span) {
    self.left = left
    self.right = right
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    guard case .bool(let first) = try left.run(&machine) else {
      machine.leave()
      return .bool(false)
    }
    if first {
      machine.leave()
      return .bool(true)
    }
    let value = try right.run(&machine)
    machine.leave()
    return value
  }
}

final class ConditionalNode: Node {
  let condition: Node
  let thenBranch: Node
  let elseBranch: Node

  init(_ condition: Node, _ thenBranch: Node, _ elseBranch: Node, _ span: Span) {
    self.condition = condition
    self.thenBranch = thenBranch
    self.elseBranch = elseBranch
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    guard case .bool(let taken) = try condition.run(&machine) else {
      throw machine.internalError("expected true or false", condition.span)
    }
    let value = try (taken ? thenBranch : elseBranch).run(&machine)
    machine.leave()
    return value
  }
}

// MARK: Built-in functions

/// `tax(table, amount)` on a parameter's table: the prepared table when the amount suits it, `BracketMath` otherwise.
final class PreparedTaxNode: Node {
  let table: EntryNode
  let amount: Node
  let amountLocal: LocalPlace

  init(_ table: EntryNode, _ amount: Node, _ span: Span) {
    self.table = table
    self.amount = amount
    amountLocal = LocalPlace(amount)
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    let entry = try table.entry(&machine)
    let amountValue: Value
    if amountLocal.slot >= 0 {
      // The usual amount, a Money column or parameter: read in place rather than copied out of the frame.
      try amountLocal.count(&machine)
      let slot = amountLocal.slot
      if slot < machine.frame.count, case .money(let amount) = machine.frame[slot] {
        if let total = entry._withUnsafeGuaranteedRef({ $0.view?.tax(amount) }) {
          machine.leave()
          return .money(total)
        }
        amountValue = .money(amount)
      } else {
        amountValue = slot < machine.frame.count ? machine.frame[slot] : .bool(false)
      }
    } else {
      amountValue = try amount.run(&machine)
    }
    let total = entry._withUnsafeGuaranteedRef { entry -> ExactDecimal? in
      guard let prepared = entry.view, case .money(let amount) = amountValue else { return nil }
      return prepared.tax(amount)
    }
    if let total {
      machine.leave()
      return .money(total)
    }
    let result = try machine.evaluator.bracketFunction(
      .tax, entry._withUnsafeGuaranteedRef { $0.value }, amountValue, at: span)
    machine.leave()
    return result
  }
}

/// `tax`, `marginal_rate` or `average_rate` through `BracketMath`, as the evaluator computes them.
final class BracketFunctionNode: Node {
  let builtin: Builtin
  let table: Node
  let amount: Node

  init(_ builtin: Builtin, _ table: Node, _ amount: Node, _ span: Span) {
    self.builtin = builtin
    self.table = table
    self.amount = amount
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    let tableValue = try table.run(&machine)
    let amountValue = try amount.run(&machine)
    let result = try machine.evaluator.bracketFunction(builtin, tableValue, amountValue, at: span)
    machine.leave()
    return result
  }
}

/// The other built-in functions, through the evaluator's `builtin`.
final class BuiltinNode: Node {
  let builtin: Builtin
  let expressions: [TypedExpression]
  let arguments: [Node]

  init(_ builtin: Builtin, _ expressions: [TypedExpression], _ arguments: [Node], _ span: Span) {
    self.builtin = builtin
    self.expressions = expressions
    self.arguments = arguments
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    var values: [Value] = []
    values.reserveCapacity(arguments.count)
    for argument in arguments { values.append(try argument.run(&machine)) }
    let result = try machine.evaluator.builtin(builtin, values, expressions, span: span)
    machine.leave()
    return result
  }
}

// MARK: Calls

/// A formula call, as `Evaluator.call`: arguments in the caller's frame, defaults in the callee's, range checks, and
/// the call on the call stack while its `let`s and result run.
final class CallNode: Node {
  let target: FormulaCode
  let formula: FormulaInfo
  let arguments: [Node?]
  let argumentSpans: [Span]

  init(_ target: FormulaCode, _ formula: FormulaInfo, _ arguments: [Node?], _ argumentSpans: [Span], _ span: Span) {
    self.target = target
    self.formula = formula
    self.arguments = arguments
    self.argumentSpans = argumentSpans
    super.init(span)
  }

  override func run(_ machine: inout Machine) throws(RuntimeError) -> Value {
    try machine.enter(span)
    let evaluator = machine.evaluator
    if formula.hasErrors {
      throw evaluator.fail(
        .formulaHasErrors(formula.name), at: span,
        notes: [DiagnosticNote(.note, "defined here", span: formula.nameSpan)])
    }
    let body = target.body
    var frame = [Value](repeating: .bool(false), count: formula.slotCount)
    for (position, parameter) in formula.parameters.enumerated() {
      let value: Value
      let valueSpan: Span
      if position < arguments.count, let argument = arguments[position] {
        value = try argument.run(&machine)
        valueSpan = argumentSpans[position]
      } else if position < body.defaults.count, let defaultValue = body.defaults[position] {
        swap(&machine.frame, &frame)
        value = try defaultValue.run(&machine)
        swap(&machine.frame, &frame)
        valueSpan = span
      } else {
        throw evaluator.fail(.missingArgumentAtRun(parameter.name), at: span)
      }
      if parameter.lower != nil || parameter.upper != nil {
        let name = formula.name
        try machine.outside { () throws(RuntimeError) in
          try evaluator.checkRange(value, parameter, frame: &frame, span: valueSpan, formula: name)
        }
      }
      frame[position] = value
    }
    evaluator.callStack.append((formula.name, span))
    defer { evaluator.callStack.removeLast() }
    swap(&machine.frame, &frame)
    for step in body.lets {
      let value = try step.node.run(&machine)
      machine.frame[step.slot] = value
    }
    let result = try body.result.run(&machine)
    swap(&machine.frame, &frame)
    machine.leave()
    return result
  }
}
