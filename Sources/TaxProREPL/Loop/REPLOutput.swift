import Foundation

/// Where the REPL writes: results to one stream, problems to the other.
///
/// Closures rather than file handles so tests can capture a transcript, and so the executable decides which streams
/// are used. Each call writes at once: the line editor draws its prompt straight after, and must find the output
/// already on the screen.
public struct REPLOutput: Sendable {
  public var write: @Sendable (String) -> Void
  public var writeError: @Sendable (String) -> Void

  public init(write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void) {
    self.write = write
    self.writeError = writeError
  }

  /// Standard output and standard error, unbuffered.
  public static let standard = REPLOutput(
    write: { FileHandle.standardOutput.write(Data($0.utf8)) },
    writeError: { FileHandle.standardError.write(Data($0.utf8)) })
}

/// Everything the REPL wrote, in order, for tests; errors are kept apart too so a test can tell them from results.
public final class Transcript: @unchecked Sendable {
  private let lock = NSLock()
  private var all = ""
  private var errors = ""

  public init() {}

  public var text: String { lock.withLock { all } }
  public var errorText: String { lock.withLock { errors } }

  /// An output that appends here; pass it to the REPL under test.
  public var output: REPLOutput {
    REPLOutput(
      write: { [self] text in lock.withLock { all += text } },
      writeError: { [self] text in
        lock.withLock {
          all += text
          errors += text
        }
      })
  }
}
