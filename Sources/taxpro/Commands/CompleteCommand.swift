import Foundation
import TaxProCore
import TaxProLibrary

/// `taxpro complete [--line TEXT] [--replacing TEXT] [WORD…]`: what Tab offers, for the completion scripts of bash,
/// zsh and fish (`packaging/completions/`). Hidden: people press Tab, they do not run this.
struct CompleteCommand: Command {
  static let help = CommandHelp(
    name: "complete", summary: "what a shell's Tab offers after the words given (for the completion scripts)",
    discussion: """
      Prints a line saying what the candidates are (commands, options, values, code for a name in an expression, \
      or files followed by the extensions of the files the shell should offer itself), then one line per candidate: the word, a tab and a description. The words are \
      the arguments after taxpro, the last one being the one completed (empty after a space); give them after --. \
      With --line, they are taken from a command line instead, split as the shell splits it (quotes, backslashes), \
      the cursor at its end. With --replacing, each candidate is written as what replaces that text, the end of \
      the word that the shell will replace.
      """,
    arguments: [
      ArgumentSpec(
        name: "WORD", summary: "the words after taxpro, the last one being completed", kind: .text,
        needed: "a word", isOptional: true, repeats: true)
    ],
    options: [.line, .replacing],
    examples: [
      HelpEntry(name: "taxpro complete -- e", meaning: "commands, then eval and explain with their summaries"),
      HelpEntry(name: "taxpro complete -- --year ''", meaning: "the years the standard library has figures for"),
    ],
    isHidden: true)

  var words: [String]
  var replacing: String?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    if let line = arguments.value(.line) {
      guard arguments.positionals.isEmpty else { throw UsageError(message: "complete takes --line or WORDs, not both") }
      words = Array(ShellWords.split(line).dropFirst())
      if words.isEmpty { words = [""] }
    } else {
      words = arguments.positionals.isEmpty ? [""] : arguments.positionals
    }
    replacing = arguments.value(.replacing)
  }

  func run() throws(UsageError) -> Int32 {
    let completion = ShellCompletion.complete(words) {
      guard case .success(let importer) = SourceImporter.standardLibrary() else { return nil }
      let session = importer.session()
      KeptUntilExit.keep(session)
      return session.program
    }
    Output.write(completion.output(replacing: replacing, current: words.last ?? ""))
    return 0
  }
}

extension OptionSpec {
  static let line = OptionSpec(
    name: "--line", valueName: "TEXT", valueKind: .text,
    summary: "the command line up to the cursor (bash's COMP_LINE), to be split into words")
  static let replacing = OptionSpec(
    name: "--replacing", valueName: "TEXT", valueKind: .text,
    summary: "the end of the current word that the shell replaces (bash's $2): print candidates relative to it")
}

/// A command line split into words as a POSIX shell splits it — blanks between words, `'…'` taken literally, `"…"`
/// with `\` before `"`, `\`, `$` and `` ` ``, `\` before any other character outside quotes — with a quote left open
/// at the end still part of the last word: bash hands its completion the line up to the cursor.
enum ShellWords {
  static func split(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for character in line {
      if escaped {
        if quote == "\"", !"\"\\$`".contains(character) { word.append("\\") }
        if character != "\n" { word.append(character) }
        escaped = false
        continue
      }
      switch (quote, character) {
      case ("'", "'"), ("\"", "\""):
        quote = nil
      case ("'", _):
        word.append(character)
      case (_, "\\"):
        escaped = true
        inWord = true
      case ("\"", _):
        word.append(character)
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case (nil, " "), (nil, "\t"), (nil, "\n"):
        if inWord { words.append(word) }
        word = ""
        inWord = false
      default:
        word.append(character)
        inWord = true
      }
    }
    // The word the cursor is in, empty after a blank.
    words.append(word)
    return words
  }
}
