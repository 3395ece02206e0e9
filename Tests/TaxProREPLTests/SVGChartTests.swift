import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@testable import TaxProREPL

/// Collects what a well-formedness check needs: elements with their attributes and the text inside them.
private final class SVGSummary: NSObject, XMLParserDelegate {
  struct Element {
    var name: String
    var attributes: [String: String]
    var text = ""
  }

  var elements: [Element] = []
  private var open: [Int] = []

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    elements.append(Element(name: name, attributes: attributes))
    open.append(elements.count - 1)
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    _ = open.popLast()
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if let index = open.last { elements[index].text += string }
  }

  func named(_ name: String) -> [Element] { elements.filter { $0.name == name } }

  static func parse(_ svg: String) -> SVGSummary? {
    let parser = XMLParser(data: Data(svg.utf8))
    let summary = SVGSummary()
    parser.delegate = summary
    return parser.parse() ? summary : nil
  }
}

@Suite struct SVGChartTests {
  static let data = ChartData(
    points: stride(from: 0.0, through: 100_000, by: 10_000).map { ChartPoint(x: $0, y: $0 * 0.15) },
    title: "Tax on income", xLabel: "income", yLabel: "tax",
    formatX: TerminalChartTests.dollars, formatY: TerminalChartTests.dollars)

  private func parse(_ data: ChartData, chart: SVGChart = SVGChart()) throws -> SVGSummary {
    let svg = chart.render(data)
    return try #require(SVGSummary.parse(svg), "not well-formed:\n\(svg)")
  }

  private func points(_ polyline: SVGSummary.Element) -> [(Double, Double)] {
    (polyline.attributes["points"] ?? "").split(separator: " ").compactMap { pair in
      let parts = pair.split(separator: ",").compactMap { Double($0) }
      return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
  }

  @Test func isAnSVG11Document() throws {
    let svg = SVGChart().render(Self.data)
    #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\""))
    let summary = try parse(Self.data)
    let root = try #require(summary.elements.first)
    #expect(root.name == "svg")
    #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
    #expect(root.attributes["version"] == "1.1")
    #expect(root.attributes["width"] == "720")
    #expect(root.attributes["viewBox"] == "0 0 720 440")
  }

  @Test func polylineHasEveryPointInsideThePlot() throws {
    let summary = try parse(Self.data)
    let polylines = summary.named("polyline")
    #expect(polylines.count == 1)
    let coordinates = points(try #require(polylines.first))
    #expect(coordinates.count == 11)
    for (x, y) in coordinates {
      #expect(x >= 0 && x <= 720)
      #expect(y >= 0 && y <= 440)
    }
    // y grows downwards in SVG: a rising series goes up the page.
    #expect(coordinates[0].1 > coordinates[10].1)
  }

  @Test func ticksAreRoundAndLabelled() throws {
    let summary = try parse(Self.data)
    let labels = summary.named("text").map(\.text)
    #expect(labels.contains("$0"))
    #expect(labels.contains("$100,000"))
    #expect(labels.contains("$15,000"))
    let xTicks = NiceScale(covering: 0...100_000, targetCount: max(2, Int((720.0 - 80 - 36) / 110))).ticks
    #expect(xTicks.allSatisfy { labels.contains(TerminalChartTests.dollars($0)) })
    // Tick labels, plus the title and the two axis titles.
    let tickLabels = summary.elements.filter { $0.name == "text" && $0.attributes["class"] == nil }
    #expect(summary.named("text").count == tickLabels.count + 3)
    #expect(summary.named("text").first { $0.attributes["class"] == "title" }?.text == "Tax on income")
    #expect(summary.named("text").first { $0.attributes["class"] == "y-label" }?.attributes["transform"] != nil)
    #expect(summary.named("title").first?.text == "Tax on income")
  }

  @Test func textIsEscaped() throws {
    let nasty = "Tax < $50,000 & \"more\" 'quoted' ]]> \u{0}\u{7}\u{FFFE} é🍁"
    var data = Self.data
    data.title = nasty
    data.xLabel = "<script>alert(1)</script>"
    data.formatY = { _ in "&amp; <b>" }
    let summary = try parse(data)
    let title = summary.named("text").first { $0.attributes["class"] == "title" }?.text
    #expect(title == "Tax < $50,000 & \"more\" 'quoted' ]]>  é🍁")
    #expect(summary.named("script").isEmpty)
    #expect(summary.named("b").isEmpty)
    #expect(summary.named("text").contains { $0.text == "&amp; <b>" })
  }

  @Test func nonFiniteValuesSplitTheLine() throws {
    let data = ChartData(points: [
      ChartPoint(x: 0, y: 0), ChartPoint(x: 1, y: 1), ChartPoint(x: 2, y: .nan),
      ChartPoint(x: 3, y: 3), ChartPoint(x: 4, y: 4), ChartPoint(x: 5, y: .infinity), ChartPoint(x: 6, y: 2),
    ])
    let summary = try parse(data)
    let polylines = summary.named("polyline")
    #expect(polylines.map { points($0).count } == [2, 2])
    #expect(summary.named("circle").count == 1)
    let svg = SVGChart().render(data)
    #expect(!svg.contains("nan") && !svg.contains("inf"))
  }

  @Test func singlePointIsACircle() throws {
    let summary = try parse(ChartData(points: [ChartPoint(x: 85_000, y: 5_609.17)]))
    #expect(summary.named("polyline").isEmpty)
    #expect(summary.named("circle").count == 1)
  }

  @Test func flatSeriesIsAHorizontalLine() throws {
    let summary = try parse(ChartData(points: (0...4).map { ChartPoint(x: Double($0), y: 7) }))
    let coordinates = points(try #require(summary.named("polyline").first))
    #expect(coordinates.count == 5)
    #expect(Set(coordinates.map(\.1)).count == 1)
  }

  @Test func emptyDataStillMakesADocument() throws {
    let summary = try parse(ChartData(points: []))
    #expect(summary.named("polyline").isEmpty)
    #expect(summary.named("text").contains { $0.text == "no data to plot" })
  }

  @Test func absurdSizesAreClamped() throws {
    for (width, height) in [(0.0, 0.0), (-5, 10), (.nan, .infinity)] {
      let summary = try parse(Self.data, chart: SVGChart(width: width, height: height))
      #expect(summary.elements.first?.attributes["width"] == "200")
    }
  }

  @Test func escapeHandlesEveryMarkupCharacter() {
    #expect(SVGChart.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
    #expect(SVGChart.escape("tab\tnew\nline\u{1B}") == "tab\tnew\nline")
  }
}
