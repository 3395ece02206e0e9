/// What Tab offers after a command's name.
enum CommandArgument: Sendable {
  case none
  /// Anything `:help` knows: formulas, parameters, functions, commands.
  case helpTopic
  case formula
  /// A lesson, a formula or a topic.
  case lesson
  /// A term of the glossary.
  case glossaryTerm
  /// An expression, completed like a line of input.
  case expression
  case file
  case year
  case profileName
  case recordName
}

/// Every `:command` of the REPL, in the order `:help` lists them.
///
/// **To add a command:** a case here, its entry in `entry` below (the `switch` makes the compiler ask for it), and
/// its handler, a method of `REPL` (in a `REPL+….swift` file of this folder) that the entry names. `:help`, `:help
/// :name`, Tab completion and "did you mean" all read the entry; nothing else lists commands.
enum REPLCommand: String, CaseIterable, Sendable {
  case help, type, explain, ask, lesson, glossary, topics, search, load, reload, year, digits, vars, reset, profile
  case save, records, plot, table, chart, quit

  /// The command's help, what Tab offers after it, and what runs it.
  var entry: CommandInfo {
    switch self {
    case .help:
      CommandInfo(
        command: self, aliases: ["h", "?"], usage: "[NAME]",
        summary: "documentation of a formula, parameter, function or command",
        details: """
          Without NAME, an overview. NAME can be a formula (provincial_tax), a jurisdiction's parameter \
          (ON.income_tax, federal.credit_rate), a jurisdiction (ON), a built-in function (max), a type (Money) \
          or a command (:ask).
          """, argument: .helpTopic, run: .text(REPL.helpCommand))
    case .type:
      CommandInfo(
        command: self, aliases: ["t"], usage: "EXPR", summary: "the type of an expression, without evaluating it",
        details: "For a formula's or function's name, its signature.", argument: .expression,
        run: .text(REPL.typeCommand))
    case .explain:
      CommandInfo(
        command: self, aliases: ["e"], usage: "[full] EXPR", summary: "evaluate step by step: what decides the result",
        details: """
          The explanation shows the steps that change the result: the brackets crossed, the thresholds reached, the \
          caps and floors that bind, each value in words, then what the formula leaves out. :explain full EXPR \
          shows every step: each formula called, each bracket computation, each parameter read, each branch taken. \
          :explain ans explains the last calculation.
          """,
        argument: .expression, run: .text(REPL.explainCommand))
    case .ask:
      CommandInfo(
        command: self, usage: "FORMULA", summary: "fill in a formula's inputs like a form, then compute it",
        details: """
          Each input is asked in order with its documentation. Press Enter to take the value offered in brackets: \
          a `let` of the input's name from this session, else your profile's value of that name, else the formula's \
          default. An answer is any expression \
          of the input's type; it is checked against the input's range and asked again when it does not fit. \
          Ctrl-C leaves the form.
          """, argument: .formula, run: .text(REPL.askCommand))
    case .lesson:
      CommandInfo(
        command: self, usage: "[TOPIC [more]]",
        summary: "a lesson on one screen: definition, inputs, worked example, tip",
        details: """
          Without TOPIC, the list of lessons. TOPIC is a lesson (brackets, clawback), a word for one (OAS, \
          marginal, tax), a formula (rrsp_refund) or a topic from :topics (Income tax). A word that names none of \
          them shows what :search finds for it. `more` after TOPIC shows what did not fit on the screen.
          """,
        argument: .lesson, run: .text(REPL.lessonCommand))
    case .glossary:
      CommandInfo(
        command: self, usage: "[WORD]", summary: "the words the lessons use, each with the lesson that teaches it",
        details: "Without WORD, every term; with it, what the term means and where to learn it.",
        argument: .glossaryTerm, run: .text(REPL.glossaryCommand))
    case .topics:
      CommandInfo(command: self, summary: "the topics of the formulas, as a tree", run: .plain(REPL.topicsCommand))
    case .search:
      CommandInfo(
        command: self, usage: "WORDS", summary: "formulas and parameters whose name, documentation or topic match",
        details: "Every word must match; names count more than topics, topics more than documentation.",
        run: .text(REPL.searchCommand))
    case .load:
      CommandInfo(
        command: self, usage: "FILE", summary: "load a formula file (again, if it is loaded already)",
        details: "A file with errors is not loaded; what was loaded before stays.", argument: .file,
        run: .text(REPL.loadCommand))
    case .reload:
      CommandInfo(command: self, summary: "read the loaded files again", run: .plain(REPL.reloadCommand))
    case .year:
      CommandInfo(
        command: self, usage: "[YYYY]", summary: "the tax year whose figures are used",
        details: "Without YYYY, the current year and the years with figures.", argument: .year,
        run: .text(REPL.yearCommand))
    case .digits:
      CommandInfo(
        command: self, usage: "[N]", summary: "how many digits a number that is not exact shows (1 to 34)",
        details: """
          An exact number always shows every digit (12345678901234, 0.1). One that was rounded on the way (1/3, \
          sqrt(2)) shows N significant digits and a mark: 0.333333333333… or ≈ 1.2193e39. Without N, the current \
          setting (12 at the start).
          """, run: .text(REPL.digitsCommand))
    case .vars:
      CommandInfo(
        command: self, summary: "the names this session defined with let, and their values",
        details: "ans, the last value, is listed too. :reset forgets them.", run: .plain(REPL.varsCommand))
    case .reset:
      CommandInfo(
        command: self, summary: "forget the session's let names, formulas and ans",
        details: "Loaded files, the year and your profile stay.", run: .plain(REPL.resetCommand))
    case .profile:
      CommandInfo(
        command: self, usage: "[NAME [VALUE]]", summary: "your values, remembered between runs and offered by :ask",
        details: """
          :profile shows them; :profile NAME VALUE sets one (VALUE is any expression: $85,000, ON, 67); \
          :profile NAME shows one; :profile clear NAME removes one. :ask offers a profile value for every input \
          of the same name.
          """, argument: .profileName, run: .text(REPL.profileCommand))
    case .save:
      CommandInfo(
        command: self, usage: "[NAME]", summary: "keep the last calculation with its inputs, result and explanation",
        details: "Records are kept between runs; see them with :records.", run: .text(REPL.saveCommand))
    case .records:
      CommandInfo(
        command: self, usage: "[NAME]", summary: "the saved calculations, or one of them in full", argument: .recordName,
        run: .text(REPL.recordsCommand))
    case .plot:
      CommandInfo(
        command: self, usage: "EXPR over NAME from A to B [--svg FILE]", summary: "a chart of EXPR as NAME goes from A to B",
        details: """
          Example: :plot tax(ON.income_tax, income) over income from $0 to $250,000. With --svg FILE the chart \
          is written to FILE as SVG instead of drawn in the terminal.
          """, argument: .expression, run: .text(REPL.plotCommand))
    case .table:
      CommandInfo(
        command: self, usage: "EXPR over NAME from A to B step S", summary: "a table of EXPR as NAME goes from A to B",
        details: "Example: :table tax(ON.income_tax, income) over income from $0 to $100,000 step $20,000. At most 1,000 rows.",
        argument: .expression, run: .text(REPL.tableCommand))
    case .chart:
      CommandInfo(
        command: self, usage: "EXPR [--svg FILE [--bars]]", summary: "where the money of a result goes: its parts as bars",
        details: """
          EXPR is a formula call, whose Money let steps are the parts (take_home_pay($85,000, ON): CPP, EI, income \
          tax and what is left) or those its documentation's parts: line names (return_summary(employment_income: \
          $85,000): where the income goes), or named amounts: rent: $2,000, food: $600 in $0..$800 (a range is a \
          budget line). With --svg FILE the chart is written to FILE as a donut, or as one stacked bar with --bars.
          """, argument: .expression, run: .text(REPL.chartCommand))
    case .quit:
      CommandInfo(command: self, aliases: ["q", "exit"], summary: "leave (Ctrl-D too)", run: .plain(REPL.quitCommand))
    }
  }

