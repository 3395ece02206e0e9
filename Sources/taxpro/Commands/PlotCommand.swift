import Foundation
import TaxProCore
import TaxProREPL

/// `taxpro plot EXPR --over NAME=FROM..TO [--svg FILE]`: the chart `:plot` draws, from the command line.
struct PlotCommand: Command {
  static let help = CommandHelp(
    name: "plot", summary: "a chart of an expression as one name in it goes over a range",
    discussion: """
      Evaluates EXPR as NAME goes from FROM to TO and draws the curve in the terminal (braille dots; --width and \
      --height in characters), or with --svg writes it to FILE as SVG (--width and --height in pixels).
      """,
    arguments: [.expression(example: "'tax(ON.income_tax, income)' --over 'income=$0..$250,000'"), .formulaFiles],
    options: [.over, .svg, .width, .height, .year],
    examples: [
      HelpEntry(
        name: "taxpro plot 'tax(ON.income_tax, income)' --over 'income=$0..$250,000'",
        meaning: "Ontario's tax on incomes up to $250,000, in the terminal")
    ])

  /// Points in an SVG chart (the range in 200 equal steps).
  static let svgSamples = 201

  var expression: String
  var inputs: ProgramInputs
  var range: (variable: String, from: String, to: String)
  var svg: String?
  var width: Int?
  var height: Int?

  init(_ arguments: ParsedArguments) throws(UsageError) {
    expression = arguments.positionals[0]
    inputs = try ProgramInputs(arguments, after: 1)
    let over = arguments.value(.over) ?? ""
    guard let range = PlotRequest.parseOver(over) else {
      throw UsageError(message: "--over needs NAME=FROM..TO, such as --over 'income=$0..$250,000', not '\(over)'")
    }
    self.range = range
    svg = arguments.value(.svg)
    width = try arguments.integer(.width, in: 20...1000)
    height = try arguments.integer(.height, in: 5...500)
  }

  func run() throws(UsageError) -> Int32 {
    guard let session = try inputs.session() else { return 1 }
    let chartWidth = width ?? min(TerminalREPL.width, 160)
    let request = PlotRequest(
      expression: expression, variable: range.variable, from: range.from, to: range.to,
      samples: svg == nil ? chartWidth * 2 : PlotCommand.svgSamples)
    let plot: PlotResult
    switch Plotter.sample(request, in: session) {
    case .failure(let list):
      Commands.reportFailure(list.diagnostics, of: expression, in: session)
      if PlotCommand.looksExpandedByAShell(range) {
        Output.writeError(
          "taxpro: note: unless it is in single quotes, a shell replaces '$0' in --over income=$0..$250,000 with its "
            + "own name and '$2' with nothing; write --over 'income=$0..$250,000'\n")
      }
      return 1
    case .success(let result):
      plot = result
    }
    if let path = svg {
      let chart = SVGChart(width: Double(width ?? 720), height: Double(height ?? 440))
      do {
        try AtomicFile.write(Data(chart.render(plot.data).utf8), to: path, permissions: 0o644)
      } catch {
        Output.writeError("taxpro: \(error)\n")
        return 1
      }
    } else {
      let chart = TerminalChart(width: chartWidth, height: height ?? 20, color: Output.colorOut)
      Output.write(chart.renderText(plot.data) + "\n")
    }
    if plot.failedPoints > 0 {
      Output.writeError("taxpro: \(plot.failedPoints) of \(plot.data.points.count) points could not be computed\n")
      if let failure = plot.firstFailure { Output.writeError(Output.renderer(session.sources).render([failure])) }
    }
    return 0
  }
}

extension PlotCommand {
  /// Whether an end of the range is what a shell leaves of an amount it expanded: its own name for `$0` (`bash`,
  /// `-zsh`), or digits grouped by commas that lost their `$` with the digit after it (`$250,000` as `50,000`).
  static func looksExpandedByAShell(_ range: (variable: String, from: String, to: String)) -> Bool {
    let shells: Set<String> = ["sh", "bash", "zsh", "dash", "ksh", "fish"]
    return [range.from, range.to].contains { end in
      let word = end.trimmingCharacters(in: .whitespaces)
      let name = word.hasPrefix("-") ? String(word.dropFirst()) : word
      return shells.contains(name) || name.hasSuffix("/bash") || name.hasSuffix("/sh")
        || Commands.hasBareGroupedDigits(word)
    }
  }
}

extension OptionSpec {
  static let over = OptionSpec(
    name: "--over", valueName: "NAME=FROM..TO", valueKind: .range,
    summary: "the name in EXPR that varies, and its range", isRequired: true, example: "'income=$0..$250,000'")
  static let width = OptionSpec(
    name: "--width", valueName: "N", valueKind: .number,
    summary: "the chart's width: characters in the terminal (20 to 1000), pixels in SVG (default 720)")
  static let height = OptionSpec(
    name: "--height", valueName: "N", valueKind: .number,
    summary: "the chart's height: characters in the terminal (5 to 500, default 20), pixels in SVG (default 440)")
}
