import Foundation
import TaxProCore
import TaxProREPL

/// `taxpro chart EXPR [FILE…] [--year YYYY] [--svg FILE] [--bars]`: where the money of a result goes.
struct ChartCommand: Command {
  static let help = CommandHelp(
    name: "chart", summary: "the parts of a result as shares of a whole: bars in the terminal, or an SVG donut",
    discussion: """
      EXPR is a formula call, whose Money let steps are the parts (with the result as what is left when they and \
      the result add up to one of its inputs, as take-home pay does of a salary) or those a 'parts:' line of its \
      documentation names (the return summary's: where the income goes); or named amounts: \
      'rent: $2,000, food: $600 in $0..$800' (a range after an amount is its budget line). In the terminal each \
      part is a bar with its label, amount and share, as wide as the terminal (COLUMNS, else 80); with --svg FILE \
      the chart is written to FILE as a donut, or as one stacked bar with --bars (bars against the limits when \
      there are budget lines).
      """,
    arguments: [.expression(example: "'take_home_pay($85,000, ON)'"), .formulaFiles],
    options: [.svg, .bars, .year],
    examples: [
      HelpEntry(name: "taxpro chart 'take_home_pay($85,000, ON)'", meaning: "CPP, EI, income tax and what you keep"),
      HelpEntry(
        name: "taxpro chart 'return_summary(employment_income: $85,000)'",
        meaning: "where the income on a return goes: taxes, contributions, what you keep"),
      HelpEntry(
        name: "taxpro chart 'rent: $2,100 in $0..$2,000, food: $640 in $0..$800'",
        meaning: "spending against budget lines"),
      HelpEntry(
        name: "taxpro chart 'take_home_pay($85,000, ON)' --svg pay.svg", meaning: "the same as an SVG donut"),
    ])

  var expression: String
  var inputs: ProgramInputs
  var svg: String?
  var bars: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    expression = arguments.positionals[0]
    inputs = try ProgramInputs(arguments, after: 1)
    svg = arguments.value(.svg)
    bars = arguments.has(.bars)
  }

  func validate() throws(UsageError) {
    if bars && svg == nil {
      throw UsageError(message: "--bars is for the SVG file: taxpro chart EXPR --svg FILE --bars")
    }
  }

  func run() throws(UsageError) -> Int32 {
    guard let session = try inputs.session() else { return 1 }
    switch session.breakdown(expression, name: "<expr>") {
    case .failure(let list):
      Commands.reportFailure(list.diagnostics, of: expression, in: session)
      return 1
    case .success(let breakdown):
      if let path = svg {
        let chart = BreakdownSVG(shape: bars ? .bars : .donut)
        do {
          try AtomicFile.write(Data(chart.render(breakdown).utf8), to: path, permissions: 0o644)
        } catch {
          Output.writeError("taxpro: \(error)\n")
          return 1
        }
      } else {
        Output.write(BreakdownBars(width: TerminalREPL.width, color: Output.colorOut).render(breakdown) + "\n")
      }
      return 0
    }
  }
}

extension OptionSpec {
  static let bars = OptionSpec(name: "--bars", summary: "with --svg, one stacked bar instead of a donut")
}
