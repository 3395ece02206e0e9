import TaxProCore

/// What a value on the command line is: its kind names it in help and tells shell completions what to offer.
enum ValueKind: Equatable {
  /// TaxPro code: an expression.
  case expression
  /// An existing file (with one of these extensions, when any are given; `-` for standard input when `standardInput`).
  case file(extensions: [String], standardInput: Bool = false)
  /// An existing file or a directory searched for files with these extensions.
  case fileOrDirectory(extensions: [String])
  /// A file to be written.
  case newFile(extensions: [String])
  /// A tax year.
  case year
  /// A whole number.
  case number
  /// `NAME=FROM..TO`.
  case range
  /// Any text (the hidden commands' arguments): nothing to offer.
  case text
}

/// An option, as every command that takes it understands it: written once, used in parsing, help, and (issue 20)
/// the man page and shell completions.
struct OptionSpec: Equatable {
  /// `--year`.
  var name: String
  /// `-h`.
  var short: String?
  /// How help writes its value (`YYYY`); nil for a flag, which takes none.
  var valueName: String?
  var valueKind: ValueKind?
  /// One line for help.
  var summary: String
  /// A command that takes it needs it (`plot --over`): shown without brackets in the synopsis, and its absence is a
  /// usage error.
  var isRequired = false
  /// A value, for the message when a required option is missing.
  var example: String?

  static func == (lhs: OptionSpec, rhs: OptionSpec) -> Bool { lhs.name == rhs.name }

  /// `--year YYYY`, `-h, --help`.
  var label: String {
    (short.map { $0 + ", " } ?? "") + name + (valueName.map { " " + $0 } ?? "")
  }

  /// `[--year YYYY]`, or without brackets when required.
  var synopsis: String {
    let written = name + (valueName.map { " " + $0 } ?? "")
    return isRequired ? written : "[" + written + "]"
  }
}

/// An argument that is not an option (`EXPR`, `FILE…`).
struct ArgumentSpec {
  /// `EXPR`.
  var name: String
  /// One line for help.
  var summary: String
  var kind: ValueKind
  /// What the command needs when it is missing, after "needs": `an expression`, `at least one file`.
  var needed: String
  var isOptional = false
  /// Any number of them (at least one unless optional); only the last argument repeats.
  var repeats = false
  /// A value, for the message when it is missing.
  var example: String?

  /// `EXPR`, `[FILE…]`, `FILE…`.
  var synopsis: String {
    let written = name + (repeats ? "…" : "")
    return isOptional ? "[" + written + "]" : written
  }
}

/// One exit status and what it means.
struct ExitStatus {
  var code: Int32
  var meaning: String
}

/// An environment variable or a file the program reads, and what for.
struct HelpEntry {
  var name: String
  var meaning: String
}

/// Everything a command says about itself: what `taxpro CMD --help` prints and what a man page and shell
/// completions are generated from.
struct CommandHelp {
  /// The word after `taxpro`; nil for `taxpro` alone.
  var name: String?
  /// One line for the list of commands.
  var summary: String
  /// Paragraphs for `--help` and the man page.
  var discussion: String = ""
  var arguments: [ArgumentSpec] = []
  /// The options it takes besides `CommandTable.commonOptions`.
  var options: [OptionSpec] = []
  /// Example command lines, each with what it does.
  var examples: [HelpEntry] = []
  var exitStatuses: [ExitStatus] = CommandTable.exitStatuses
  /// Left out of `taxpro --help` (and so of generated docs): a command for tests or tools, not for people.
  var isHidden = false

  /// `taxpro eval`, or `taxpro` alone.
  var invocation: String { "taxpro" + (name.map { " " + $0 } ?? "") }

  /// `taxpro eval [--csv FILE] [--year YYYY] EXPR [FILE…]`.
  var synopsis: String {
    ([invocation] + options.map(\.synopsis) + arguments.map(\.synopsis)).joined(separator: " ")
  }
}

