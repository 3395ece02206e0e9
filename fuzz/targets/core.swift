// libFuzzer target: arbitrary bytes through the whole language core.
//
// The first byte picks what the rest is:
// - even: input to a session over the standard library (loaded and checked once), as the REPL and `taxpro eval`
//   give it: declarations, `let`s and expressions, evaluated; then explained;
// - odd: a file, checked on its own, its tests run, its constants evaluated, and formatted: the formatted text must
//   parse without errors and format to itself again.
// Every path must end in values or diagnostics; a trap, a sanitizer report or a broken invariant is a crash.
import Foundation
import TaxProCore

/// The standard library's trees, parsed once.
let libraryTrees = parseLibraryFiles()

/// One session for all inputs: it only grows by what inputs define, and is rebuilt when it has grown.
nonisolated(unsafe) var session: Session? = nil
nonisolated(unsafe) var sessionUses = 0
/// Small enough that an endless formula is stopped in milliseconds, as the real limits stop it in seconds.
let limits = EvaluationLimits(steps: 200_000, depth: 1_500)

func freshSession() -> Session {
  if let session, sessionUses < 200 {
    sessionUses += 1
    return session
  }
  let made = Session(trees: libraryTrees, firstInputFileID: 1_000, limits: limits)
  session = made
  sessionUses = 0
  return made
}

func renderAll(_ diagnostics: [Diagnostic], _ sources: [FileID: SourceFile]) {
  _ = DiagnosticRenderer(sources: sources).render(diagnostics)
}

func fuzzSession(_ text: String) {
  let session = freshSession()
  switch session.submit(text, name: "<fuzz>") {
  case .value(let value): _ = ValueFormatter.format(value); _ = ValueFormatter.literal(value)
  case .failed(let diagnostics): renderAll(diagnostics, session.sources)
  case .tested(let outcomes): for outcome in outcomes { renderAll(outcome.failures, session.sources) }
  case .defined, .nothing, .incomplete: break
  }
  if case .success(let (value, steps)) = session.explain(text, name: "<fuzz>") {
    _ = ExplanationRenderer(program: session.program).render(expression: text, value: value, steps: steps)
  }
  _ = Session.isIncomplete(text)
}

func fuzzFile(_ text: String) {
  let source = SourceFile(id: FileID(0), name: "fuzz.tax", text: text)
  let tree = Parser.parse(source)
  let program = Checker.check([tree])
  renderAll(program.diagnostics, program.sources)
  for outcome in TestRunner.run(program, limits: limits) { renderAll(outcome.failures, program.sources) }
  let evaluator = Evaluator(program: program, limits: limits)
  for constant in program.constants {
    if let value = try? evaluator.evaluate(constant.value) { _ = ValueFormatter.format(value) }
  }
  // The formatter's invariants: formatted text parses cleanly and is its own format.
  guard !tree.diagnostics.hasErrors else { return }
  let once = Formatter.format(tree)
  let reparsed = Parser.parse(SourceFile(id: FileID(0), name: "fuzz.tax", text: once))
  if reparsed.diagnostics.hasErrors {
    fatalError("fuzz: formatted text does not parse:\n\(once)\n---\n\(DiagnosticRenderer(sources: [FileID(0): reparsed.source]).render(reparsed.diagnostics))")
  }
  let twice = Formatter.format(reparsed)
  if twice != once { fatalError("fuzz: formatting is not idempotent:\n\(once)\n---\n\(twice)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let mode = data[0]
  let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
  if mode & 1 == 0 { fuzzSession(text) } else { fuzzFile(text) }
  return 0
}
