import TaxProCore

extension REPL {
  /// Runs one `:command` line.
  func runCommand(_ line: String) {
    let text = line.drop(while: \.isWhitespace).dropFirst()
    let name = String(text.prefix { !$0.isWhitespace })
    let argument = text.dropFirst(name.count).trimmed
    let prefixed = name.isEmpty ? [] : CommandTable.names.filter { $0.hasPrefix(name) }
    if REPLCommand(named: name) == nil, prefixed.count > 1 {
      complain("':\(name)' is ambiguous: it could be " + prefixed.map { ":" + $0 }.joined(separator: ", "))
      return
    }
    guard let command = REPLCommand(named: name) ?? (prefixed.count == 1 ? REPLCommand(named: prefixed[0]) : nil) else {
      var message = name.isEmpty ? "a command name is needed after ':'" : "unknown command ':\(name)'"
      if !name.isEmpty, let suggestion = NameSuggestions.closest(to: name, among: CommandTable.names) {
        message += "; did you mean ':\(suggestion)'?"
      }
      complain(message)
      note(":help lists the commands")
      return
    }
    let entry = command.entry
    switch entry.run {
    case .text(let handler):
      guard !argument.isEmpty || !entry.needsArgument else { return sayUsage(of: command) }
      handler(self)(argument)
    case .plain(let handler):
      guard argument.isEmpty else {
        complain(":\(command.rawValue) takes nothing after its name, not '\(argument)'")
        return
      }
      handler(self)()
    }
  }

  /// A command typed without what it needs: its usage, from its table entry, and where to read more.
  func sayUsage(of command: REPLCommand) {
    let entry = command.entry
    complain("usage: :\(entry.name) \(entry.usage)")
    note(":help :\(entry.name) says more")
  }

  func quitCommand() {
    quitRequested = true
  }
}
