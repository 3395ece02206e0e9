import Foundation

/// One saved calculation (`:save`): enough to show it again and to explain it without re-running it,
/// since the standard library's figures may change between tax years and releases.
public struct Record: Codable, Equatable, Sendable {
  public var name: String
  public var date: Date
  /// The expression as typed, e.g. `rrsp_refund($5,000, $85,000, ON)`.
  public var expression: String
  /// Each input's value as text in TaxPro syntax, by parameter name.
  public var inputs: [String: String]
  /// The result as printed, e.g. `$1,545.00`.
  public var result: String
  /// The step-by-step explanation as printed.
  public var explanation: String

  public init(
    name: String, date: Date, expression: String, inputs: [String: String], result: String, explanation: String
  ) {
    self.name = name
    self.date = date
    self.expression = expression
    self.inputs = inputs
    self.result = result
    self.explanation = explanation
  }
}

/// The contents of `records.json`: every saved record, oldest first, under a format version.
public struct RecordBook: StoredDocument, Equatable, Sendable {
  public static let currentFormatVersion = 1

  public var formatVersion: Int
  public var records: [Record]

  public init(records: [Record] = []) {
    self.formatVersion = Self.currentFormatVersion
    self.records = records
  }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "version"
    case records
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    formatVersion = try checkFormatVersion(container, key: .formatVersion, current: Self.currentFormatVersion)
    records = try container.decode([Record].self, forKey: .records)
  }

  /// The most recent record with that name: saving under a taken name adds a newer record, it does not erase.
  public func record(named name: String) -> Record? {
    records.last { $0.name == name }
  }
}
