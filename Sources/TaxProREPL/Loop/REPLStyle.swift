import TaxProCore

/// How the REPL marks up its output: ANSI colours in a terminal that wants them, plain text otherwise.
///
/// One place decides, so `NO_COLOR`, `--no-color` and a non-terminal output turn colour off everywhere at once,
/// prompts and charts included.
public struct REPLStyle: Sendable {
  public enum Role: Sendable {
    case prompt, value, type, heading, command, name, note, error, success
  }

  public let color: Bool

  public init(color: Bool) {
    self.color = color
  }

  public func callAsFunction(_ text: String, _ role: Role) -> String {
    guard color, !text.isEmpty else { return text }
    let code: String
    switch role {
    case .prompt: code = "1;32"
    case .value: code = "1"
    case .type: code = "36"
    case .heading: code = "1;4"
    case .command: code = "32"
    case .name: code = "1;36"
    case .note: code = "2"
    case .error: code = "1;31"
    case .success: code = "32"
    }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  /// The same choices for the core's renderers of diagnostics and explanations.
  public var textStyle: @Sendable (String, TextRole) -> String {
    guard color else { return { text, _ in text } }
    return { text, role in
      let code: String
      switch role {
      case .error, .marker: code = "1;31"
      case .warning: code = "1;33"
      case .information, .note: code = "1;36"
      case .help: code = "1;32"
      case .location, .emphasis: code = "1"
      case .gutter: code = "34"
      case .plain: return text
      }
      return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
  }
}
