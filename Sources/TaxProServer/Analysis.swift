import TaxProCore

/// One checked state of the workspace: the program, its symbol index and the diagnostics per file, test failures
/// included. Immutable, and replaced whole when the workspace changes.
final class Analysis: Sendable {
  let program: Program
  let index: SymbolIndex
  /// The workspace generation and tax year it was made for.
  let generation: Int
  let year: Int?
  /// Parse, name, type and interface diagnostics plus failed tests, per file.
  let diagnostics: [FileID: [Diagnostic]]
  /// The workspace's revision of each document's text it was made from, where counted (`EditHistory`).
  let revisions: [FileID: Int]

  convenience init(program: Program, generation: Int, year: Int?, testFiles: [FileID]) {
    self.init(
      program: program, generation: generation, year: year, testFiles: testFiles, revisions: [:], fileWarnings: [:],
      isCancelled: nil)
  }

  /// The analysis, or nil when `isCancelled` said yes while its tests ran (a newer version is waiting).
  static func make(
    program: Program, generation: Int, year: Int?, testFiles: [FileID], revisions: [FileID: Int] = [:],
    fileWarnings: [FileID: [Diagnostic]] = [:], isCancelled: @escaping @Sendable () -> Bool
  ) -> Analysis? {
    let analysis = Analysis(
      program: program, generation: generation, year: year, testFiles: testFiles, revisions: revisions,
      fileWarnings: fileWarnings, isCancelled: isCancelled)
    return isCancelled() ? nil : analysis
  }

  private init(
    program: Program, generation: Int, year: Int?, testFiles: [FileID], revisions: [FileID: Int],
    fileWarnings: [FileID: [Diagnostic]], isCancelled: (@Sendable () -> Bool)?
  ) {
    self.program = program
    self.revisions = revisions
    self.index = SymbolIndex(program)
    self.generation = generation
    self.year = year
    var byFile = fileWarnings
    for diagnostic in program.diagnostics { byFile[diagnostic.span.file, default: []].append(diagnostic) }
    let outcomes = TestRunner.run(
      program, year: year, files: Set(testFiles), limits: InlayHints.limits, isCancelled: isCancelled)
    for outcome in outcomes {
      // A test with errors is already reported by the errors themselves.
      for failure in outcome.failures where failure.code != .testHasErrors {
        byFile[failure.span.file, default: []].append(failure)
      }
    }
    self.diagnostics = byFile
  }

  /// Whether `file` declares a name another file declared first: its repeats are reported and not checked.
  func repeatsAnotherFile(_ file: FileID) -> Bool {
    (diagnostics[file] ?? []).contains { diagnostic in
      diagnostic.code == .duplicateDefinition && diagnostic.notes.contains { $0.span.map { $0.file != file } ?? false }
    }
  }
}
