/// A name as written, with where it was written.
public struct Identifier: Hashable, Sendable {
  public var name: String
  public var span: Span
  public init(_ name: String, span: Span) {
    self.name = name
    self.span = span
  }
}

/// A prefix operator; its raw value is its spelling.
public enum UnaryOperator: String, Sendable {
  case negate = "-"
  case not = "not"
}

/// A binary operator; its raw value is its spelling in `Vocabulary`, which is how the parser finds it.
public enum BinaryOperator: String, CaseIterable, Sendable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessEqual = "<="
  case greater = ">"
  case greaterEqual = ">="
  case and = "and"
  case or = "or"
  /// `2 ^ 10`: binds tighter than unary minus and groups to the right (`-2^2` is -4, `2^3^2` is 512).
  case power = "^"
  /// `10 mod 3`: the remainder, with the divisor's sign.
  case modulo = "mod"
  /// `10% of $200`: `$200 * 10%`.
  case of = "of"

  /// Binding strength; higher binds tighter.
  public var precedence: Int {
    switch self {
    case .or: 1
    case .and: 2
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: 4
    case .add, .subtract: 5
    case .multiply, .divide, .modulo, .of: 6
    case .power: 7
    }
  }

  public var isComparison: Bool { precedence == 4 }
}

/// An expression node with the span of its whole text.
public struct Expression: Sendable {
  public var kind: ExpressionKind
  public var span: Span
  public init(_ kind: ExpressionKind, _ span: Span) {
    self.kind = kind
    self.span = span
  }
}

extension Expression {
  /// Calls `body` with each expression directly inside this one, in source order: the one walk of the syntax tree's
  /// shape that queries build on (folding, selection ranges), so a new kind of expression is walked by adding it here.
  public func forEachChild(_ body: (Expression) -> Void) {
    switch kind {
    case .number, .money, .rate, .text, .bool, .name, .federal, .missing: break
    case .unary(_, let operand, _): body(operand)
    case .binary(_, let left, let right, _):
      body(left)
      body(right)
    case .call(_, let arguments): for argument in arguments { body(argument.value) }
    case .member(let object, _): body(object)
    case .conditional(let condition, let thenBranch, let elseBranch):
      body(condition)
      body(thenBranch)
      body(elseBranch)
    case .parenthesized(let inner): body(inner)
    case .brackets(let rows):
      for row in rows {
        body(row.threshold)
        body(row.rate)
      }
    }
  }
}

/// Only leaves (names, literals) are stored in place, so a name or a number costs no allocation of its own; the cases
/// that hold expressions, and calls, are boxed. The largest case in place is then a number's `ExactDecimal` (26 bytes),
/// and an expression is 40 bytes rather than the 56 a call's name and arguments made it: every operator's box holds
/// two, every argument and `let` one (`SyntaxLayoutTests`).
public enum ExpressionKind: Sendable {
  case number(ExactDecimal)
  case money(ExactDecimal)
  /// A rate as a fraction: `5.05%` is `0.0505`.
  case rate(ExactDecimal)
  case text(String)
  case bool(Bool)
  case name(String)
  /// The `federal` jurisdiction.
  case federal
  indirect case unary(UnaryOperator, Expression, operatorSpan: Span)
  indirect case binary(BinaryOperator, Expression, Expression, operatorSpan: Span)
  indirect case call(Identifier, [Argument])
  indirect case member(Expression, Identifier)
  indirect case conditional(Expression, Expression, Expression)
  indirect case parenthesized(Expression)
  case brackets([BracketRow])
  /// Stands where the parser expected an expression and found none (already reported).
  case missing
}

/// A call argument: positional, or named (`income: $85,000`).
///
/// Most arguments have no label, so it is kept out of line, as a parameter's extras are: an argument is its value and
/// one reference (48 bytes, not 72).
public struct Argument: Sendable {
  public var value: Expression
  /// The label, when there is one (never more than one element).
  var labels: [Identifier]

  public init(label: Identifier?, value: Expression) {
    self.value = value
    labels = label.map { [$0] } ?? []
  }

  public var label: Identifier? {
    get { labels.first }
    set { labels = newValue.map { [$0] } ?? [] }
  }

  public var span: Span { label.map { $0.span.to(value.span) } ?? value.span }
}

extension Argument: CustomReflectable {
  /// The fields as written, not their storage (for debuggers and `dump`).
  public var customMirror: Mirror {
    Mirror(self, children: ["label": label as Any, "value": value], displayStyle: .struct)
  }
}

/// One row of a bracket table: `threshold -> rate`.
public struct BracketRow: Sendable {
  public var threshold: Expression
  public var rate: Expression
  public var span: Span { threshold.span.to(rate.span) }
}

/// A type as written: `Money`, `Rate`, …
public struct TypeAnnotation: Sendable {
  public var name: String
  public var span: Span
}

/// `in lo..hi` after a parameter's type.
public struct RangeConstraint: Sendable {
  public var lower: Expression
  public var upper: Expression
  public var span: Span
}

/// A formula parameter.
///
/// Most parameters have neither a range nor a default, and those two hold three expressions between them, so they
/// are kept out of line: a plain parameter is a third of the size, and a large file has hundreds of thousands.
public struct Parameter: Sendable {
  public var documentation: Documentation
  public var name: Identifier
  public var type: TypeAnnotation
  public var span: Span
  /// The range and default, when either is written.
  var extras = OutOfLine<Extras>()

  struct Extras: OutOfLineFields {
    var range: RangeConstraint?
    var defaultValue: Expression?
    var isEmpty: Bool { range == nil && defaultValue == nil }
  }

