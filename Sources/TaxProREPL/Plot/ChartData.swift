import Foundation

/// One plotted position. `Double` is right here: these are screen positions, computed after the exact
/// money arithmetic is done, and a chart cannot show a difference of a cent anyway.
public struct ChartPoint: Equatable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  var isFinite: Bool { x.isFinite && y.isFinite }
}

/// What to draw, independent of where: the terminal chart and the SVG chart take the same description.
///
/// The formatters let the caller label axes in the language's own terms (`$50,000`, `30%`), which the
/// chart code knows nothing about.
public struct ChartData: Sendable {
  /// The series, in drawing order; points that are not finite are skipped and break the line there.
  public var points: [ChartPoint]
  public var title: String
  public var xLabel: String
  public var yLabel: String
  public var formatX: @Sendable (Double) -> String
  public var formatY: @Sendable (Double) -> String

  public init(
    points: [ChartPoint],
    title: String = "",
    xLabel: String = "",
    yLabel: String = "",
    formatX: @escaping @Sendable (Double) -> String = ChartData.plainNumber,
    formatY: @escaping @Sendable (Double) -> String = ChartData.plainNumber
  ) {
    self.points = points
    self.title = title
    self.xLabel = xLabel
    self.yLabel = yLabel
    self.formatX = formatX
    self.formatY = formatY
  }

  /// Default label: the shortest text that reads back as the value, without a useless `.0`.
  /// Tick values come from `NiceScale`, which keeps them free of binary noise like `0.30000000000000004`.
  @Sendable public static func plainNumber(_ value: Double) -> String {
    guard value.isFinite else { return "" }
    if value == value.rounded(), abs(value) < 1e15 {
      return String(Int64(value))
    }
    return "\(value)"
  }

  /// The finite points, as runs that a line connects; a non-finite point ends a run.
  var segments: [[ChartPoint]] {
    var result: [[ChartPoint]] = []
    var current: [ChartPoint] = []
    for point in points {
      if point.isFinite {
        current.append(point)
      } else if !current.isEmpty {
        result.append(current)
        current = []
      }
    }
    if !current.isEmpty { result.append(current) }
    return result
  }

  /// The smallest and largest finite x and y; `nil` when there is nothing to draw.
  var bounds: (x: ClosedRange<Double>, y: ClosedRange<Double>)? {
    let finite = points.filter(\.isFinite)
    guard let first = finite.first else { return nil }
    var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
    for point in finite.dropFirst() {
      minX = min(minX, point.x)
      maxX = max(maxX, point.x)
      minY = min(minY, point.y)
      maxY = max(maxY, point.y)
    }
    return (minX...maxX, minY...maxY)
  }
}
