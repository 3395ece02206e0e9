import Foundation
import TaxProCore
import TaxProLibrary

/// The standard library's trees, parsed on a thread of their own from the moment the server is made.
///
/// Parsing the library is a tenth of opening a large document, and nothing before the first check needs its trees
/// (only its files' paths): parsed apart, it overlaps with reading and answering `initialize`, with decoding the
/// first `didOpen` and with parsing that document on the analyzer's thread. Whoever needs a tree waits for the parse.
final class LibraryParse: @unchecked Sendable {
  private let condition = NSCondition()
  private var parsed: [SyntaxTree]?

  /// Starts parsing `files`, each one's id its position (`FileIDRange.library`).
  init(_ files: [LibraryFile]) {
    guard !files.isEmpty else {
      parsed = []
      return
    }
    let thread = Thread { [self] in
      let trees = StandardLibrary.parse(files, firstFileID: FileIDRange.library.lowerBound)
      condition.lock()
      parsed = trees
      condition.broadcast()
      condition.unlock()
    }
    // The parser's depth limits assume a roomy stack, as on the command line.
    thread.stackSize = coreThreadStackSize
    thread.name = "TaxPro library"
    thread.start()
  }

  /// The trees, waiting for the parse if it is still running.
  var trees: [SyntaxTree] {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let parsed { return parsed }
      condition.wait()
    }
  }

  /// Whether the parse is done (so that asking for `trees` does not wait).
  var isDone: Bool {
    condition.lock()
    defer { condition.unlock() }
    return parsed != nil
  }
}
