/// The steps of an explanation that change its result, for a learner who wants the point rather than the trace.
///
/// The evaluator records every step; most of them change nothing a learner cares about: a condition on the province
/// that was false, a floor of $0 that did not bind, a credit of $0, a parameter read on the way to a value shown
/// anyway. The summary keeps a tree of the named values (`let` steps and formula calls) down to a depth, leaves out
/// those that are zero or repeat their parent or a value shown beside them, and attaches to each the events that
/// decided it:
/// - **brackets**: a bracket computation, with the thresholds it crossed;
/// - **between**: the same bracket table worked out at two amounts (before and after a deduction, income and
///   income + $100), as the part between them bracket by bracket: which threshold the difference crosses;
/// - **limit**: a cap (`min` with a parameter) or a floor (`max` with $0) that binds;
/// - **threshold**: an amount compared with a parameter, by subtraction (how far above or below it is) or by the
///   condition that decided a branch.
/// Bracket events below the depth are lifted to the nearest value shown; the other events stay with their own value.
public struct ExplanationSummary: Sendable {
  public struct Node: Sendable {
    public enum Kind: Sendable {
      /// The expression itself, when it is not one formula call.
      case expression
      case formula(name: String)
      /// A `let` step; when its value is one formula call, `call` names it.
      case binding(name: String)
    }
    public var kind: Kind
    public var value: Value
    /// The formula call behind the value, with its arguments (defaults included).
    public var call: (name: String, arguments: [NamedValue])?
    public var points: [Point] = []
    public var children: [Node] = []
    /// The steps of the value's own expression, for describing it in words.
    var span: Span
  }

  public enum Point: Sendable {
    case brackets(BracketComputation)
    /// The part of the amounts between `low` and `high` under `table`, bracket by bracket.
    case between(table: BracketTable, low: ExactDecimal, high: ExactDecimal, portions: [BracketPortion])
    case limit(Limit)
    case threshold(Threshold)
  }

  /// A `min` that chose a named limit, or a `max` that chose its floor.
  public struct Limit: Sendable {
    public enum Kind: Sendable { case cap, floor }
    public var kind: Kind
    /// The value chosen: the limit.
    public var value: Value
    /// What it would have been without the limit.
    public var unlimited: Value
    /// The parameter that is the limit (`federal`, `cpp_ympe`), when it is one.
    public var parameter: (code: String, name: String)?
  }

  /// An amount measured against a parameter.
  public struct Threshold: Sendable {
    public var amount: Value
    public var threshold: Value
    public var parameter: (code: String, name: String)
    /// The comparison that decided a branch (`<=`), or nil for a subtraction (`amount - threshold`).
    public var comparison: BinaryOperator?
    /// For a comparison, whether it held; for a subtraction, whether the amount is above the threshold.
    public var holds: Bool
    /// The amount's name in the source (`income`), when it is a plain name.
    public var amountName: String?
  }

  public var root: Node
}

extension ExplanationRenderer {
  /// The summary of an evaluation's steps, showing named values `depth` levels deep below the outermost.
  public func summary(of steps: [ExplanationStep], value: Value, depth: Int) -> ExplanationSummary {
    var root: ExplanationSummary.Node
    let items = groupDefaults(steps)
    if items.count == 1, let only = items.first, case .formula(let name, let arguments) = only.step.kind {
      root = .init(kind: .formula(name: name), value: value, call: (name, arguments), span: only.step.span)
      collect(only.step.children, into: &root)
    } else {
      root = .init(kind: .expression, value: value, call: nil, span: Span(file: FileID(-1), start: 0, end: 0))
      collect(steps, into: &root)
    }
    explainDifferences(&root)
    let rootIsZero = value.decimal?.isZero == true
    root = prune(root, depth: 0, limit: depth, keepZeros: rootIsZero)
    return ExplanationSummary(root: root)
  }

  // MARK: Building the tree

