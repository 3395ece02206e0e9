/// Checking files as they are parsed, for `taxpro check`: a large file's syntax is never all alive at once.
///
/// The stream goes on from the library's check (`CheckedLibrary`, diagnostics only) as `checkDocuments` does, and
/// parses each file a piece at a time (`Parser.forEachPiece`). Each piece's declarations are declared as a whole check
/// declares them (in order, so duplicates fall where they fall there), its formulas' signatures resolved, and each of
/// its formula bodies that is *ready* checked at once and its syntax dropped — the declaration kept with its name,
/// parameters and result type only, the checked formula with its result type and whether it has errors. While no
/// formula of the files is left to infer and no constant of the files waits, a body is simply checked, and the check
/// undone if it met a name not declared yet (`checkAtOnce`); otherwise it is looked at first: a body is
/// ready when every global name it uses (past its parameters and `let`s, in the checker's order) is the library's, a
/// built-in function or a type, or a formula of the files already checked or with a written result type: then the
/// whole check checks it to the same diagnostics — it reads nothing more of those than here, infers nothing on demand,
/// and names nothing unknown (so no "did you mean" is asked of a partial list of names). Other bodies (those that use
/// a name declared later or nowhere, a constant of the files, or a formula whose result is still to be inferred) are
/// kept and checked at the end in declaration order, after the constants and tests are checked as `checkDocuments`
/// does; then the cycle check and the place order, which hide the order things were checked in.
///
/// The stream gives up, and the files are parsed and checked whole, when that could differ from the whole check: the
/// library is not reusable (`CheckedLibrary.admits`), a file declares a jurisdiction or an interface, the chains of
/// on-demand checks could reach the inference depth limit, a piece's parse declines (`parseInPieces` would be nil), a
/// kept body uses a formula declared after it whose result is inferred (the whole check would infer it inside that
/// body), or a constant of the files uses a formula of the files whose result is inferred.
/// `StreamCheckTests` compares the stream with `diagnostics(of:)` on random and written programs with small pieces.
extension Checker {
  /// The diagnostics `diagnostics(of: library.trees + sources parsed)` gives, in the same order, with each large
  /// source parsed and checked a piece at a time. `library` is the standard library's check for diagnostics only
  /// (`CheckedLibrary(_:diagnosticsOnly:)`); `sources` are the user's files, in program order.
  ///
  /// `keep` is given what the check built and no longer needs once it is done — after a large check, its tables (a
  /// signature, a checked formula and their names for each formula of the files) take long to free: at 100,000
  /// formulas 227 M instructions, against 2.35 G for the checking of all the pieces. A command that exits right after
  /// keeps it until then; by default it is freed here.
  public static func streamedDiagnostics(
    library: CheckedLibrary, sources: [SourceFile], keep: (AnyObject) -> Void = { _ in }
  ) -> [Diagnostic] {
    streamedCheck(
      library: library, sources: sources, pieceThreshold: Parser.pieceThreshold, pieceLength: streamPieceLength,
      keep: keep
    ).diagnostics
  }

  /// The stream's pieces are a quarter of a whole parse's (`Parser.pieceLength`): each piece's syntax is freed before
  /// the next is parsed, and the next reuses that memory while it is still in the cache. `check` of 100,000
  /// formulas, runs interleaved on a quiet moment of a shared machine: 1.27–1.35 s with pieces of 256 KiB (peak 198
  /// MiB), 1.4–2.0 s with pieces of 1 MiB (211 MiB); the whole file's syntax kept, 1.20–1.37 s (409 MiB).
  /// Where there is a second core the pieces are parsed on it while this thread checks (`Checker+Pipeline`). Measured
  /// on the 2-core machine, each run started when both cores were idle and kept only if other processes used under 5%
  /// of a core meanwhile (`check` of 100,000 formulas, 4 sets of 5–7 runs interleaved with the serial stream): 0.91–1.04
  /// s at best and 1.08–1.21 s in the median, against 1.06–1.17 s and 1.11–1.66 s serially, for 1.5–1.8 s of CPU time
  /// against 1.1–1.2 s (peak 200 MiB against 194 MiB); 10,000 formulas, 0.108 s and 0.138 s against 0.105 s and 0.165
  /// s. Pieces of 64 KiB, 128 KiB or 1 MiB, or two queued, were no better. With one core busy with other work the
  /// pipeline is no faster (1.67–1.82 s against 1.69–1.73 s).
  static let streamPieceLength = 1 << 18

