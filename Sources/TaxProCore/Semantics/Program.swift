/// A formula parameter after checking.
///
/// Every checked formula keeps its parameters, and most have no range or default: those live in a buffer that is
/// empty then (a parameter takes about 60 bytes rather than 170, as `Parameter` does in the syntax tree).
public struct FormulaParameter: Sendable {
  public var name: String
  public var nameSpan: Span
  public var type: TaxType
  public var documentation: Documentation
  public var span: Span
  /// The range, the default and their text, when either is written.
  var extras = OutOfLine<Extras>()

  struct Extras: OutOfLineFields {
    var lower: TypedExpression?
    var upper: TypedExpression?
    var defaultValue: TypedExpression?
    var rangeText: String?
    var defaultText: String?

    var isEmpty: Bool {
      lower == nil && upper == nil && defaultValue == nil && rangeText == nil && defaultText == nil
    }
  }

  init(
    name: String, nameSpan: Span, type: TaxType, documentation: Documentation, lower: TypedExpression?,
    upper: TypedExpression?, defaultValue: TypedExpression?, span: Span, rangeText: String?, defaultText: String?
  ) {
    self.name = name
    self.nameSpan = nameSpan
    self.type = type
    self.documentation = documentation
    self.span = span
    extras = OutOfLine(
      Extras(lower: lower, upper: upper, defaultValue: defaultValue, rangeText: rangeText, defaultText: defaultText))
  }

  public var lower: TypedExpression? {
    get { extras.fields.lower }
    set { extras.update { $0.lower = newValue } }
  }
  public var upper: TypedExpression? {
    get { extras.fields.upper }
    set { extras.update { $0.upper = newValue } }
  }
  public var defaultValue: TypedExpression? {
    get { extras.fields.defaultValue }
    set { extras.update { $0.defaultValue = newValue } }
  }
  /// The source text of the range and default, for documentation (`in $0..$100,000`, `= 18% * income`).
  public var rangeText: String? {
    get { extras.fields.rangeText }
    set { extras.update { $0.rangeText = newValue } }
  }
  public var defaultText: String? {
    get { extras.fields.defaultText }
    set { extras.update { $0.defaultText = newValue } }
  }
}

extension FormulaParameter: CustomReflectable {
  /// The fields as written, not their storage (for debuggers and `dump`).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "name": name, "nameSpan": nameSpan, "type": type, "documentation": documentation, "lower": lower as Any,
        "upper": upper as Any, "defaultValue": defaultValue as Any, "span": span, "rangeText": rangeText as Any,
        "defaultText": defaultText as Any,
      ], displayStyle: .struct)
  }
}

/// A `let` step in a formula body or test.
public struct LetStep: Sendable {
  public var slot: Int
  public var name: String
  public var nameSpan: Span
  public var value: TypedExpression
}

/// A checked formula: `formula.name`, `formula.parameters`, … are its `FormulaFields`.
public typealias FormulaInfo = CopyOnWrite<FormulaFields>

public struct FormulaFields: Sendable {
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
  /// Whether `lets` and `result` were left out (`Checker.defersFormulaBodies`): `Program.body(ofFormula:)` checks
  /// them again when first asked.
  public var bodyDeferred = false
}

/// A formula's checked steps and result.
public struct FormulaBody: Sendable {
  public var lets: [LetStep]
  public var result: TypedExpression
}