  public init(
    documentation: Documentation, name: Identifier, type: TypeAnnotation, range: RangeConstraint?,
    defaultValue: Expression?, span: Span
  ) {
    self.documentation = documentation
    self.name = name
    self.type = type
    self.span = span
    extras = OutOfLine(Extras(range: range, defaultValue: defaultValue))
  }

  public var range: RangeConstraint? {
    get { extras.fields.range }
    set { extras.update { $0.range = newValue } }
  }

  public var defaultValue: Expression? {
    get { extras.fields.defaultValue }
    set { extras.update { $0.defaultValue = newValue } }
  }
}

extension Parameter: CustomReflectable {
  /// The fields as written, not their storage (for debuggers and `dump`).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "documentation": documentation, "name": name, "type": type, "range": range as Any,
        "defaultValue": defaultValue as Any, "span": span,
      ], displayStyle: .struct)
  }
}

/// `let name = value` (in a body, a test or at top level).
public struct LetBinding: Sendable {
  public var name: Identifier
  public var type: TypeAnnotation?
  public var value: Expression
  public var span: Span
}

/// `formula name(parameters): Type = body`: `formula.name`, `formula.parameters`, … are its `FormulaSyntax`.
public typealias FormulaDeclaration = CopyOnWrite<FormulaSyntax>

public struct FormulaSyntax: Sendable {
  public var documentation: Documentation
  public var name: Identifier
  public var parameters: [Parameter]
  public var returnType: TypeAnnotation?
  public var lets: [LetBinding]
  public var result: Expression
  public var span: Span
}

public struct ConstantDeclaration: Sendable {
  public var documentation: Documentation
  public var binding: LetBinding
  public var span: Span
}

public enum TestItem: Sendable {
  case binding(LetBinding)
  case check(Expression)
}

public struct TestDeclaration: Sendable {
  public var documentation: Documentation
  public var name: String
  public var nameSpan: Span
  public var year: Int?
  public var yearSpan: Span?
  public var items: [TestItem]
  public var span: Span
}

/// A member of a `parameters` interface.
public struct InterfaceMember: Sendable {
  public var documentation: Documentation
  public var name: Identifier
  public var type: TypeAnnotation
  public var span: Span
}

/// `parameters Province { … }`.
public struct InterfaceDeclaration: Sendable {
  public var documentation: Documentation
  public var name: Identifier
  public var members: [InterfaceMember]
  public var span: Span
}

/// `name = value` inside a `year` block.
public struct ParameterDefinition: Sendable {
  public var documentation: Documentation
  public var name: Identifier
  public var value: Expression
  public var span: Span
}

public struct YearBlock: Sendable {
  public var year: Int
  public var yearSpan: Span
  public var definitions: [ParameterDefinition]
  public var span: Span
}

public enum JurisdictionKind: String, Sendable {
  case province
  case federal

  /// The interface a jurisdiction of this kind must satisfy: `Federal` or `Province`.
  public var interfaceName: String { self == .federal ? "Federal" : "Province" }
}

/// `province ON "Ontario" { year 2025 { … } }` or `federal "Canada" { … }`.
public struct JurisdictionDeclaration: Sendable {
  public var documentation: Documentation
  public var kind: JurisdictionKind
  /// `ON`, or `federal`.
  public var code: Identifier
  public var fullName: String?
  public var years: [YearBlock]
  public var span: Span
}

/// A formula, the common declaration, is held in place (a `CopyOnWrite`, one reference): moving it after an edit
/// makes no box. The others are boxed, so that the list stays small.
public enum Declaration: Sendable {
  case formula(FormulaDeclaration)
  indirect case constant(ConstantDeclaration)
  indirect case test(TestDeclaration)
  indirect case interface(InterfaceDeclaration)
  indirect case jurisdiction(JurisdictionDeclaration)
  /// A bare expression: what a REPL line or `taxpro eval` evaluates. In a file it is an error.
  indirect case expression(Expression)

  public var span: Span {
    switch self {
    case .formula(let formula): formula.span
    case .constant(let constant): constant.span
    case .test(let test): test.span
    case .interface(let interface): interface.span
    case .jurisdiction(let jurisdiction): jurisdiction.span
    case .expression(let expression): expression.span
    }
  }
}

/// The result of parsing one source: never fails, always a tree plus what went wrong.
public struct SyntaxTree: Sendable {
  public var source: SourceFile
  public var declarations: [Declaration]
  public var comments: [Comment]
  public var diagnostics: [Diagnostic]
  /// True when the input stopped in the middle of something (an open parenthesis, `1 +`, a formula without a body):
  /// the REPL then asks for another line instead of reporting an error.
  public var isIncomplete: Bool
  /// The parse step by step, so that `Parser.reparse` can redo only the steps an edit touched.
  var segments: [ParseSegment] = []
  /// The first this many `diagnostics` are the lexer's; the parser's follow, step after step.
  var lexerDiagnosticCount = 0
}

/// One step of the parser's top-level loop: usually one declaration, or the recovery from what is not one.
struct ParseSegment: Sendable {
  /// Byte offset of the step's first token.
  var start: Int32
  /// Declarations and parser diagnostics the step produced, in order after those of the steps before it.
  var declarationCount: Int32
  var diagnosticCount: Int32
  /// Whether the step begins where a re-parse may start or stop: a `formula` or `let` at column 0 after a line break
  /// that ended a statement (or at the start of the input). The lexer's state is the same there whatever came
  /// before (`StatementEnds` forgets open parentheses at such a line), and so is the parser's.
  var isBoundary: Bool
  /// The parser's state carried into the step: whether the declaration before was a formula, and whether an error
  /// was already reported at the step's first token. A re-parse starts with them and must end with them.
  var followsFormula: Bool
  var errorAtStart: Bool
}
