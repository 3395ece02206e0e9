/// A JSON object that remembers the order its keys were first inserted.
///
/// Order matters for reproducible output (tests compare serialized messages, humans read logs), while lookup
/// must stay O(1) because hostile input can carry objects with many thousands of keys. A repeated key replaces
/// the earlier value but keeps the earlier position, which is the "last one wins" rule most JSON readers use.
public struct JSONObject: Sendable {
  private var orderedKeys: [String] = []
  private var storage: [String: JSON] = [:]

  public init() {}

  /// Builds an object from pairs in order; later duplicates win.
  public init(_ members: some Sequence<(String, JSON)>) {
    for (key, value) in members { self[key] = value }
  }

  /// Setting `nil` removes the key, so that optional protocol fields vanish instead of becoming `null`.
  public subscript(key: String) -> JSON? {
    get { storage[key] }
    set {
      if let newValue {
        if storage.updateValue(newValue, forKey: key) == nil { orderedKeys.append(key) }
      } else if storage.removeValue(forKey: key) != nil {
        orderedKeys.removeAll { $0 == key }
      }
    }
  }

  public var count: Int { orderedKeys.count }
  public var isEmpty: Bool { orderedKeys.isEmpty }

  /// Keys in insertion order.
  public var keys: [String] { orderedKeys }

  /// Members in insertion order, for serializing and for iterating over open-ended maps like
  /// `WorkspaceEdit.changes`.
  public var members: [(key: String, value: JSON)] {
    orderedKeys.compactMap { key in storage[key].map { (key, $0) } }
  }

  public func contains(_ key: String) -> Bool { storage[key] != nil }
}

extension JSONObject: Equatable {
  /// Key order is presentation, not content, so it does not take part in equality.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.storage == rhs.storage
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSON)...) {
    for (key, value) in elements { self[key] = value }
  }
}
