import Foundation
import TaxProCore

/// A breakdown as a standalone SVG 1.1 document, for `taxpro chart --svg` and `:chart … --svg FILE`: a donut (or one
/// stacked bar) with a legend of labels, amounts and shares; with budget lines, one bar per part against its limit.
///
/// Screen readers get a `<title>` naming the expression and year and a `<desc>` listing every part; each slice carries
/// its own `<title>` and `data-label`, `data-amount` and `data-share` attributes with the exact figures, so the
/// drawing can be checked as data. Amounts and shares are the core's exact decimals, written as text; `Double` is
/// used only for coordinates.
public struct BreakdownSVG: Sendable {
  public enum Shape: Sendable {
    case donut
    case bars
  }

  public var shape: Shape

  public init(shape: Shape = .donut) {
    self.shape = shape
  }

  public func render(_ breakdown: Breakdown) -> String {
    let parts = breakdown.parts
    let amounts = parts.map { ValueFormatter.money($0.amount) }
    let wholeText = ValueFormatter.money(breakdown.whole)
    let summary =
      breakdown.wholeLabel + ": " + wholeText + (breakdown.budget.map { ", of a budget of " + ValueFormatter.money($0) } ?? "")
    let description =
      "\(summary), in \(parts.count) part\(parts.count == 1 ? "" : "s"): "
      + zip(parts, amounts).map { part, amount in "\(part.label) \(amount) (\(part.shareText))" }
      .joined(separator: "; ") + "."
    let longestLabel = Double(parts.map(\.label.count).max() ?? 0)
    let longestAmount = Double((amounts + [wholeText]).map(\.count).max() ?? 0)

    let body: (width: Double, height: Double, svg: String)
    if breakdown.hasBudget {
      body = budgetBars(breakdown, amounts: amounts, labelWidth: longestLabel * 7.4 + 16)
    } else {
      switch shape {
      case .donut: body = donut(breakdown, amounts: amounts, labelWidth: longestLabel * 7.4, amountWidth: longestAmount * 7.6)
      case .bars: body = stackedBar(breakdown, amounts: amounts, labelWidth: longestLabel * 7.4, amountWidth: longestAmount * 7.6)
      }
    }
    let titleLines = Self.wrap(breakdown.title, at: 72)
    let extra = Double(titleLines.count - 1) * 22
    let width = max(body.width, Double(titleLines.map(\.count).max() ?? 0) * 10.5 + 48)
    let height = body.height + extra
    var svg = """
      <?xml version="1.0" encoding="UTF-8" standalone="no"?>
      <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(n(width))" height="\(n(height))" \
      viewBox="0 0 \(n(width)) \(n(height))" role="img" aria-labelledby="chart-title chart-desc" \
      font-family="Helvetica, Arial, sans-serif">
        <title id="chart-title">\(SVGChart.escape(breakdown.title))</title>
        <desc id="chart-desc">\(SVGChart.escape(description))</desc>
        <rect x="0" y="0" width="\(n(width))" height="\(n(height))" fill="#ffffff"/>

      """
    svg += "  <text class=\"title\" x=\"24\" y=\"34\" font-size=\"18\" font-weight=\"bold\" fill=\"#111111\">"
    for (index, line) in titleLines.enumerated() {
      svg += "<tspan x=\"24\" dy=\"\(index == 0 ? 0 : 22)\">\(SVGChart.escape(line))</tspan>"
    }
    svg += "</text>\n"
    svg += "  <g transform=\"translate(0 \(n(extra)))\">\n"
    svg += "  <text class=\"whole\" x=\"24\" y=\"58\" font-size=\"13\" fill=\"#333333\">\(SVGChart.escape(summary))</text>\n"
    svg += body.svg
    svg += "  </g>\n</svg>\n"
    return svg
  }

  /// A long title in lines of at most about `limit` characters, broken after the commas between arguments or amounts.
  static func wrap(_ title: String, at limit: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for piece in title.split(separator: ", ", omittingEmptySubsequences: false) {
      let candidate = line.isEmpty ? String(piece) : line + ", " + piece
      if candidate.count > limit && !line.isEmpty {
        lines.append(line + ",")
        line = String(piece)
      } else {
        line = candidate
      }
    }
    lines.append(line)
    return lines
  }