extension FormulaInfo {
  /// `provincial_tax(income: Money, province: Province): Money`.
  public var signature: String {
    let parameterList = self.parameters.map { parameter in
      var text = "\(parameter.name): \(parameter.type)"
      if let range = parameter.rangeText { text += " in \(range)" }
      if let defaultText = parameter.defaultText { text += " = \(defaultText)" }
      return text
    }.joined(separator: ", ")
    return "\(self.name)(\(parameterList)): \(self.returnType)"
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

/// An occurrence as a program keeps it: plain values only, with the symbol as a number in the program's
/// `SymbolTable`, so that a re-check copies a large program's occurrences as one block of memory and freeing them
/// is one call, where `SymbolOccurrence`'s strings cost a retain and a release each.
struct StoredOccurrence: Sendable {
  var span: Span
  /// For a `let`: where it is defined (the symbol's name-only entry is `Symbol.local(name:, definition: .nowhere)`);
  /// `.nowhere` for every other symbol. Kept out of the table so that moving text does not make new symbols.
  var definition: Span
  var symbol: Int32
  /// The id of `Symbol.jurisdiction(code)` for a jurisdiction parameter read from `code`; -1 when not known.
  var jurisdiction: Int32
  var isDefinition: Bool
}

extension Span {
  /// The place of what has no place: the definition of a symbol that is not a `let`.
  static let nowhere = Span(file: FileID(-1), start: 0, end: 0)
}

/// The ids of a whole check's formulas and their parameters, kept by position rather than hashed: a large program
/// has thousands, and hashing each (two names for a parameter) cost the language server's open more than the rest of
/// numbering its symbols. A query finds them by name through the program's formula index.
struct FormulaSymbolIDs: Sendable {
  let formulaIndex: [String: Int]
  /// Formula index → its symbol's id; -1 when it has none.
  let formulas: [Int32]
  /// Formula index → the id of its first parameter, the others following it by position; -1 when none is numbered,
  /// -2 when a name is declared twice: the ids by position are then in `parameterRepeats` (a parameter declared again
  /// shares the first one's). One number per formula rather than a list: a list each was a thousand allocations to
  /// make and to free in the language server's open of a large document.
  let parameters: [Int32]
  let parameterRepeats: [Int: [Int32]]
  let declarations: [FormulaDeclaration]

  func id(of symbol: Symbol) -> Int32? {
    switch symbol {
    case .formula(let name):
      guard let index = formulaIndex[name], index < formulas.count, formulas[index] >= 0 else { return nil }
      return formulas[index]
    case .formulaParameter(let formula, let name):
      guard let index = formulaIndex[formula], index < parameters.count, index < declarations.count,
        let position = declarations[index].parameters.firstIndex(where: { $0.name.name == name })
      else { return nil }
      let first = parameters[index]
      if first >= 0 { return first + Int32(truncatingIfNeeded: position) }
      guard first == -2, let ids = parameterRepeats[index], position < ids.count else { return nil }
      return ids[position]
    default:
      return nil
    }
  }
}

/// The symbols of a program's occurrences, numbered from 0. A program re-checked from another adds a layer on top of
/// the other's table for the symbols it wrote first; ids stay the same through the layers.
final class SymbolTable: Sendable {
  let parent: SymbolTable?
  /// The first id of this layer; lower ones are the parent's.
  let base: Int
  let symbols: [Symbol]
  let ids: [Symbol: Int32]
  /// The whole check's formulas and parameters, which are not in `ids` (the bottom layer only).
  let formulaIDs: FormulaSymbolIDs?
  /// Layers below this one: a chain that grows too long is flattened.
  let depth: Int

  init(parent: SymbolTable?, symbols: [Symbol], ids: [Symbol: Int32], formulaIDs: FormulaSymbolIDs? = nil) {
    self.parent = parent
    self.base = parent?.count ?? 0
    self.symbols = symbols
    self.ids = ids
    self.formulaIDs = formulaIDs
    self.depth = parent.map { $0.depth + 1 } ?? 0
  }

  var count: Int { base + symbols.count }

  func symbol(_ id: Int32) -> Symbol {
    var table = self
    while Int(id) < table.base, let parent = table.parent { table = parent }
    return table.symbols[Int(id) - table.base]
  }

  func id(of symbol: Symbol) -> Int32? {
    var table: SymbolTable? = self
    while let current = table {
      if let id = current.ids[symbol] ?? current.formulaIDs?.id(of: symbol) { return id }
      table = current.parent
    }
    return nil
  }

  /// The id under which a query looks a symbol up, with the definition it must have (a `let`'s, or `.nowhere`).
  func key(of symbol: Symbol) -> (id: Int32, definition: Span)? {
    if case .local(let name, let definition) = symbol {
      return id(of: .local(name: name, definition: .nowhere)).map { ($0, definition) }
    }
    return id(of: symbol).map { ($0, .nowhere) }
  }

  /// The public form of a stored occurrence.
  func occurrence(_ stored: StoredOccurrence) -> SymbolOccurrence {
    var symbol = self.symbol(stored.symbol)
    if case .local(let name, _) = symbol { symbol = .local(name: name, definition: stored.definition) }
    var jurisdiction: String? = nil
    if stored.jurisdiction >= 0, case .jurisdiction(let code) = self.symbol(stored.jurisdiction) { jurisdiction = code }
    return SymbolOccurrence(
      span: stored.span, symbol: symbol, isDefinition: stored.isDefinition, jurisdiction: jurisdiction)
  }
}

/// Numbers symbols as a checker records them, on top of the table of the program it checks against (if any).
struct SymbolTableBuilder {
  let parent: SymbolTable?
  private var symbols: [Symbol] = []
  private var ids: [Symbol: Int32] = [:]
  /// Layers a table may have before `finish` flattens it.
  static let maximumDepth = 8

  init(parent: SymbolTable?) { self.parent = parent }

  /// The last symbols of the kinds a body names over and over (types, built-ins, jurisdictions and their
  /// parameters, constants, `let` names), with their ids: comparing with a few is cheaper than hashing once.
  private var recent: [(symbol: Symbol, id: Int32)] = []
  private var recentNext = 0
  static let recentCount = 8
  /// The jurisdictions' ids, kept apart from `recent`: the library's bodies name more jurisdictions in turn (the 13
  /// provinces) than `recent` holds, and comparing a short code with each is cheaper than hashing the symbol.
  private var jurisdictionIDs: [(code: String, id: Int32)] = []
  static let jurisdictionCount = 32

  /// How many symbols this layer numbered.
  var count: Int { symbols.count }

  /// The symbol this layer numbered `id` (a table without a parent: a half of a check, `Checker+Parallel`).
  func symbol(at id: Int32) -> Symbol { symbols[Int(id)] }

  /// Makes room for about `count` symbols at once (a whole check knows roughly how many it will number).
  mutating func reserve(_ count: Int) {
    symbols.reserveCapacity(count)
    ids.reserveCapacity(count)
  }

  mutating func id(_ symbol: Symbol) -> Int32 {
    if case .jurisdiction(let code) = symbol {
      for entry in jurisdictionIDs where entry.code == code { return entry.id }
      let id = lookUp(symbol)
      if jurisdictionIDs.count < SymbolTableBuilder.jurisdictionCount { jurisdictionIDs.append((code, id)) }
      return id
    }
    let repeated: Bool
    switch symbol {
    case .formula, .formulaParameter, .test: repeated = false
    case .local, .constant, .jurisdiction, .interface, .jurisdictionParameter, .builtin, .type: repeated = true
    }
    if repeated {
      for entry in recent where entry.symbol == symbol { return entry.id }
    }
    let id = lookUp(symbol)
    if repeated {
      if recent.count < SymbolTableBuilder.recentCount {
        recent.append((symbol, id))
      } else {
        recent[recentNext] = (symbol, id)
        recentNext = (recentNext + 1) % SymbolTableBuilder.recentCount
      }
    }
    return id
  }

  private mutating func lookUp(_ symbol: Symbol) -> Int32 {
    let next = Int32(truncatingIfNeeded: (parent?.count ?? 0) + symbols.count)
    guard let parent else {
      // Without a parent, a symbol not yet numbered takes the next id: found or inserted with one hash (a whole
      // check numbers every formula and parameter of the program, and hashing each twice showed in the open).
      let id = SymbolTableBuilder.value(&ids[symbol, default: next])
      if id == next { symbols.append(symbol) }
      return id
    }
    if let id = ids[symbol] { return id }
    if let id = parent.id(of: symbol) { return id }
    symbols.append(symbol)
    ids[symbol] = next
    return next
  }

  /// Reads a value through an `inout` access: with `Dictionary`'s `subscript(_:default:)`, a look-up that inserts the
  /// default when the key is missing, hashing the key once.
  private static func value(_ value: inout Int32) -> Int32 { value }

  /// Numbers a symbol that has no id yet, without hashing it: a whole check's formulas and parameters, which the
  /// finished table finds through `FormulaSymbolIDs` (the caller numbers each once).
  mutating func append(_ symbol: Symbol) -> Int32 {
    let id = Int32(truncatingIfNeeded: (parent?.count ?? 0) + symbols.count)
    symbols.append(symbol)
    return id
  }

  /// The stored form of an occurrence.
  mutating func store(_ span: Span, _ symbol: Symbol, definition: Bool, jurisdiction: String?) -> StoredOccurrence {
    var place = Span.nowhere
    var key = symbol
    if case .local(let name, let defined) = symbol {
      place = defined
      key = .local(name: name, definition: .nowhere)
    }
    return StoredOccurrence(
      span: span, definition: place, symbol: id(key), jurisdiction: jurisdiction.map { id(.jurisdiction($0)) } ?? -1,
      isDefinition: definition)
  }

  /// The table: the parent itself when nothing was added; one layer in place of many when the chain is long.
  func finish(formulaIDs: FormulaSymbolIDs? = nil) -> SymbolTable {
    guard let parent else { return SymbolTable(parent: nil, symbols: symbols, ids: ids, formulaIDs: formulaIDs) }
    if symbols.isEmpty { return parent }
    guard parent.depth + 1 >= SymbolTableBuilder.maximumDepth else {
      return SymbolTable(parent: parent, symbols: symbols, ids: ids)
    }
    var layers: [SymbolTable] = []
    var table: SymbolTable? = parent
    while let current = table {
      layers.append(current)
      table = current.parent
    }
    var allSymbols: [Symbol] = []
    var allIDs: [Symbol: Int32] = [:]
    for layer in layers.reversed() {
      allSymbols.append(contentsOf: layer.symbols)
      allIDs.merge(layer.ids) { old, _ in old }
    }
    allSymbols.append(contentsOf: symbols)
    allIDs.merge(ids) { old, _ in old }
    // Only the bottom layer (a whole check's) finds symbols by position; the layers above hashed theirs.
    return SymbolTable(parent: nil, symbols: allSymbols, ids: allIDs, formulaIDs: layers.last?.formulaIDs)
  }
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
  /// Every place a symbol is written, in place order (file, then start), as the program keeps them.
  let storedOccurrences: OccurrenceList
  /// The symbols `storedOccurrences` name.
  let symbols: SymbolTable
  /// What the checker knew, kept so that more expressions can be checked against this program.
  let tables: CheckerTables
  /// Every year some jurisdiction has figures for, ascending.
  public let years: [Int]
  /// The deferred formula bodies checked so far (`body(ofFormula:)`).
  let deferredBodies = FormulaBodyCache()

  init(
    sources: [FileID: SourceFile], trees: [SyntaxTree], formulas: [FormulaInfo], formulaIndex: [String: Int],
    constants: [ConstantInfo], constantIndex: [String: Int], jurisdictions: [String: JurisdictionInfo],
    provinceCodes: [String], interfaces: [String: InterfaceInfo], tests: [TestInfo], diagnostics: [Diagnostic],
    occurrences: OccurrenceList, symbols: SymbolTable, tables: CheckerTables
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
    self.storedOccurrences = occurrences
    self.symbols = symbols
    self.years = Array(Set(jurisdictions.values.flatMap { $0.years.keys })).sorted()
  }

  /// Every place a symbol is written, in place order. Made on each call; editor queries go through `SymbolIndex`.
  public var occurrences: [SymbolOccurrence] { storedOccurrences.all.map { symbols.occurrence($0) } }

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
  /// Whether the check deferred formula bodies (`Checker.defersFormulaBodies`): a re-check does too.
  var defersFormulaBodies = false
}

extension Program {
  /// The interface a jurisdiction of `kind` satisfies (`JurisdictionKind.interfaceName`).
  public func interface(for kind: JurisdictionKind) -> InterfaceInfo? { interfaces[kind.interfaceName] }
}
