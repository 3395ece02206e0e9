import CHeap
import Foundation
import TaxProLibrary
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
    if LanguageServerCommand.prefaultHeap != nil { taxpro_heap_grow_and_prefault(LanguageServerCommand.startupPrefault) }
    return LanguageServer.runOnStandardIO(year: year, willParseFirst: LanguageServerCommand.prefaultHeap)
  }

  /// What the server's start fills before the first document: parsing and checking the standard library (on its own
  /// thread, `LibraryParse`) grew the heap by about 3 MiB. Faulted in from the start, on the other core, while this one
  /// starts the server and reads `initialize`: a fresh server's first open of 4,000 lines took 15.2 ms without it and
  /// 13.8 with it (medians of 60, interleaved), of 40,000 lines 80.4 and 77.7. 8 MiB was slower than 4 (the populating
  /// thread then competes with the library's for the second core) and 2 the same.
  static let startupPrefault = 4 << 20

  /// While a fresh server parses and checks its first documents, the other core faults in the heap they are about to
  /// fill: 24 bytes for each byte of text (a first open of 40,000 lines, 2.8 MB, grew the heap by 60 MB). A fresh
  /// server's first open of 40,000 lines: 139 ms without it and 115 ms with it (medians of 20 each, interleaved), at
  /// 17 MB more at the peak; of 4,000 lines, 19.1 ms without it and 16.4 with it (medians of 40, interleaved, measured
  /// later). `TAXPRO_LSP_PREFAULT=0` turns it and `startupPrefault` off, to compare.
  static let prefaultHeap: (@Sendable (Int) -> Void)? =
    environmentValue("TAXPRO_LSP_PREFAULT") == "0"
    ? nil
    : { @Sendable bytes in
      let (ahead, overflow) = bytes.multipliedReportingOverflow(by: 24)
      taxpro_heap_prefault(overflow ? Int.max : ahead)
    }
}
