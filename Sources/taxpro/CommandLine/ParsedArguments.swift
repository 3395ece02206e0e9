import TaxProCore

/// A problem with how `taxpro` was called, or with a file it was given: printed after `taxpro:`, exit status 2.
struct UsageError: Error {
  var message: String
}

/// The command line taken apart — the command's name, the options with their values, the other arguments — before
/// the command decodes it into its own type.
///
/// Options may come anywhere, before or after the command's name (`taxpro --year 2026 eval …`); `--` ends them;
/// `--name=value` and `--name value` are the same; a negative number (`-5`, `-$5`) is an argument, not an option. An
/// option must be one that some command takes, so that its value is known to follow it; whether *this* command
/// takes it is checked after (`CommandTable.parse`).
struct ParsedArguments {
  /// The command's name; nil for `taxpro` alone.
  var command: String?
  /// Each option given, in order, with its value (nil for a flag).
  var options: [(option: OptionSpec, value: String?)] = []
  var positionals: [String] = []

  /// What to say after "unknown command": the command it is likely a typo of, or, for what is not a word, how an
  /// expression is evaluated (`taxpro '$100 * 13%'`).
  static func hint(command: String, _ commandNames: Set<String>) -> String {
    if let name = NameSuggestions.closest(to: command, among: commandNames.sorted()) { return "; did you mean '\(name)'?" }
    if command.contains(where: { !$0.isLetter && $0 != "-" && $0 != "_" }) {
      return "; to evaluate an expression: taxpro eval \(Output.shellQuoted(command))"
    }
    return ""
  }

  /// Takes `arguments` apart with `known` options; the first argument that is not an option's value is the command
  /// when `commandNames` has it.
  static func parse(_ arguments: [String], known: [OptionSpec], commandNames: Set<String>) throws(UsageError)
    -> ParsedArguments
  {
    var parsed = ParsedArguments()
    var index = 0
    var optionsEnded = false
    var commandSeen = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" || isNegativeNumber(argument) {
        if !commandSeen {
          commandSeen = true
          if commandNames.contains(argument) {
            parsed.command = argument
            continue
          }
          if argument != "-" { throw UsageError(message: "unknown command '\(argument)'" + hint(command: argument, commandNames)) }
        }
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = known.first(where: { $0.name == name || $0.short == name }) else {
        // A long option's typo (`--yeer`); one letter is too little to guess from.
        let suggestion = name.hasPrefix("--") ? NameSuggestions.closest(to: name, among: known.map(\.name)) : nil
        throw UsageError(message: "unknown option '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
      }
      if option.valueName == nil {
        if inlineValue != nil { throw UsageError(message: "\(option.name) takes no value") }
        parsed.options.append((option, nil))
      } else if let inlineValue {
        parsed.options.append((option, inlineValue))
      } else {
        guard index < arguments.count else { throw UsageError(message: "\(option.name) needs a value") }
        parsed.options.append((option, arguments[index]))
        index += 1
      }
    }
    return parsed
  }

  /// `-5`, `-$5`, `-(1 + 2)`, `-.5`: arguments (`taxpro eval -- -5` is not needed).
  static func isNegativeNumber(_ argument: String) -> Bool {
    guard let second = argument.dropFirst().first else { return false }
    return second.isNumber || "$(.".contains(second)
  }

  /// Whether the option was given.
  func has(_ option: OptionSpec) -> Bool { options.contains { $0.option == option } }

  /// The option's value, the last one when it was given more than once.
  func value(_ option: OptionSpec) -> String? { options.last { $0.option == option }?.value }

  /// The option's value as a whole number within `range`, or a usage error saying what it needs.
  func integer(_ option: OptionSpec, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = value(option) else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        message: "\(option.name) needs a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }
}
