/// One row of a bracket table: the rate applies to income from `threshold` up to the next row's threshold.
public struct BracketRowValue: Hashable, Sendable {
  public var threshold: ExactDecimal
  public var rate: ExactDecimal
  public init(threshold: ExactDecimal, rate: ExactDecimal) {
    self.threshold = threshold
    self.rate = rate
  }
}

/// A bracket table, with where it came from (for explanations).
public struct BracketTable: Hashable, Sendable {
  public var rows: [BracketRowValue]
  /// `ON.income_tax (2025)` when it is a jurisdiction's parameter.
  public var origin: String?
  public init(rows: [BracketRowValue], origin: String? = nil) {
    self.rows = rows
    self.origin = origin
  }
}

/// A run-time value. Money is always a whole number of cents.
public enum Value: Hashable, Sendable {
  case money(ExactDecimal)
  /// A rate as a fraction: 13% is 0.13.
  case rate(ExactDecimal)
  case number(ExactDecimal)
  case bool(Bool)
  case text(String)
  /// A province or territory, by its code.
  case province(String)
  case brackets(BracketTable)

  public var type: TaxType {
    switch self {
    case .money: .money
    case .rate: .rate
    case .number: .number
    case .bool: .bool
    case .text: .text
    case .province: .province
    case .brackets: .brackets
    }
  }

  /// The decimal inside a Money, Rate or Number.
  public var decimal: ExactDecimal? {
    switch self {
    case .money(let value), .rate(let value), .number(let value): value
    default: nil
    }
  }

  /// Rebuilds a numeric value of the same type; money is rounded to the cent.
  public static func numeric(_ type: TaxType, _ value: ExactDecimal) -> Value {
    switch type {
    // Whole cents by rule: an amount is exact once rounded to them, whatever its inputs were.
    case .money: .money(value.rounded(places: 2, .halfAwayFromZero).marked(inexact: false))
    case .rate: .rate(value)
    default: .number(value)
    }
  }
}
