import TaxProCore

/// What a shell offers when Tab is pressed after `taxpro …`: worked out from `CommandTable` (commands, their options
/// and arguments, and the kind of each value) and, for `--year` and expressions, from the standard library. The
/// completion scripts (`packaging/completions/`) only hand the words to `taxpro complete` and show what it prints, so
/// a command or an option added to the table is completed without touching them.
struct ShellCompletion: Equatable {
  /// What the candidates are, and what the shell adds to them itself.
  enum Kind: Equatable {
    /// Whole words, after which the shell puts a space: commands, options, values (a year).
    case commands, options, values
    /// The name at the end of an expression, written with the expression before it: no space after.
    case code
    /// Words, and files the shell finds: directories, and files with one of these extensions (any file when empty).
    case files(extensions: [String])
  }

  /// One word the shell may put in place of the one being completed.
  struct Candidate: Equatable {
    var word: String
    /// One line the shells that show descriptions (zsh, fish) print beside it.
    var description: String
  }

  var kind = Kind.values
  /// The words that start with the word being completed, in the order to show them.
  var candidates: [Candidate] = []

  /// `words` are the arguments after `taxpro`; the last is the one being completed (empty after a space).
  /// `library` gives the program whose years and names are offered; it is asked only when they are needed, since
  /// checking the library is most of the time Tab takes.
  static func complete(_ words: [String], library: () -> Program?) -> ShellCompletion {
    let current = words.last ?? ""
    let state = WordState(words.dropLast())
    var result: ShellCompletion
    if let option = state.pendingValue {
      result = value(of: option, current: current, prefix: "", library: library)
    } else if !state.optionsEnded, current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
      let name = String(current[..<equals])
      let rest = String(current[current.index(after: equals)...])
      guard let option = CommandTable.allOptions.first(where: { $0.name == name }), option.valueName != nil else {
        return ShellCompletion()
      }
      result = value(of: option, current: rest, prefix: name + "=", library: library)
    } else if !state.optionsEnded, current.hasPrefix("-"), !ParsedArguments.isNegativeNumber(current) {
      result = options(state, current: current)
    } else if !state.commandSeen {
      result = ShellCompletion(
        kind: .commands,
        candidates: CommandTable.helps.filter { !$0.isHidden }.compactMap { help in
          help.name.map { Candidate(word: $0, description: help.summary) }
        })
    } else if let argument = state.argument {
      result = value(kind: argument.kind, current: current, prefix: "", library: library)
    } else {
      result = ShellCompletion()
    }
    result.candidates = result.candidates.filter { $0.word.hasPrefix(current) }
    return result
  }

  /// The options the command takes that were not given yet (the common ones last), and `-` where it reads standard
  /// input.
  private static func options(_ state: WordState, current: String) -> ShellCompletion {
    let help = state.help
    var result = ShellCompletion(kind: .options)
    let offered = help.options + CommandTable.commonOptions
    for option in offered where !state.given.contains(option.name) {
      result.candidates.append(Candidate(word: option.name, description: option.summary))
    }
    if current == "-", state.commandSeen, case .file(_, standardInput: true)? = state.argument?.kind {
      result.candidates.insert(Candidate(word: "-", description: "standard input"), at: 0)
    }
    return result
  }

  private static func value(of option: OptionSpec, current: String, prefix: String, library: () -> Program?)
    -> ShellCompletion
  {
    guard let kind = option.valueKind else { return ShellCompletion() }
    return value(kind: kind, current: current, prefix: prefix, library: library)
  }

  /// The values of one kind that start with `current`, each written after `prefix` (`--year=`).
  private static func value(kind: ValueKind, current: String, prefix: String, library: () -> Program?)
    -> ShellCompletion
  {
    var result = ShellCompletion()
    switch kind {
    case .year:
      let years = library()?.years ?? []
      result.candidates = years.map { Candidate(word: prefix + String($0), description: "tax year with figures") }
    case .file(let extensions, let standardInput):
      result.kind = .files(extensions: extensions)
      if standardInput { result.candidates = [Candidate(word: prefix + "-", description: "standard input")] }
    case .fileOrDirectory(let extensions), .newFile(let extensions):
      result.kind = .files(extensions: extensions)
    case .expression:
      result.kind = .code
      guard let program = library() else { break }
      result.candidates = names(in: current, program: program).map {
        Candidate(word: prefix + $0.word, description: $0.description)
      }
    case .number, .range, .text:
      break
    }
    return result
  }

  /// Completion of the name at the end of an expression: the core's, as the REPL's Tab gives it, but only names that
  /// start with what was typed (a shell keeps no other), each as the whole word.
  static func names(in expression: String, program: Program) -> [Candidate] {
    let query = CompletionQuery(text: expression, offset: expression.utf8.count, mode: .interactive)
    let list = CompletionEngine.complete(query, in: program)
    let before = String(decoding: expression.utf8.prefix(list.range.lowerBound), as: UTF8.self)
    var seen = Set<String>()
    var found: [Candidate] = []
    for candidate in list.candidates where candidate.match == .prefix {
      let text = candidate.kind == .argumentLabel ? candidate.label : candidate.insertText
      guard seen.insert(text).inserted else { continue }
      found.append(Candidate(word: before + text, description: candidate.detail))
    }
    return found
  }

  /// The text `taxpro complete` prints: a first line saying what the candidates are (`commands`, `options`,
  /// `values`, `code`, or `files` and the extensions of the files the shell should offer beside them), then a line per candidate, the word and its description
  /// separated by a tab.
  /// With `replacing`, each word is written as what replaces that text, the end of the word being completed that the
  /// shell will replace (bash's, after its word-break characters `=` or `(`); a word that does not end the same is
  /// left out.
  func output(replacing: String?, current: String) -> String {
    var lines: [String] = []
    switch kind {
    case .commands: lines.append("commands")
    case .options: lines.append("options")
    case .values: lines.append("values")
    case .code: lines.append("code")
    case .files(let extensions): lines.append((["files"] + extensions).joined(separator: " "))
    }
    var dropped = 0
    if let replacing {
      guard current.hasSuffix(replacing) else { return lines[0] + "\n" }
      dropped = current.count - replacing.count
    }
    for candidate in candidates {
      let word = String(candidate.word.dropFirst(dropped))
      let description = candidate.description.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }
      lines.append(word + "\t" + String(description))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// The words before the one being completed, read as `ParsedArguments.parse` reads them: which command they name, the
/// options given, how many arguments, and whether the last was an option waiting for its value.
private struct WordState {
  var commandSeen = false
  var help: CommandHelp = DefaultCommand.help
  var given: Set<String> = []
  var positionals = 0
  var optionsEnded = false
  var pendingValue: OptionSpec?

  init(_ words: ArraySlice<String>) {
    let names = Set(CommandTable.helps.compactMap(\.name))
    for word in words {
      if pendingValue != nil {
        pendingValue = nil
        continue
      }
      if !optionsEnded, word.hasPrefix("-"), word != "-", !ParsedArguments.isNegativeNumber(word) {
        if word == "--" {
          optionsEnded = true
          continue
        }
        let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        guard let option = CommandTable.allOptions.first(where: { $0.name == name || $0.short == name }) else { continue }
        given.insert(option.name)
        if option.valueName != nil, !word.contains("=") { pendingValue = option }
        continue
      }
      if !commandSeen {
        commandSeen = true
        if names.contains(word), let type = CommandTable.command(named: word) {
          help = type.help
          continue
        }
      }
      positionals += 1
    }
  }

  /// The argument the next word is: by position, the last one standing for any further when it repeats.
  var argument: ArgumentSpec? {
    let arguments = help.arguments
    if positionals < arguments.count { return arguments[positionals] }
    return arguments.last.flatMap { $0.repeats ? $0 : nil }
  }
}
