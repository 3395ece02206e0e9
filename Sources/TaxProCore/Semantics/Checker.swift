/// A declaration that others can depend on; the nodes of the cycle check.
enum GlobalNode: Hashable {
  case formula(Int)
  case constant(Int)
  case parameter(jurisdiction: String, name: String)
}

/// Where checking of a global declaration stands (inference is on demand, so order of declaration does not matter).
enum CheckState {
  case pending
  case inProgress
  case done
}

/// A name visible in a body: a formula parameter or a `let`.
struct LocalBinding {
  var name: String
  var slot: Int
  var type: TaxType
  var definition: Span
  var isParameter: Bool
  /// The id of its symbol in the checker's `SymbolTable`, numbered where it is defined so that its uses are
  /// recorded without hashing it again; -1 when occurrences are not recorded.
  var symbol: Int32 = -1
  /// The name's length in UTF-8 bytes, compared before the name itself (`Scope.position(of:)`).
  var length: Int32 = 0
}

/// The names a body can see and the frame slots they use.
///
/// A body has a handful of names, so they are kept in one list, each with its name, and looked up from the newest (a
/// name declared again replaces the earlier one, as the duplicate is reported); only a long list gets a dictionary
/// beside it. Each binding keeps its name's length in bytes, which a lookup compares first: two names of different
/// lengths differ (a name looked up is an identifier, ASCII, equal only to the same bytes), and comparing the strings
/// themselves (a call into the runtime whenever they are not the same bits) is left for the names of the length
/// sought. A lookup gives a position, so the binding is read in place rather than copied out with its name.
struct Scope {
  private var entries: [LocalBinding] = []
  /// Name → position of its newest entry, once there are more than `linearLimit` entries.
  private var positions: [String: Int]? = nil
  static let linearLimit = 16
  var slotCount = 0
  /// The declaration being checked, for dependency edges.
  var owner: GlobalNode?
  /// The formula whose parameters these are (for symbols).
  var formulaName: String?

  /// `capacity`: how many names will be declared, when known (a formula's parameters and `let`s), so that the list is
  /// made once.
  init(owner: GlobalNode? = nil, formulaName: String? = nil, capacity: Int = 0) {
    self.owner = owner
    self.formulaName = formulaName
    if capacity > 0 { entries.reserveCapacity(capacity) }
  }

  /// The names declared, oldest first ("did you mean").
  var names: [String] { entries.map(\.name) }

  /// The position of the newest binding of `name`, if any (read with `subscript(_:)`).
  @inline(__always)
  func position(of name: String) -> Int? {
    if let positions { return positions[name] }
    let length = Int32(truncatingIfNeeded: name.utf8.count)
    var position = entries.count - 1
    while position >= 0 {
      if entries[position].length == length && entries[position].name == name { return position }
      position -= 1
    }
    return nil
  }

  /// Whether `name` is bound here.
  func contains(_ name: String) -> Bool { position(of: name) != nil }

  /// The binding at `position` (from `position(of:)`).
  subscript(position: Int) -> LocalBinding {
    @inline(__always) _read { yield entries[position] }
  }

  mutating func declare(_ name: String, type: TaxType, at span: Span, isParameter: Bool, symbol: Int32 = -1) -> Int {
    let slot = slotCount
    slotCount += 1
    entries.append(
      LocalBinding(
        name: name, slot: slot, type: type, definition: span, isParameter: isParameter, symbol: symbol,
        length: Int32(truncatingIfNeeded: name.utf8.count)))
    if positions != nil {
      positions?[name] = entries.count - 1
    } else if entries.count > Scope.linearLimit {
      var built: [String: Int] = [:]
      for (position, existing) in entries.enumerated() { built[existing.name] = position }
      positions = built
    }
    return slot
  }
}

/// Resolves names and checks types across a set of syntax trees, producing a `Program`.
///
/// Declarations may appear in any order and in any file: a formula's return type or a parameter's type is inferred
/// when it is first needed. Cycles are found afterwards on the dependency graph.
public final class Checker {
  /// More on-demand inferences nested than this are reported rather than followed (no stack overflow).
  static let maximumInferenceDepth = 400

