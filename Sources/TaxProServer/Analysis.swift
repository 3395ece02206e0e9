import TaxProCore

/// One checked state of the workspace: the program, its symbol index and the diagnostics per file, test failures
/// included. Immutable, and replaced whole when the workspace changes.
final class Analysis {
  let program: Program
  let generation: Int
  let year: Int?
  /// Parse, name, type and interface diagnostics plus failed tests, per file.
  let diagnostics: [FileID: [Diagnostic]]
  private var cachedIndex: SymbolIndex?

  init(program: Program, generation: Int, year: Int?, testFiles: [FileID]) {
    self.program = program
    self.generation = generation
    self.year = year
    var byFile: [FileID: [Diagnostic]] = [:]
    for diagnostic in program.diagnostics { byFile[diagnostic.span.file, default: []].append(diagnostic) }
    let outcomes = TestRunner.run(program, year: year, files: Set(testFiles), limits: InlayHints.limits)
    for outcome in outcomes {
      // A test with errors is already reported by the errors themselves.
      for failure in outcome.failures where failure.code != "test-has-errors" {
        byFile[failure.span.file, default: []].append(failure)
      }
    }
    self.diagnostics = byFile
  }

  /// Built on first use: many edits are followed by nothing that needs it.
  var index: SymbolIndex {
    if let cachedIndex { return cachedIndex }
    let built = SymbolIndex(program)
    cachedIndex = built
    return built
  }
}
