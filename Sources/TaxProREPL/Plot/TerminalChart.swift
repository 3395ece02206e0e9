/// A line chart drawn with text, for `:plot` and `taxpro plot` in a terminal.
///
/// The output is exactly `height` lines of exactly `width` visible characters, so the caller can size it
/// to the window. Y labels sit on the left at round values, x labels below; the y axis spans the data
/// exactly, so the largest value is drawn on the top row and the smallest on the bottom one.
public struct TerminalChart: Sendable {
  public enum Style: Sendable {
    /// 2×4 dots per character: the finest resolution, needs a font with braille (most have it).
    case braille
    /// 2×2 quadrant blocks: coarser, for fonts or terminals that show braille badly.
    case blocks
  }

  /// Smallest size that still has room for labels and a line; smaller requests are raised to it.
  public static let minimumWidth = 20
  public static let minimumHeight = 6

  public var width: Int
  public var height: Int
  public var style: Style
  /// Colours the plotted line with ANSI escapes; the caller decides (see `Terminal.colorEnabled`).
  public var color: Bool

  public init(width: Int = 72, height: Int = 20, style: Style = .braille, color: Bool = false) {
    self.width = width
    self.height = height
    self.style = style
    self.color = color
  }

  public func render(_ data: ChartData) -> [String] {
    let width = max(Self.minimumWidth, self.width)
    let height = max(Self.minimumHeight, self.height)
    var showTitle = !data.title.isEmpty
    var showYLabel = !data.yLabel.isEmpty
    var showXLabel = !data.xLabel.isEmpty
    var plotRows: Int {
      height - 2 - (showTitle ? 1 : 0) - (showYLabel ? 1 : 0) - (showXLabel ? 1 : 0)
    }
    // Give up captions, least useful first, before squeezing the plot below three rows.
    if plotRows < 3 { showYLabel = false }
    if plotRows < 3 { showXLabel = false }
    if plotRows < 3 { showTitle = false }
    let rows = plotRows

    let bounds = data.bounds
    let yTicks = bounds.map { Self.yTicks(for: $0.y, rows: rows) } ?? []
    let maximumLabelWidth = width / 2
    let yLabels = yTicks.map { Self.fit(data.formatY($0), to: maximumLabelWidth) }
    let labelWidth = max(1, yLabels.map(\.count).max() ?? 1)
    let columns = width - labelWidth - 2

    var canvas = DotCanvas(cells: style == .braille ? .braille : .quadrants, columns: columns, rows: rows)
    var labelsByRow: [Int: String] = [:]
    var xTickColumns: [(column: Int, label: String)] = []
    if let bounds {
      let mapping = Mapping(bounds: bounds, canvas: canvas)
      for segment in data.segments {
        var previous: (x: Int, y: Int)?
        for point in segment {
          let dot = mapping.dot(for: point)
          if let previous {
            canvas.line(from: previous, to: dot)
          } else {
            canvas.set(dot.x, dot.y)
          }
          previous = dot
        }
      }
      for (value, label) in zip(yTicks, yLabels) {
        let row = mapping.dotRow(for: value) / canvas.cells.size.rows
        if labelsByRow[row] == nil { labelsByRow[row] = label }
      }
      for value in Self.xTicks(for: bounds.x, columns: columns) {
        let column = mapping.dotColumn(for: value) / canvas.cells.size.columns
        xTickColumns.append((column, data.formatX(value)))
      }
    }

    var plot = canvas.renderRows()
    if bounds == nil {
      let message = "(no data to plot)"
      plot[rows / 2] = Self.center(Self.fit(message, to: columns), in: columns)
    }

    var lines: [String] = []
    if showTitle { lines.append(Self.center(Self.fit(data.title, to: width), in: width)) }
    if showYLabel { lines.append(Self.pad(Self.fit(data.yLabel, to: width), to: width)) }
    let (colorOn, colorOff) = color ? ("\u{1B}[36m", "\u{1B}[0m") : ("", "")
    for (row, cells) in plot.enumerated() {
      let label = labelsByRow[row] ?? ""
      let axis = labelsByRow[row] == nil ? "│" : "┤"
      lines.append(Self.padLeft(label, to: labelWidth) + " " + axis + colorOn + cells + colorOff)
    }
    var axis = Array(repeating: Character("─"), count: columns)
    for tick in xTickColumns where tick.column >= 0 && tick.column < columns { axis[tick.column] = "┬" }
    lines.append(String(repeating: " ", count: labelWidth + 1) + "└" + String(axis))
    lines.append(Self.xLabelLine(xTickColumns, offset: labelWidth + 2, width: width))
    if showXLabel {
      let centered = Self.center(Self.fit(data.xLabel, to: columns), in: columns)
      lines.append(String(repeating: " ", count: labelWidth + 2) + centered)
    }
    return lines
  }