  // The tables a body's check reads or writes at nearly every node (the declarations and their indexes, the states,
  // the dependency lists, the diagnostics) are marked `@exclusivity(unchecked)`: a checker runs on one thread and
  // each access is a short read or append that reaches nothing else, and the run-time checks of a class's stored
  // properties cost about a twentieth of a whole check of generated formulas.
  @exclusivity(unchecked) var sources: [FileID: SourceFile] = [:]
  var trees: [SyntaxTree]
  @exclusivity(unchecked) var diagnostics: [Diagnostic] = []
  // The occurrences and their symbols are written for nearly every name checked, each time by one short call that
  // reaches nothing else (`record`, `recordUse`, `recordFormula`), so the run-time exclusivity checks — a sixth of
  // what recording costs the language server's open — are left out.
  @exclusivity(unchecked) var occurrences: [StoredOccurrence] = []
  /// Numbers the symbols of `occurrences`.
  @exclusivity(unchecked) var symbolTable: SymbolTableBuilder
  /// The symbol ids of formulas by index, -1 until first needed (a whole check; empty otherwise).
  @exclusivity(unchecked) var formulaSymbols: [Int32] = []
  /// The symbol id of each formula's first parameter by formula index, its others following it by position; -1 until
  /// first needed, -2 when a name is declared twice (`parameterSymbolRepeats`). A whole check; empty otherwise. See
  /// `FormulaSymbolIDs`.
  @exclusivity(unchecked) var parameterSymbols: [Int32] = []
  /// The ids by position of the parameters of a formula that declares a name twice (the repeat shares the first's).
  var parameterSymbolRepeats: [Int: [Int32]] = [:]
  let recordOccurrences: Bool
  /// `Checker.builtinEntries` and `Checker.builtinShapeTable`, read through a reference of the checker's own at every
  /// call checked rather than through a static, which asks each time whether it is made yet.
  let builtinEntries = Checker.builtinEntries
  let builtinShapes = Checker.builtinShapeTable
  /// Whether the checked bodies are kept (a `Program` is made of them). False for `diagnostics(of:)`: a formula then
  /// keeps only what a later check reads of it — its result type and whether it has errors — with no parameters,
  /// steps or result; a constant only its type; a test nothing of its steps.
  @exclusivity(unchecked) var keepsBodies = true
  /// Whether literals are built although bodies are not kept: while a bracket table's threshold is checked, whose
  /// literal amount the table compares with the row before's (`Checker.literal`).
  @exclusivity(unchecked) var keepsLiterals = false
  /// Whether a formula's checked steps and result are left out of the program, to be checked again from its syntax
  /// when first read (`Program.body(ofFormula:)`): the language server's check, whose queries read the bodies of a
  /// few formulas at a time, while making and freeing every typed node of a document cost a tenth of its open.
  /// Its signature, parameters included, is kept as ever.
  @exclusivity(unchecked) var defersFormulaBodies = false
  /// Whether the body being checked is one whose nodes are not kept (`defersFormulaBodies`; `keepsBodies` is off
  /// meanwhile): a declaration checked on demand inside it keeps its own (`leaveDeferredBody`).
  @exclusivity(unchecked) var insideDeferredBody = false

  @exclusivity(unchecked) var formulaDeclarations: [FormulaDeclaration] = []
  @exclusivity(unchecked) var formulaIndex: [String: Int] = [:]
  @exclusivity(unchecked) var formulaParameterTypes: [[TaxType]] = []
  @exclusivity(unchecked) var formulaDeclaredReturn: [TaxType?] = []
  /// Where each formula's check is, by index; empty when checking against a program (see `formulaState`).
  @exclusivity(unchecked) var formulaStates: [CheckState] = []
  /// The formulas checked so far, by index (a whole check); see `formula(at:)`.
  @exclusivity(unchecked) var formulas: [FormulaInfo?] = []
  /// When checking against a program: its formulas, shared rather than copied (a large program has many), and the
  /// ones checked again here.
  @exclusivity(unchecked) var programFormulas: [FormulaInfo] = []
  @exclusivity(unchecked) var recheckedFormulas: [Int: FormulaInfo] = [:]

  @exclusivity(unchecked) var constantDeclarations: [ConstantDeclaration] = []
  @exclusivity(unchecked) var constantIndex: [String: Int] = [:]
  /// Where each constant's check is, by index; empty when checking against a program (see `constantState`).
  @exclusivity(unchecked) var constantStates: [CheckState] = []
  @exclusivity(unchecked) var constants: [ConstantInfo?] = []

  @exclusivity(unchecked) var jurisdictionDeclarations: [String: JurisdictionDeclaration] = [:]
  var provinceCodes: [String] = []
  @exclusivity(unchecked) var interfaces: [String: InterfaceInfo] = [:]
  /// The interface member `interfaceMemberType` found last, with its type; nil again whenever `interfaces` changes.
  @exclusivity(unchecked) var lastInterfaceMember: (kind: JurisdictionKind, name: String, type: TaxType)? = nil
  /// Checked parameter definitions: code → year → name → definition.
  var parameterDefinitions: [String: [Int: [String: ParameterDefinitionInfo]]] = [:]
  var definitionStates: [String: CheckState] = [:]
  var definitionSyntaxCache: [String: [Int: [String: ParameterDefinition]]] = [:]
  /// The jurisdictions' part of `onDemandCount` when already known: a check of documents on top of a library takes
  /// the library's (`CheckedLibrary.jurisdictionOnDemandCount`), the documents declaring no jurisdiction or interface.
  var knownJurisdictionOnDemandCount: Int? = nil
  @exclusivity(unchecked) var parameterTypes: [String: [String: TaxType]] = [:]

  var tests: [TestInfo] = []
  /// Values the host defines, visible everywhere as constants: the REPL's `ans` and `let` results.
  @exclusivity(unchecked) var predefined: [String: Value] = [:]
  /// What each declaration depends on, for the cycle check: formulas' and constants' by index (sized by `collect`),
  /// parameters' by jurisdiction and name. Kept as lists (repeats are harmless to the cycle check) because a set per
  /// declaration costs more to fill than the check costs to run.
  @exclusivity(unchecked) var formulaEdges: [[GlobalNode]] = []
  @exclusivity(unchecked) var constantEdges: [[GlobalNode]] = []
  @exclusivity(unchecked) var parameterEdges: [GlobalNode: [GlobalNode]] = [:]
  @exclusivity(unchecked) var inferenceDepth = 0
  /// A checker checking formula bodies ahead for another (`precheckFormulas`), and whether the body it is checking
  /// needed something only the serial check may do.
  @exclusivity(unchecked) var speculative = false
  var abandonedSpeculation = false
  /// The checkers of the two halves, the formulas they checked ahead by index (nil: to check here; taken once), and
  /// for each half, its symbol ids → the program's (-1 until first met).
  var precheckers: [Checker] = []
  @exclusivity(unchecked) var prechecked: [PrecheckedFormula?] = []
  var symbolMaps: [[Int32]] = []
  /// How many formula bodies the halves checked ahead and kept (tests, measurements).
  var checkedAheadCount = 0
  /// The names every scope sees, indexed for "did you mean" once the declarations are collected (`Suggestions`).
  lazy var globalSuggestions = SuggestionIndex(globalNamesSuggested)
  /// The names a call may use: formulas and built-in functions.
  lazy var calleeSuggestions = SuggestionIndex(calleeNamesSuggested)
  /// What `globalSuggestions` indexes: constants, province codes, formulas and a host's values.
  var globalNamesSuggested: [String] {
    Array(constantIndex.keys) + provinceCodes + Array(formulaIndex.keys) + Array(predefined.keys)
  }
  /// What `calleeSuggestions` indexes: formulas and built-in functions.
  var calleeNamesSuggested: [String] { Array(formulaIndex.keys) + Builtin.allCases.map(\.name) }