  func collect(_ steps: [ExplanationStep], into node: inout ExplanationSummary.Node) {
    let items = groupDefaults(steps)
    for (index, item) in items.enumerated() {
      let step = item.step
      switch step.kind {
      case .formula(let name, let arguments):
        var child = ExplanationSummary.Node(
          kind: .formula(name: name), value: step.value, call: (name, arguments), span: step.span)
        collect(step.children, into: &child)
        node.children.append(child)
      case .binding(let name):
        node.children.append(bindingNode(step, name: name))
      case .brackets(let computation, _):
        collect(step.children, into: &node)
        node.points.append(.brackets(computation))
      case .builtin(let builtin, let arguments):
        collect(step.children, into: &node)
        if let limit = limit(builtin, arguments: arguments, step: step) { node.points.append(.limit(limit)) }
      case .arithmetic(let operation, let left, let right):
        collect(step.children, into: &node)
        if operation == .subtract, index > 0, case .parameter(let code, _, let name) = items[index - 1].step.kind,
          items[index - 1].step.value == right, isOrdered(left), let difference = step.value.decimal
        {
          node.points.append(
            .threshold(
              .init(
                amount: left, threshold: right, parameter: (code, name), comparison: nil, holds: difference > .zero,
                amountName: nil)))
        }
      case .condition:
        collectCondition(step, into: &node)
      case .parameter, .constant, .comparison, .check:
        collect(step.children, into: &node)
      }
    }
  }

  /// A `let`: when its value is a formula call (the last step, with the same value), the node is that call, named
  /// by the `let`; the steps before the call (its arguments) come first.
  func bindingNode(_ step: ExplanationStep, name: String) -> ExplanationSummary.Node {
    var node = ExplanationSummary.Node(kind: .binding(name: name), value: step.value, call: nil, span: step.span)
    let items = groupDefaults(step.children)
    if let last = items.last, case .formula(let callee, let arguments) = last.step.kind, last.step.value == step.value {
      node.call = (callee, arguments)
      collect(items.dropLast().flatMap { $0.defaults + [$0.step] }, into: &node)
      collect(last.step.children, into: &node)
    } else {
      collect(step.children, into: &node)
    }
    return node
  }

  /// A condition adds the comparison that decided it when one side is a parameter; in an `else if` chain that is
  /// the last comparison made. Then the branch taken.
  func collectCondition(_ step: ExplanationStep, into node: inout ExplanationSummary.Node) {
    let (conditionSteps, branchSteps, text) = splitCondition(step)
    let isChain = branchSteps.count == 1 && { if case .condition = branchSteps[0].kind { true } else { false } }()
    var decidingPoint: ExplanationSummary.Point? = nil
    if !isChain, let last = conditionSteps.last, case .comparison(let op, let left, let right) = last.kind,
      op != .equal && op != .notEqual, isOrdered(left)
    {
      // The parameter read just before the comparison, with the value of one side.
      let reads = conditionSteps.dropLast().compactMap { read -> (String, String, Value)? in
        if case .parameter(let code, _, let name) = read.kind { return (code, name, read.value) }
        return nil
      }
      if let read = reads.last, read.2 == right || read.2 == left, case .bool(let holds) = last.value {
        let parameterOnRight = read.2 == right
        let amountText = text.flatMap { Self.side(of: $0, op: op, left: parameterOnRight) }
        decidingPoint = .threshold(
          .init(
            amount: parameterOnRight ? left : right, threshold: read.2, parameter: (read.0, read.1),
            comparison: parameterOnRight ? op : op.flipped, holds: holds,
            amountName: amountText.flatMap { Self.isPlainName($0) ? $0 : nil }))
      }
    }
    // The condition's own workings: the values it computed, and its bracket events.
    var workings = ExplanationSummary.Node(kind: .expression, value: step.value, call: nil, span: step.span)
    collect(conditionSteps, into: &workings)
    node.children += workings.children
    node.points += workings.points.filter {
      if case .brackets = $0 { return true }
      return false
    }
    if let decidingPoint { node.points.append(decidingPoint) }
    collect(branchSteps, into: &node)
  }

