import LineEditing

/// Lines from standard input without editing, prompts or history: `taxpro repl` reading a script from a pipe, where
/// prompts would only clutter the output and the user's history is not the script's business.
public final class StreamLineEditor: LineEditor {
  public var completionProvider: CompletionProvider?
  public let colorEnabled = false

  public init() {}

  public func readLine(prompt: String) -> LineInput { next() }
  public func readContinuationLine(prompt: String) -> LineInput { next() }
  public func addHistory(_ entry: String) {}

  private func next() -> LineInput {
    guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
    return .line(line)
  }
}