  /// A slice's or bar's attributes and tooltip: the figures as data.
  func partAttributes(_ part: BreakdownPart, amount: String, index: Int) -> String {
    "class=\"slice\" fill=\"\(BreakdownPalette.hex(index))\" data-label=\"\(SVGChart.escape(part.label))\" "
      + "data-amount=\"\(amount)\" data-share=\"\(part.shareText)\""
  }

  func tooltip(_ part: BreakdownPart, amount: String) -> String {
    "<title>\(SVGChart.escape("\(part.label): \(amount) (\(part.shareText))"))</title>"
  }

  /// The legend: a swatch, the label, the amount and the share per part, one row each from `top`.
  func legend(_ parts: [BreakdownPart], amounts: [String], x: Double, top: Double, labelWidth: Double, amountWidth: Double)
    -> String
  {
    var svg = "  <g class=\"legend\" font-size=\"13\" fill=\"#111111\">\n"
    let amountRight = x + 24 + labelWidth + 16 + amountWidth
    for (index, part) in parts.enumerated() {
      let y = top + Double(index) * 26
      svg += "    <g class=\"legend-entry\">\n"
      svg += "      <rect x=\"\(n(x))\" y=\"\(n(y - 11))\" width=\"14\" height=\"14\" fill=\"\(BreakdownPalette.hex(index))\"/>\n"
      svg += "      <text class=\"label\" x=\"\(n(x + 24))\" y=\"\(n(y))\">\(SVGChart.escape(part.label))</text>\n"
      svg += "      <text class=\"amount\" x=\"\(n(amountRight))\" y=\"\(n(y))\" text-anchor=\"end\">\(amounts[index])</text>\n"
      svg += "      <text class=\"share\" x=\"\(n(amountRight + 64))\" y=\"\(n(y))\" text-anchor=\"end\">\(part.shareText)</text>\n"
      svg += "    </g>\n"
    }
    svg += "  </g>\n"
    return svg
  }

  func donut(_ breakdown: Breakdown, amounts: [String], labelWidth: Double, amountWidth: Double) -> (
    width: Double, height: Double, svg: String
  ) {
    let parts = breakdown.parts
    let radius = 130.0
    let inner = 78.0
    let center = (x: 40 + radius, y: 84 + radius)
    let legendX = center.x + radius + 48
    let width = legendX + 24 + labelWidth + 16 + amountWidth + 64 + 24
    let height = max(center.y + radius + 32, 84 + Double(parts.count) * 26 + 24)
    var svg = "  <g class=\"slices\" stroke=\"#ffffff\" stroke-width=\"2\">\n"
    var start = 0.0
    for (index, part) in parts.enumerated() {
      let fraction = min(1, max(0, Double(part.share.description) ?? 0))
      let end = index == parts.count - 1 ? 1.0 : min(1, start + fraction)
      let attributes = partAttributes(part, amount: amounts[index], index: index)
      svg += "    <path \(attributes) d=\"\(ringPath(center: center, outer: radius, inner: inner, from: start, to: end))\">"
      svg += tooltip(part, amount: amounts[index]) + "</path>\n"
      start = end
    }
    svg += "  </g>\n"
    svg += "  <text class=\"total\" x=\"\(n(center.x))\" y=\"\(n(center.y + 6))\" font-size=\"17\" font-weight=\"bold\" "
    svg += "text-anchor=\"middle\" fill=\"#111111\">\(ValueFormatter.money(breakdown.whole))</text>\n"
    svg += legend(parts, amounts: amounts, x: legendX, top: 98, labelWidth: labelWidth, amountWidth: amountWidth)
    return (width, height, svg)
  }

  /// The path of a ring segment between two fractions of a turn, clockwise from the top. A whole turn is drawn as
  /// two halves, since an arc cannot end where it starts.
  func ringPath(center: (x: Double, y: Double), outer: Double, inner: Double, from: Double, to: Double) -> String {
    if to - from >= 0.999_999 {
      return ringPath(center: center, outer: outer, inner: inner, from: 0, to: 0.5) + " "
        + ringPath(center: center, outer: outer, inner: inner, from: 0.5, to: 1)
    }
    func point(_ fraction: Double, _ r: Double) -> String {
      let angle = fraction * 2 * Double.pi - Double.pi / 2
      return "\(n(center.x + r * cos(angle))) \(n(center.y + r * sin(angle)))"
    }
    let large = to - from > 0.5 ? 1 : 0
    return "M \(point(from, outer)) A \(n(outer)) \(n(outer)) 0 \(large) 1 \(point(to, outer)) "
      + "L \(point(to, inner)) A \(n(inner)) \(n(inner)) 0 \(large) 0 \(point(from, inner)) Z"
  }

