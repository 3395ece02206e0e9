/// A JSON object that remembers the order its keys were first inserted.
///
/// Order matters for reproducible output (tests compare serialized messages, humans read logs). Lookup is tuned
/// for the shape of LSP traffic: almost every object has a handful of keys, where a linear scan beats hashing,
/// so a hash index is only built once an object grows past `linearLimit` keys. That keeps hostile input with
/// many thousands of keys linear overall rather than quadratic.
///
/// A repeated key replaces the earlier value but keeps the earlier position, the "last one wins" rule most JSON
/// readers use.
public struct JSONObject: Sendable {
  private struct Member: Sendable {
    var key: String
    var value: JSON
  }

  private static var linearLimit: Int { 12 }

  private var entries: [Member] = []
  /// Key → position in `entries`; nil while the object is small.
  private var index: [String: Int]?

  public init() {}

  /// An empty object with room for `capacity` members, for builders that know roughly how many are coming.
  init(capacity: Int) { entries.reserveCapacity(capacity) }

  /// Builds an object from pairs in order; later duplicates win.
  public init(_ members: some Sequence<(String, JSON)>) {
    for (key, value) in members { self[key] = value }
  }

  private func position(of key: String) -> Int? {
    if let index { return index[key] }
    return entries.firstIndex { $0.key == key }
  }

  /// Setting `nil` removes the key, so that optional protocol fields vanish instead of becoming `null`.
  public subscript(key: String) -> JSON? {
    get { position(of: key).map { entries[$0].value } }
    set {
      if let position = position(of: key) {
        if let newValue {
          entries[position].value = newValue
        } else {
          entries.remove(at: position)
          if index != nil { rebuildIndex() }
        }
      } else if let newValue {
        entries.append(Member(key: key, value: newValue))
        if index != nil {
          index?[key] = entries.count - 1
        } else if entries.count > Self.linearLimit {
          rebuildIndex()
        }
      }
    }
  }

  private mutating func rebuildIndex() {
    guard entries.count > Self.linearLimit else {
      index = nil
      return
    }
    var rebuilt: [String: Int] = [:]
    rebuilt.reserveCapacity(entries.count)
    for (position, member) in entries.enumerated() { rebuilt[member.key] = position }
    index = rebuilt
  }

  public var count: Int { entries.count }
  public var isEmpty: Bool { entries.isEmpty }

  /// Keys in insertion order.
  public var keys: [String] { entries.map(\.key) }

  /// Members in insertion order, for iterating over open-ended maps like `WorkspaceEdit.changes`.
  public var members: [(key: String, value: JSON)] { entries.map { ($0.key, $0.value) } }

  public func contains(_ key: String) -> Bool { position(of: key) != nil }

  /// Puts the members in the order of their keys.
  mutating func sortByKey() {
    entries.sort { $0.key < $1.key }
    if index != nil { rebuildIndex() }
  }

  /// Visits members in order without building an array; the serializer's hot path.
  func forEachMember(_ body: (String, JSON) -> Void) {
    for member in entries { body(member.key, member.value) }
  }
}

extension JSONObject: Equatable {
  /// Key order is presentation, not content, so it does not take part in equality.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for member in lhs.entries {
      guard let other = rhs[member.key], other == member.value else { return false }
    }
    return true
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSON)...) {
    for (key, value) in elements { self[key] = value }
  }
}
