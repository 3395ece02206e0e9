import TaxProCore

extension REPL {
  /// Runs one `:command` line.
  func runCommand(_ line: String) {
    let text = line.drop(while: \.isWhitespace).dropFirst()
    let name = String(text.prefix { !$0.isWhitespace })
    let argument = text.dropFirst(name.count).trimmed
    guard let command = CommandTable.command(named: name) else {
      var message = name.isEmpty ? "a command name is needed after ':'" : "unknown command ':\(name)'"
      if !name.isEmpty, let suggestion = NameSuggestions.closest(to: name, among: CommandTable.names) {
        message += "; did you mean ':\(suggestion)'?"
      }
      complain(message)
      note(":help lists the commands")
      return
    }
    switch command.name {
    case "help": helpCommand(argument)
    case "type": typeCommand(argument)
    case "explain": explainCommand(argument)
    case "ask": askCommand(argument)
    case "lesson": lessonCommand(argument)
    case "topics": topicsCommand()
    case "search": searchCommand(argument)
    case "load": loadCommand(argument)
    case "reload": reloadCommand()
    case "year": yearCommand(argument)
    case "profile": profileCommand(argument)
    case "save": saveCommand(argument)
    case "records": recordsCommand(argument)
    case "plot": plotCommand(argument)
    case "quit": quitRequested = true
    default: complain("':\(command.name)' is not available")
    }
  }
}
