import TaxProCore

/// `taxpro test [FILE|DIR…]`.
struct TestCommand: Command {
  static let help = CommandHelp(
    name: "test", summary: "run test blocks: the files', or the standard library's own",
    discussion: """
      Runs the test blocks of the files (a directory stands for the .tax files under it), or with none given, the \
      standard library's own tests. Prints each failure, then a last line: N passed, N failed.
      """,
    arguments: [
      ArgumentSpec(
        name: "FILE|DIR", summary: "formula files, or directories of them (default: the standard library's tests)",
        kind: .fileOrDirectory(extensions: ["tax"]), needed: "a file", isOptional: true, repeats: true)
    ],
    options: [.year])

  /// The files (or directories) whose tests run, and the year.
  var inputs: ProgramInputs

  init(_ arguments: ParsedArguments) throws(UsageError) {
    inputs = try ProgramInputs(arguments)
  }

  func run() throws(UsageError) -> Int32 {
    let useLibrary = inputs.files.isEmpty
    var unreadable: [String] = []
    let loaded = try Loading.load(inputs.files, libraryTests: useLibrary, directories: true, unreadable: &unreadable)
    Loading.reportSkipped(unreadable)
    let program = Checker.check(loaded.trees, recordOccurrences: false)
    let files: Set<FileID> = useLibrary ? Set(program.sources.keys) : loaded.userFileIDs
    let problems = program.diagnostics.filter { files.contains($0.span.file) }
    if !problems.isEmpty { Output.writeError(Output.renderer(program.sources).render(problems)) }
    try Commands.checkYear(inputs.year, years: program.years)
    let outcomes = TestRunner.run(program, year: inputs.year, files: files)
    let status = Commands.report(outcomes, program.sources)
    return problems.hasErrors || !unreadable.isEmpty ? 1 : status
  }
}
