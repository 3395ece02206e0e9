/// A name and a value: a formula's argument, an input in an explanation.
public struct NamedValue: Sendable {
  public var name: String
  public var value: Value
  public init(name: String, value: Value) {
    self.name = name
    self.value = value
  }
}

/// The part of an amount that falls in one bracket, and the tax on it.
public struct BracketPortion: Sendable {
  public var lower: ExactDecimal
  /// Nil for the top bracket.
  public var upper: ExactDecimal?
  public var rate: ExactDecimal
  /// How much of the amount lies in this bracket.
  public var portion: ExactDecimal
  /// `portion × rate`, exact (not rounded).
  public var tax: ExactDecimal
}

/// How `tax(b, amount)` was worked out, bracket by bracket.
public struct BracketComputation: Sendable {
  public var table: BracketTable
  public var amount: ExactDecimal
  /// Only the brackets the amount reaches.
  public var portions: [BracketPortion]
  /// The exact sum of the portions' tax.
  public var exactTotal: ExactDecimal
  /// Rounded once, to the cent.
  public var total: ExactDecimal
  public var marginalRate: ExactDecimal
  /// `total / amount`, or 0 when the amount is not positive.
  public var averageRate: ExactDecimal
}

/// One step of an evaluation, for learners: the tree of formula calls, `let` steps, parameters read, bracket
/// computations and arithmetic that produced a value. Front ends decide how much of it to show.
public struct ExplanationStep: Sendable {
  public enum Kind: Sendable {
    case formula(name: String, arguments: [NamedValue])
    case binding(name: String)
    case parameter(jurisdiction: String, year: Int, name: String)
    case constant(name: String)
    case brackets(BracketComputation, builtin: Builtin)
    case builtin(Builtin, arguments: [Value])
    case arithmetic(ArithmeticOperation, Value, Value)
    case comparison(BinaryOperator, Value, Value)
    case condition(taken: Bool)
    case check
  }
  public var kind: Kind
  public var span: Span
  public var value: Value
  public var children: [ExplanationStep]
}

/// Collects explanation steps while the evaluator runs.
final class ExplanationRecorder {
  var levels: [[ExplanationStep]] = [[]]

  func begin() { levels.append([]) }

  func end(_ kind: ExplanationStep.Kind, span: Span, value: Value) {
    let children = levels.popLast() ?? []
    let step = ExplanationStep(kind: kind, span: span, value: value, children: children)
    if levels.isEmpty { levels.append([]) }
    levels[levels.count - 1].append(step)
  }

  /// Drops an unfinished step (after an error), keeping what it had collected.
  func abandon() {
    let children = levels.popLast() ?? []
    if levels.isEmpty { levels.append([]) }
    levels[levels.count - 1].append(contentsOf: children)
  }

  var steps: [ExplanationStep] { levels.first ?? [] }
}