  /// `streamedDiagnostics` with the piece sizes given (tests), and whether it streamed (false: checked whole).
  /// With `pipelined` (the default where there is a second core), each source cut into pieces is parsed on a second
  /// thread while this one checks (`Checker+Pipeline`).
  static func streamedCheck(
    library: CheckedLibrary, sources: [SourceFile], pieceThreshold: Int, pieceLength: Int,
    pipelined: Bool = Checker.hasSecondCore, keep: (AnyObject) -> Void = { _ in }
  ) -> (diagnostics: [Diagnostic], streamed: Bool, checkedAsParsed: Int) {
    if let stream = StreamCheck(library: library),
      let diagnostics = stream.run(
        sources, pieceThreshold: pieceThreshold, pieceLength: pieceLength, pipelined: pipelined)
    {
      keep(stream)
      return (diagnostics, true, stream.checkedAsParsed)
    }
    let trees = sources.map { Parser.parse($0, mode: .file, pieceThreshold: pieceThreshold, pieceLength: pieceLength) }
    return (diagnostics(of: library.trees + trees), false, 0)
  }
}

/// One streamed check (see `Checker+Stream`). A class: the readiness test's closure reads it at every name, which a
/// struct's many lists would make a copy and a retain of each.
final class StreamCheck {
  let library: CheckedLibrary
  let checker: Checker
  let libraryCheckDiagnostics: [Diagnostic]
  let firstFormula: Int
  let firstConstant: Int
  /// The formulas of the files whose bodies wait for the end, in declaration order.
  var kept: [Int] = []
  /// The files' tests, in order: checked at the end.
  var tests: [TestDeclaration] = []
  /// Formulas without a written result type and constants, in the files (see `CheckedLibrary.admits`).
  var onDemand = 1
  var parseDiagnostics: [Diagnostic] = []
  /// False once the stream must give up.
  var streams = true
  /// How many bodies were checked as their piece was parsed (tests).
  var checkedAsParsed = 0
  /// The file cut into pieces whose first piece sizes the tables (`take`).
  var sizesForSource: FileID?

  init?(library: CheckedLibrary) {
    guard library.isReusable else { return nil }
    self.library = library
    checker = Checker(continuing: library.checker)
    libraryCheckDiagnostics = checker.checkDiagnostics
    checker.diagnostics = []
    firstFormula = checker.formulaDeclarations.count
    firstConstant = checker.constantDeclarations.count
    for tree in library.trees { parseDiagnostics.append(contentsOf: tree.diagnostics) }
  }

  /// The diagnostics, or nil when the stream gave up.
  /// With `pipelined`, a source cut into pieces is parsed on a second thread while this one checks
  /// (`Checker+Pipeline`).
  func run(_ sources: [SourceFile], pieceThreshold: Int, pieceLength: Int, pipelined: Bool) -> [Diagnostic]? {
    let libraryFiles = Set(library.trees.map(\.source.id))
    // The last pipelined parse's thread, freeing the syntax of the pieces checked last: joined before the next one
    // starts, and at the end, once the check is finished.
    var parsing: SecondThread<Void>? = nil
    defer { parsing?.join() }
    for source in sources {
      guard !libraryFiles.contains(source.id) else { return nil }
      checker.sources[source.id] = source
      if source.bytes.count >= pieceThreshold {
        parsing?.join()
        parsing = nil
        sizesForSource = source.id
        var taken = false
        var parsed: Parser.PiecesParsed?
        if pipelined, let outcome = takePipelined(source, pieceLength: pieceLength) {
          (parsed, taken, parsing, _) = outcome
          // The checker gave up: the parse stopped at its next piece.
          guard streams else { return nil }
        } else {
          // A piece that makes the stream give up ends the parse: the files are then parsed and checked whole.
          parsed = Parser.forEachPiece(source, mode: .file, pieceLength: pieceLength) { declarations in
            taken = true
            take(declarations, of: source)
            return streams
          }
        }
        if let parsed {
          parseDiagnostics += parsed.lexerDiagnostics
          parseDiagnostics += parsed.parserDiagnostics
          continue
        }
        // Declined after pieces were checked: nothing to go on from.
        if taken { return nil }
      }
      let tree = Parser.parse(source, mode: .file, pieceThreshold: Int.max, pieceLength: pieceLength)
      parseDiagnostics += tree.diagnostics
      take(tree.declarations, of: source)
      guard streams else { return nil }
    }
    return finish()
  }

