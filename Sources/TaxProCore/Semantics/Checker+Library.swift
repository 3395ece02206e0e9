/// Checking documents on top of a library checked once: the language server checks the standard library's trees
/// when it first needs them (`CheckedLibrary`) and then, for every whole check of the open documents, goes on from
/// the checker the library's check left — a copy of it, its tables shared until they grow — declaring and checking
/// only the documents' declarations, rather than checking the library again each time.
///
/// What makes this exact: a whole check of the library's trees followed by the documents' checks the library's
/// formulas first, in the same order as the library alone, and — when the library's own check found no error —
/// every name a library declaration uses is the library's, so nothing the documents declare changes what the
/// library's declarations check to. The documents then see the library as the whole check would have left it by the
/// time it reached them; only the library's constants and parameter definitions that no library formula used are
/// checked earlier here (by the library's later passes) than there (perhaps on demand, inside a document's formula),
/// which can show only through the inference depth limit, so documents whose chains of on-demand declarations could
/// reach it together with the library's are checked whole. Documents that declare a jurisdiction or an interface
/// (which the library's jurisdictions' checks read) are checked whole too. Diagnostics and occurrences are put in
/// place order at the end, as the whole check does, so the order things were checked in does not show.
/// `LibraryCheckTests` compares both ways on every `.tax` file of the repository and on documents with errors.
public final class CheckedLibrary: @unchecked Sendable {
  /// The library's trees, in the order the whole check takes them (before the documents').
  public let trees: [SyntaxTree]
  /// The checker after the library's whole check. Only read from then on (`Checker(continuing:)` copies it).
  let checker: Checker
  /// The program of the library alone: the whole check's when there are no documents (the language server's after
  /// the last document is closed), made once.
  let alone: Program
  /// Whether documents may be checked on top of this check: it found no error, so no name the library uses can be
  /// one the documents declare.
  public let isReusable: Bool
  /// The longest chain of the library's on-demand declarations (constants, parameters) still unchecked once its
  /// formulas' bodies were, each using the next: in a whole check a document's formula may check such a chain on
  /// demand, that much deeper than here.
  let uncheckedAfterFormulas: Int
  /// The library's parameter definitions outside their jurisdiction's interface, counted once: every check of
  /// documents on top adds them to its `CheckerTables.onDemandCount` (the documents declare no jurisdiction).
  let jurisdictionOnDemandCount: Int

  /// Checks `trees` (the standard library's, in program order) once, as the start of every check on top of them.
  /// `diagnosticsOnly`: as `Checker.diagnostics(of:)` checks, recording no occurrences and keeping no checked body,
  /// for a check that goes on to report diagnostics alone (`Checker.streamedDiagnostics`).
  public init(_ trees: [SyntaxTree], diagnosticsOnly: Bool = false) {
    self.trees = trees
    let checker = Checker(trees: trees, recordOccurrences: !diagnosticsOnly)
    checker.keepsBodies = !diagnosticsOnly
    let parseDiagnosticCount = checker.runFormulaPasses()
    var unchecked: Set<GlobalNode> = []
    for (index, state) in checker.constantStates.enumerated() where state == .pending {
      unchecked.insert(.constant(index))
    }
    for code in checker.jurisdictionDeclarations.keys {
      for (year, definitions) in checker.definitionSyntax(code) {
        for name in definitions.keys where checker.parameterDefinitions[code]?[year]?[name] == nil {
          unchecked.insert(.parameter(jurisdiction: code, name: name))
        }
      }
    }
    checker.finishPasses(parseDiagnosticCount: parseDiagnosticCount)
    jurisdictionOnDemandCount = checker.jurisdictionOnDemandCount()
    checker.knownJurisdictionOnDemandCount = jurisdictionOnDemandCount
    self.checker = checker
    alone = checker.makeProgram()
    isReusable = !checker.checkDiagnostics.contains { $0.severity == .error }
    // The dependency graph is acyclic when the check found no error (a cycle is one); its edges are complete now that
    // everything is checked. A parameter's node stands for all its years, as in the cycle check.
    var longest: [GlobalNode: Int] = [:]
    func chain(from node: GlobalNode, depth: Int) -> Int {
      if let known = longest[node] { return known }
      guard depth < Checker.maximumInferenceDepth else { return Checker.maximumInferenceDepth }
      var below = 0
      for next in checker.successors(of: node) where unchecked.contains(next) {
        below = max(below, chain(from: next, depth: depth + 1))
      }
      longest[node] = below + 1
      return below + 1
    }
    var deepest = 0
    if isReusable {
      for node in unchecked { deepest = max(deepest, chain(from: node, depth: 0)) }
    }
    uncheckedAfterFormulas = deepest
  }

