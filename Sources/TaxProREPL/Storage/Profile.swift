import Foundation

/// What the user told the REPL about themselves (`:profile`): income, province, age and the like.
///
/// Values are kept as the user typed them, in TaxPro syntax (`$85,000.00`, `ON`, `67`), so storage knows
/// nothing of the language: `:ask` parses them like any other answer when it offers them as defaults,
/// and a value that no longer parses is simply asked again.
public struct Profile: StoredDocument, Equatable, Sendable {
  /// The layout this version writes. Raise it when the layout changes incompatibly, and keep reading old ones.
  public static let currentFormatVersion = 1

  public var formatVersion: Int
  public var values: [String: String]

  public init(values: [String: String] = [:]) {
    self.formatVersion = Self.currentFormatVersion
    self.values = values
  }

  enum CodingKeys: String, CodingKey {
    case formatVersion = "version"
    case values
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    formatVersion = try checkFormatVersion(container, key: .formatVersion, current: Self.currentFormatVersion)
    values = try container.decode([String: String].self, forKey: .values)
  }
}

/// Refuses layouts this version does not know, with a reason the user can act on.
func checkFormatVersion<Key: CodingKey>(
  _ container: KeyedDecodingContainer<Key>, key: Key, current: Int
) throws -> Int {
  let version = try container.decode(Int.self, forKey: key)
  guard version >= 1 else {
    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown format version \(version)")
  }
  guard version <= current else {
    throw DecodingError.dataCorruptedError(
      forKey: key, in: container,
      debugDescription: "written by a newer version of TaxPro (format \(version); this one reads up to \(current))")
  }
  return version
}