  /// Both indexes made again, of the names declared now: for a check that may have made them before every name was
  /// declared and then undid what they suggested (`Checker+Stream`).
  func makeSuggestionIndexes() {
    globalSuggestions = SuggestionIndex(globalNamesSuggested)
    calleeSuggestions = SuggestionIndex(calleeNamesSuggested)
  }

  init(trees: [SyntaxTree], recordOccurrences: Bool) {
    self.trees = trees
    self.recordOccurrences = recordOccurrences
    self.symbolTable = SymbolTableBuilder(parent: nil)
    // About the symbols a formula defines (itself, its parameters, a `let` or two): numbering them then never
    // grows the table.
    if recordOccurrences {
      symbolTable.reserve(trees.reduce(0) { $0 + $1.declarations.count } * 6)
      // About one occurrence in every 5 bytes of code (generated formulas have one in 6, the library one in 12): the
      // array is then not copied as it grows, and what is reserved and not used is never touched.
      occurrences.reserveCapacity(trees.reduce(0) { $0 + $1.source.bytes.count } / 5)
    }
    for tree in trees { sources[tree.source.id] = tree.source }
  }

  /// Checks the trees together (the standard library, the user's files, a REPL session) into one program.
  public static func check(
    _ trees: [SyntaxTree], predefined: [String: Value] = [:], recordOccurrences: Bool = true
  ) -> Program {
    check(trees, predefined: predefined, recordOccurrences: recordOccurrences, parallelThreshold: parallelThreshold)
  }

  /// `check`, with the formula bodies checked in two halves at once when there are at least `parallelThreshold`
  /// formulas (`Int.max`: never; tests compare both ways).
  static func check(
    _ trees: [SyntaxTree], predefined: [String: Value] = [:], recordOccurrences: Bool = true, parallelThreshold: Int
  ) -> Program {
    let checker = Checker(trees: trees, recordOccurrences: recordOccurrences)
    checker.predefined = predefined
    checker.parallelThreshold = parallelThreshold
    return checker.run()
  }

  /// The diagnostics `check` reports for the trees, in the same order, without the program: for a command that only
  /// reports them (`taxpro check`). Each formula's checked body, each constant's value and each test's steps are
  /// dropped as soon as they are checked (`keepsBodies`), so the check's peak memory holds the syntax and one body at
  /// a time rather than every checked body as well. Occurrences are not recorded.
  public static func diagnostics(of trees: [SyntaxTree], predefined: [String: Value] = [:]) -> [Diagnostic] {
    checkedForDiagnostics(trees, predefined: predefined).diagnostics
  }

  /// The checker after `diagnostics(of:)`'s check, with what it kept (tests).
  static func checkedForDiagnostics(_ trees: [SyntaxTree], predefined: [String: Value] = [:]) -> Checker {
    let checker = Checker(trees: trees, recordOccurrences: false)
    checker.predefined = predefined
    checker.keepsBodies = false
    checker.runPasses()
    return checker
  }

  /// `check`, abandoned (nil) as soon as `isCancelled` says so: asked between declarations, it lets the language
  /// server drop the check of a version of the workspace that an edit has already replaced.
  ///
  /// `defersFormulaBodies`: the formulas' steps and results are left out of the program and checked when first read
  /// (`Program.body(ofFormula:)`).
  public static func check(
    _ trees: [SyntaxTree], recordOccurrences: Bool = true, defersFormulaBodies: Bool = false,
    isCancelled: @escaping () -> Bool
  ) -> Program? {
    check(
      trees, recordOccurrences: recordOccurrences, parallelThreshold: parallelThreshold,
      defersFormulaBodies: defersFormulaBodies, isCancelled: isCancelled)
  }

  /// The cancellable `check` with its threshold for checking bodies in two halves (tests).
  static func check(
    _ trees: [SyntaxTree], recordOccurrences: Bool = true, parallelThreshold: Int, defersFormulaBodies: Bool = false,
    isCancelled: @escaping () -> Bool
  ) -> Program? {
    let checker = Checker(trees: trees, recordOccurrences: recordOccurrences)
    checker.parallelThreshold = parallelThreshold
    checker.defersFormulaBodies = defersFormulaBodies
    checker.isCancelled = isCancelled
    let program = checker.run()
    return checker.cancelled ? nil : program
  }

  /// From how many formulas a whole check checks their bodies in two halves at once (`precheckFormulas`): for now
  /// never. Measured on the release build with the machine otherwise idle (2 cores), the server's open of a
  /// 40,000-line document took 442 ms with the halves against 260 ms without (medians of 6 interleaved opens) and
  /// peaked at 150 MiB against 131 MiB; `taxpro check` of 10,000 formulas was no faster. The process has one malloc
  /// arena (`tuneAllocator`), so the two threads take turns at its lock; with two arenas the open was still slower.
  /// The program is the serial one either way (`ParallelCheckTests` force both); lower this only with a measurement
  /// that shows a gain (500 formulas was the threshold estimated from instruction counts).
  static let parallelThreshold = Int.max
  var parallelThreshold = Checker.parallelThreshold

