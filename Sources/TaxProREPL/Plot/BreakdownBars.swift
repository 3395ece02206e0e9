import TaxProCore

/// A breakdown drawn as horizontal bars in a terminal, for `taxpro chart` and `:chart`: one line per part — label,
/// amount, share, bar — largest first, then the whole as one stacked bar of all the parts.
///
/// Every line is at most `width` characters. Bar lengths come from the parts' exact shares (eighths of a cell with
/// colour; whole cells of a glyph per part without it, so the stacked bar can be read in black and white). With
/// budget lines the bars are scaled to the largest amount or limit, each limit is marked `│`, and spending above it is
/// called out on its line and under the chart.
public struct BreakdownBars: Sendable {
  public static let minimumWidth = 40
  /// Labels longer than this are shortened with `…`.
  static let longestLabel = 40

  public var width: Int
  public var color: Bool

  public init(width: Int = 80, color: Bool = false) {
    self.width = width
    self.color = color
  }

  public func render(_ breakdown: Breakdown) -> String {
    render(lines: breakdown).joined(separator: "\n")
  }

  func render(lines breakdown: Breakdown) -> [String] {
    let width = max(Self.minimumWidth, self.width)
    let parts = breakdown.parts
    let wholeText = ValueFormatter.money(breakdown.whole)
    let amounts = parts.map { ValueFormatter.money($0.amount) }
    let shares = parts.map(\.shareText)
    let amountWidth = (amounts + [wholeText]).map(\.count).max() ?? 0
    let shareWidth = 6
    let overTexts = parts.map { part in part.overBudget.map { "over by " + ValueFormatter.money($0) } ?? "" }
    let overWidth = overTexts.map(\.count).max().map { $0 == 0 ? 0 : $0 + 2 } ?? 0
    let wanted = min(Self.longestLabel, (parts.map(\.label.count) + [breakdown.wholeLabel.count]).max() ?? 0)
    // The bar gets what is left, but at least a quarter of the line; long labels give way first.
    let fixed = amountWidth + shareWidth + overWidth + 6
    let labelWidth = max(6, min(wanted, width - fixed - max(10, width / 4)))
    let barWidth = max(1, width - labelWidth - fixed)

    func row(_ label: String, _ amount: String, _ share: String, _ bar: String) -> String {
      TerminalChart.pad(TerminalChart.fit(label, to: labelWidth), to: labelWidth) + "  "
        + TerminalChart.padLeft(amount, to: amountWidth) + "  " + TerminalChart.padLeft(share, to: shareWidth) + "  "
        + bar
    }

    var lines = [TerminalChart.fit(breakdown.title, to: width)]
    if breakdown.hasBudget {
      let scale = parts.map { max($0.amount, $0.limit ?? $0.amount) }.max() ?? breakdown.whole
      for (index, part) in parts.enumerated() {
        var bar = budgetBar(part, index: index, scale: scale, cells: barWidth)
        if !overTexts[index].isEmpty { bar += "  " + paint(overTexts[index], sgr: "1;31") }
        lines.append(row(part.label, amounts[index], shares[index], bar))
      }
      let budget = breakdown.budget.map { "budget " + ValueFormatter.money($0) } ?? ""
      lines.append(row(breakdown.wholeLabel, wholeText, Breakdown.percent(.one), budget))
      let over = parts.filter { $0.overBudget != nil }.map(\.label)
      lines.append(
        over.isEmpty
          ? "│ marks each budget line; every line is within its budget"
          : "│ marks each budget line; over budget: " + over.joined(separator: ", "))
    } else {
      for (index, part) in parts.enumerated() {
        lines.append(row(part.label, amounts[index], shares[index], shareBar(part.share, index: index, cells: barWidth)))
      }
      lines.append(row(breakdown.wholeLabel, wholeText, Breakdown.percent(.one), stackedBar(parts, cells: barWidth)))
    }
    return lines
  }

  /// `fraction × cells` as a whole number of eighths (or of cells, without colour), at least one unit when the
  /// fraction is above zero, so that a small part is still seen.
  static func units(_ fraction: ExactDecimal, cells: Int, perCell: Int) -> Int {
    guard fraction.sign > 0 else { return 0 }
    let exact = (try? fraction * ExactDecimal(cells * perCell)) ?? .zero
    let whole = exact.rounded(places: 0, .halfAwayFromZero).intValue ?? 0
    return min(cells * perCell, max(1, whole))
  }

  func shareBar(_ share: ExactDecimal, index: Int, cells: Int) -> String {
    paint(bar(units: Self.units(share, cells: cells, perCell: color ? 8 : 1), index: index), sgr: sgr(index))
  }

  /// A run of one part's glyph: full blocks and a last partial eighth with colour, its own glyph without.
  func bar(units: Int, index: Int) -> String {
    guard color else { return String(repeating: BreakdownPalette.glyph(index), count: units) }
    let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
    var text = String(repeating: "█", count: units / 8)
    if units % 8 > 0 { text.append(eighths[units % 8 - 1]) }
    return text
  }

  func budgetBar(_ part: BreakdownPart, index: Int, scale: ExactDecimal, cells: Int) -> String {
    guard scale.sign > 0 else { return "" }
    // Whole cells here, so the limit's mark falls on a cell boundary.
    let filled = Self.units((try? part.amount / scale) ?? .zero, cells: cells, perCell: 1)
    let mark = part.limit.map { limit in
      min(cells - 1, max(0, Self.units((try? limit / scale) ?? .zero, cells: cells, perCell: 1) - 1))
    }
    var text = ""
    for cell in 0..<cells {
      if cell == mark {
        text += paint("│", sgr: part.overBudget == nil ? "" : "1;31")
      } else if cell < filled {
        text += paint(String(color ? "█" : BreakdownPalette.glyph(index)), sgr: sgr(index))
      } else if mark.map({ cell < $0 }) ?? false {
        text += " "
      } else {
        break
      }
    }
    return text
  }

  /// All the parts side by side, `cells` wide: each gets its share of the cells, rounded so they add up exactly
  /// (the largest remainders get the cells left over).
  func stackedBar(_ parts: [BreakdownPart], cells: Int) -> String {
    var counts: [Int] = []
    var remainders: [(ExactDecimal, Int)] = []
    for (index, part) in parts.enumerated() {
      let exact = (try? part.share * ExactDecimal(cells)) ?? .zero
      let floor = exact.rounded(places: 0, .towardZero)
      counts.append(floor.intValue ?? 0)
      remainders.append(((try? exact - floor) ?? .zero, index))
    }
    var left = cells - counts.reduce(0, +)
    for (_, index) in remainders.sorted(by: { $0.0 == $1.0 ? $0.1 < $1.1 : $1.0 < $0.0 }) where left > 0 {
      counts[index] += 1
      left -= 1
    }
    return counts.enumerated().map { index, count in
      paint(String(repeating: color ? "█" : BreakdownPalette.glyph(index), count: count), sgr: sgr(index))
    }.joined()
  }

  func sgr(_ index: Int) -> String { "38;5;\(BreakdownPalette.ansi(index))" }

  func paint(_ text: String, sgr: String) -> String {
    guard color, !sgr.isEmpty, !text.isEmpty else { return text }
    return "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
  }
}
