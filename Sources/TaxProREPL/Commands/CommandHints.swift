import TaxProCore

extension REPL {
  /// `diagnostics` of the line `text`, with a note wherever a command's name was typed as a name: `quit`, `help`,
  /// `explain(take_home_pay($85,000, ON))`. The checker can only say the name is unknown; the REPL knows it is one of
  /// its commands, which start with ':'. A name the session or the library defines is never unknown, so it never
  /// gets the note.
  /// `atPrompt`: whether the user types at a prompt, where Ctrl-D leaves; not in a notebook or piped input.
  public static func withCommandHints(_ diagnostics: [Diagnostic], input text: String, atPrompt: Bool) -> [Diagnostic] {
    withNameHints(diagnostics, input: text) { commandHint(word: $0, at: $1, in: $2, atPrompt: atPrompt) }
  }

  /// `diagnostics` of the line `text`, each unknown name's with the help `hint` gives for the name (its word, where it
  /// is in the line, the line's UTF-8), put first; front ends say what the checker cannot know.
  public static func withNameHints(
    _ diagnostics: [Diagnostic], input text: String, hint: (String, Range<Int>, [UInt8]) -> String?
  ) -> [Diagnostic] {
    let bytes = Array(text.utf8)
    return diagnostics.map { diagnostic in
      let span = diagnostic.span
      guard diagnostic.code == .unknownName, span.start >= 0, span.start < span.end, span.end <= bytes.count else {
        return diagnostic
      }
      let word = String(decoding: bytes[span.start..<span.end], as: UTF8.self)
      guard diagnostic.message.hasSuffix("'\(word)'"), let note = hint(word, span.start..<span.end, bytes) else {
        return diagnostic
      }
      var hinted = diagnostic
      hinted.notes.insert(DiagnosticNote(.help, note), at: 0)
      return hinted
    }
  }

  /// The commands whose whole argument is one expression or name, as a call's argument would be (`:plot` and
  /// `:table` take more than an expression).
  static let takesOneArgument: Set<REPLCommand> = [.help, .type, .explain, .ask, .lesson, .glossary, .search]

  /// What to say about `word` (at `range` of the line) when it is a command's name: the command written out with
  /// what was typed as its argument when the whole line is `word(argument)`, else the command's usage.
  static func commandHint(word: String, at range: Range<Int>, in bytes: [UInt8], atPrompt: Bool) -> String? {
    let command: REPLCommand
    if word == "exit" {
      command = .quit
    } else if let named = REPLCommand(rawValue: word) {
      command = named
    } else {
      return nil
    }
    let usage = command.entry.usage
    let spelled = ":" + command.rawValue
    let written = usage.isEmpty ? spelled : spelled + " " + usage
    switch NameUse.of(range, in: bytes) {
    case .alone:
      if command == .quit { return atPrompt ? "to leave: :quit or Ctrl-D" : "to leave: :quit" }
      return "commands start with ':': \(written)"
    case .wholeCall(let argument)
    where REPL.takesOneArgument.contains(command)
      && (!argument.contains(",") || command == .explain || command == .type):
      return "'\(word)' is a command, written with ':' and no parentheses: \(spelled) \(argument)"
    case .wholeCall, .call:
      return "'\(word)' is a command, on a line of its own: \(written)"
    case .other:
      return nil
    }
  }
}

/// How a name is used in a line of input, for hints that depend on it (`quit` alone, `explain(…)` as the whole line).
public enum NameUse: Equatable, Sendable {
  /// The name is all the line has.
  case alone
  /// The line is the name called with one argument list: `explain(take_home_pay($85,000))`; the argument list's text.
  case wholeCall(argument: String)
  /// The name is called somewhere in the line.
  case call
  case other

  /// How the name at `range` of `bytes` (a line's UTF-8) is used.
  public static func of(_ range: Range<Int>, in bytes: [UInt8]) -> NameUse {
    let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }
    guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return .other }
    let first = bytes.firstIndex { !isSpace($0) } ?? 0
    let last = bytes.lastIndex { !isSpace($0) } ?? 0
    if range.lowerBound == first && range.upperBound == last + 1 { return .alone }
    var open = range.upperBound
    while open < bytes.count, isSpace(bytes[open]) { open += 1 }
    guard open < bytes.count, bytes[open] == UInt8(ascii: "(") else { return .other }
    var depth = 0
    for index in open..<bytes.count {
      if bytes[index] == UInt8(ascii: "(") { depth += 1 }
      guard bytes[index] == UInt8(ascii: ")") else { continue }
      depth -= 1
      guard depth == 0 else { continue }
      let argument = String(decoding: bytes[(open + 1)..<index], as: UTF8.self).trimmed
      if range.lowerBound == first, index == last, !argument.isEmpty { return .wholeCall(argument: argument) }
      return .call
    }
    return .call
  }
}
