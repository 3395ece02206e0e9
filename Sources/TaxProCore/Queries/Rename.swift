/// Rename: the name under the cursor, changed at its declaration and every use, across files.
///
/// Renaming is refused, with a reason a person can act on, rather than producing an edit that would break the
/// program: built-ins, types and test names; symbols declared in files that cannot be edited (the standard library);
/// and new names that are not identifiers, are reserved, or would collide with a name already in scope.
public enum Rename {
  /// Why a rename cannot be done, in words an editor shows as they are.
  public struct Refusal: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
  }

  /// The name that would be renamed at `offset`: its occurrence, or why it cannot be renamed.
  public static func prepare(
    at offset: Int, in file: FileID, program: Program, index: SymbolIndex, isEditable: (FileID) -> Bool
  ) -> Result<SymbolOccurrence, Refusal> {
    guard let occurrence = index.occurrence(at: offset, in: file) else {
      return .failure(Refusal("there is no name here to rename"))
    }
    let name = displayName(occurrence.symbol)
    switch occurrence.symbol {
    case .builtin(let builtin):
      return .failure(Refusal("'\(builtin)' is a built-in function and cannot be renamed"))
    case .type(let type):
      return .failure(Refusal("'\(type)' is a type and cannot be renamed"))
    case .test:
      return .failure(Refusal("a test's name is text: edit it between the quotes"))
    case .interface(let interface):
      return .failure(Refusal("the interface '\(interface)' has a fixed name"))
    default:
      break
    }
    let all = index.occurrences(of: occurrence.symbol)
    // The file named is the declaration's when that is read-only, else the first read-only file that uses it.
    let readOnlyDeclaration = all.first { $0.isDefinition && !isEditable($0.span.file) }
    if let readOnly = readOnlyDeclaration ?? all.first(where: { !isEditable($0.span.file) }) {
      let where_ = program.sources[readOnly.span.file]?.name ?? "a read-only file"
      let what = readOnlyDeclaration != nil ? "is declared" : "is used"
      return .failure(Refusal("'\(name)' \(what) in \(where_), which is read-only (the standard library cannot be renamed)"))
    }
    return .success(occurrence)
  }

  /// The replacements that rename the symbol at `offset` to `newName`.
  public static func edits(
    at offset: Int, in file: FileID, newName: String, program: Program, index: SymbolIndex,
    isEditable: (FileID) -> Bool
  ) -> Result<[TextReplacement], Refusal> {
    let occurrence: SymbolOccurrence
    switch prepare(at: offset, in: file, program: program, index: index, isEditable: isEditable) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let found): occurrence = found
    }
    if let problem = validate(newName, for: occurrence.symbol, program: program) {
      return .failure(problem)
    }
    if newName == displayName(occurrence.symbol) { return .success([]) }
    return .success(
      index.occurrences(of: occurrence.symbol).map { TextReplacement(span: $0.span, text: newName) })
  }

  static func displayName(_ symbol: Symbol) -> String {
    switch symbol {
    case .formula(let name), .constant(let name), .jurisdiction(let name), .interface(let name), .builtin(let name),
      .test(let name):
      name
    case .formulaParameter(_, let name), .local(let name, _), .jurisdictionParameter(_, let name): name
    case .type(let type): type.description
    }
  }

  static func isIdentifier(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard let first = bytes.first, Lexer.isIdentifierStart(first) else { return false }
    return bytes.allSatisfy(Lexer.isIdentifierPart)
  }

  /// Why `newName` cannot replace the symbol's name, if it cannot.
  static func validate(_ newName: String, for symbol: Symbol, program: Program) -> Refusal? {
    guard isIdentifier(newName) else {
      return Refusal("'\(newName)' is not a name: use letters, digits and '_', starting with a letter or '_'")
    }
    if Vocabulary.keyword(newName)?.isReserved == true { return Refusal("'\(newName)' is a keyword") }
    if Builtin(rawValue: newName) != nil { return Refusal("'\(newName)' is a built-in function") }
    if TaxType(name: newName) != nil { return Refusal("'\(newName)' is the name of a type") }
    if newName == "ans" { return Refusal("'ans' is reserved for the REPL's last result") }
    if newName == displayName(symbol) { return nil }
    let globals =
      Set(program.formulaIndex.keys).union(program.constantIndex.keys).union(program.provinceCodes)
    func taken(_ what: String) -> Refusal { Refusal("'\(newName)' is already \(what)") }
    switch symbol {
    case .formula, .constant, .jurisdiction:
      if globals.contains(newName) { return taken("defined") }
    case .formulaParameter(let formulaName, _):
      if globals.contains(newName) { return taken("a global name that this formula could no longer reach") }
      if let formula = program.formula(named: formulaName), let body = program.body(ofFormulaNamed: formulaName) {
        let names = Set(formula.parameters.map(\.name) + body.lets.map(\.name))
        if names.contains(newName) { return taken("a name in '\(formulaName)'") }
      }
    case .local(_, let definition):
      if globals.contains(newName) { return taken("a global name that this body could no longer reach") }
      if localNames(around: definition, program: program).contains(newName) { return taken("defined in this body") }
    case .jurisdictionParameter(let kind, _):
      if newName == "name" { return Refusal("'name' is a jurisdiction's full name") }
      let used = program.jurisdictions.values.filter { $0.kind == kind }.flatMap { $0.parameterTypes.keys }
      if Set(used).contains(newName) { return taken("a parameter") }
    default:
      break
    }
    return nil
  }

  /// The parameter and `let` names of the formula or test holding `span`.
  static func localNames(around span: Span, program: Program) -> Set<String> {
    for index in program.formulas.indices {
      let formula = program.formulas[index]
      guard formula.span.file == span.file && formula.span.contains(span.start) else { continue }
      return Set(formula.parameters.map(\.name) + program.body(ofFormula: index).lets.map(\.name))
    }
    for test in program.tests where test.span.file == span.file && test.span.contains(span.start) {
      return Set(
        test.steps.compactMap { step in
          if case .binding(let binding) = step { return binding.name }
          return nil
        })
    }
    return []
  }
}
