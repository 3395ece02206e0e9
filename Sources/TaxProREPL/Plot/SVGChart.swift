import Foundation

/// A line chart as a standalone SVG 1.1 file, for `--svg FILE`: something to open in a browser, put in a
/// document or print, where the terminal chart is too coarse.
///
/// Axes run between round tick values that enclose the data (see `NiceScale`); every piece of caller
/// text is XML-escaped, so a title like `Tax < $50,000 & "more"` cannot break the document.
public struct SVGChart: Sendable {
  public static let minimumWidth = 200.0
  public static let minimumHeight = 150.0

  public var width: Double
  public var height: Double

  public init(width: Double = 720, height: Double = 440) {
    self.width = width
    self.height = height
  }

  public func render(_ data: ChartData) -> String {
    let width = Self.sanitizeSize(self.width, minimum: Self.minimumWidth)
    let height = Self.sanitizeSize(self.height, minimum: Self.minimumHeight)
    let bounds = data.bounds
    let unit = 0.0...1.0
    let yScale = NiceScale(covering: bounds?.y ?? unit, targetCount: max(2, Int(height / 70)))
    let yTickLabels = yScale.ticks.map { Self.singleLine(data.formatY($0)) }
    let longestYLabel = Double(yTickLabels.map(\.count).max() ?? 1)

    let top = data.title.isEmpty ? 20.0 : 48.0
    let left = 14 + longestYLabel * 7.2 + (data.yLabel.isEmpty ? 0 : 24)
    let bottom = 32.0 + (data.xLabel.isEmpty ? 0 : 26)
    let xScale = NiceScale(covering: bounds?.x ?? unit, targetCount: max(2, Int((width - left - 36) / 110)))
    // The last x label is centred on the right end of the axis; leave room for its right half.
    let lastXLabel = Double(Self.singleLine(data.formatX(xScale.upper)).count)
    let right = max(24, lastXLabel * 3.8 + 10)
    let plot = (left: left, right: max(left + 10, width - right), top: top, bottom: max(top + 10, height - bottom))

    func px(_ x: Double) -> Double {
      Self.position(x, from: xScale, to: plot.left...plot.right, flipped: false)
    }
    func py(_ y: Double) -> Double {
      Self.position(y, from: yScale, to: plot.top...plot.bottom, flipped: true)
    }

    var svg = """
      <?xml version="1.0" encoding="UTF-8" standalone="no"?>
      <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(n(width))" height="\(n(height))" \
      viewBox="0 0 \(n(width)) \(n(height))" font-family="Helvetica, Arial, sans-serif">

      """
    if !data.title.isEmpty {
      svg += "  <title>\(Self.escape(data.title))</title>\n"
    }
    svg += "  <rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#ffffff\"/>\n"

    svg += "  <g class=\"grid\" stroke=\"#e5e5e5\" stroke-width=\"1\">\n"
    for tick in yScale.ticks {
      svg += "    <line x1=\"\(n(plot.left))\" y1=\"\(n(py(tick)))\" x2=\"\(n(plot.right))\" y2=\"\(n(py(tick)))\"/>\n"
    }
    svg += "  </g>\n"

    svg += "  <g class=\"axes\" stroke=\"#333333\" stroke-width=\"1\">\n"
    svg += "    <line x1=\"\(n(plot.left))\" y1=\"\(n(plot.bottom))\" x2=\"\(n(plot.right))\" y2=\"\(n(plot.bottom))\"/>\n"
    svg += "    <line x1=\"\(n(plot.left))\" y1=\"\(n(plot.top))\" x2=\"\(n(plot.left))\" y2=\"\(n(plot.bottom))\"/>\n"
    for tick in xScale.ticks {
      svg += "    <line x1=\"\(n(px(tick)))\" y1=\"\(n(plot.bottom))\" x2=\"\(n(px(tick)))\" y2=\"\(n(plot.bottom + 5))\"/>\n"
    }
    for tick in yScale.ticks {
      svg += "    <line x1=\"\(n(plot.left - 5))\" y1=\"\(n(py(tick)))\" x2=\"\(n(plot.left))\" y2=\"\(n(py(tick)))\"/>\n"
    }
    svg += "  </g>\n"

    svg += "  <g class=\"tick-labels\" font-size=\"12\" fill=\"#333333\">\n"
    for tick in xScale.ticks {
      let label = Self.escape(Self.singleLine(data.formatX(tick)))
      svg += "    <text x=\"\(n(px(tick)))\" y=\"\(n(plot.bottom + 19))\" text-anchor=\"middle\">\(label)</text>\n"
    }
    for (tick, label) in zip(yScale.ticks, yTickLabels) {
      svg += "    <text x=\"\(n(plot.left - 8))\" y=\"\(n(py(tick) + 4))\" text-anchor=\"end\">\(Self.escape(label))</text>\n"
    }
    svg += "  </g>\n"

    if !data.title.isEmpty {
      svg += "  <text class=\"title\" x=\"\(n(width / 2))\" y=\"28\" font-size=\"16\" font-weight=\"bold\" "
      svg += "text-anchor=\"middle\" fill=\"#111111\">\(Self.escape(Self.singleLine(data.title)))</text>\n"
    }
    if !data.xLabel.isEmpty {
      let x = (plot.left + plot.right) / 2
      svg += "  <text class=\"x-label\" x=\"\(n(x))\" y=\"\(n(height - 10))\" font-size=\"13\" "
      svg += "text-anchor=\"middle\" fill=\"#111111\">\(Self.escape(Self.singleLine(data.xLabel)))</text>\n"
    }
    if !data.yLabel.isEmpty {
      let y = (plot.top + plot.bottom) / 2
      svg += "  <text class=\"y-label\" x=\"18\" y=\"\(n(y))\" font-size=\"13\" text-anchor=\"middle\" "
      svg += "transform=\"rotate(-90 18 \(n(y)))\" fill=\"#111111\">\(Self.escape(Self.singleLine(data.yLabel)))</text>\n"
    }

    if bounds == nil {
      svg += "  <text class=\"no-data\" x=\"\(n((plot.left + plot.right) / 2))\" y=\"\(n((plot.top + plot.bottom) / 2))\" "
      svg += "font-size=\"14\" text-anchor=\"middle\" fill=\"#777777\">no data to plot</text>\n"
    }
    for segment in data.segments {
      if segment.count == 1, let point = segment.first {
        svg += "  <circle class=\"series\" cx=\"\(n(px(point.x)))\" cy=\"\(n(py(point.y)))\" r=\"3\" fill=\"#1f6fb4\"/>\n"
      } else {
        let points = segment.map { "\(n(px($0.x))),\(n(py($0.y)))" }.joined(separator: " ")
        svg += "  <polyline class=\"series\" fill=\"none\" stroke=\"#1f6fb4\" stroke-width=\"2\" "
        svg += "stroke-linejoin=\"round\" points=\"\(points)\"/>\n"
      }
    }
    svg += "</svg>\n"
    return svg
  }

