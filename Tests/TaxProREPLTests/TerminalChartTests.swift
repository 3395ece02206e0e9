import Foundation
import Testing

@testable import TaxProREPL

@Suite struct TerminalChartTests {
  static func dollars(_ value: Double) -> String {
    let whole = Int(value.rounded())
    var digits = String(abs(whole))
    var grouped = ""
    while digits.count > 3 {
      grouped = "," + digits.suffix(3) + grouped
      digits.removeLast(3)
    }
    return (whole < 0 ? "-$" : "$") + digits + grouped
  }

  static let rising = ChartData(
    points: stride(from: 0.0, through: 200_000, by: 5_000).map { ChartPoint(x: $0, y: $0 * 0.2) },
    title: "Tax on income", xLabel: "income", yLabel: "tax",
    formatX: dollars, formatY: dollars)

  /// Visible characters, ignoring ANSI colour sequences.
  static func visible(_ line: String) -> String {
    line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
  }

  static func isInk(_ character: Character) -> Bool {
    guard let scalar = character.unicodeScalars.first else { return false }
    return (0x2801...0x28FF).contains(scalar.value) || (0x2596...0x259F).contains(scalar.value)
      || "▀▄▌▐█".contains(character)
  }

  /// The plot rows: after the title and y caption, before the axis and the two x lines.
  static func plotRows(_ lines: [String]) -> ArraySlice<String> {
    lines[2..<(lines.count - 3)]
  }

  @Test(arguments: [
    (72, 20, TerminalChart.Style.braille), (40, 10, .braille), (100, 30, .blocks), (20, 6, .braille), (33, 7, .blocks),
  ])
  func hasExactlyTheRequestedSize(width: Int, height: Int, style: TerminalChart.Style) {
    for color in [false, true] {
      let lines = TerminalChart(width: width, height: height, style: style, color: color).render(Self.rising)
      #expect(lines.count == height)
      for line in lines { #expect(Self.visible(line).count == width, "\(line)") }
    }
  }

  @Test func tinySizesAreRaisedToTheMinimum() {
    let lines = TerminalChart(width: 3, height: 1).render(Self.rising)
    #expect(lines.count == TerminalChart.minimumHeight)
    for line in lines { #expect(line.count == TerminalChart.minimumWidth) }
  }

  @Test(arguments: [TerminalChart.Style.braille, .blocks])
  func maximumIsOnTheTopRowAndMinimumOnTheBottom(style: TerminalChart.Style) throws {
    let lines = TerminalChart(width: 60, height: 16, style: style).render(Self.rising)
    let rows = Self.plotRows(lines)
    let top = try #require(rows.first)
    let bottom = try #require(rows.last)
    // Rising line: the top row has ink only at the right end, the bottom row only at the left.
    let topInk = top.indices.filter { Self.isInk(top[$0]) }
    let bottomInk = bottom.indices.filter { Self.isInk(bottom[$0]) }
    #expect(!topInk.isEmpty)
    #expect(!bottomInk.isEmpty)
    #expect(top.distance(from: top.startIndex, to: topInk[0]) > 40)
    #expect(bottom.distance(from: bottom.startIndex, to: bottomInk[0]) < 15)
  }

  @Test func labelsUseTheFormattersAndRoundValues() {
    let lines = TerminalChart(width: 72, height: 20).render(Self.rising)
    let text = lines.joined(separator: "\n")
    #expect(text.contains("$0"))
    #expect(text.contains("$20,000"))
    #expect(text.contains("$100,000"))
    #expect(lines[0].contains("Tax on income"))
    #expect(lines[1].hasPrefix("tax"))
    #expect(lines[lines.count - 1].contains("income"))
    // Every y label sits on a round value.
    for row in Self.plotRows(lines) where row.contains("┤") {
      let label = row.split(separator: "┤")[0].trimmingCharacters(in: .whitespaces)
      let value = Int(label.replacingOccurrences(of: "$", with: "").replacingOccurrences(of: ",", with: ""))
      #expect(value.map { $0 % 5_000 == 0 } == true, "\(label)")
    }
  }

  @Test func flatSeriesIsOneRow() {
    let data = ChartData(points: (0..<10).map { ChartPoint(x: Double($0), y: 42) })
    let lines = TerminalChart(width: 40, height: 10).render(data)
    let inked = Self.plotRows(lines).filter { $0.contains(where: Self.isInk) }
    #expect(inked.count == 1)
    #expect(lines.contains { $0.contains("42 ┤") })
  }

  @Test func singlePointIsOneDot() {
    let data = ChartData(points: [ChartPoint(x: 85_000, y: 5_609.17)], formatY: Self.dollars)
    let lines = TerminalChart(width: 40, height: 10).render(data)
    #expect(lines.count == 10)
    let ink = lines.flatMap { $0.filter(Self.isInk) }
    #expect(ink.count == 1)
  }

  @Test func nonFiniteValuesAreSkipped() {
    let data = ChartData(points: [
      ChartPoint(x: 0, y: 0), ChartPoint(x: 1, y: .nan), ChartPoint(x: 2, y: .infinity),
      ChartPoint(x: .nan, y: 3), ChartPoint(x: 3, y: 3), ChartPoint(x: -.infinity, y: 1), ChartPoint(x: 4, y: 4),
    ])
    let lines = TerminalChart(width: 40, height: 12).render(data)
    #expect(lines.count == 12)
    for line in lines { #expect(line.count == 40) }
    #expect(!lines.joined().contains("nan"))
    #expect(!lines.joined().contains("inf"))
  }

  @Test func nothingToPlotSaysSo() {
    for points in [[], [ChartPoint(x: .nan, y: .nan)]] {
      let lines = TerminalChart(width: 40, height: 8).render(ChartData(points: points, title: "t"))
      #expect(lines.count == 8)
      #expect(lines.contains { $0.contains("no data") })
    }
  }

  @Test func hugeAndTinyValuesDoNotTrap() {
    let data = ChartData(points: [
      ChartPoint(x: -Double.greatestFiniteMagnitude, y: Double.greatestFiniteMagnitude),
      ChartPoint(x: Double.greatestFiniteMagnitude, y: -Double.greatestFiniteMagnitude),
      ChartPoint(x: 0, y: Double.leastNonzeroMagnitude),
    ])
    let lines = TerminalChart(width: 30, height: 8).render(data)
    #expect(lines.count == 8)
  }

  @Test func longAndMultilineTextIsFitted() {
    let data = ChartData(
      points: [ChartPoint(x: 0, y: 0), ChartPoint(x: 1, y: 1)],
      title: String(repeating: "very long title ", count: 20), xLabel: "line one\nline two", yLabel: "y\tlabel",
      formatY: { _ in String(repeating: "9", count: 100) })
    let lines = TerminalChart(width: 40, height: 10).render(data)
    for line in lines { #expect(line.count == 40) }
    #expect(lines[0].hasSuffix("…"))
  }

  @Test func colourWrapsOnlyThePlot() {
    let lines = TerminalChart(width: 40, height: 10, color: true).render(Self.rising)
    #expect(lines.contains { $0.contains("\u{1B}[36m") })
    #expect(!lines[0].contains("\u{1B}"))
  }
}