  /// Asked between declarations by a check that may be abandoned; `cancelled` once it said yes.
  var isCancelled: (() -> Bool)?
  var cancelled = false

  /// Whether to stop: asked every 32 declarations (a lock and a look at the analyzer's queue each time).
  func shouldStop(_ index: Int) -> Bool {
    if cancelled { return true }
    guard index & 31 == 0, let isCancelled else { return false }
    cancelled = isCancelled()
    return cancelled
  }

  /// A checker that goes on from where `base`, a finished whole check, left off: every table and list of `base`,
  /// shared until this one adds to it (`Checker+Library`). `base` is only read, so several checkers may start from it.
  /// The "did you mean" indexes are made again, of this checker's names, when first needed.
  init(continuing base: Checker) {
    recordOccurrences = base.recordOccurrences
    trees = base.trees
    sources = base.sources
    diagnostics = base.diagnostics
    occurrences = base.occurrences
    symbolTable = base.symbolTable
    formulaSymbols = base.formulaSymbols
    parameterSymbols = base.parameterSymbols
    parameterSymbolRepeats = base.parameterSymbolRepeats
    keepsBodies = base.keepsBodies
    keepsLiterals = base.keepsLiterals
    defersFormulaBodies = base.defersFormulaBodies
    formulaDeclarations = base.formulaDeclarations
    formulaIndex = base.formulaIndex
    formulaParameterTypes = base.formulaParameterTypes
    formulaDeclaredReturn = base.formulaDeclaredReturn
    formulaStates = base.formulaStates
    formulas = base.formulas
    programFormulas = base.programFormulas
    recheckedFormulas = base.recheckedFormulas
    constantDeclarations = base.constantDeclarations
    constantIndex = base.constantIndex
    constantStates = base.constantStates
    constants = base.constants
    jurisdictionDeclarations = base.jurisdictionDeclarations
    provinceCodes = base.provinceCodes
    interfaces = base.interfaces
    parameterDefinitions = base.parameterDefinitions
    definitionStates = base.definitionStates
    definitionSyntaxCache = base.definitionSyntaxCache
    parameterTypes = base.parameterTypes
    tests = base.tests
    predefined = base.predefined
    formulaEdges = base.formulaEdges
    constantEdges = base.constantEdges
    parameterEdges = base.parameterEdges
    parallelThreshold = base.parallelThreshold
    checkDiagnostics = base.checkDiagnostics
    globalNames = base.globalNames
  }

  /// A checker that sees everything `program` declares, to check more expressions against it.
  init(program: Program, predefined: [String: Value], recordOccurrences: Bool) {
    self.trees = []
    self.recordOccurrences = recordOccurrences
    self.symbolTable = SymbolTableBuilder(parent: program.symbols)
    self.sources = program.sources
    let tables = program.tables
    formulaDeclarations = tables.formulaDeclarations
    formulaIndex = program.formulaIndex
    formulaParameterTypes = tables.formulaParameterTypes
    formulaDeclaredReturn = tables.formulaDeclaredReturn
    // The states and dependency lists stay empty: every declaration of a checked program reads as done
    // (`formulaState`, `constantState`), and an expression checked against it is nobody's dependency. Sizing them by
    // the program would make every completion and hover in a large document cost as much as the document.
    programFormulas = program.formulas
    constantDeclarations = tables.constantDeclarations
    constantIndex = program.constantIndex
    constants = program.constants.map { Optional($0) }
    jurisdictionDeclarations = tables.jurisdictionDeclarations
    provinceCodes = program.provinceCodes
    interfaces = program.interfaces
    for (code, jurisdiction) in program.jurisdictions {
      parameterDefinitions[code] = jurisdiction.years
      parameterTypes[code] = jurisdiction.parameterTypes
    }
    self.predefined = tables.predefined.merging(predefined) { _, new in new }
  }

  /// Where the check of the formula at `index` is: done when the states are not kept (a checked program's formula).
  func formulaState(_ index: Int) -> CheckState {
    index < formulaStates.count ? formulaStates[index] : .done
  }

  /// Where the check of the constant at `index` is: done when the states are not kept.
  func constantState(_ index: Int) -> CheckState {
    index < constantStates.count ? constantStates[index] : .done
  }

  /// The checked formula at `index`, if it is checked.
  func formula(at index: Int) -> FormulaInfo? {
    if index < formulas.count { return formulas[index] }
    if let rechecked = recheckedFormulas[index] { return rechecked }
    return index < programFormulas.count ? programFormulas[index] : nil
  }

  func setFormula(_ index: Int, _ info: FormulaInfo) {
    if index < formulas.count { formulas[index] = info } else { recheckedFormulas[index] = info }
  }

  /// Checks one more expression against a checked program (an `eval` expression, a REPL line).
  ///
  /// `locals` are names bound to frame slots 0, 1, … in order: the evaluator is then given their values per run
  /// (`Evaluator.evaluate(_:locals:)`), so one check serves many evaluations (a plot, a CSV file).
  public static func check(
    _ expression: Expression, source: SourceFile, against program: Program, predefined: [String: Value] = [:],
    locals: [(name: String, type: TaxType)] = []
  ) -> (TypedExpression, [Diagnostic]) {
    let checker = Checker(program: program, predefined: predefined, recordOccurrences: false)
    checker.sources[source.id] = source
    var scope = Scope()
    for local in locals {
      _ = scope.declare(local.name, type: local.type, at: Span(file: source.id, start: 0, end: 0), isParameter: false)
    }
    let typed = checker.check(expression, in: &scope)
    if typed.type == .federal {
      checker.error(.federalNotAValue, at: expression.span)
      return (.invalid(expression.span), checker.diagnostics)
    }
    return (typed, checker.diagnostics)
  }

