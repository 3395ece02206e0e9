import TaxProServer

/// `taxpro lsp`: the language server on standard input and output.
struct LanguageServerCommand: Command {
  static let help = CommandHelp(
    name: "lsp", summary: "the language server, on standard input and output",
    discussion: """
      Speaks the Language Server Protocol 3.17 (JSON-RPC with Content-Length framing) for editors: diagnostics, \
      completion, hover, definition, formatting and more (docs/LANGUAGE_SERVER.md). Editors start it; a person \
      rarely does.
      """,
    options: [.year],
    exitStatuses: [
      ExitStatus(code: 0, meaning: "the client asked it to shut down, then to exit"),
      ExitStatus(code: 1, meaning: "the client asked it to exit without shutting down, or the connection closed"),
      ExitStatus(code: 2, meaning: "a usage error"),
    ])

  var year: Int?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    year = try arguments.year()
  }

  func run() throws(UsageError) -> Int32 {
    LanguageServer.runOnStandardIO(year: year)
  }
}