  /// Declares a piece's declarations and checks the bodies that are ready.
  func take(_ declarations: [Declaration], of source: SourceFile) {
    guard streams else { return }
    for declaration in declarations {
      switch declaration {
      case .jurisdiction, .interface: streams = false
      case .formula(let formula): if formula.returnType == nil { onDemand += 1 }
      case .constant: onDemand += 1
      case .test(let test): tests.append(test)
      case .expression: break
      }
    }
    // Chains of declarations checked on demand could reach the inference depth limit, where the order of checking
    // shows (as in `CheckedLibrary.admits`): given up as soon as there are that many, not after the whole file.
    if onDemand + library.uncheckedAfterFormulas + 1 >= Checker.maximumInferenceDepth { streams = false }
    guard streams else { return }
    reserve(room: declarations.count)
    if let end = declarations.last?.span.end, sizesForSource == source.id {
      // The first piece of a file cut into pieces: room for as many declarations as the file holds at the piece's
      // density (at most one per 16 bytes), so that the tables are not grown and rehashed again and again.
      sizesForSource = nil
      let expected = min(declarations.count * source.bytes.count / max(1, end) * 9 / 8, source.bytes.count / 16)
      reserve(room: expected)
    }
    let before = checker.formulaDeclarations.count
    checker.collect(
      CollectionOfOne(
        SyntaxTree(source: source, declarations: declarations, comments: [], diagnostics: [], isIncomplete: false)))
    let after = checker.formulaDeclarations.count
    for index in before..<after {
      checker.resolveSignature(index)
      if checker.formulaDeclaredReturn[index] == nil { pendingInferred += 1 }
    }
    for index in before..<after {
      let inferred = checker.formulaDeclaredReturn[index] == nil
      if checkAtOnce(index) || (isReady(index) && check(index)) {
        dropBody(index)
        checkedAsParsed += 1
        if inferred { pendingInferred -= 1 }
      } else {
        kept.append(index)
      }
    }
  }

  /// Formulas of the files without a written result type whose bodies are not checked yet.
  var pendingInferred = 0
  /// Whether an undone check may have made the "did you mean" indexes of the names declared so far.
  var suggestionsStale = false

  /// Checks the body of the formula at `index`; true.
  func check(_ index: Int) -> Bool {
    checker.ensureFormula(index)
    return true
  }

  /// Checks the body of the formula at `index` without looking at its names first, when nothing its check could
  /// reach is checked on demand — no formula of the files is left to infer but itself, and no constant of the files
  /// waits — and keeps the check unless it met a name not declared (yet): the whole check would have said the same,
  /// as every name it did find stays what it is. Otherwise undoes it (its diagnostics, state and dependencies; a
  /// "did you mean" index it made is made again at the end) and says false.
  func checkAtOnce(_ index: Int) -> Bool {
    let inferred = checker.formulaDeclaredReturn[index] == nil
    guard pendingInferred == (inferred ? 1 : 0), checker.constantDeclarations.count == firstConstant else {
      return false
    }
    let before = checker.diagnostics.count
    checker.ensureFormula(index)
    guard checker.diagnostics[before...].contains(where: { $0.code == .unknownName }) else { return true }
    checker.diagnostics.removeSubrange(before...)
    checker.formulaStates[index] = .pending
    checker.formulas[index] = nil
    checker.formulaEdges[index] = []
    suggestionsStale = true
    return false
  }

  /// Room for `count` more declarations in the tables `collect` sizes, grown by doubling: `collect` sizes them for
  /// exactly what it declares, which piece after piece would copy and rehash them once per piece.
  func reserve(room count: Int) {
    if checker.globalNames.capacity < checker.globalNames.count + count {
      checker.globalNames.reserveCapacity(max(2 * checker.globalNames.capacity, checker.globalNames.count + count))
    }
    if checker.formulaIndex.capacity < checker.formulaIndex.count + count {
      checker.formulaIndex.reserveCapacity(max(2 * checker.formulaIndex.capacity, checker.formulaIndex.count + count))
    }
    let (capacity, declared) = (checker.formulaDeclarations.capacity, checker.formulaDeclarations.count)
    if capacity < declared + count {
      checker.formulaDeclarations.reserveCapacity(max(2 * capacity, declared + count))
    }
  }