  // MARK: Reporting

  func error(_ message: DiagnosticMessage, at span: Span, notes: [DiagnosticNote] = [], fixes: [Fix] = []) {
    diagnostics.append(.error(message, at: span, notes: notes, fixes: fixes))
  }

  /// Records an occurrence; returns the id of its symbol (-1 when occurrences are not recorded).
  @discardableResult
  func record(_ span: Span, _ symbol: Symbol, definition: Bool = false, jurisdiction: String? = nil) -> Int32 {
    guard recordOccurrences else { return -1 }
    let stored = symbolTable.store(span, symbol, definition: definition, jurisdiction: jurisdiction)
    occurrences.append(stored)
    return stored.symbol
  }

  /// Records a use of the parameter or `let` at `position` in `scope`, whose symbol was numbered where it was defined.
  func recordUse(_ span: Span, ofBindingAt position: Int, name: String, in scope: Scope) {
    guard recordOccurrences else { return }
    let symbol = scope[position].symbol
    let isParameter = scope[position].isParameter
    guard symbol >= 0 else {
      if isParameter, let formula = scope.formulaName {
        record(span, .formulaParameter(formula: formula, name: name))
      } else {
        record(span, .local(name: name, definition: scope[position].definition))
      }
      return
    }
    // A formula's parameter is named by its formula, a `let` by where it is defined.
    let isFormulaParameter = isParameter && scope.formulaName != nil
    occurrences.append(
      StoredOccurrence(
        span: span, definition: isFormulaParameter ? .nowhere : scope[position].definition, symbol: symbol,
        jurisdiction: -1, isDefinition: false))
  }

  /// Records a use (or the definition) of the formula at `index`, numbering its symbol once.
  func recordFormula(_ span: Span, index: Int, name: String, definition: Bool = false) {
    guard recordOccurrences else { return }
    guard index < formulaSymbols.count else {
      record(span, .formula(name), definition: definition)
      return
    }
    let id = formulaSymbolID(index, name: name)
    occurrences.append(
      StoredOccurrence(span: span, definition: .nowhere, symbol: id, jurisdiction: -1, isDefinition: definition))
  }

  /// The symbol id of the formula at `index` (a whole check), numbered when first asked for: a new id, found later
  /// through `FormulaSymbolIDs`.
  func formulaSymbolID(_ index: Int, name: String) -> Int32 {
    var id = formulaSymbols[index]
    if id < 0 {
      id = symbolTable.append(.formula(name))
      formulaSymbols[index] = id
    }
    return id
  }

  /// Records the definition or a named use of the formula's parameter at `position`, numbering its formula's
  /// parameters once (a whole check; see `FormulaSymbolIDs`). Returns the symbol's id.
  @discardableResult
  func recordParameter(_ span: Span, formula index: Int, position: Int, definition: Bool) -> Int32 {
    guard recordOccurrences else { return -1 }
    guard index < parameterSymbols.count else {
      let declaration = formulaDeclarations[index]
      return record(
        span, .formulaParameter(formula: declaration.name.name, name: declaration.parameters[position].name.name),
        definition: definition)
    }
    let id = parameterSymbolID(index, position: position)
    occurrences.append(StoredOccurrence(span: span, definition: .nowhere, symbol: id, jurisdiction: -1, isDefinition: definition))
    return id
  }

  /// The symbol id of the parameter at `position` of the formula at `index` (a whole check), all its parameters
  /// numbered when any is first asked for, one after the other by position: a formula's first id is all that is kept
  /// of them, not a list per formula. A name declared again (reported) is the same symbol as its first declaration:
  /// the formula's ids are then kept by position (`parameterSymbolRepeats`).
  func parameterSymbolID(_ index: Int, position: Int) -> Int32 {
    let first = parameterSymbols[index]
    if first >= 0 { return first + Int32(truncatingIfNeeded: position) }
    if first == -2 { return parameterSymbolRepeats[index]?[position] ?? -1 }
    let declaration = formulaDeclarations[index]
    let parameters = declaration.parameters
    var repeated = false
    if parameters.count > Scope.linearLimit {
      var names = Set<String>()
      for parameter in parameters where !names.insert(parameter.name.name).inserted { repeated = true }
    } else {
      // Names of different lengths differ: the strings are compared only for names of one length.
      for at in parameters.indices {
        let name = parameters[at].name.name
        let length = name.utf8.count
        for before in 0..<at {
          let earlier = parameters[before].name.name
          if earlier.utf8.count == length && earlier == name { repeated = true }
        }
      }
    }
    guard repeated else {
      var id: Int32 = -1
      for parameter in parameters {
        let next = symbolTable.append(.formulaParameter(formula: declaration.name.name, name: parameter.name.name))
        if id < 0 { id = next }
      }
      parameterSymbols[index] = id
      return id + Int32(truncatingIfNeeded: position)
    }
    var ids: [Int32] = []
    ids.reserveCapacity(parameters.count)
    var firstOfName: [String: Int32] = [:]
    for parameter in parameters {
      let name = parameter.name.name
      if let earlier = firstOfName[name] {
        ids.append(earlier)
      } else {
        let id = symbolTable.append(.formulaParameter(formula: declaration.name.name, name: name))
        firstOfName[name] = id
        ids.append(id)
      }
    }
    parameterSymbols[index] = -2
    parameterSymbolRepeats[index] = ids
    return ids[position]
  }

  func text(of span: Span) -> String { sources[span.file]?.text(of: span) ?? "" }

