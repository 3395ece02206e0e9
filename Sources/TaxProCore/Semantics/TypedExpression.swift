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

  public var symbol: String {
    switch self {
    case .add, .addPercentage: "+"
    case .subtract, .subtractPercentage: "-"
    case .multiply: "×"
    case .divide: "÷"
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

public indirect enum TypedKind: Sendable {
  case literal(Value)
  /// A formula parameter or `let` in the current frame.
  case local(slot: Int, name: String)
  case constant(index: Int)
  /// A jurisdiction's parameter for the selected year: `ON.income_tax`, `federal.rrsp_dollar_limit`.
  case parameter(jurisdiction: String, name: String)
  /// A parameter of a `Province` value: `province.income_tax`.
  case provinceParameter(TypedExpression, name: String)
  /// The full name of a jurisdiction: `ON.name`.
  case jurisdictionName(TypedExpression)
  case federal
  case negate(TypedExpression)
  case not(TypedExpression)
  case arithmetic(ArithmeticOperation, TypedExpression, TypedExpression)
  case comparison(BinaryOperator, TypedExpression, TypedExpression)
  case and(TypedExpression, TypedExpression)
  case or(TypedExpression, TypedExpression)
  case conditional(TypedExpression, TypedExpression, TypedExpression)
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
    switch kind {
    case .literal, .local, .constant, .parameter, .federal, .invalid: break
    case .provinceParameter(let object, _), .jurisdictionName(let object), .negate(let object), .not(let object):
      object.visit(body)
    case .arithmetic(_, let left, let right), .comparison(_, let left, let right), .and(let left, let right),
      .or(let left, let right):
      left.visit(body)
      right.visit(body)
    case .conditional(let condition, let thenBranch, let elseBranch):
      condition.visit(body)
      thenBranch.visit(body)
      elseBranch.visit(body)
    case .call(_, let arguments):
      for argument in arguments { argument?.visit(body) }
    case .builtin(_, let arguments):
      for argument in arguments { argument.visit(body) }
    case .brackets(let rows):
      for row in rows {
        row.threshold.visit(body)
        row.rate.visit(body)
      }
    }
  }
}
