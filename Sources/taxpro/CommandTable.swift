import Foundation
import TaxProCore

/// A `taxpro` command, in swift-argument-parser's shape: its help (name, options, arguments), how it decodes the
/// command line into its own fields, what it checks about them, and what it does.
///
/// Before `init` runs, `CommandTable` has checked what its help says: that every option given is one the command
/// takes, that required options are there, and that the number of arguments fits. A problem found by `init` or
/// `validate` is a usage error (exit 2); `run` returns the exit status.
protocol Command {
  static var help: CommandHelp { get }
  /// Takes the command's fields from the arguments (converting values: a year, a number), or says what is wrong.
  init(_ arguments: ParsedArguments) throws(UsageError)
  /// Checks what depends on more than one field.
  func validate() throws(UsageError)
  func run() throws(UsageError) -> Int32
}

extension Command {
  func validate() throws(UsageError) {}
}

/// Every command, and what the program as a whole says about itself: the one list `main` dispatches on and
/// `--help` prints (and, later, the man page and shell completions are generated from).
///
/// To add a command: write its type (a file in `Commands/`), then add it to `commands` here.
enum CommandTable {
  /// In the order `taxpro --help` lists them; `taxpro` alone first.
  static var commands: [any Command.Type] {
    [
      DefaultCommand.self, InteractiveCommand.self, EvalCommand.self, ExplainCommand.self, CheckCommand.self,
      TestCommand.self, FormatCommand.self, PlotCommand.self, ChartCommand.self, LanguageServerCommand.self,
      VocabularyCommand.self, CompleteCommand.self, ManualCommand.self,
    ]
  }

  static var helps: [CommandHelp] { commands.map { $0.help } }

  static let summary = "TaxPro — a typed language for tax formulas and an exact money calculator."

  /// What the program is, for the manual page's DESCRIPTION.
  static let description = """
    TaxPro evaluates expressions and formula files written in a small, statically typed language for tax \
    formulas. Money is exact decimal and always a whole number of cents; an amount plus or minus a percentage is \
    that percentage of the amount; every result can be explained step by step. The standard library is compiled \
    into the program: Canada's federal, provincial and territorial figures for each tax year it carries (taxpro \
    --version lists them) and the formulas of personal income tax.
    A formula file (.tax) declares formulas, constants, tests and jurisdictions' parameters by year; \
    taxpro-language(7) summarises the language. taxpro COMMAND --help prints a command's arguments, options and \
    examples, as below.
    """

  /// Options every command takes.
  static let commonOptions: [OptionSpec] = [.color, .noColor, .help, .version]

  static let exitStatuses = [
    ExitStatus(code: 0, meaning: "success"),
    ExitStatus(code: 1, meaning: "a diagnostic, a failed test or a run-time error"),
    ExitStatus(
      code: 2,
      meaning: "a usage error: an unknown command or option, a missing argument, a file that cannot be read, a year without figures"),
  ]

  static let environment = [
    HelpEntry(name: "NO_COLOR", meaning: "when set and not empty, no colour (as --no-color)"),
    HelpEntry(
      name: "TAXPRO_LIBRARY",
      meaning: "a directory of .tax files to use as the standard library instead of the one compiled in"),
    HelpEntry(name: "XDG_DATA_HOME", meaning: "where the REPL keeps your profile and records (default ~/.local/share)"),
    HelpEntry(name: "XDG_STATE_HOME", meaning: "where the REPL keeps its history (default ~/.local/state)"),
    HelpEntry(
      name: "XDG_CACHE_HOME",
      meaning: "where the language server writes the read-only copy of the library that editors open (default ~/.cache)"),
  ]

  static let files = [
    HelpEntry(name: "$XDG_STATE_HOME/taxpro/history", meaning: "the REPL's history"),
    HelpEntry(name: "$XDG_DATA_HOME/taxpro/profile.json", meaning: "your values, set with :profile and offered by :ask"),
    HelpEntry(name: "$XDG_DATA_HOME/taxpro/records.json", meaning: "calculations kept with :save"),
    HelpEntry(name: "$XDG_CACHE_HOME/taxpro/library-FINGERPRINT/", meaning: "the library's read-only copy for editors"),
    HelpEntry(name: "~/.editrc", meaning: "libedit's settings for the REPL's line editing (emacs or vi keys)"),
  ]

  /// Every option some command takes: all that the parser recognizes.
  static var allOptions: [OptionSpec] {
    var options = commonOptions
    for help in helps { options += help.options.filter { !options.contains($0) } }
    return options
  }

  static func command(named name: String?) -> (any Command.Type)? {
    commands.first { $0.help.name == name }
  }

  // MARK: Running

