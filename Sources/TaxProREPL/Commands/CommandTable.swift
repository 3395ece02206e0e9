/// What Tab offers after a command's name.
enum CommandArgument: Sendable {
  case none
  /// Anything `:help` knows: formulas, parameters, functions, commands.
  case helpTopic
  case formula
  /// A formula or a topic.
  case lesson
  /// An expression, completed like a line of input.
  case expression
  case file
  case year
  case profileName
  case recordName
}

/// One `:command`.
struct CommandInfo: Sendable {
  var name: String
  var aliases: [String] = []
  /// How the arguments are written in help: `EXPR`, `[NAME]`.
  var usage: String
  var summary: String
  /// More for `:help :name`; the summary is shown first.
  var details: String
  var argument: CommandArgument
}

/// The REPL's commands, in the order `:help` lists them.
enum CommandTable {
  static let all: [CommandInfo] = [
    CommandInfo(
      name: "help", aliases: ["h", "?"], usage: "[NAME]",
      summary: "documentation of a formula, parameter, function or command",
      details: """
        Without NAME, an overview. NAME can be a formula (provincial_tax), a jurisdiction's parameter \
        (ON.income_tax, federal.credit_rate), a jurisdiction (ON), a built-in function (max), a type (Money) \
        or a command (:ask).
        """, argument: .helpTopic),
    CommandInfo(
      name: "type", aliases: ["t"], usage: "EXPR", summary: "the type of an expression, without evaluating it",
      details: "For a formula's or function's name, its signature.", argument: .expression),
    CommandInfo(
      name: "explain", aliases: ["e"], usage: "EXPR", summary: "evaluate step by step, with the parameters used",
      details: "The explanation shows each formula called, each bracket computation and each parameter read.",
      argument: .expression),
    CommandInfo(
      name: "ask", usage: "FORMULA", summary: "fill in a formula's inputs like a form, then compute it",
      details: """
        Each input is asked in order with its documentation. Press Enter to take the value offered in brackets: \
        a `let` of the input's name from this session, else your profile's value of that name, else the formula's \
        default. An answer is any expression \
        of the input's type; it is checked against the input's range and asked again when it does not fit. \
        Ctrl-C leaves the form.
        """, argument: .formula),
    CommandInfo(
      name: "lesson", usage: "TOPIC", summary: "a formula or topic explained: definition, inputs, worked example, tip",
      details: "TOPIC is a formula's name or a topic from :topics (Income tax, or Income / Income tax).",
      argument: .lesson),
    CommandInfo(
      name: "topics", usage: "", summary: "the topics of the formulas, as a tree", details: "", argument: .none),
    CommandInfo(
      name: "search", usage: "WORDS", summary: "formulas and parameters whose name, documentation or topic match",
      details: "Every word must match; names count more than topics, topics more than documentation.",
      argument: .none),
    CommandInfo(
      name: "load", usage: "FILE", summary: "load a formula file (again, if it is loaded already)",
      details: "A file with errors is not loaded; what was loaded before stays.", argument: .file),
    CommandInfo(
      name: "reload", usage: "", summary: "read the loaded files again", details: "", argument: .none),
    CommandInfo(
      name: "year", usage: "[YYYY]", summary: "the tax year whose figures are used",
      details: "Without YYYY, the current year and the years with figures.", argument: .year),
    CommandInfo(
      name: "profile", usage: "[NAME [VALUE]]", summary: "your values, remembered between runs and offered by :ask",
      details: """
        :profile shows them; :profile NAME VALUE sets one (VALUE is any expression: $85,000, ON, 67); \
        :profile NAME shows one; :profile clear NAME removes one. :ask offers a profile value for every input \
        of the same name.
        """, argument: .profileName),
    CommandInfo(
      name: "save", usage: "[NAME]", summary: "keep the last calculation with its inputs, result and explanation",
      details: "Records are kept between runs; see them with :records.", argument: .none),
    CommandInfo(
      name: "records", usage: "[NAME]", summary: "the saved calculations, or one of them in full",
      details: "", argument: .recordName),
    CommandInfo(
      name: "plot", usage: "EXPR over NAME from A to B [--svg FILE]",
      summary: "a chart of EXPR as NAME goes from A to B",
      details: """
        Example: :plot tax(ON.income_tax, income) over income from $0 to $250,000. With --svg FILE the chart \
        is written to FILE as SVG instead of drawn in the terminal.
        """, argument: .expression),
    CommandInfo(name: "quit", aliases: ["q", "exit"], usage: "", summary: "leave (Ctrl-D too)", details: "", argument: .none),
  ]

  static func command(named name: String) -> CommandInfo? {
    all.first { $0.name == name || $0.aliases.contains(name) }
  }

  static var names: [String] { all.map(\.name) }
}
