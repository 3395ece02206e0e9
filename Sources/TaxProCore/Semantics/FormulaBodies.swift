#if canImport(Glibc)
  import Glibc
#endif

/// Formula bodies checked when first read.
///
/// The language server's check (`Checker.check(_:after:defersFormulaBodies:isCancelled:)`) checks every formula body
/// for its types and diagnostics but keeps none of its typed nodes: making and then freeing them cost a tenth of a
/// document's open, and its queries read the bodies of a few formulas at a time (a hover, the code lenses' values).
/// `Program.body(ofFormula:)` checks such a body again from its syntax, against the finished program, as the whole
/// check did: every name, formula, constant and parameter it reads is checked by then, so the nodes are the same
/// (`DeferredBodyTests` compares them for the library and the examples).
extension Checker {
  /// Starts a deferred body: its nodes are not made.
  func enterDeferredBody() {
    insideDeferredBody = true
    keepsBodies = false
  }

  /// Leaves a deferred body, if one is being checked (a declaration checked on demand inside it keeps its own
  /// nodes); true if it left one, to be given to `reenterDeferredBody` once that declaration is done.
  func leaveDeferredBody() -> Bool {
    guard insideDeferredBody else { return false }
    insideDeferredBody = false
    keepsBodies = true
    return true
  }

  func reenterDeferredBody(_ left: Bool) {
    if left { enterDeferredBody() }
  }

  /// The steps and result of the formula at `index`, checked as `ensureFormula` checks them (this checker made
  /// against the finished program; what it reports is not wanted).
  func checkedBody(ofFormula index: Int) -> FormulaBody {
    let declaration = formulaDeclarations[index]
    let parameters = declaration.parameters
    let types = index < formulaParameterTypes.count ? formulaParameterTypes[index] : []
    var scope = Scope(
      owner: .formula(index), formulaName: declaration.name.name, capacity: parameters.count + declaration.lets.count)
    for position in parameters.indices {
      let name = parameters[position].name
      _ = scope.declare(
        name.name, type: position < types.count ? types[position] : .error, at: name.span, isParameter: true)
    }
    let lets = checkLets(declaration.lets, in: &scope)
    let result = check(declaration.result, in: &scope)
    return FormulaBody(lets: lets, result: result)
  }
}

extension Program {
  /// The checked steps and result of the formula at `index`: as kept, or checked now if the check deferred them
  /// (then kept for the next call). Safe from any thread.
  public func body(ofFormula index: Int) -> FormulaBody {
    let formula = formulas[index]
    guard formula.bodyDeferred else { return FormulaBody(lets: formula.lets, result: formula.result) }
    if let body = deferredBodies.value(index) { return body }
    let checker = Checker(program: self, predefined: [:], recordOccurrences: false)
    let body = checker.checkedBody(ofFormula: index)
    deferredBodies.store(body, at: index)
    return body
  }

  /// `body(ofFormula:)` of the formula named `name`, if there is one.
  public func body(ofFormulaNamed name: String) -> FormulaBody? {
    formulaIndex[name].map { body(ofFormula: $0) }
  }

  /// The `let` step of a formula whose name is written at `span`, if any: only the body of the formula around it is
  /// read.
  public func letStep(namedAt span: Span) -> LetStep? {
    for index in formulas.indices where formulas[index].span.file == span.file {
      guard formulas[index].span.contains(span.start) else { continue }
      if let step = body(ofFormula: index).lets.first(where: { $0.nameSpan == span }) { return step }
    }
    return nil
  }
}

/// The bodies a program checked when first read, by formula index, under a lock (queries run on several threads).
final class FormulaBodyCache: @unchecked Sendable {
  private let lock = PlainLock()
  private var bodies: [Int: FormulaBody] = [:]

  func value(_ index: Int) -> FormulaBody? {
    lock.withLock { bodies[index] }
  }

  func store(_ body: FormulaBody, at index: Int) {
    lock.withLock { bodies[index] = body }
  }
}

/// A mutex (the core has no Foundation).
final class PlainLock: @unchecked Sendable {
  #if canImport(Glibc)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  init() {
    #if canImport(Glibc)
      mutex = .allocate(capacity: 1)
      pthread_mutex_init(mutex, nil)
    #endif
  }

  deinit {
    #if canImport(Glibc)
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    #endif
  }

  func withLock<T>(_ body: () -> T) -> T {
    #if canImport(Glibc)
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
    #endif
    return body()
  }
}