  // MARK: The passes

  func run() -> Program {
    runPasses()
    return makeProgram()
  }

  /// Every pass of a whole check, leaving the results in the checker (`makeProgram` gathers them); stops early when
  /// the check is abandoned.
  func runPasses() {
    let parseDiagnosticCount = runFormulaPasses()
    finishPasses(parseDiagnosticCount: parseDiagnosticCount)
  }

  /// The passes of a whole check up to the formulas' bodies: the parse diagnostics, the declarations, the
  /// interfaces, the signatures and the bodies. Returns how many of `diagnostics` are the parser's.
  func runFormulaPasses() -> Int {
    for tree in trees { diagnostics.append(contentsOf: tree.diagnostics) }
    let parseDiagnosticCount = diagnostics.count
    collect()
    checkInterfaces()
    for index in formulaDeclarations.indices where !shouldStop(index) { resolveSignature(index) }
    // A large program's formula bodies are checked in two halves at once first (`precheckFormulas`); the loop then
    // takes in their results in the order a serial check would have made them, and checks the rest itself.
    if !cancelled && formulaDeclarations.count >= parallelThreshold { precheckFormulas() }
    if cancelled { return parseDiagnosticCount }
    for index in formulaDeclarations.indices where !shouldStop(index) { ensureFormula(index) }
    // Every body checked ahead is taken in by now: the halves' lists go before the rest is checked.
    (precheckers, prechecked, symbolMaps) = ([], [], [])
    return parseDiagnosticCount
  }

  /// The passes of a whole check after `runFormulaPasses`: constants, jurisdictions, tests, cycles, and the
  /// diagnostics and occurrences put in place order.
  func finishPasses(parseDiagnosticCount: Int) {
    if cancelled { return }
    for index in constantDeclarations.indices where !shouldStop(index) { ensureConstant(index) }
    // An abandoned check's program is thrown away: stop here.
    if cancelled { return }
    checkJurisdictions()
    for (index, tree) in trees.enumerated() where !shouldStop(index) {
      for declaration in tree.declarations {
        if case .test(let test) = declaration { checkTest(test) }
      }
    }
    if cancelled { return }
    findCycles()
    // Report in source order, as compilers do (checking order follows dependencies, not the text). The checker's own
    // diagnostics are kept sorted apart too, so that a re-check (`Checker.recheck`) can replace some of them.
    checkDiagnostics = Checker.sortedByPlace(diagnostics[parseDiagnosticCount...], by: \.span)
    diagnostics = Checker.sortedByPlace(diagnostics[..<parseDiagnosticCount] + checkDiagnostics, by: \.span)
    // Occurrences in text order too: which declaration was checked first (on demand) then does not show.
    occurrences = Checker.sortedByPlace(occurrences[...], by: \.span)
  }

  /// The checker's diagnostics (not the parser's), in place order; set by `run`.
  var checkDiagnostics: [Diagnostic] = []

  /// `items` ordered by file and start, items at the same place kept in their order.
  ///
  /// The checker records a file's occurrences and diagnostics mostly in text order, but interleaves files (a use
  /// checks a library declaration on demand) and sometimes goes back within one (a formula checked before the one
  /// that calls it). So one look finds each file's count and whether its items are in order; each item is then
  /// copied once, straight into its file's bucket (files in id order), and only a bucket found out of order is
  /// sorted, by start with places in the bucket breaking ties. Nothing is copied when the items are in order.
  static func sortedByPlace<T>(_ items: ArraySlice<T>, by span: (T) -> Span) -> [T] {
    guard items.count > 1 else { return Array(items) }
    // The files in order of first appearance, with their item counts and whether their items are in order; the
    // current file's figures are kept in locals while its items last.
    var files: [(file: Int32, count: Int, lastStart: Int32, ordered: Bool)] = []
    var bucketOfFile: [Int32: Int] = [:]
    var current = -1
    var file = Int32.min
    var count = 0
    var lastStart = Int32.min
    var fileOrdered = true
    var ordered = true
    for position in items.indices {
      let itemSpan = span(items[position])
      if current < 0 || itemSpan.storedFile != file {
        if current >= 0 {
          files[current] = (file, count, lastStart, fileOrdered)
          if itemSpan.storedFile < file { ordered = false }
        }
        file = itemSpan.storedFile
        if let known = bucketOfFile[file] {
          current = known
          ordered = false
        } else {
          current = files.count
          bucketOfFile[file] = current
          files.append((file, 0, Int32.min, true))
        }
        (_, count, lastStart, fileOrdered) = files[current]
      }
      if itemSpan.storedStart < lastStart { fileOrdered = false }
      lastStart = itemSpan.storedStart
      count += 1
    }
    files[current] = (file, count, lastStart, fileOrdered)
    if ordered && files.allSatisfy(\.ordered) { return Array(items) }
    // Where each file's bucket begins, files in id order.
    var next = Array(repeating: 0, count: files.count)
    var offset = 0
    for bucket in files.indices.sorted(by: { files[$0].file < files[$1].file }) {
      next[bucket] = offset
      offset += files[bucket].count
    }
    let starts = next
    current = -1
    var result = [T](unsafeUninitializedCapacity: items.count) { buffer, initialized in
      var slot = 0
      for position in items.indices {
        let item = items[position]
        let itemFile = span(item).storedFile
        if current < 0 || itemFile != file {
          if current >= 0 { next[current] = slot }
          file = itemFile
          current = bucketOfFile[file] ?? 0
          slot = next[current]
        }
        buffer.initializeElement(at: slot, to: item)
        slot += 1
      }
      initialized = items.count
    }
    for bucket in files.indices where !files[bucket].ordered {
      // A bucket holds its items in their order, so ordering by (start, place in the bucket) is stable.
      let range = starts[bucket]..<(starts[bucket] + files[bucket].count)
      var keyed = range.map { (start: span(result[$0]).storedStart, slot: $0) }
      keyed.sort { $0.start != $1.start ? $0.start < $1.start : $0.slot < $1.slot }
      let bucketItems = keyed.map { result[$0.slot] }
      result.replaceSubrange(range, with: bucketItems)
    }
    return result
  }