  /// The source of one side of a comparison: `income` from `income <= ON.tier_start`.
  static func side(of text: String, op: BinaryOperator, left: Bool) -> String? {
    let separator = Array((" " + op.rawValue + " ").utf8)
    let bytes = Array(text.utf8)
    var found: Int? = nil
    var index = 0
    while index + separator.count <= bytes.count {
      if Array(bytes[index..<(index + separator.count)]) == separator {
        if found != nil { return nil }
        found = index
      }
      index += 1
    }
    guard let found else { return nil }
    let side = left ? bytes[..<found] : bytes[(found + separator.count)...]
    return String(decoding: side, as: UTF8.self).trimmingSpaces
  }

  static func isPlainName(_ text: String) -> Bool {
    !text.isEmpty && text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
  }

  func isOrdered(_ value: Value) -> Bool {
    switch value {
    case .money, .rate, .number: true
    default: false
    }
  }

  /// A `min` whose result is a parameter among its arguments, or a `max` that chose $0 over a negative amount.
  func limit(_ builtin: Builtin, arguments: [Value], step: ExplanationStep) -> ExplanationSummary.Limit? {
    guard arguments.count >= 2, let result = step.value.decimal else { return nil }
    let others = arguments.filter { $0 != step.value }
    guard let other = others.first else { return nil }  // all equal: nothing binds
    let reads = step.children.compactMap { read -> (String, String)? in
      if case .parameter(let code, _, let name) = read.kind, read.value == step.value { return (code, name) }
      return nil
    }
    switch builtin {
    case .min:
      guard let read = reads.first else { return nil }
      return .init(kind: .cap, value: step.value, unlimited: other, parameter: read)
    case .max:
      if result.isZero, let negative = others.first(where: { $0.decimal?.isNegative == true }) {
        return .init(kind: .floor, value: step.value, unlimited: negative, parameter: nil)
      }
      guard let read = reads.first else { return nil }
      return .init(kind: .floor, value: step.value, unlimited: other, parameter: read)
    case .clamp:
      guard arguments.count == 3, arguments[0] != step.value else { return nil }
      return .init(
        kind: result == arguments[1].decimal ? .floor : .cap, value: step.value, unlimited: arguments[0],
        parameter: reads.first)
    default:
      return nil
    }
  }

  // MARK: Differences

  /// Adds a `between` point where a node's steps work out the same bracket table at exactly two amounts that its
  /// children each work out at one, and drops those tables' own bracket points below it: the difference is what
  /// the learner needs (which threshold a deduction crosses, the rate on the next $100).
  func explainDifferences(_ node: inout ExplanationSummary.Node) {
    for index in node.children.indices { explainDifferences(&node.children[index]) }
    var amounts: [String: (table: BracketTable, amounts: [ExactDecimal])] = [:]
    var order: [String] = []
    func gather(_ node: ExplanationSummary.Node) {
      for point in node.points {
        if case .brackets(let computation) = point {
          let key = computation.table.origin ?? "\(computation.table.rows)"
          if amounts[key] == nil {
            amounts[key] = (computation.table, [])
            order.append(key)
          }
          if !(amounts[key]?.amounts.contains(computation.amount) ?? true) {
            amounts[key]?.amounts.append(computation.amount)
          }
        }
        if case .between(let table, _, _, _) = point {
          // A difference explained further down is not explained again here.
          amounts[table.origin ?? "\(table.rows)"] = (table, [.zero, .zero, .zero])
        }
      }
      for child in node.children { gather(child) }
    }
    gather(node)
    var explained: Set<String> = []
    for key in order {
      guard let (table, found) = amounts[key], found.count == 2 else { continue }
      let low = min(found[0], found[1])
      let high = max(found[0], found[1])
      let portions = BracketMath.portions(of: table, from: low, to: high)
      node.points.append(.between(table: table, low: low, high: high, portions: portions))
      explained.insert(key)
    }
    guard !explained.isEmpty else { return }
    func drop(_ node: inout ExplanationSummary.Node) {
      node.points.removeAll { point in
        if case .brackets(let computation) = point { return explained.contains(computation.table.origin ?? "\(computation.table.rows)") }
        return false
      }
      for index in node.children.indices { drop(&node.children[index]) }
    }
    for index in node.children.indices { drop(&node.children[index]) }
    drop(&node)
    // `drop` removed the node's own bracket points of those tables too; the `between` points stay.
  }