  func stackedBar(_ breakdown: Breakdown, amounts: [String], labelWidth: Double, amountWidth: Double) -> (
    width: Double, height: Double, svg: String
  ) {
    let parts = breakdown.parts
    let width = max(640, 24 + 24 + labelWidth + 16 + amountWidth + 64 + 24)
    let left = 24.0
    let barWidth = width - 48
    let top = 80.0
    var svg = "  <g class=\"slices\" stroke=\"#ffffff\" stroke-width=\"1\">\n"
    var start = 0.0
    for (index, part) in parts.enumerated() {
      let fraction = min(1, max(0, Double(part.share.description) ?? 0))
      let end = index == parts.count - 1 ? 1.0 : min(1, start + fraction)
      svg += "    <rect \(partAttributes(part, amount: amounts[index], index: index)) x=\"\(n(left + start * barWidth))\" "
      svg += "y=\"\(n(top))\" width=\"\(n((end - start) * barWidth))\" height=\"44\">"
      svg += tooltip(part, amount: amounts[index]) + "</rect>\n"
      start = end
    }
    svg += "  </g>\n"
    svg += legend(parts, amounts: amounts, x: left, top: top + 78, labelWidth: labelWidth, amountWidth: amountWidth)
    return (width, top + 78 + Double(parts.count) * 26 + 16, svg)
  }

  /// One bar per part, scaled to the largest amount or limit, with the limit drawn across it and spending above it
  /// called out.
  func budgetBars(_ breakdown: Breakdown, amounts: [String], labelWidth: Double) -> (
    width: Double, height: Double, svg: String
  ) {
    let parts = breakdown.parts
    let scale = parts.map { max($0.amount, $0.limit ?? $0.amount) }.max() ?? breakdown.whole
    let scaleValue = max(Double(scale.description) ?? 1, 0.01)
    let left = 24 + labelWidth
    let barWidth = 380.0
    let width = left + barWidth + 250
    let top = 84.0
    let rowHeight = 34.0
    var svg = "  <g class=\"slices\" font-size=\"13\">\n"
    for (index, part) in parts.enumerated() {
      let y = top + Double(index) * rowHeight
      let length = barWidth * (Double(part.amount.description) ?? 0) / scaleValue
      svg += "    <text class=\"label\" x=\"24\" y=\"\(n(y + 15))\" fill=\"#111111\">\(SVGChart.escape(part.label))</text>\n"
      svg += "    <rect \(partAttributes(part, amount: amounts[index], index: index)) x=\"\(n(left))\" y=\"\(n(y))\" "
      svg += "width=\"\(n(length))\" height=\"22\">" + tooltip(part, amount: amounts[index]) + "</rect>\n"
      var note = amounts[index]
      if let limit = part.limit {
        let x = left + barWidth * (Double(limit.description) ?? 0) / scaleValue
        svg += "    <line class=\"limit\" x1=\"\(n(x))\" y1=\"\(n(y - 4))\" x2=\"\(n(x))\" y2=\"\(n(y + 26))\" "
        svg += "stroke=\"#111111\" stroke-width=\"2\"><title>budget \(ValueFormatter.money(limit))</title></line>\n"
        note += " of " + ValueFormatter.money(limit)
      }
      let textX = left + max(length, barWidth * (Double((part.limit ?? part.amount).description) ?? 0) / scaleValue) + 10
      svg += "    <text class=\"amount\" x=\"\(n(textX))\" y=\"\(n(y + 15))\" fill=\"#111111\">\(note)</text>\n"
      if let over = part.overBudget {
        svg += "    <text class=\"over\" x=\"\(n(textX))\" y=\"\(n(y + 30))\" font-weight=\"bold\" fill=\"#D55E00\">"
        svg += "over by \(ValueFormatter.money(over))</text>\n"
      }
    }
    svg += "  </g>\n"
    return (width, top + Double(parts.count) * rowHeight + 24, svg)
  }
}