  func makeProgram() -> Program {
    var finishedFormulas: [FormulaInfo] = []
    for (index, declaration) in formulaDeclarations.enumerated() {
      finishedFormulas.append(formulas[index] ?? placeholderFormula(declaration))
    }
    var finishedConstants: [ConstantInfo] = []
    for (index, declaration) in constantDeclarations.enumerated() {
      finishedConstants.append(
        constants[index]
          ?? ConstantInfo(
            name: declaration.binding.name.name, nameSpan: declaration.binding.name.span,
            documentation: declaration.documentation, type: .error, value: .invalid(declaration.span),
            span: declaration.span))
    }
    var jurisdictions: [String: JurisdictionInfo] = [:]
    for (code, declaration) in jurisdictionDeclarations {
      var yearSpans: [Int: Span] = [:]
      for block in declaration.years { yearSpans[block.year] = block.yearSpan }
      jurisdictions[code] = JurisdictionInfo(
        code: code, kind: declaration.kind,
        fullName: declaration.fullName ?? (declaration.kind == .federal ? "Canada" : code),
        documentation: declaration.documentation, codeSpan: declaration.code.span, span: declaration.span,
        years: parameterDefinitions[code] ?? [:], parameterTypes: parameterTypes[code] ?? [:], yearSpans: yearSpans)
    }
    return Program(
      sources: sources, trees: trees, formulas: finishedFormulas, formulaIndex: formulaIndex,
      constants: finishedConstants, constantIndex: constantIndex, jurisdictions: jurisdictions,
      provinceCodes: provinceCodes, interfaces: interfaces, tests: tests, diagnostics: diagnostics,
      occurrences: OccurrenceList(occurrences),
      symbols: symbolTable.finish(
        formulaIDs: formulaSymbols.isEmpty
          ? nil
          : FormulaSymbolIDs(
            formulaIndex: formulaIndex, formulas: formulaSymbols, parameters: parameterSymbols,
            parameterRepeats: parameterSymbolRepeats, declarations: formulaDeclarations)),
      tables: CheckerTables(
        formulaDeclarations: formulaDeclarations, formulaParameterTypes: formulaParameterTypes,
        formulaDeclaredReturn: formulaDeclaredReturn, constantDeclarations: constantDeclarations,
        jurisdictionDeclarations: jurisdictionDeclarations, predefined: predefined, checkDiagnostics: checkDiagnostics,
        formulaEdges: formulaEdges, constantEdges: constantEdges, parameterEdges: parameterEdges,
        onDemandCount: onDemandCount(), defersFormulaBodies: defersFormulaBodies))
  }

  /// See `CheckerTables.onDemandCount`.
  func onDemandCount() -> Int {
    var count = constantDeclarations.count
    for declared in formulaDeclaredReturn where declared == nil { count += 1 }
    return count + (knownJurisdictionOnDemandCount ?? jurisdictionOnDemandCount())
  }

  /// The parameter definitions outside their jurisdiction's interface (`onDemandCount`'s jurisdictions' part).
  func jurisdictionOnDemandCount() -> Int {
    var count = 0
    for (code, declaration) in jurisdictionDeclarations {
      let members = Set(interface(for: declaration.kind)?.members.map(\.name) ?? [])
      for (_, definitions) in definitionSyntax(code) {
        for name in definitions.keys where !members.contains(name) { count += 1 }
      }
    }
    return count
  }

  func placeholderFormula(_ declaration: FormulaDeclaration) -> FormulaInfo {
    FormulaInfo(.init(
      name: declaration.name.name, nameSpan: declaration.name.span, documentation: declaration.documentation,
      parameters: [], returnType: .error, returnTypeDeclared: false, lets: [], result: .invalid(declaration.span),
      slotCount: 0, span: declaration.span, hasErrors: true))
  }

  // MARK: Collecting declarations

  /// Every global name and where it was declared, for duplicate detection.
  @exclusivity(unchecked) var globalNames: [String: Span] = [:]

  func declareGlobal(_ name: Identifier, what: String) -> Bool {
    if Checker.mayBeBuiltin(name.name, builtinShapes), let builtin = builtinEntries[name.name] {
      error(
        .builtinRedefined(name.name), at: name.span,
        notes: [DiagnosticNote(.note, builtin.declaration.signature)])
      return false
    }
    if TaxType(name: name.name) != nil {
      error(.typeRedefined(name.name), at: name.span)
      return false
    }
    if name.name == "ans" {
      // The REPL's last result may be shadowed by nothing: it would confuse `ans`.
      error(.ansReserved, at: name.span)
      return false
    }
    // Inserted with one hash; a name defined again keeps its first place.
    if let previous = globalNames.updateValue(name.span, forKey: name.name) {
      globalNames[name.name] = previous
      error(
        .alreadyDefined(name.name), at: name.span,
        notes: [DiagnosticNote(.note, "first defined here", span: previous)])
      return false
    }
    return true
  }

  func collect() {
    collect(trees)
  }

