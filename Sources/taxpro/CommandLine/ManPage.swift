import Foundation
import TaxProCore
import TaxProREPL

/// `taxpro(1)`, written in roff from the same data `--help` prints: `CommandTable` (every command's `CommandHelp`,
/// the common options, exit statuses, environment and files) and the REPL's command table. `taxpro man` prints it;
/// `scripts/package` installs it; a test reads it back with `man` and compares it with `--help`.
enum ManPage {
  static func taxpro() -> String {
    let helps = CommandTable.helps.filter { !$0.isHidden }
    var page = Roff()
    page.request(".TH", "TAXPRO", "1", "", "taxpro \(TaxPro.version)", "TaxPro Manual")
    // Options and names read badly hyphenated or stretched: no hyphenation, ragged right.
    page.line(".nh")
    page.line(".ad l")
    page.section("NAME")
    page.text("taxpro \\- " + Roff.escape(nameLine))

    page.section("SYNOPSIS")
    for (index, help) in helps.enumerated() {
      if index > 0 { page.line(".br") }
      page.line(Roff.synopsis(help))
    }

    page.section("DESCRIPTION")
    page.paragraph(CommandTable.description)

    page.section("COMMANDS")
    for help in helps { command(help, into: &page) }

    page.section("OPTIONS")
    page.paragraph("Every command takes these; an option a command does not list is a usage error (exit status 2).")
    options(CommandTable.commonOptions, into: &page)

    page.section("REPL COMMANDS")
    page.paragraph(
      "At the REPL's prompt a line is an expression, a declaration (let, formula, test) or one of these commands.")
    for command in REPLCommandDescription.all {
      let usage = command.usage.isEmpty ? "" : " " + command.usage
      page.line(".TP")
      page.line("\\fB:" + Roff.escape(command.name) + "\\fR" + Roff.italicWords(usage))
      var text = command.summary.prefix(1).uppercased() + command.summary.dropFirst() + "."
      if !command.aliases.isEmpty {
        text += " Also " + command.aliases.map { ":" + $0 }.joined(separator: ", ") + "."
      }
      if !command.details.isEmpty { text += " " + command.details }
      page.text(Roff.escape(text))
    }

    page.section("EXIT STATUS")
    statuses(CommandTable.exitStatuses, into: &page)
    page.paragraph("Some commands say more about their statuses; see COMMANDS.")

    page.section("ENVIRONMENT")
    entries(CommandTable.environment, into: &page)

    page.section("FILES")
    entries(CommandTable.files, into: &page)

    let examples = helps.flatMap(\.examples)
    if !examples.isEmpty {
      page.section("EXAMPLES")
      for example in examples {
        page.line(".TP")
        page.line("\\fB" + Roff.escape(example.name) + "\\fR")
        page.text(Roff.escape(example.meaning))
      }
    }

    page.section("SEE ALSO")
    page.line(".BR taxpro\\-language (7),")
    page.line(".BR editrc (5)")
    page.paragraph(
      "The language reference is docs/LANGUAGE.md, and the language server's is docs/LANGUAGE_SERVER.md, in the "
        + "source repository; editor packages are installed under /usr/share/taxpro/editors/ by the Debian package.")
    return page.source
  }

  /// One command: its synopsis as a subsection, what it does, its arguments, options, examples and statuses.
  private static func command(_ help: CommandHelp, into page: inout Roff) {
    page.line(".SS " + Roff.quoted(help.invocation))
    page.line(Roff.synopsis(help))
    page.paragraph(help.summary.prefix(1).uppercased() + help.summary.dropFirst() + ".")
    if !help.discussion.isEmpty { page.paragraph(help.discussion) }
    for argument in help.arguments {
      page.line(".TP")
      page.line(Roff.italicWords(argument.synopsis))
      page.text(Roff.escape(argument.summary))
    }
    options(help.options, into: &page)
    if help.exitStatuses.map(\.meaning) != CommandTable.exitStatuses.map(\.meaning) {
      page.line(".PP")
      page.text("Exit status:")
      statuses(help.exitStatuses, into: &page)
    }
  }

