/// A line editor that replays a fixed script, for testing the REPL loop without a terminal.
///
/// It records every prompt it was asked to show and every history entry, so a test can check
/// that the loop asked for a continuation line or kept an entry, not just what it printed.
public final class ScriptedLineEditor: LineEditor {
  /// One prompt the loop showed, in order.
  public struct Prompt: Equatable, Sendable {
    public var kind: PromptKind
    public var text: String

    public init(kind: PromptKind, text: String) {
      self.kind = kind
      self.text = text
    }
  }

  private var script: [LineInput]
  private var position = 0

  public private(set) var prompts: [Prompt] = []
  public private(set) var history: [String] = []
  public var completionProvider: CompletionProvider?
  public let colorEnabled: Bool
  /// Whether the script plays as one paste: every line but the last finds the next one already waiting.
  public var pasted = false
  public var hasTypeAhead: Bool { pasted && position < script.count }

  /// Replays `script` one read at a time; after it runs out every read is `.endOfInput`, like Ctrl-D.
  public init(_ script: [LineInput], colorEnabled: Bool = false) {
    self.script = script
    self.colorEnabled = colorEnabled
  }

  /// The common case: every scripted read is an entered line.
  public convenience init(lines: [String], colorEnabled: Bool = false) {
    self.init(lines.map { LineInput.line($0) }, colorEnabled: colorEnabled)
  }

  /// Reads still to come, so a test can tell whether the loop stopped early.
  public var remaining: Int { script.count - position }

  public func readLine(prompt: String) -> LineInput {
    next(Prompt(kind: .primary, text: prompt))
  }

  public func readContinuationLine(prompt: String) -> LineInput {
    next(Prompt(kind: .continuation, text: prompt))
  }

  public func addHistory(_ entry: String) {
    history.append(entry)
  }

  /// Asks the installed provider, as Tab would; `.none` when there is no provider.
  public func complete(_ buffer: String, cursor: Int? = nil) -> Completion {
    completionProvider?(buffer, cursor ?? buffer.utf8.count) ?? .none
  }

  private func next(_ prompt: Prompt) -> LineInput {
    prompts.append(prompt)
    guard position < script.count else { return .endOfInput }
    defer { position += 1 }
    return script[position]
  }
}
