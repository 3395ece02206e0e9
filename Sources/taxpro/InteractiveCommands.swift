import Foundation
import TaxProCore
import TaxProLibrary
import TaxProREPL

/// `taxpro repl` (and `taxpro` at a terminal) and `taxpro plot`: argument handling only; the work is TaxProREPL's.
enum InteractiveCommands {
  static func repl(_ options: Options) throws(Options.UsageError) -> Int32 {
    let sources = try Loading.standardLibrary()
    let session = sources.session(year: options.year)
    try checkYear(options.year, session)
    let banner = "TaxPro \(version) — tax year \(session.year). :help for help, Ctrl-D to leave.\n"
    return TerminalREPL.run(
      session: session, sources: sources, files: options.arguments, color: Output.colorOut, banner: banner)
  }

  static func plot(_ options: Options) throws(Options.UsageError) -> Int32 {
    guard let expression = options.arguments.first else {
      throw Options.UsageError(message: "plot needs an expression: taxpro plot 'tax(ON.income_tax, income)' --over income=$0..$250,000")
    }
    guard let over = options.over, let range = PlotRequest.parseOver(over) else {
      throw Options.UsageError(message: "plot needs --over NAME=FROM..TO, such as --over income=$0..$250,000")
    }
    guard let session = try Commands.session(Array(options.arguments.dropFirst()), year: options.year) else { return 1 }
    let chartWidth = options.width ?? min(TerminalREPL.width, 160)
    let request = PlotRequest(
      expression: expression, variable: range.variable, from: range.from, to: range.to,
      samples: options.svg == nil ? chartWidth * 2 : svgSamples)
    let plot: PlotResult
    switch Plotter.sample(request, in: session) {
    case .failure(let list):
      Output.writeError(Output.renderer(session.sources).render(list.diagnostics))
      return 1
    case .success(let result):
      plot = result
    }
    if let path = options.svg {
      let chart = SVGChart(width: Double(options.width ?? 720), height: Double(options.height ?? 440))
      do {
        try AtomicFile.write(Data(chart.render(plot.data).utf8), to: path, permissions: 0o644)
      } catch {
        Output.writeError("taxpro: \(error)\n")
        return 1
      }
    } else {
      let chart = TerminalChart(width: chartWidth, height: options.height ?? 20, color: Output.colorOut)
      Output.write(chart.renderText(plot.data) + "\n")
    }
    if plot.failedPoints > 0 {
      Output.writeError("taxpro: \(plot.failedPoints) of \(plot.data.points.count) points could not be computed\n")
      if let failure = plot.firstFailure { Output.writeError(Output.renderer(session.sources).render([failure])) }
    }
    return 0
  }

  /// Points in an SVG chart (the range in 200 equal steps).
  static let svgSamples = 201

  static func checkYear(_ year: Int?, _ session: Session) throws(Options.UsageError) {
    guard let year, !session.program.years.isEmpty, !session.program.years.contains(year) else { return }
    let years = session.program.years.map(String.init).joined(separator: ", ")
    throw Options.UsageError(message: "there are no figures for \(year); the years with data are \(years)")
  }
}
