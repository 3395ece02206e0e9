#if canImport(Glibc)
  import Glibc
#endif

/// A formula body checked ahead by one of the halves of `precheckFormulas`: its checked form and where its diagnostics
/// and occurrences are in the half's lists.
struct PrecheckedFormula {
  var info: FormulaInfo
  var half: Int
  var diagnostics: Range<Int>
  var occurrences: Range<Int>
}

// Checking a large program's formula bodies on both cores.
//
// After the serial passes that every body reads (declarations collected, interfaces, every formula's signature), the
// formulas are split in two contiguous halves, each checked ahead by a checker of its own ("speculative": its own
// diagnostics, occurrences, symbol table and dependency lists, and copies — shared until written — of the tables it
// reads), one on this thread and one on a second. A body is kept only if its check read nothing but those tables: one
// that needs another body's result (a call to a formula whose result type is inferred), a constant, a jurisdiction's
// parameter definition, or the "did you mean" indexes is abandoned and left to the serial check, which also decides
// everything about order (inference depth, cycles).
//
// The serial loop then runs as before; `ensureFormula` of a body checked ahead, whether at the top or on demand from
// another body, takes in its result instead (`adoptPrechecked`): its diagnostics appended, its occurrences appended
// with their symbols numbered in the program's table as the serial check would have numbered them at that moment. So
// the program — diagnostics and their order, occurrences and symbol ids, typed bodies — is the serial check's.
extension Checker {
  /// Marks the body being checked ahead as needing the serial check; returns `value` to carry on with (the body's
  /// result is thrown away).
  func abandonSpeculation<T>(_ value: T) -> T {
    abandonedSpeculation = true
    return value
  }

  /// A checker for checking formula bodies ahead: it reads `main`'s tables as they are once the signatures are
  /// resolved, and writes only its own lists.
  convenience init(checkingAheadFor main: Checker) {
    self.init(trees: [], recordOccurrences: main.recordOccurrences)
    speculative = true
    keepsBodies = main.keepsBodies
    defersFormulaBodies = main.defersFormulaBodies
    sources = main.sources
    formulaDeclarations = main.formulaDeclarations
    formulaIndex = main.formulaIndex
    formulaParameterTypes = main.formulaParameterTypes
    formulaDeclaredReturn = main.formulaDeclaredReturn
    formulaStates = main.formulaStates
    formulas = main.formulas
    formulaSymbols = main.formulaSymbols
    parameterSymbols = main.parameterSymbols
    parameterSymbolRepeats = main.parameterSymbolRepeats
    formulaEdges = main.formulaEdges
    constantDeclarations = main.constantDeclarations
    constantIndex = main.constantIndex
    constantStates = main.constantStates
    constants = main.constants
    jurisdictionDeclarations = main.jurisdictionDeclarations
    provinceCodes = main.provinceCodes
    interfaces = main.interfaces
    predefined = main.predefined
  }

  /// Checks the bodies of the formulas in `range` ahead; nil for each one left to the serial check.
  func checkAhead(_ range: Range<Int>, half: Int, stop: StopFlag) -> [PrecheckedFormula?] {
    var outcomes: [PrecheckedFormula?] = []
    outcomes.reserveCapacity(range.count)
    for index in range {
      if index & 31 == 0 {
        // Only the half on the caller's thread may ask the caller whether to stop; it tells the other.
        if let isCancelled, isCancelled() { stop.set() }
        if stop.isSet {
          cancelled = true
          break
        }
      }
      let diagnosticsBefore = diagnostics.count
      let occurrencesBefore = occurrences.count
      abandonedSpeculation = false
      ensureFormula(index)
      if !abandonedSpeculation, let info = formulas[index] {
        outcomes.append(
          PrecheckedFormula(
            info: info, half: half, diagnostics: diagnosticsBefore..<diagnostics.count,
            occurrences: occurrencesBefore..<occurrences.count))
      } else {
        diagnostics.removeSubrange(diagnosticsBefore...)
        occurrences.removeSubrange(occurrencesBefore...)
        formulaEdges[index] = []
        outcomes.append(nil)
      }
      formulas[index] = nil
    }
    return outcomes
  }

