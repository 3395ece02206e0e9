import Foundation
import LineEditing
import TaxProCore

/// `:plot EXPR over NAME from A to B [--svg FILE]`, taken apart.
struct PlotCommand: Equatable {
  var expression: String
  var variable: String
  var from: String
  var to: String
  var svgPath: String?

  /// ` over ` separates the expression from the range; ` from ` and ` to ` follow it.
  static func parse(_ text: String) -> PlotCommand? {
    var rest = text.trimmed
    var svgPath: String?
    if let flag = rest.range(of: " --svg ") ?? (rest.hasPrefix("--svg ") ? rest.range(of: "--svg ") : nil) {
      let after = rest[flag.upperBound...].trimmed
      guard !after.isEmpty else { return nil }
      svgPath = REPL.unquoted(after)
      rest = String(rest[..<flag.lowerBound]).trimmed
    }
    // The expression may use the word `over` itself: try each ` over `, last first, until the rest fits.
    var searchEnd = rest.endIndex
    while let over = rest.range(of: " over ", options: .backwards, range: rest.startIndex..<searchEnd) {
      // Matches may overlap (`a over over from …`): search again up to this match's last character.
      searchEnd = rest.index(before: over.upperBound)
      let expression = rest[..<over.lowerBound].trimmed
      let range = rest[over.upperBound...]
      guard let from = range.range(of: " from ") else { continue }
      let variable = range[..<from.lowerBound].trimmed
      let bounds = range[from.upperBound...]
      guard let to = bounds.range(of: " to ", options: .backwards) else { continue }
      let lower = bounds[..<to.lowerBound].trimmed
      let upper = bounds[to.upperBound...].trimmed
      guard !expression.isEmpty, REPL.isName(variable), !lower.isEmpty, !upper.isEmpty else { continue }
      return PlotCommand(expression: expression, variable: variable, from: lower, to: upper, svgPath: svgPath)
    }
    return nil
  }
}

extension REPL {
  /// Points in an SVG chart: enough for a smooth line at any size a page shows.
  static let svgSamples = 201

  func plotCommand(_ argument: String) {
    guard let command = PlotCommand.parse(argument) else {
      complain("usage: :plot EXPR over NAME from A to B [--svg FILE]")
      note("for example :plot tax(ON.income_tax, income) over income from $0 to $250,000")
      return
    }
    let chartWidth = min(max(configuration.width(), TerminalChart.minimumWidth), 160)
    // Where images are shown, the chart is an SVG image: drawn from as many points as a file gets.
    let drawsSVG = command.svgPath != nil || showsImages
    let samples = drawsSVG ? REPL.svgSamples : chartWidth * 2
    let request = PlotRequest(
      expression: command.expression, variable: command.variable, from: command.from, to: command.to,
      samples: samples)
    let cancelled: () -> Bool = configuration.handlesInterrupts ? { Interrupts.isPending } : { false }
    let result = interruptible { Plotter.sample(request, in: session, isCancelled: cancelled) }
    switch result {
    case .failure(let list):
      report(list.diagnostics)
    case .success(let plot):
      if let path = command.svgPath {
        do {
          try AtomicFile.write(Data(SVGChart().render(plot.data).utf8), to: REPL.expandingTilde(path), permissions: 0o644)
          say("wrote \(path) (\(plot.data.points.count) points)")
        } catch {
          complain("\(error)")
        }
      } else if showsImages {
        showImage(
          svg: SVGChart().render(plot.data),
          description: "a chart of \(command.expression) as \(command.variable) goes from \(command.from) to "
            + "\(command.to) (\(plot.data.points.count) points)")
      } else {
        let chart = TerminalChart(width: chartWidth, height: 20, color: configuration.color)
        say(chart.renderText(plot.data))
      }
      if plot.failedPoints > 0 {
        note("\(plot.failedPoints) point\(plot.failedPoints == 1 ? "" : "s") could not be computed")
        if let failure = plot.firstFailure { report([failure]) }
      }
    }
  }
}