  /// Whether every global name the body of the formula at `index` uses is one the whole check would see the same.
  func isReady(_ index: Int) -> Bool {
    let checker = checker
    let firstFormula = firstFormula
    let firstConstant = firstConstant
    // A global name is one thing only (`declareGlobal`), so the usual ones, formulas and built-in functions, are
    // looked up first. A host's value hides it (none in a check of files).
    return Self.forEachGlobalName(in: checker.formulaDeclarations[index]) { name in
      if let formula = checker.formulaIndex[name], checker.predefined.isEmpty {
        return formula < firstFormula || checker.formulaState(formula) == .done
          || checker.formulaDeclaredReturn[formula] != nil
      }
      if Checker.builtinEntries[name] != nil { return true }
      if checker.predefined[name] != nil { return true }
      if let constant = checker.constantIndex[name] { return constant < firstConstant }
      if checker.jurisdictionDeclarations[name] != nil { return true }
      return TaxType(name: name) != nil
    }
  }

  /// Whether `name` is a formula of the files whose result is inferred, declared after `index`.
  func isInferredFormula(_ name: String, after index: Int) -> Bool {
    guard let formula = checker.formulaIndex[name], formula >= firstFormula, formula > index else { return false }
    return checker.formulaDeclaredReturn[formula] == nil
  }

  /// A checked formula's syntax, but for what others read of it (its name, parameters and result type), and its
  /// documentation, dropped.
  func dropBody(_ index: Int) {
    var declaration = checker.formulaDeclarations[index]
    declaration.lets = []
    declaration.result = Expression(.missing, declaration.result.span)
    declaration.documentation = Documentation()
    checker.formulaDeclarations[index] = declaration
    if var info = checker.formulas[index] {
      checker.formulas[index] = nil
      info.documentation = Documentation()
      checker.formulas[index] = info
    }
  }

  /// The end of the stream: the kept bodies, the constants and tests, the cycle check and the place order, as
  /// `checkDocuments` does. Nil when a kept body or a constant could check otherwise than in the whole check.
  func finish() -> [Diagnostic]? {
    for index in kept {
      let forward = !Self.forEachGlobalName(in: checker.formulaDeclarations[index]) {
        !isInferredFormula($0, after: index)
      }
      if forward { return nil }
    }
    for index in firstConstant..<checker.constantDeclarations.count {
      let value = checker.constantDeclarations[index].binding.value
      let usesInferred = !Self.forEachGlobalName(in: value, locals: []) { !isInferredFormula($0, after: -1) }
      if usesInferred { return nil }
    }
    if suggestionsStale { checker.makeSuggestionIndexes() }
    for index in kept { checker.ensureFormula(index) }
    for index in firstConstant..<checker.constantDeclarations.count { checker.ensureConstant(index) }
    for test in tests { checker.checkTest(test) }
    checker.findCycles()
    let checkDiagnostics = Checker.sortedByPlace(
      (libraryCheckDiagnostics + Checker.sortedByPlace(checker.diagnostics[...], by: \.span))[...], by: \.span)
    return Checker.sortedByPlace((parseDiagnostics + checkDiagnostics)[...], by: \.span)
  }

  /// Calls `visit` with each name the formula's body looks up among the globals — its parameters' ranges and
  /// defaults, its `let`s' values and its result, past the parameters and `let`s declared before each, as
  /// `ensureFormula` declares them — until `visit` says false; returns whether it never did. More names than the check
  /// looks up may be visited (a range the check skips), never fewer.
  static func forEachGlobalName(in formula: FormulaDeclaration, _ visit: (String) -> Bool) -> Bool {
    var locals: [String] = []
    locals.reserveCapacity(formula.parameters.count + formula.lets.count)
    for parameter in formula.parameters {
      if let range = parameter.range {
        guard forEachGlobalName(in: range.lower, locals: locals, visit),
          forEachGlobalName(in: range.upper, locals: locals, visit)
        else { return false }
      }
      if let value = parameter.defaultValue, !forEachGlobalName(in: value, locals: locals, visit) { return false }
      locals.append(parameter.name.name)
    }
    for binding in formula.lets {
      guard forEachGlobalName(in: binding.value, locals: locals, visit) else { return false }
      locals.append(binding.name.name)
    }
    return forEachGlobalName(in: formula.result, locals: locals, visit)
  }

  /// `forEachGlobalName` of one expression with `locals` in scope: names read and functions called that are not
  /// locals. Iterative, as an expression may hold a long chain of operators.
  static func forEachGlobalName(in expression: Expression, locals: [String], _ visit: (String) -> Bool) -> Bool {
    var pending = [expression]
    while let next = pending.popLast() {
      switch next.kind {
      case .name(let name):
        if !locals.contains(name), !visit(name) { return false }
      case .call(let callee, _):
        if !locals.contains(callee.name), !visit(callee.name) { return false }
        next.forEachChild { pending.append($0) }
      default:
        next.forEachChild { pending.append($0) }
      }
    }
    return true
  }
}
