import TaxProCore

/// `taxpro check [--syntax] FILE…`.
struct CheckCommand: Command {
  static let help = CommandHelp(
    name: "check", summary: "the problems in formula files",
    discussion: """
      Parses and checks the files with the standard library and prints every diagnostic in them, then a count. A \
      directory stands for the .tax files under it. A copy of a library file (in a folder that also holds \
      interfaces.tax and federal.tax) is checked in place of the library's own.
      """,
    arguments: [
      ArgumentSpec(
        name: "FILE|DIR", summary: "formula files, or directories of them", kind: .fileOrDirectory(extensions: ["tax"]),
        needed: "at least one file", repeats: true)
    ],
    options: [.syntax])

  var paths: [String]
  var syntaxOnly: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    paths = arguments.positionals
    syntaxOnly = arguments.has(.syntax)
  }

  func run() throws(UsageError) -> Int32 {
    let loaded = try Loading.load(paths, directories: true)
    KeptUntilExit.keep(loaded)
    // With --syntax, the user's files' parse diagnostics; otherwise a check that keeps only its diagnostics (each
    // checked body is dropped once checked, no program is made), the user's files' among them.
    let trees = syntaxOnly ? loaded.files.map(\.tree) : loaded.trees
    let diagnostics =
      syntaxOnly
      ? trees.flatMap(\.diagnostics)
      : Checker.diagnostics(of: trees).filter { loaded.userFileIDs.contains($0.span.file) }
    if !diagnostics.isEmpty {
      let sources = Dictionary(uniqueKeysWithValues: trees.map { ($0.source.id, $0.source) })
      Output.writeError(Output.renderer(sources).render(diagnostics))
      Output.writeError(Commands.summary(diagnostics) + "\n")
    }
    return diagnostics.hasErrors ? 1 : 0
  }
}

extension OptionSpec {
  static let syntax = OptionSpec(name: "--syntax", summary: "parse only: report syntax errors, do not check")
}
