import Foundation
import TaxProCore

/// What to plot: an expression in which one name runs over a range.
public struct PlotRequest: Sendable {
  /// The expression, e.g. `tax(ON.income_tax, income)`.
  public var expression: String
  /// The name that runs over the range, e.g. `income`.
  public var variable: String
  /// The range's ends, as expressions (`$0`, `$250,000`); both of one type: Money, Rate or Number.
  public var from: String
  public var to: String
  /// How many points, ends included (at least 2).
  public var samples: Int

  public init(expression: String, variable: String, from: String, to: String, samples: Int) {
    self.expression = expression
    self.variable = variable
    self.from = from
    self.to = to
    self.samples = samples
  }

  /// `NAME=FROM..TO`, as `taxpro plot --over` takes it.
  public static func parseOver(_ text: String) -> (variable: String, from: String, to: String)? {
    guard let equals = text.firstIndex(of: "=") else { return nil }
    let variable = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
    let range = text[text.index(after: equals)...]
    // `..` cannot occur inside a number (a decimal point is followed by a digit), so the first one splits the range.
    guard let dots = range.range(of: "..") else { return nil }
    let from = String(range[..<dots.lowerBound]).trimmingCharacters(in: .whitespaces)
    let to = String(range[dots.upperBound...]).trimmingCharacters(in: .whitespaces)
    guard !variable.isEmpty, !from.isEmpty, !to.isEmpty else { return nil }
    return (variable, from, to)
  }
}

/// A sampled plot: the chart's data, and what could not be computed.
public struct PlotResult: Sendable {
  public var data: ChartData
  /// Points whose value could not be computed (left as gaps in the line).
  public var failedPoints: Int
  /// The first of those failures, to show the user why.
  public var firstFailure: Diagnostic?
}

/// Samples an expression over a range, exactly, then hands the chart positions over as `Double`.
///
/// The x values are computed in exact decimal (money rounded to the cent), so the expression sees the same amounts
/// a user would type; only the finished values become floating point, for pixel positions.
public enum Plotter {
  /// `list`, with a help on its first error when the range's ends are numbers and the expression checks with the
  /// name as Money: `income` going over `0..10000` in `tax(ON.income_tax, income)`, meant as `$0..$10,000`.
  static func withMoneyRangeHint(
    _ list: DiagnosticList, _ request: PlotRequest, _ type: TaxType, in session: Session
  ) -> DiagnosticList {
    guard type == .number, let first = list.diagnostics.firstIndex(where: { $0.severity == .error }),
      case .success = session.compile(request.expression, name: "<plot>", locals: [(request.variable, .money)])
    else { return list }
    var result = list
    result.diagnostics[first].notes.append(
      DiagnosticNote(
        .help,
        "the range's ends are numbers, so '\(request.variable)' is a Number; for an amount of money, write them "
          + "with '$': $\(request.from) and $\(request.to)"))
    return result
  }

  /// The points of `request`, with its ends checked first and the expression checked once (then evaluated per
  /// point); `isCancelled` is polled between points, so Ctrl-C stops a long plot.
  public static func sample(
    _ request: PlotRequest, in session: Session, isCancelled: () -> Bool = { false }
  ) -> Result<PlotResult, DiagnosticList> {
    let lower: Value
    let upper: Value
    switch (evaluate(request.from, session, name: "<from>"), evaluate(request.to, session, name: "<to>")) {
    case (.failure(let list), _), (_, .failure(let list)): return .failure(list)
    case (.success(let first), .success(let second)):
      lower = first
      upper = second
    }
    // Problems of the range point at the range as written (not at a nameless file).
    let range = session.makeSource("over \(request.variable) from \(request.from) to \(request.to)", name: "<plot>")
    let span = Span(file: range.id, start: 0, end: range.bytes.count)
    guard lower.type == upper.type, let start = lower.decimal, let end = upper.decimal else {
      return .failure(
        DiagnosticList([
          .error(.plotRangeTypes(lower.type, upper.type), at: span)
        ]))
    }
    guard start < end else {
      return .failure(
        DiagnosticList([
          .error(.plotRangeOrder(ValueFormatter.format(lower), ValueFormatter.format(upper)), at: span)
        ]))
    }
    let typed: TypedExpression
    switch session.compile(request.expression, name: "<plot>", locals: [(request.variable, lower.type)]) {
    case .failure(let list): return .failure(withMoneyRangeHint(list, request, lower.type, in: session))
    case .success(let compiled): typed = compiled
    }
    guard typed.type.isNumeric else {
      return .failure(
        DiagnosticList([
          .error(.plotType(request.expression, typed.type), at: typed.span)
        ]))
    }
    let count = max(2, request.samples)
    var points: [ChartPoint] = []
    var failed = 0
    var firstFailure: Diagnostic?
    let width = (try? end - start) ?? .zero
    for index in 0..<count {
      if isCancelled() {
        return .failure(DiagnosticList([.error(.plotCancelled, at: span)]))
      }
      // start + width × index / (count − 1), exact; money lands on whole cents.
      let step = (try? width * ExactDecimal(index)).flatMap { try? $0 / ExactDecimal(count - 1) } ?? .zero
      let x = Value.numeric(lower.type, (try? start + step) ?? start)
      let xPosition = position(x)
      switch session.evaluate(typed, locals: [x]) {
      case .success(let y):
        points.append(ChartPoint(x: xPosition, y: position(y)))
      case .failure(let list):
        if list.diagnostics.contains(where: { $0.code == .cancelled }) { return .failure(list) }
        failed += 1
        if firstFailure == nil { firstFailure = list.diagnostics.first }
        points.append(ChartPoint(x: xPosition, y: .nan))
      }
    }
    let data = ChartData(
      points: points, title: request.expression, xLabel: request.variable, yLabel: typed.type.description,
      formatX: formatter(for: lower.type), formatY: formatter(for: typed.type))
    return .success(PlotResult(data: data, failedPoints: failed, firstFailure: firstFailure))
  }

  static func evaluate(_ text: String, _ session: Session, name: String) -> Result<Value, DiagnosticList> {
    switch session.compile(text, name: name, locals: []) {
    case .failure(let list): return .failure(list)
    case .success(let typed): return session.evaluate(typed, locals: [])
    }
  }

  /// A value's position on its axis: money in dollars, a rate as a fraction, a number as itself.
  static func position(_ value: Value) -> Double {
    guard let decimal = value.decimal else { return .nan }
    return Double(decimal.description) ?? .nan
  }

  /// Axis labels in the language's own notation: `$50,000`, `30%`, `2.5`.
  static func formatter(for type: TaxType) -> @Sendable (Double) -> String {
    switch type {
    case .money: return { money($0) }
    case .rate: return { value in
        guard value.isFinite else { return "" }
        let percent = (value * 100 * 100).rounded() / 100
        return ChartData.plainNumber(percent) + "%"
      }
    default: return ChartData.plainNumber
    }
  }

  static func money(_ value: Double) -> String {
    guard value.isFinite else { return "" }
    let sign = value < 0 ? "-" : ""
    let magnitude = abs(value)
    guard magnitude < 1e15 else { return sign + "$" + ChartData.plainNumber(magnitude) }
    // Whole dollars are enough for an axis unless the ticks are cents apart.
    let cents = (magnitude * 100).rounded()
    let dollars = Int64((cents / 100).rounded(.down))
    var text = sign + "$" + group(dollars)
    let remainder = Int64(cents) % 100
    if remainder != 0 && magnitude < 1000 { text += String(format: ".%02lld", remainder) }
    return text
  }

  static func group(_ number: Int64) -> String {
    let digits = Array(String(number))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