  /// Whether `documents` can be checked on top of this library to exactly the program of the whole check: the
  /// library's check is reusable, the documents declare no jurisdiction or interface, and their on-demand
  /// declarations with the library's unchecked ones cannot reach the inference depth limit.
  public func admits(_ documents: [SyntaxTree]) -> Bool {
    guard isReusable else { return false }
    let libraryFiles = Set(trees.map(\.source.id))
    // The deepest chain of on-demand checks a document's declaration starts: itself, then its documents'
    // constants and formulas without a written result type, then the library's unchecked declarations.
    var onDemand = 1
    for tree in documents {
      guard !libraryFiles.contains(tree.source.id) else { return false }
      for declaration in tree.declarations {
        switch declaration {
        case .jurisdiction, .interface: return false
        case .formula(let formula): if formula.returnType == nil { onDemand += 1 }
        case .constant: onDemand += 1
        case .test, .expression: break
        }
      }
    }
    return onDemand + uncheckedAfterFormulas + 1 < Checker.maximumInferenceDepth
  }
}

extension Checker {
  /// The program `check(library.trees + documents, isCancelled:)` makes, made by checking only the documents on top
  /// of the library's check when `library.admits(documents)`, else by that whole check. Nil when abandoned.
  /// `defersFormulaBodies`: the documents' formulas' steps and results are checked when first read
  /// (`Program.body(ofFormula:)`), the library's kept as its check kept them.
  public static func check(
    _ documents: [SyntaxTree], after library: CheckedLibrary, defersFormulaBodies: Bool = false,
    isCancelled: @escaping () -> Bool
  ) -> Program? {
    if documents.isEmpty { return library.alone }
    guard library.admits(documents) else {
      return check(library.trees + documents, defersFormulaBodies: defersFormulaBodies, isCancelled: isCancelled)
    }
    let checker = Checker(continuing: library.checker)
    checker.defersFormulaBodies = defersFormulaBodies
    checker.isCancelled = isCancelled
    let program = checker.checkDocuments(documents, after: library)
    return checker.cancelled ? nil : program
  }

  /// `check(_:after:isCancelled:)` without cancellation (tests).
  static func check(_ documents: [SyntaxTree], after library: CheckedLibrary) -> Program {
    check(documents, after: library, isCancelled: { false }) ?? check(library.trees + documents)
  }

  /// The passes of a whole check for the documents' declarations alone, this checker holding the library's finished
  /// check: declarations, signatures, formulas, constants, tests, then the cycle check (over everything, as a whole
  /// check's) and the place order. Nil when abandoned.
  func checkDocuments(_ documents: [SyntaxTree], after library: CheckedLibrary) -> Program? {
    // The library's diagnostics are in place order already, its own (`checkDiagnostics`) apart; the documents' are
    // gathered from nothing, so that a formula's `hasErrors` and the place order see only them.
    let libraryCheckDiagnostics = checkDiagnostics
    diagnostics = []
    knownJurisdictionOnDemandCount = library.jurisdictionOnDemandCount
    trees = library.trees + documents
    var declarationCount = 0
    var byteCount = 0
    for tree in documents {
      sources[tree.source.id] = tree.source
      declarationCount += tree.declarations.count
      byteCount += tree.source.bytes.count
    }
    if recordOccurrences {
      // As a whole check reserves (`Checker.init`), for the documents' part: the library's lists are copied once.
      symbolTable.reserve(symbolTable.count + declarationCount * 6)
      occurrences.reserveCapacity(occurrences.count + byteCount / 5)
    }
    let firstFormula = formulaDeclarations.count
    let firstConstant = constantDeclarations.count
    collect(documents)
    for index in firstFormula..<formulaDeclarations.count where !shouldStop(index) { resolveSignature(index) }
    for index in firstFormula..<formulaDeclarations.count where !shouldStop(index) { ensureFormula(index) }
    for index in firstConstant..<constantDeclarations.count where !shouldStop(index) { ensureConstant(index) }
    if cancelled { return nil }
    for (index, tree) in documents.enumerated() where !shouldStop(index) {
      for declaration in tree.declarations {
        if case .test(let test) = declaration { checkTest(test) }
      }
    }
    if cancelled { return nil }
    findCycles()
    // As `finishPasses` does with the whole check's: the checker's diagnostics in place order, then with the
    // parser's (those of every tree, in order, before the checker's at the same place).
    checkDiagnostics = Checker.sortedByPlace(
      (libraryCheckDiagnostics + Checker.sortedByPlace(diagnostics[...], by: \.span))[...], by: \.span)
    var parseDiagnostics: [Diagnostic] = []
    for tree in trees { parseDiagnostics.append(contentsOf: tree.diagnostics) }
    diagnostics = Checker.sortedByPlace((parseDiagnostics + checkDiagnostics)[...], by: \.span)
    occurrences = Checker.sortedByPlace(occurrences[...], by: \.span)
    return makeProgram()
  }
}
