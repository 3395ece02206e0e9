import TaxProCore

extension REPL {
  /// `diagnostics` of the line `text`, with a note wherever a command's name was typed as a name: `quit`, `help`,
  /// `explain(take_home_pay($85,000, ON))`. The checker can only say the name is unknown; the REPL knows it is one of
  /// its commands, which start with ':'. A name the session or the library defines is never unknown, so it never
  /// gets the note.
  public static func withCommandHints(_ diagnostics: [Diagnostic], input text: String) -> [Diagnostic] {
    let bytes = Array(text.utf8)
    return diagnostics.map { diagnostic in
      guard diagnostic.code == .unknownName, diagnostic.span.start >= 0, diagnostic.span.start < diagnostic.span.end,
        diagnostic.span.end <= bytes.count
      else { return diagnostic }
      let word = String(decoding: bytes[diagnostic.span.start..<diagnostic.span.end], as: UTF8.self)
      guard diagnostic.message.hasSuffix("'\(word)'"),
        let note = commandHint(word: word, at: diagnostic.span.start..<diagnostic.span.end, in: bytes)
      else { return diagnostic }
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
  static func commandHint(word: String, at range: Range<Int>, in bytes: [UInt8]) -> String? {
    let command: REPLCommand
    if word == "exit" {
      command = .quit
    } else if let named = REPLCommand(rawValue: word) {
      command = named
    } else {
      return nil
    }
    let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }
    let first = bytes.firstIndex { !isSpace($0) } ?? 0
    let last = bytes.lastIndex { !isSpace($0) } ?? 0
    let usage = command.entry.usage
    let spelled = ":" + command.rawValue
    let written = usage.isEmpty ? spelled : spelled + " " + usage
    // The word alone on the line: `quit`, `help`, `vars`.
    if range.lowerBound == first && range.upperBound == last + 1 {
      if command == .quit { return "to leave: :quit or Ctrl-D" }
      return "commands start with ':': \(written)"
    }
    // A call: `explain(…)`, `type(…)`.
    var open = range.upperBound
    while open < bytes.count, isSpace(bytes[open]) { open += 1 }
    guard open < bytes.count, bytes[open] == UInt8(ascii: "(") else { return nil }
    var depth = 0
    var close: Int? = nil
    for index in open..<bytes.count {
      if bytes[index] == UInt8(ascii: "(") { depth += 1 }
      if bytes[index] == UInt8(ascii: ")") {
        depth -= 1
        if depth == 0 {
          close = index
          break
        }
      }
    }
    if range.lowerBound == first, let close, close == last, REPL.takesOneArgument.contains(command) {
      let argument = String(decoding: bytes[(open + 1)..<close], as: UTF8.self).trimmed
      if !argument.isEmpty, !argument.contains(",") || command == .explain || command == .type { return "'\(word)' is a command, written with ':' and no parentheses: \(spelled) \(argument)" }
    }
    return "'\(word)' is a command, on a line of its own: \(written)"
  }
}