  /// The command a name or alias stands for.
  init?(named name: String) {
    guard let command = REPLCommand.allCases.first(where: { $0.rawValue == name || $0.entry.aliases.contains(name) })
    else { return nil }
    self = command
  }
}

/// One `:command`'s entry in the table.
struct CommandInfo {
  /// How a command runs: a method of the REPL.
  enum Handler {
    /// Given the text after the command's name, trimmed (maybe empty).
    case text((REPL) -> (String) -> Void)
    /// Taking nothing: text after the name is refused.
    case plain((REPL) -> () -> Void)
  }

  var command: REPLCommand
  var aliases: [String] = []
  /// How the arguments are written in help: `EXPR`, `[NAME]`; empty for a command that takes none. Unless it is
  /// all in brackets, an argument is needed: the dispatcher answers a command typed without one with this usage.
  var usage = ""
  var summary: String
  /// More for `:help :name`; the summary is shown first.
  var details = ""
  var argument = CommandArgument.none
  var run: Handler

  var name: String { command.rawValue }

  /// Whether the command needs something after its name: its usage names something outside brackets (`[full] EXPR`
  /// needs the expression; `[NAME [VALUE]]` needs nothing).
  var needsArgument: Bool {
    var depth = 0
    for character in usage {
      switch character {
      case "[": depth += 1
      case "]": depth -= 1
      case " ": continue
      default: if depth == 0 { return true }
      }
    }
    return false
  }
}

/// The table's lookups, for help, completion and suggestions.
enum CommandTable {
  static var all: [CommandInfo] { REPLCommand.allCases.map(\.entry) }

  static func command(named name: String) -> CommandInfo? { REPLCommand(named: name)?.entry }

  static var names: [String] { REPLCommand.allCases.map(\.rawValue) }
}