  /// Declares the global names of `trees`, after those already declared (a check on top of a checked library,
  /// `Checker+Library`, keeps the library's), and sizes the tables kept by declaration for the new ones.
  func collect(_ trees: some Collection<SyntaxTree>) {
    // Sized once for every declaration: filled one by one, the tables of a large file are rehashed a dozen times.
    let declarationCount = trees.reduce(0) { $0 + $1.declarations.count }
    globalNames.reserveCapacity(globalNames.count + declarationCount)
    formulaIndex.reserveCapacity(formulaIndex.count + declarationCount)
    formulaDeclarations.reserveCapacity(formulaDeclarations.count + declarationCount)
    for tree in trees {
      for declaration in tree.declarations {
        switch declaration {
        case .formula(let formula):
          guard declareGlobal(formula.name, what: "formula") else { continue }
          formulaIndex[formula.name.name] = formulaDeclarations.count
          formulaDeclarations.append(formula)
          // Its name is recorded where its body is checked (`ensureFormula`), in text order with the rest of it.
        case .constant(let constant):
          guard declareGlobal(constant.binding.name, what: "constant") else { continue }
          constantIndex[constant.binding.name.name] = constantDeclarations.count
          constantDeclarations.append(constant)
          record(constant.binding.name.span, .constant(constant.binding.name.name), definition: true)
        case .jurisdiction(let jurisdiction):
          if jurisdiction.kind == .federal {
            if let previous = jurisdictionDeclarations["federal"] {
              error(
                .alreadyDefined("federal"), at: jurisdiction.code.span,
                notes: [DiagnosticNote(.note, "first defined here", span: previous.code.span)])
              continue
            }
          } else {
            guard declareGlobal(jurisdiction.code, what: "province") else { continue }
            provinceCodes.append(jurisdiction.code.name)
            record(jurisdiction.code.span, .jurisdiction(jurisdiction.code.name), definition: true)
          }
          jurisdictionDeclarations[jurisdiction.code.name] = jurisdiction
        case .interface(let interface):
          if let previous = interfaces[interface.name.name] {
            error(
              .interfaceRedefined(interface.name.name), at: interface.name.span,
              notes: [DiagnosticNote(.note, "first defined here", span: previous.nameSpan)])
            continue
          }
          lastInterfaceMember = nil
          interfaces[interface.name.name] = InterfaceInfo(
            name: interface.name.name, nameSpan: interface.name.span, documentation: interface.documentation,
            members: [], span: interface.span)
          record(interface.name.span, .interface(interface.name.name), definition: true)
        case .test, .expression:
          break
        }
      }
    }
    // The entries of the declarations collected before (none in a whole check) are kept.
    let newFormulas = formulaDeclarations.count - formulaStates.count
    let newConstants = constantDeclarations.count - constantStates.count
    formulaParameterTypes.append(contentsOf: repeatElement([], count: newFormulas))
    formulaDeclaredReturn.append(contentsOf: repeatElement(nil, count: newFormulas))
    formulaStates.append(contentsOf: repeatElement(.pending, count: newFormulas))
    formulaEdges.append(contentsOf: repeatElement([], count: newFormulas))
    constantEdges.append(contentsOf: repeatElement([], count: newConstants))
    formulas.append(contentsOf: repeatElement(nil, count: newFormulas))
    formulaSymbols.append(contentsOf: repeatElement(-1, count: newFormulas))
    parameterSymbols.append(contentsOf: repeatElement(-1, count: newFormulas))
    constantStates.append(contentsOf: repeatElement(.pending, count: newConstants))
    constants.append(contentsOf: repeatElement(nil, count: newConstants))
  }

  /// The type a source annotation names; unknown names are reported with a suggestion. `recording: false` leaves the
  /// occurrence to the caller (a formula's signature is recorded where its body is checked, in text order).
  func resolveType(_ annotation: TypeAnnotation, recording: Bool = true) -> TaxType {
    if let type = TaxType(name: annotation.name) {
      if recording { record(annotation.span, .type(type)) }
      return type
    }
    let names = TaxType.writable.map(\.description)
    var notes: [DiagnosticNote] = []
    var fixes: [Fix] = []
    if let suggestion = Suggestions.closest(to: annotation.name, among: names) {
      notes.append(DiagnosticNote(.help, "did you mean '\(suggestion)'?"))
      fixes.append(
        Fix(title: "Change to '\(suggestion)'", replacements: [TextReplacement(span: annotation.span, text: suggestion)]))
    } else {
      notes.append(DiagnosticNote(.note, "the types are \(names.joined(separator: ", "))"))
    }
    error(.unknownType(annotation.name), at: annotation.span, notes: notes, fixes: fixes)
    return .error
  }

  func checkInterfaces() {
    for tree in trees {
      for declaration in tree.declarations {
        guard case .interface(let interface) = declaration,
          var info = interfaces[interface.name.name], info.span == interface.span
        else { continue }
        var seen: [String: Span] = [:]
        for member in interface.members {
          if let previous = seen[member.name.name] {
            error(
              .memberRedefined(member.name.name, of: interface.name.name),
              at: member.name.span, notes: [DiagnosticNote(.note, "first declared here", span: previous)])
            continue
          }
          seen[member.name.name] = member.name.span
          let kind: JurisdictionKind = interface.name.name == "Federal" ? .federal : .province
          record(member.name.span, .jurisdictionParameter(kind, member.name.name), definition: true)
          info.members.append(
            InterfaceInfo.Member(
              name: member.name.name, type: resolveType(member.type), documentation: member.documentation,
              span: member.span))
        }
        lastInterfaceMember = nil
        interfaces[interface.name.name] = info
      }
    }
  }

  /// The interface a jurisdiction must satisfy.
  func interface(for kind: JurisdictionKind) -> InterfaceInfo? {
    interfaces[kind.interfaceName]
  }
}
