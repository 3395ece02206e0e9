import TaxProCore
import TaxProREPL

/// `taxpro explain [--full | --json] EXPR [FILE…]`.
struct ExplainCommand: Command {
  static let help = CommandHelp(
    name: "explain", summary: "an expression evaluated step by step, with the parameters it read",
    discussion: """
      Shows the steps that decide EXPR's value: the brackets crossed, the thresholds reached, the caps and floors \
      that bind, each named value in words, then the result with what the formula leaves out. --full shows every \
      step instead: each formula called, each bracket computation, each parameter read and each branch taken. \
      --json prints every step as JSON (docs/EXPLAIN_JSON.md), for other programs. Text is fitted to the \
      terminal's width (COLUMNS when set, 80 when the output is not a terminal).
      """,
    arguments: [.expression(example: "'tax(ON.income_tax, $85,000)'"), .formulaFiles],
    options: [.full, .json, .year],
    examples: [
      HelpEntry(name: "taxpro explain 'tax(ON.income_tax, $85,000)'", meaning: "each bracket's share"),
      HelpEntry(name: "taxpro explain 'rrsp_refund($5,000, $60,000)'", meaning: "which thresholds the deduction crosses"),
      HelpEntry(name: "taxpro explain --full 'combined_tax($85,000)'", meaning: "every step, parameter and branch"),
    ])

  /// How many levels of named values a summary shows below the outermost formula.
  static let summaryDepth = 2

  var expression: String
  var inputs: ProgramInputs
  var json: Bool
  var full: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    expression = arguments.positionals[0]
    inputs = try ProgramInputs(arguments, after: 1)
    json = arguments.has(.json)
    full = arguments.has(.full)
  }

  func validate() throws(UsageError) {
    if json && full { throw UsageError(message: "--full and --json cannot be used together: the JSON has every step already") }
  }

  func run() throws(UsageError) -> Int32 {
    guard let session = try inputs.session() else { return 1 }
    switch session.explain(expression, name: "<expr>") {
    case .success(let (value, steps)):
      var renderer = ExplanationRenderer(
        program: session.program, sources: session.sources, style: Output.style(color: Output.colorOut))
      renderer.year = session.year
      renderer.width = Output.width
      renderer.detail = full ? .full : .summary(depth: Self.summaryDepth)
      renderer.fullTraceHint = "taxpro explain --full " + Output.shellQuoted(expression)
      if json {
        Output.write(
          ExplanationJSON.render(expression: expression, value: value, steps: steps, year: session.year, renderer: renderer)
            + "\n")
      } else {
        if session.breakdown(explained: expression, value: value, steps: steps) != nil {
          renderer.chartHint = "taxpro chart " + Output.shellQuoted(expression)
        }
        Output.write(renderer.render(expression: expression, value: value, steps: steps))
      }
      return 0
    case .failure(let list):
      Commands.reportFailure(list.diagnostics, of: expression, in: session)
      return 1
    }
  }
}

extension OptionSpec {
  static let json = OptionSpec(name: "--json", summary: "the steps as JSON (docs/EXPLAIN_JSON.md)")
  static let full = OptionSpec(name: "--full", summary: "every step, not only those that change the result")
}