  /// Lines joined for printing.
  public func renderText(_ data: ChartData) -> String {
    render(data).joined(separator: "\n")
  }

  // MARK: Layout

  /// Maps data to dots. A zero-width range (one x, or a flat series) maps to the middle of the canvas.
  private struct Mapping {
    let bounds: (x: ClosedRange<Double>, y: ClosedRange<Double>)
    let dotColumns: Int
    let dotRows: Int

    init(bounds: (x: ClosedRange<Double>, y: ClosedRange<Double>), canvas: DotCanvas) {
      self.bounds = bounds
      dotColumns = canvas.dotColumns
      dotRows = canvas.dotRows
    }

    func dot(for point: ChartPoint) -> (x: Int, y: Int) {
      (dotColumn(for: point.x), dotRow(for: point.y))
    }

    func dotColumn(for x: Double) -> Int {
      Self.position(of: x, in: bounds.x, steps: dotColumns - 1, ifFlat: (dotColumns - 1) / 2)
    }

    /// Rows count from the top, so the largest y is row 0.
    func dotRow(for y: Double) -> Int {
      (dotRows - 1) - Self.position(of: y, in: bounds.y, steps: dotRows - 1, ifFlat: (dotRows - 1) / 2)
    }

    static func position(of value: Double, in range: ClosedRange<Double>, steps: Int, ifFlat: Int) -> Int {
      let span = range.upperBound - range.lowerBound
      guard span > 0, span.isFinite else { return ifFlat }
      let fraction = (value - range.lowerBound) / span
      guard fraction.isFinite else { return ifFlat }
      return Int((min(1, max(0, fraction)) * Double(steps)).rounded())
    }
  }

  private static func yTicks(for range: ClosedRange<Double>, rows: Int) -> [Double] {
    if range.lowerBound == range.upperBound { return [range.lowerBound] }
    let inside = NiceScale(covering: range, targetCount: max(2, rows / 3)).ticks(within: range)
    return inside.isEmpty ? [range.upperBound, range.lowerBound] : inside.reversed()
  }

  private static func xTicks(for range: ClosedRange<Double>, columns: Int) -> [Double] {
    if range.lowerBound == range.upperBound { return [range.lowerBound] }
    let inside = NiceScale(covering: range, targetCount: max(2, columns / 12)).ticks(within: range)
    return inside.isEmpty ? [range.lowerBound, range.upperBound] : inside
  }

  /// Places each x label centred under its tick, skipping any that would overlap the previous one or
  /// run off the edge.
  private static func xLabelLine(_ ticks: [(column: Int, label: String)], offset: Int, width: Int) -> String {
    var line = Array(repeating: Character(" "), count: width)
    var nextFree = 0
    for tick in ticks {
      let label = Array(tick.label)
      guard !label.isEmpty else { continue }
      var start = offset + tick.column - label.count / 2
      start = max(start, 0)
      if start + label.count > width { start = width - label.count }
      guard start >= nextFree, start >= 0 else { continue }
      for (index, character) in label.enumerated() { line[start + index] = character }
      nextFree = start + label.count + 1
    }
    return String(line)
  }

  static func fit(_ text: String, to width: Int) -> String {
    let singleLine = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }.filter { !$0.isControl }
    guard singleLine.count > width else { return String(singleLine) }
    guard width > 1 else { return String(singleLine.prefix(width)) }
    return String(singleLine.prefix(width - 1)) + "…"
  }

  static func pad(_ text: String, to width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }

  static func padLeft(_ text: String, to width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
  }

  static func center(_ text: String, in width: Int) -> String {
    let left = max(0, (width - text.count) / 2)
    return pad(String(repeating: " ", count: left) + text, to: width)
  }
}

extension Character {
  fileprivate var isControl: Bool {
    unicodeScalars.allSatisfy { $0.properties.generalCategory == .control }
  }
}