  /// Checks the formula bodies ahead in two halves at once (see above); `cancelled` if the check was abandoned.
  func precheckFormulas() {
    let count = formulaDeclarations.count
    guard count >= 2, Checker.hasSecondCore else { return }
    let middle = count / 2
    let first = Checker(checkingAheadFor: self)
    first.isCancelled = isCancelled
    let second = Checker(checkingAheadFor: self)
    let stop = StopFlag()
    let secondResult = CheckAheadResult(second)
    let ran = Checker.runBeside(
      {
        secondResult.outcomes = secondResult.checker.checkAhead(middle..<count, half: 1, stop: stop)
      },
      while: {
        first.checkAhead(0..<middle, half: 0, stop: stop)
      })
    guard let firstOutcomes = ran else { return }
    if stop.isSet {
      cancelled = true
      return
    }
    precheckers = [first, second]
    prechecked = firstOutcomes + secondResult.outcomes
    checkedAheadCount = prechecked.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    symbolMaps = precheckers.map { Array(repeating: -1, count: $0.symbolTable.count) }
  }

  /// Takes in the body of the formula at `index` if it was checked ahead, as `ensureFormula` would have checked it
  /// here; false if it was not.
  func adoptPrechecked(_ index: Int) -> Bool {
    guard index < prechecked.count, let outcome = prechecked[index] else { return false }
    prechecked[index] = nil
    let half = precheckers[outcome.half]
    formulaStates[index] = .done
    diagnostics.append(contentsOf: half.diagnostics[outcome.diagnostics])
    if recordOccurrences {
      for position in outcome.occurrences {
        var occurrence = half.occurrences[position]
        // The symbol first, then the jurisdiction, as `SymbolTableBuilder.store` numbers them.
        occurrence.symbol = programSymbol(occurrence.symbol, half: outcome.half)
        occurrence.jurisdiction = programSymbol(occurrence.jurisdiction, half: outcome.half)
        occurrences.append(occurrence)
      }
    }
    formulaEdges[index] = half.formulaEdges[index]
    setFormula(index, outcome.info)
    return true
  }

  /// The program's id of a symbol a half numbered, numbering it now if the program has not: formulas and their
  /// parameters as `recordFormula` and `recordParameter` number them, every other symbol by the table.
  func programSymbol(_ id: Int32, half: Int) -> Int32 {
    guard id >= 0 else { return id }
    let known = symbolMaps[half][Int(id)]
    if known >= 0 { return known }
    let symbol = precheckers[half].symbolTable.symbol(at: id)
    var mapped: Int32
    switch symbol {
    case .formula(let name):
      if let index = formulaIndex[name], index < formulaSymbols.count {
        mapped = formulaSymbolID(index, name: name)
      } else {
        mapped = symbolTable.id(symbol)
      }
    case .formulaParameter(let formula, let name):
      if let index = formulaIndex[formula], index < parameterSymbols.count,
        let position = formulaDeclarations[index].parameters.firstIndex(where: { $0.name.name == name })
      {
        mapped = parameterSymbolID(index, position: position)
      } else {
        mapped = symbolTable.id(symbol)
      }
    default:
      mapped = symbolTable.id(symbol)
    }
    symbolMaps[half][Int(id)] = mapped
    return mapped
  }

  /// Whether a second thread can run at the same time as this one.
  static let hasSecondCore: Bool = {
    #if canImport(Glibc)
      return sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2
    #else
      return false
    #endif
  }()

  /// Runs `beside` on a new thread (with a stack as roomy as the hosts give the checker: its depth limits assume one)
  /// while `body` runs on this one, and waits for both; nil, having run neither, when no thread could be made.
  static func runBeside<T>(_ beside: @escaping () -> Void, while body: () -> T) -> T? {
    #if canImport(Glibc)
      guard let thread = startThread(running: ClosureBody(beside)) else { return nil }
      let result = body()
      pthread_join(thread, nil)
      return result
    #else
      return nil
    #endif
  }
}

/// The second half's checker and what it found. Not `Sendable` by type, but safe: the second thread alone touches it
/// from when it starts until `pthread_join` returns, and only the first thread after (the join orders the two).
private final class CheckAheadResult {
  let checker: Checker
  var outcomes: [PrecheckedFormula?] = []
  init(_ checker: Checker) { self.checker = checker }
}

/// Tells the half on the second thread that the check was abandoned: set by the half on the caller's thread (which
/// may ask the caller), read by both, under a lock.
final class StopFlag {
  private let lock = PlainLock()
  private var value = false

  func set() { lock.withLock { value = true } }

  var isSet: Bool { lock.withLock { value } }
}
