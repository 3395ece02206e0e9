/// What one attempt to read a line produced.
///
/// Ctrl-C and Ctrl-D are outcomes rather than errors because the REPL treats them as ordinary control flow:
/// one cancels the current entry, the other ends the session.
public enum LineInput: Equatable, Sendable {
  /// A line the user entered, without its line terminator.
  case line(String)
  /// Ctrl-D on an empty line, or the input stream ended.
  case endOfInput
  /// Ctrl-C: the line being edited was thrown away.
  case interrupted
}

/// The answer of a completion provider.
///
/// The range is in UTF-8 bytes of the line buffer because that is what libedit exposes and what the core's
/// positions use; the editor converts it to characters when it edits the line.
public struct Completion: Equatable, Sendable {
  /// Full replacement texts for `replacing`, in the order they should be listed.
  public var candidates: [String]
  /// Byte range of the buffer that a chosen candidate replaces (usually the word before the cursor).
  public var replacing: Range<Int>

  public init(candidates: [String], replacing: Range<Int>) {
    self.candidates = candidates
    self.replacing = replacing
  }

  /// No candidates: the editor beeps and leaves the line alone.
  public static let none = Completion(candidates: [], replacing: 0..<0)
}

/// Computes completions for a line being edited.
///
/// It receives the whole buffer rather than the word under the cursor so it can see context such as `ON.`
/// or a leading `:command`. The cursor is a UTF-8 byte offset into `buffer`.
public typealias CompletionProvider = (_ buffer: String, _ cursor: Int) -> Completion

/// Which prompt a read uses.
///
/// Kept distinct so a test can check that the loop asked for a continuation line, and so an editor may
/// treat continuation lines differently (they are parts of one entry, not entries of their own).
public enum PromptKind: Equatable, Sendable {
  case primary
  case continuation
}

/// The REPL loop's only view of the terminal.
///
/// Keeping this small lets the loop run unchanged against libedit, a plain stream or a scripted list of
/// lines in tests, and keeps libedit's C API out of the rest of the program.
public protocol LineEditor: AnyObject {
  /// Reads the first line of an entry.
  func readLine(prompt: String) -> LineInput
  /// Reads a further line of an unfinished entry (an open bracket, a trailing operator, …).
  func readContinuationLine(prompt: String) -> LineInput
  /// Remembers an entry so the user can recall it, and persists it where the editor supports that.
  func addHistory(_ entry: String)
  /// Supplies completions for Tab; `nil` turns completion off.
  var completionProvider: CompletionProvider? { get set }
  /// Whether output to the user may use ANSI colour, so the loop decides it in one place.
  var colorEnabled: Bool { get }
  /// Whether more input has already arrived, not yet read: the rest of a paste. (A blank line typed by hand gives up
  /// an unfinished entry; one inside pasted text is part of it.)
  var hasTypeAhead: Bool { get }
}

extension LineEditor {
  /// Input that is not typed (a pipe, a script) has no paste to tell apart.
  public var hasTypeAhead: Bool { false }
}