/// The text of `--help`, from `CommandTable`.
enum HelpText {
  /// Fitted to the terminal like every text output: `COLUMNS`, the terminal's width, or 80.
  static var width: Int { Output.width }

  /// `taxpro --help`: every command's synopsis and summary, the common options, exit statuses, environment, files.
  static func overview() -> String {
    var lines = [CommandTable.summary, ""]
    lines.append("Usage:")
    let helps = CommandTable.helps.filter { !$0.isHidden }
    for help in helps { lines += wrapped(help.synopsis, indent: "  ", hanging: 4) }
    lines += ["", "Commands:"]
    lines += columns(helps.map { ($0.name ?? "(none)", $0.summary) })
    lines += ["", "Options of every command:"]
    lines += optionRows(CommandTable.commonOptions)
    lines += ["", "Run 'taxpro COMMAND --help' for a command's arguments and options.", ""]
    lines += statusLines(CommandTable.exitStatuses)
    lines += ["", "Environment:"] + entryRows(CommandTable.environment)
    lines += ["", "Files:"] + entryRows(CommandTable.files)
    return lines.joined(separator: "\n") + "\n"
  }

  /// `taxpro CMD --help`.
  static func command(_ help: CommandHelp) -> String {
    var lines = TextLayout.wrap(help.invocation + " — " + help.summary, width: width, rest: "  ") + [""]
    lines += wrapped(help.synopsis, indent: "Usage: ", hanging: 7 + help.invocation.count + 1)
    if !help.discussion.isEmpty {
      lines.append("")
      lines += TextLayout.wrap(help.discussion, width: width)
    }
    if !help.arguments.isEmpty {
      lines += ["", "Arguments:"]
      lines += columns(help.arguments.map { ($0.synopsis, $0.summary) })
    }
    if !help.options.isEmpty {
      lines += ["", "Options:"] + optionRows(help.options)
    }
    let common = CommandTable.commonOptions.map { $0.name + ($0.short.map { " (\($0))" } ?? "") }
    lines += ["", "Options of every command: " + common.joined(separator: ", ") + "."]
    if !help.examples.isEmpty {
      lines += ["", "Examples:"]
      for example in help.examples {
        lines += TextLayout.wrap(example.name, width: width, first: "  ", rest: "      ")
        lines += TextLayout.wrap(example.meaning, width: width, first: "      ")
      }
    }
    lines.append("")
    lines += statusLines(help.exitStatuses)
    return lines.joined(separator: "\n") + "\n"
  }

  static func optionRows(_ options: [OptionSpec]) -> [String] {
    columns(options.map { ($0.label, $0.summary) })
  }

  static func entryRows(_ entries: [HelpEntry]) -> [String] {
    columns(entries.map { ($0.name, $0.meaning) })
  }

  static func statusLines(_ statuses: [ExitStatus]) -> [String] {
    ["Exit status:"] + columns(statuses.map { (String($0.code), $0.meaning) })
  }

  /// Two columns, the second wrapped to `width` and aligned under itself.
  static func columns(_ rows: [(String, String)]) -> [String] {
    let column = min(rows.map(\.0.count).max() ?? 0, 32)
    var lines: [String] = []
    for (label, text) in rows {
      let rest = String(repeating: " ", count: 2 + column + 2)
      if label.count > column {
        lines.append("  " + label)
        lines += TextLayout.wrap(text, width: width, first: rest, rest: rest)
      } else {
        let first = "  " + label + String(repeating: " ", count: column - label.count + 2)
        lines += TextLayout.wrap(text, width: width, first: first, rest: rest)
      }
    }
    return lines
  }

  /// A synopsis wrapped at word boundaries, continued lines indented by `hanging`.
  static func wrapped(_ text: String, indent: String, hanging: Int) -> [String] {
    TextLayout.wrap(text, width: width, first: indent, rest: String(repeating: " ", count: hanging))
  }
}