  // MARK: Pruning

  /// Keeps the values that say something: not zero (unless the result is zero and this is the outermost level),
  /// not a table, flag or text, not a repeat of the parent's value; at most `limit` levels, lifting the bracket
  /// events of what is cut.
  func prune(_ node: ExplanationSummary.Node, depth: Int, limit: Int, keepZeros: Bool) -> ExplanationSummary.Node {
    var node = node
    // A value that is its only child's value adds nothing: show the child's content in its place.
    while node.children.count == 1, let only = node.children.first, only.value == node.value {
      node.points = only.points + node.points
      node.children = only.children
      if node.call == nil { node.call = only.call }
    }
    // A cap that binds says why the value is what it is; the comparisons that led to it add nothing.
    if node.points.contains(where: { if case .limit(let limit) = $0 { limit.kind == .cap } else { false } }) {
      node.points.removeAll { if case .threshold = $0 { true } else { false } }
    }
    // Where a difference between two amounts is the point, the values on each side are shown one level deep.
    var limit = limit
    if node.points.contains(where: { if case .between = $0 { true } else { false } }) { limit = min(limit, depth + 1) }
    var kept: [ExplanationSummary.Node] = []
    for child in node.children {
      let isNumeric = child.value.decimal != nil
      let isZero = child.value.decimal?.isZero == true
      // A value already shown beside it, with nothing of its own to say (Quebec's net income outside Quebec, a tax
      // less an abatement of $0), repeats it.
      let repeats = child.points.isEmpty && kept.contains { $0.value == child.value }
      if !isNumeric || (isZero && !(keepZeros && depth == 0)) || repeats || depth + 1 > limit {
        node.points += liftedPoints(child, keepAll: !isNumeric)
        continue
      }
      kept.append(prune(child, depth: depth + 1, limit: limit, keepZeros: keepZeros))
    }
    node.children = kept
    return node
  }

  /// The bracket and difference events of a node that is not shown, and of everything below it; of a table, flag or
  /// text value (a condition's workings), its events of every kind.
  func liftedPoints(_ node: ExplanationSummary.Node, keepAll: Bool) -> [ExplanationSummary.Point] {
    if node.value.decimal?.isZero == true && !keepAll { return [] }
    let own = node.points.filter { point in
      switch point {
      case .brackets, .between: true
      case .limit, .threshold: keepAll
      }
    }
    return own + node.children.flatMap { liftedPoints($0, keepAll: false) }
  }
}

extension BracketMath {
  /// The part of the amounts from `low` to `high` that falls in each bracket of `table`, with its tax (exact); empty
  /// if the arithmetic overflows.
  static func portions(of table: BracketTable, from low: ExactDecimal, to high: ExactDecimal) -> [BracketPortion] {
    var portions: [BracketPortion] = []
    for (index, row) in table.rows.enumerated() {
      let upper = index + 1 < table.rows.count ? table.rows[index + 1].threshold : nil
      let start = max(low, row.threshold)
      let end = upper.map { min(high, $0) } ?? high
      guard end > start else { continue }
      guard let portion = try? end.subtracting(start), let tax = try? portion.multiplied(by: row.rate) else { return [] }
      portions.append(BracketPortion(lower: row.threshold, upper: upper, rate: row.rate, portion: portion, tax: tax))
    }
    return portions
  }
}

extension BinaryOperator {
  /// The same comparison with its sides swapped: `a < b` is `b > a`.
  var flipped: BinaryOperator {
    switch self {
    case .less: .greater
    case .lessEqual: .greaterEqual
    case .greater: .less
    case .greaterEqual: .lessEqual
    default: self
    }
  }
}
