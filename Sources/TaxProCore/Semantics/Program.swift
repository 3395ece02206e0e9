/// A formula parameter after checking.
public struct FormulaParameter: Sendable {
  public var name: String
  public var nameSpan: Span
  public var type: TaxType
  public var documentation: Documentation
  public var lower: TypedExpression?
  public var upper: TypedExpression?
  public var defaultValue: TypedExpression?
  public var span: Span
  /// The source text of the range and default, for documentation (`in $0..$100,000`, `= 18% * income`).
  public var rangeText: String?
  public var defaultText: String?
}

/// A `let` step in a formula body or test.
public struct LetStep: Sendable {
  public var slot: Int
  public var name: String
  public var nameSpan: Span
  public var value: TypedExpression
}

/// A checked formula.
public struct FormulaInfo: Sendable {
  public var name: String
  public var nameSpan: Span
  public var documentation: Documentation
  public var parameters: [FormulaParameter]
  public var returnType: TaxType
  /// Whether the return type was written or inferred.
  public var returnTypeDeclared: Bool
  public var lets: [LetStep]
  public var result: TypedExpression
  public var slotCount: Int
  public var span: Span
  /// Whether the formula has errors (calling it is refused).
  public var hasErrors: Bool

  /// `provincial_tax(income: Money, province: Province): Money`.
  public var signature: String {
    let parameterList = parameters.map { parameter in
      var text = "\(parameter.name): \(parameter.type)"
      if let range = parameter.rangeText { text += " in \(range)" }
      if let defaultText = parameter.defaultText { text += " = \(defaultText)" }
      return text
    }.joined(separator: ", ")
    return "\(name)(\(parameterList)): \(returnType)"
  }
}

/// A top-level `let` constant.
public struct ConstantInfo: Sendable {
  public var name: String
  public var nameSpan: Span
  public var documentation: Documentation
  public var type: TaxType
  public var value: TypedExpression
  public var span: Span
}

/// A parameter's definition for one jurisdiction and year.
public struct ParameterDefinitionInfo: Sendable {
  public var name: String
  public var nameSpan: Span
  public var documentation: Documentation
  public var value: TypedExpression
  public var span: Span
}

/// A province, territory or `federal`, with its parameters by year.
public struct JurisdictionInfo: Sendable {
  public var code: String
  public var kind: JurisdictionKind
  public var fullName: String
  public var documentation: Documentation
  public var codeSpan: Span
  public var span: Span
  /// year → parameter name → definition.
  public var years: [Int: [String: ParameterDefinitionInfo]]
  /// The type of every parameter defined in any year (or required by the interface).
  public var parameterTypes: [String: TaxType]
  public var yearSpans: [Int: Span]

  public var sortedYears: [Int] { years.keys.sorted() }
}

/// A `parameters` interface.
public struct InterfaceInfo: Sendable {
  public struct Member: Sendable {
    public var name: String
    public var type: TaxType
    public var documentation: Documentation
    public var span: Span
  }
  public var name: String
  public var nameSpan: Span
  public var documentation: Documentation
  public var members: [Member]
  public var span: Span

  public func member(_ name: String) -> Member? { members.first { $0.name == name } }
}

/// One check of a test.
public enum TestStep: Sendable {
  case binding(LetStep)
  case check(TypedExpression)
}

/// A checked `test` block.
public struct TestInfo: Sendable {
  public var name: String
  public var nameSpan: Span
  public var year: Int?
  public var steps: [TestStep]
  public var slotCount: Int
  public var span: Span
  public var hasErrors: Bool
}

/// What a name in the source refers to; the unit of go-to-definition, references and rename.
public enum Symbol: Hashable, Sendable {
  case formula(String)
  case formulaParameter(formula: String, name: String)
  /// A `let` in a body or test, identified by where it is defined.
  case local(name: String, definition: Span)
  case constant(String)
  case jurisdiction(String)
  case interface(String)
  /// A province parameter (shared by the interface and every province) or a federal parameter.
  case jurisdictionParameter(JurisdictionKind, String)
  case builtin(String)
  case type(TaxType)
  case test(String)
}

/// One place a symbol is written.
public struct SymbolOccurrence: Sendable {
  public var span: Span
  public var symbol: Symbol
  public var isDefinition: Bool
  /// For a jurisdiction parameter: the jurisdiction it was read from (`ON` in `ON.income_tax`), if known.
  public var jurisdiction: String?
}

/// A checked program: every declaration of a set of sources, resolved and typed. Immutable; cheap to share.
public final class Program: Sendable {
  public let sources: [FileID: SourceFile]
  public let trees: [SyntaxTree]
  public let formulas: [FormulaInfo]
  public let formulaIndex: [String: Int]
  public let constants: [ConstantInfo]
  public let constantIndex: [String: Int]
  public let jurisdictions: [String: JurisdictionInfo]
  /// Codes in declaration order, `federal` excluded.
  public let provinceCodes: [String]
  public let interfaces: [String: InterfaceInfo]
  public let tests: [TestInfo]
  /// Parse and check diagnostics of every source.
  public let diagnostics: [Diagnostic]
  public let occurrences: [SymbolOccurrence]
  /// What the checker knew, kept so that more expressions can be checked against this program.
  let tables: CheckerTables
  /// Every year some jurisdiction has figures for, ascending.
  public let years: [Int]

  init(
    sources: [FileID: SourceFile], trees: [SyntaxTree], formulas: [FormulaInfo], formulaIndex: [String: Int],
    constants: [ConstantInfo], constantIndex: [String: Int], jurisdictions: [String: JurisdictionInfo],
    provinceCodes: [String], interfaces: [String: InterfaceInfo], tests: [TestInfo], diagnostics: [Diagnostic],
    occurrences: [SymbolOccurrence], tables: CheckerTables
  ) {
    self.tables = tables
    self.sources = sources
    self.trees = trees
    self.formulas = formulas
    self.formulaIndex = formulaIndex
    self.constants = constants
    self.constantIndex = constantIndex
    self.jurisdictions = jurisdictions
    self.provinceCodes = provinceCodes
    self.interfaces = interfaces
    self.tests = tests
    self.diagnostics = diagnostics
    self.occurrences = occurrences
    self.years = Array(Set(jurisdictions.values.flatMap { $0.years.keys })).sorted()
  }

  /// The default tax year: the latest year with data.
  public var latestYear: Int? { years.last }

  public func formula(named name: String) -> FormulaInfo? { formulaIndex[name].map { formulas[$0] } }

  public func diagnostics(in file: FileID) -> [Diagnostic] { diagnostics.filter { $0.span.file == file } }
}

/// The checker's symbol tables, frozen with the program.
struct CheckerTables: Sendable {
  var formulaDeclarations: [FormulaDeclaration]
  var formulaParameterTypes: [[TaxType]]
  var formulaDeclaredReturn: [TaxType?]
  var constantDeclarations: [ConstantDeclaration]
  var jurisdictionDeclarations: [String: JurisdictionDeclaration]
  var predefined: [String: Value]
  /// What `Checker.recheck` needs to redo part of the check: the checker's own diagnostics in place order (the
  /// parser's are in the trees), and the dependency edges of the cycle check.
  var checkDiagnostics: [Diagnostic] = []
  var formulaEdges: [[GlobalNode]] = []
  var constantEdges: [[GlobalNode]] = []
  var parameterEdges: [GlobalNode: [GlobalNode]] = [:]
  /// How many declarations are checked on demand when first used (constants, formulas without a written result
  /// type, parameters outside the interfaces): a chain of them is at most this long.
  var onDemandCount = 0
}
