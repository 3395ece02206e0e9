import TaxProCore
import TaxProLibrary

/// `taxpro check [--syntax] FILE…`.
struct CheckCommand: Command {
  static let help = CommandHelp(
    name: "check", summary: "the problems in formula files",
    discussion: """
      Parses and checks the files with the standard library and prints every diagnostic in them, then a count. A \
      directory stands for the .tax files under it; one of those that cannot be read is skipped, with why (and the \
      exit status 1). A copy of a library file (in a folder that also holds \
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
    if !syntaxOnly, let status = try runStreamed() { return status }
    var unreadable: [String] = []
    let loaded = try Loading.load(paths, directories: true, unreadable: &unreadable)
    Loading.reportSkipped(unreadable)
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
    return diagnostics.hasErrors || !unreadable.isEmpty ? 1 : 0
  }
}

extension CheckCommand {
  /// The check without keeping the files' syntax: each file parsed and checked a piece at a time
  /// (`Checker.streamedDiagnostics`), the same diagnostics in the same order. Nil (the files are then loaded and
  /// checked whole) when a path is given twice or a file is a copy of a library file, which the importer handles.
  func runStreamed() throws(UsageError) -> Int32? {
    let userPaths = try Loading.expand(paths, directories: true)
    guard Set(userPaths.map(\.path)).count == userPaths.count,
      !userPaths.contains(where: { StandardLibrary.libraryName(ofCopy: $0.path) != nil })
    else { return nil }
    var importer = try Loading.standardLibrary()
    var unreadable: [String] = []
    let contents = try Loading.read(userPaths, unreadable: &unreadable)
    Loading.reportSkipped(unreadable)
    // The ids `SourceImporter.importFile` would hand out, in the same order.
    let sources = contents.map { SourceFile(id: importer.newFileID(), name: $0.path, bytes: $0.bytes) }
    let library = CheckedLibrary(importer.library, diagnosticsOnly: true)
    KeptUntilExit.keep(importer)
    KeptUntilExit.keep(library)
    KeptUntilExit.keep(sources)
    let userFileIDs = Set(sources.map(\.id))
    var diagnostics = Checker.streamedDiagnostics(library: library, sources: sources, keep: KeptUntilExit.keep)
      .filter { userFileIDs.contains($0.span.file) }
    // A file that is not UTF-8 says so before what its text holds, as a loaded file's tree does
    // (`SourceImporter.importFile`): before the first diagnostic of that file or of a file after it.
    let position = Dictionary(uniqueKeysWithValues: sources.enumerated().map { ($1.id, $0) })
    for (index, (source, file)) in zip(sources, contents).enumerated() {
      let warnings = source.encodingWarnings(readFrom: file.bytes)
      guard !warnings.isEmpty else { continue }
      let at = diagnostics.firstIndex { (position[$0.span.file] ?? Int.max) >= index } ?? diagnostics.count
      diagnostics.insert(contentsOf: warnings, at: at)
    }
    if !diagnostics.isEmpty {
      let byID = Dictionary(uniqueKeysWithValues: (importer.library.map(\.source) + sources).map { ($0.id, $0) })
      Output.writeError(Output.renderer(byID).render(diagnostics))
      Output.writeError(Commands.summary(diagnostics) + "\n")
    }
    return diagnostics.hasErrors || !unreadable.isEmpty ? 1 : 0
  }
}

extension OptionSpec {
  static let syntax = OptionSpec(name: "--syntax", summary: "parse only: report syntax errors, do not check")
}
