/// What an arithmetic node does once the types are known.
public enum ArithmeticOperation: Sendable {
  case add
  case subtract
  /// `amount + 15%`: the percentage of the amount, added.
  case addPercentage
  /// `amount - 15%`: the percentage of the amount, taken off.
  case subtractPercentage
  case multiply
  case divide
  /// `x ^ n`: exact for a whole `n`, an approximation (marked) otherwise.
  case power
  /// `a mod b`: the remainder with the sign of `b`.
  case modulo

  public var symbol: String {
    switch self {
    case .add, .addPercentage: "+"
    case .subtract, .subtractPercentage: "-"
    case .multiply: "×"
    case .divide: "÷"
    case .power: "^"
    case .modulo: "mod"
    }
  }
}

/// One row of a bracket table after checking.
public struct TypedBracketRow: Sendable {
  public var threshold: TypedExpression
  public var rate: TypedExpression
}

/// A checked expression: names resolved, operations chosen by type. This is what the evaluator runs.
public struct TypedExpression: Sendable {
  public var kind: TypedKind
  public var type: TaxType
  public var span: Span

  public init(_ kind: TypedKind, _ type: TaxType, _ span: Span) {
    self.kind = kind
    self.type = type
    self.span = span
  }

  static func invalid(_ span: Span) -> TypedExpression { TypedExpression(.invalid, .error, span) }
}

/// Only the cases that hold a typed expression itself or two names are boxed: a literal, a parameter or `let` read, a
/// constant, a call's arguments (an array already) are stored in place, so the commonest nodes of a checked body
/// cost no allocation of their own (as `ExpressionKind` does for the syntax). A `Value` (26 bytes) leaves the node's
/// size as it was (40 bytes), and a boxed literal was a third of a checked body's allocations.
public enum TypedKind: Sendable {
  case literal(Value)
  /// A formula parameter or `let` in the current frame.
  case local(slot: Int, name: String)
  case constant(index: Int)
  /// A jurisdiction's parameter for the selected year: `ON.income_tax`, `federal.rrsp_dollar_limit`.
  indirect case parameter(jurisdiction: String, name: String)
  /// A parameter of a `Province` value: `province.income_tax`.
  indirect case provinceParameter(TypedExpression, name: String)
  /// The full name of a jurisdiction: `ON.name`.
  indirect case jurisdictionName(TypedExpression)
  case federal
  indirect case negate(TypedExpression)
  indirect case not(TypedExpression)
  indirect case arithmetic(ArithmeticOperation, TypedExpression, TypedExpression)
  indirect case comparison(BinaryOperator, TypedExpression, TypedExpression)
  indirect case and(TypedExpression, TypedExpression)
  indirect case or(TypedExpression, TypedExpression)
  indirect case conditional(TypedExpression, TypedExpression, TypedExpression)
  /// A formula call; a nil argument takes the parameter's default.
  case call(formula: Int, arguments: [TypedExpression?])
  case builtin(Builtin, [TypedExpression])
  case brackets([TypedBracketRow])
  /// An expression with a checking error; evaluating it is refused before it starts.
  case invalid
}

extension TypedExpression {
  /// Whether any part of the expression has an error.
  public var containsError: Bool {
    var found = false
    visit { node in
      if case .invalid = node.kind { found = true }
      return !found
    }
    return found
  }

  /// Pre-order walk; return false from `body` to stop descending.
  public func visit(_ body: (TypedExpression) -> Bool) {
    guard body(self) else { return }
    forEachChild { $0.visit(body) }
  }

  /// Calls `body` with each expression directly inside this one, in order: the one walk of the checked tree's shape
  /// (with `mapChildren`, its one rebuilding), so a new kind of node is walked by adding it here.
  public func forEachChild(_ body: (TypedExpression) -> Void) {
    switch kind {
    case .literal, .local, .constant, .parameter, .federal, .invalid: break
    case .provinceParameter(let object, _), .jurisdictionName(let object), .negate(let object), .not(let object):
      body(object)
    case .arithmetic(_, let left, let right), .comparison(_, let left, let right), .and(let left, let right),
      .or(let left, let right):
      body(left)
      body(right)
    case .conditional(let condition, let thenBranch, let elseBranch):
      body(condition)
      body(thenBranch)
      body(elseBranch)
    case .call(_, let arguments):
      for case let argument? in arguments { body(argument) }
    case .builtin(_, let arguments):
      for argument in arguments { body(argument) }
    case .brackets(let rows):
      for row in rows {
        body(row.threshold)
        body(row.rate)
      }
    }
  }

  /// The same node with each expression directly inside it replaced by `transform`'s result.
  func mapChildren(_ transform: (TypedExpression) -> TypedExpression) -> TypedExpression {
    let mapped: TypedKind
    switch kind {
    case .literal, .local, .constant, .parameter, .federal, .invalid: mapped = kind
    case .provinceParameter(let object, let name): mapped = .provinceParameter(transform(object), name: name)
    case .jurisdictionName(let object): mapped = .jurisdictionName(transform(object))
    case .negate(let operand): mapped = .negate(transform(operand))
    case .not(let operand): mapped = .not(transform(operand))
    case .arithmetic(let operation, let left, let right): mapped = .arithmetic(operation, transform(left), transform(right))
    case .comparison(let op, let left, let right): mapped = .comparison(op, transform(left), transform(right))
    case .and(let left, let right): mapped = .and(transform(left), transform(right))
    case .or(let left, let right): mapped = .or(transform(left), transform(right))
    case .conditional(let condition, let thenBranch, let elseBranch):
      mapped = .conditional(transform(condition), transform(thenBranch), transform(elseBranch))
    case .call(let formula, let arguments): mapped = .call(formula: formula, arguments: arguments.map { $0.map(transform) })
    case .builtin(let builtin, let arguments): mapped = .builtin(builtin, arguments.map(transform))
    case .brackets(let rows):
      mapped = .brackets(rows.map { TypedBracketRow(threshold: transform($0.threshold), rate: transform($0.rate)) })
    }
    return TypedExpression(mapped, type, span)
  }
}