  /// Text made safe for XML content and attribute values: markup characters escaped, and characters
  /// XML 1.0 forbids (most control characters, U+FFFE, U+FFFF) dropped.
  public static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      default:
        let value = scalar.value
        if value < 0x20 || value == 0xFFFE || value == 0xFFFF { continue }
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func singleLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }

  private static func sanitizeSize(_ value: Double, minimum: Double) -> Double {
    guard value.isFinite else { return minimum }
    return min(max(value, minimum), 100_000)
  }

  private static func position(
    _ value: Double, from scale: NiceScale, to range: ClosedRange<Double>, flipped: Bool
  ) -> Double {
    let span = scale.upper - scale.lower
    var fraction = span > 0 && span.isFinite ? (value - scale.lower) / span : 0.5
    if !fraction.isFinite { fraction = 0.5 }
    fraction = min(1, max(0, fraction))
    if flipped { fraction = 1 - fraction }
    return range.lowerBound + fraction * (range.upperBound - range.lowerBound)
  }
}

/// A coordinate with at most two decimals and no trailing zeros, independent of the user's locale (the SVG charts').
func n(_ value: Double) -> String {
  guard value.isFinite else { return "0" }
  let rounded = (value * 100).rounded() / 100
  if rounded == rounded.rounded() { return String(Int64(rounded)) }
  var text = String(format: "%.2f", rounded)
  while text.hasSuffix("0") { text.removeLast() }
  return text
}
