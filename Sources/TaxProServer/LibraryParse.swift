import Foundation
import TaxProCore
import TaxProLibrary

/// The standard library's trees, parsed — and then checked once (`CheckedLibrary`) — on a thread of its own from the
/// moment the server is made.
///
/// Parsing the library is a tenth of opening a large document, and checking it a fifth; nothing before the first
/// check needs either (only the library files' paths): done apart, they overlap with reading and answering
/// `initialize`, with decoding the first `didOpen` and with parsing that document on the analyzer's thread, which
/// then takes the checked library from here rather than checking it on the first open's path. Whoever needs a tree
/// or the check waits for it.
final class LibraryParse: @unchecked Sendable {
  private let condition = NSCondition()
  private var parsed: [SyntaxTree]?
  /// Whether this thread checks the library once parsed (`checked`).
  let checks: Bool
  /// The check, once made (nil until then, and always when `checks` is false).
  private var checkedLibrary: CheckedLibrary?

  /// Starts parsing `files`, each one's id its position (`FileIDRange.library`), then checking them when `checks`
  /// (the analyzer checks documents on top of the library checked once: `Analyzer.checksLibraryOnce`).
  init(_ files: [LibraryFile], checks: Bool = Analyzer.checksLibraryOnce) {
    self.checks = checks && !files.isEmpty
    guard !files.isEmpty else {
      parsed = []
      return
    }
    let thread = Thread { [self] in
      let trees = StandardLibrary.parse(files, firstFileID: FileIDRange.library.lowerBound)
      publish { parsed = trees }
      guard self.checks else { return }
      let checked = CheckedLibrary(trees)
      publish { checkedLibrary = checked }
    }
    // The parser's and checker's depth limits assume a roomy stack, as on the command line.
    thread.stackSize = coreThreadStackSize
    thread.name = "TaxPro library"
    thread.start()
  }

  /// The trees, waiting for the parse if it is still running.
  var trees: [SyntaxTree] { waitFor { parsed } }

  /// Whether the parse is done (so that asking for `trees` does not wait).
  var isDone: Bool { locked { parsed != nil } }

  /// The library checked once from `trees`, waiting for the check if it is still running; nil when this parse does
  /// not check (`checks`), so that nothing waits for a check that never comes.
  var checked: CheckedLibrary? {
    guard checks else { return nil }
    return waitFor { checkedLibrary }
  }

  /// Whether the check is done (tests).
  var isChecked: Bool { locked { checkedLibrary != nil } }

  /// Sets what the thread made, under the lock, and wakes whoever waits for it.
  private func publish(_ set: () -> Void) {
    locked {
      set()
      condition.broadcast()
    }
  }

  /// `value` once it is there, waiting for the thread until then.
  private func waitFor<Value>(_ value: () -> Value?) -> Value {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let made = value() { return made }
      condition.wait()
    }
  }

  private func locked<Result>(_ body: () -> Result) -> Result {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}