  /// Parses the arguments, runs the command they name and returns the exit status.
  static func run(_ arguments: [String]) -> Int32 {
    let names = Set(helps.compactMap(\.name))
    let parsed: ParsedArguments
    do {
      parsed = try ParsedArguments.parse(arguments, known: allOptions, commandNames: names)
    } catch {
      // A mistake after a command's name (`taxpro eval --format json 1`) points to that command's help.
      let invocation = arguments.first.flatMap { CommandTable.command(named: $0)?.help.invocation } ?? "taxpro"
      Output.writeError("taxpro: \(error.message)\nRun '\(invocation) --help' for usage.\n")
      return 2
    }
    let colour = parsed.options.last { $0.option == .color || $0.option == .noColor }
    Output.configure(colour.map { $0.option == .color })
    if parsed.has(.version) {
      Output.write(VersionText.text())
      return 0
    }
    guard let type = command(named: parsed.command) else { return 2 }
    let help = type.help
    if parsed.has(.help) {
      Output.write(help.name == nil ? HelpText.overview() : HelpText.command(help))
      return 0
    }
    let command: any Command
    do {
      command = try decode(type, parsed)
    } catch {
      Output.writeError("taxpro: \(error.message)\nRun '\(help.invocation) --help' for usage.\n")
      return 2
    }
    do {
      return try command.run()
    } catch {
      Output.writeError("taxpro: \(error.message)\n")
      return 2
    }
  }

  /// Checks the arguments against the command's help, then makes and validates the command.
  static func decode(_ type: any Command.Type, _ parsed: ParsedArguments) throws(UsageError) -> any Command {
    let help = type.help
    let subject = help.name ?? "taxpro without a command"
    for (option, _) in parsed.options where !commonOptions.contains(option) && !help.options.contains(option) {
      throw UsageError(message: "\(subject) does not take \(option.name)")
    }
    for option in help.options where option.isRequired && !parsed.has(option) {
      throw UsageError(
        message: "\(subject) needs \(option.synopsis)" + (option.example.map { ", such as \(option.name) \($0)" } ?? ""))
    }
    let positionals = parsed.positionals
    for (index, argument) in help.arguments.enumerated() where !argument.isOptional && index >= positionals.count {
      throw UsageError(
        message: "\(subject) needs \(argument.needed)" + (argument.example.map { ": \(help.invocation) \($0)" } ?? ""))
    }
    if help.arguments.last?.repeats != true, positionals.count > help.arguments.count {
      let extra = positionals[help.arguments.count]
      throw UsageError(
        message: help.arguments.isEmpty
          ? "\(subject) takes no arguments, not '\(extra)'"
          : "\(subject) takes \(help.arguments.map(\.synopsis).joined(separator: " ")); '\(extra)' is one too many")
    }
    let command = try type.init(parsed)
    try command.validate()
    return command
  }
}

// MARK: Options and arguments more than one command takes

extension OptionSpec {
  static let help = OptionSpec(
    name: "--help", short: "-h", summary: "this help; after a command's name, that command's")
  static let version = OptionSpec(name: "--version", short: "-V", summary: "the version")
  static let color = OptionSpec(name: "--color", summary: "colour even when output is not a terminal")
  static let noColor = OptionSpec(
    name: "--no-color", summary: "no colour (also when NO_COLOR is set or output is not a terminal)")
  static let year = OptionSpec(
    name: "--year", valueName: "YYYY", valueKind: .year,
    summary: "the tax year whose figures are used (default: the latest with data)")
  static let svg = OptionSpec(
    name: "--svg", valueName: "FILE", valueKind: .newFile(extensions: ["svg"]),
    summary: "write the chart to FILE as SVG instead of drawing it in the terminal")
}

extension ArgumentSpec {
  /// `EXPR`, with an example of the command's arguments for the message when it is missing.
  static func expression(example: String) -> ArgumentSpec {
    ArgumentSpec(
      name: "EXPR", summary: "TaxPro code: an expression (quoted for the shell), or declarations", kind: .expression,
      needed: "an expression", example: example)
  }

  /// `[FILE…]`: formula files loaded beside the standard library.
  static let formulaFiles = ArgumentSpec(
    name: "FILE", summary: "formula files loaded beside the standard library", kind: .file(extensions: ["tax"]),
    needed: "a file", isOptional: true, repeats: true)
}

extension ParsedArguments {
  /// `--year`, checked to be a year.
  func year() throws(UsageError) -> Int? {
    guard let text = value(.year) else { return nil }
    guard let year = Int(text), (1900...2200).contains(year) else {
      throw UsageError(message: "--year needs a year such as 2025, not '\(text)'")
    }
    return year
  }
}
