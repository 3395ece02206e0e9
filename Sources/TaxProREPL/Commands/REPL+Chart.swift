import Foundation
import LineEditing
import TaxProCore

extension REPL {
  /// `:chart EXPR [--svg FILE [--bars]]`: the parts of a result as bars, or an SVG file.
  func chartCommand(_ argument: String) {
    var expression = argument.trimmed
    var bars = false
    if expression.hasSuffix(" --bars") {
      bars = true
      expression = String(expression.dropLast(" --bars".count)).trimmed
    }
    var svgPath: String?
    if let flag = expression.range(of: " --svg ", options: .backwards) {
      let path = expression[flag.upperBound...].trimmed
      guard !path.isEmpty else {
        complain("usage: :chart EXPR [--svg FILE [--bars]]")
        return
      }
      svgPath = REPL.unquoted(path)
      expression = String(expression[..<flag.lowerBound]).trimmed
    }
    if bars && svgPath == nil {
      complain("--bars is for the SVG file: :chart EXPR --svg FILE --bars")
      return
    }
    let result = interruptible { session.breakdown(expression) }
    switch result {
    case .failure(let list):
      report(list.diagnostics)
    case .success(let breakdown):
      if let path = svgPath {
        let chart = BreakdownSVG(shape: bars ? .bars : .donut)
        do {
          try AtomicFile.write(Data(chart.render(breakdown).utf8), to: REPL.expandingTilde(path), permissions: 0o644)
          say("wrote \(path) (\(breakdown.parts.count) parts)")
        } catch {
          complain("\(error)")
        }
      } else if showsImages {
        // Where images are shown (the JSON mode), the donut; its text is the bars a reader without images gets.
        showImage(
          svg: BreakdownSVG(shape: .donut).render(breakdown),
          description: BreakdownBars(width: configuration.width(), color: false).render(breakdown))
      } else {
        say(BreakdownBars(width: configuration.width(), color: configuration.color).render(breakdown))
      }
    }
  }
}