  private static func options(_ options: [OptionSpec], into page: inout Roff) {
    for option in options {
      page.line(".TP")
      var label = (option.short.map { "\\fB" + Roff.escape($0) + "\\fR, " } ?? "") + "\\fB" + Roff.escape(option.name)
        + "\\fR"
      if let value = option.valueName { label += " \\fI" + Roff.escape(value) + "\\fR" }
      page.line(label)
      var text = option.summary
      if option.isRequired { text += " (required)" }
      page.text(Roff.escape(text))
    }
  }

  private static func statuses(_ statuses: [ExitStatus], into page: inout Roff) {
    for status in statuses {
      page.line(".TP")
      page.line("\\fB\(status.code)\\fR")
      page.text(Roff.escape(status.meaning))
    }
  }

  private static func entries(_ entries: [HelpEntry], into page: inout Roff) {
    for entry in entries {
      page.line(".TP")
      page.line("\\fI" + Roff.escape(entry.name) + "\\fR")
      page.text(Roff.escape(entry.meaning))
    }
  }

  /// The summary after "TaxPro — ", without its full stop: the whatis line `man -k` shows.
  static var nameLine: String {
    var line = Substring(CommandTable.summary)
    if let dash = line.firstRange(of: "— ") { line = line[dash.upperBound...] }
    if line.hasSuffix(".") { line = line.dropLast() }
    return String(line)
  }
}

/// Building roff source for the `man` macros: requests on lines of their own, text escaped so that nothing in it
/// is read as a request or an escape.
struct Roff {
  private(set) var source = ""

  mutating func line(_ line: String) { source += line + "\n" }

  mutating func request(_ name: String, _ arguments: String...) {
    line(([name] + arguments.map(Roff.quoted)).joined(separator: " "))
  }

  mutating func section(_ title: String) { line(".SH " + Roff.quoted(title)) }

  /// Escaped text: each of its paragraphs (separated by a line break) a `.PP` of its own.
  mutating func paragraph(_ prose: String) {
    for part in prose.split(separator: "\n", omittingEmptySubsequences: true) {
      line(".PP")
      text(Roff.escape(String(part)))
    }
  }

  /// Text already escaped, with a `\&` before a line that would start with a control character.
  mutating func text(_ escaped: String) {
    line(escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped)
  }

  /// `"text"` for an argument of a request (a `"` inside is doubled, as groff reads it).
  static func quoted(_ text: String) -> String {
    "\"" + escape(text).replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Text with roff's special characters escaped: backslash, the hyphen-minus (a minus sign, as options and code
  /// want it copied), and any character beyond ASCII as its code point, which groff and mandoc both read.
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      case "\n": result += " "
      case "\t": result += " "
      default:
        if scalar.isASCII {
          result.unicodeScalars.append(scalar)
        } else {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
        }
      }
    }
    return result
  }

  /// A command's synopsis: the command in bold, options in bold with their values in italics, arguments in italics.
  static func synopsis(_ help: CommandHelp) -> String {
    var parts = ["\\fB" + escape(help.invocation) + "\\fR"]
    for option in help.options {
      var written = "\\fB" + escape(option.name) + "\\fR"
      if let value = option.valueName { written += " \\fI" + escape(value) + "\\fR" }
      parts.append(option.isRequired ? written : "[" + written + "]")
    }
    parts += help.arguments.map { italicWords($0.synopsis) }
    return parts.joined(separator: " ")
  }

  /// `[FILE…]` with the names in italics and the brackets and ellipsis upright.
  static func italicWords(_ text: String) -> String {
    var result = ""
    var word = ""
    func flush() {
      if !word.isEmpty { result += "\\fI" + escape(word) + "\\fR" }
      word = ""
    }
    for character in text {
      if character.isLetter || character.isNumber || character == "_" || character == "=" || character == "." {
        word.append(character)
      } else {
        flush()
        result += escape(String(character))
      }
    }
    flush()
    return result
  }
}
