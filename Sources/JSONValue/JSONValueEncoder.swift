import Foundation

/// Encodes `Encodable` values into a `JSON` value, so that a type's fields are written once (in its declaration,
/// through synthesized `Codable`) and every JSON the program writes goes through one serializer.
///
/// What it decides, since `Codable` leaves it to the encoder:
/// - Optional fields that are nil are omitted (synthesized `encodeIfPresent`), never written as `null`; a type that
///   must write `null` encodes its optional with `encode` instead.
/// - Object members keep the order in which they were encoded (the declaration order of synthesized `Codable`);
///   dictionaries are written with their keys sorted, so that the same value always serializes to the same bytes.
/// - `Date` is written as RFC 3339 text in UTC (`2026-01-01T00:00:00Z`), whole seconds.
/// - Non-finite doubles are kept; the serializer writes them as `null`.
///
/// It is on the latency path of every reply the language server sends, so the common leaves (strings, integers,
/// `JSON`, integer arrays) skip the nested encoder a value would otherwise get, and an object's members are put into
/// the node being encoded without a storage object of their own.
public struct JSONValueEncoder {
  public init() {}

  /// Fails only when a type's own `encode(to:)` throws.
  public func encode<T: Encodable>(_ value: T) throws -> JSON {
    try EncodingNode.box(value, parent: nil, key: nil)
  }
}

extension Encodable {
  /// The value as JSON. Encoding into a JSON value cannot fail unless a type's own `encode(to:)` throws; such a
  /// value is written as `null`.
  public func toJSON() -> JSON {
    (try? JSONValueEncoder().encode(self)) ?? .null
  }
}

/// A value being encoded or decoded, linked to its parent by the key that leads to it.
protocol CodingNode: AnyObject {
  var parent: Self? { get }
  var key: (any CodingKey)? { get }
}

extension CodingNode {
  /// The coding path, built only when asked (by an error or a type that reads it): most values never need it.
  var path: [any CodingKey] {
    var path: [any CodingKey] = []
    var node: Self? = self
    while let current = node {
      if let key = current.key { path.append(key) }
      node = current.parent
    }
    return path.reversed()
  }
}

/// A coding key made at run time: an object member's name or an array index.
struct JSONCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(_ name: String) {
    stringValue = name
    intValue = nil
  }

  init(index: Int) {
    stringValue = "Index \(index)"
    intValue = index
  }

  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) { self.init(index: intValue) }
}

/// One value being encoded: nothing yet, a single value, or an object or array that containers fill in. Members and
/// elements that are themselves filled in by a nested container or encoder are finished last, in place.
final class EncodingNode: Encoder, CodingNode {
  enum Kind {
    case empty
    case value
    case object
    case array
  }

  let parent: EncodingNode?
  let key: (any CodingKey)?
  // The storage is touched only by this node's own containers, one call at a time and never across a call that
  // could reach it again (a nested value is boxed before its member is stored), so the run-time exclusivity checks,
  // a fifth of the encoding time, are left out.
  @exclusivity(unchecked) var kind = Kind.empty
  @exclusivity(unchecked) var value = JSON.null
  @exclusivity(unchecked) var object = JSONObject()
  @exclusivity(unchecked) var elements: [JSON] = []
  @exclusivity(unchecked) var pendingMembers: [(key: String, node: EncodingNode)] = []
  @exclusivity(unchecked) var pendingElements: [(index: Int, node: EncodingNode)] = []
  /// A dictionary's container: its members are sorted by key when finished.
  @exclusivity(unchecked) var sortsKeys = false
  /// Set on the node that finds `dictionaryKeyType`, which records the key type instead of comparing with it.
  private let isProbe: Bool
  private var probedKeyType: Any.Type?

  init(parent: EncodingNode?, key: (any CodingKey)?, isProbe: Bool = false) {
    self.parent = parent
    self.key = key
    self.isProbe = isProbe
  }

  var codingPath: [any CodingKey] { path }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The JSON of one value. The metatype comparisons make the bit casts exact: each reads a value as its own type.
  static func box<T: Encodable>(_ value: T, parent: EncodingNode?, key: (any CodingKey)?) throws -> JSON {
    if T.self == JSON.self { return unsafeBitCast(value, to: JSON.self) }
    if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
    if T.self == Int.self { return .integer(unsafeBitCast(value, to: Int.self)) }
    if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
    if T.self == [Int].self { return .array(unsafeBitCast(value, to: [Int].self).map(JSON.integer)) }
    if T.self == Date.self { return .string(JSONDates.format(unsafeBitCast(value, to: Date.self))) }
    let node = EncodingNode(parent: parent, key: key)
    try value.encode(to: node)
    return node.finish()
  }

  /// The value written; a type that wrote nothing is an empty object, as with Foundation's encoder.
  func finish() -> JSON {
    switch kind {
    case .empty:
      return .object(JSONObject())
    case .value:
      return value
    case .object:
      for (key, node) in pendingMembers { object[key] = node.finish() }
      if sortsKeys { object.sortByKey() }
      return .object(object)
    case .array:
      for (index, node) in pendingElements { elements[index] = node.finish() }
      return .array(elements)
    }
  }

  /// The coding-key type the standard library's `Dictionary` encodes its members with (an internal type, found
  /// once by asking a dictionary to encode itself), so that a dictionary's container is known by one comparison.
  static let dictionaryKeyType: Any.Type? = {
    let probe = EncodingNode(parent: nil, key: nil, isProbe: true)
    try? ["": 0].encode(to: probe)
    return probe.probedKeyType
  }()

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if kind != .object {
      kind = .object
      object = JSONObject(capacity: 8)
      if isProbe { probedKeyType = Key.self } else { sortsKeys = Key.self == EncodingNode.dictionaryKeyType }
    }
    return KeyedEncodingContainer(KeyedContainer<Key>(node: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if kind != .array {
      kind = .array
      elements = []
    }
    return UnkeyedContainer(node: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(node: self) }

  /// A member filled in later by a nested container or encoder: a placeholder keeps its position among the members.
  func pendingMember(_ key: any CodingKey) -> EncodingNode {
    let child = EncodingNode(parent: self, key: key)
    object[key.stringValue] = .null
    pendingMembers.append((key.stringValue, child))
    return child
  }

  /// An element filled in later, as `pendingMember`.
  func pendingElement() -> EncodingNode {
    let child = EncodingNode(parent: self, key: JSONCodingKey(index: elements.count))
    pendingElements.append((elements.count, child))
    elements.append(.null)
    return child
  }

  func set(_ value: JSON) {
    kind = .value
    self.value = value
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode

  var codingPath: [any CodingKey] { node.codingPath }

  mutating func encodeNil(forKey key: Key) { node.object[key.stringValue] = .null }
  mutating func encode(_ value: Bool, forKey key: Key) { node.object[key.stringValue] = .bool(value) }
  mutating func encode(_ value: String, forKey key: Key) { node.object[key.stringValue] = .string(value) }
  mutating func encode(_ value: Double, forKey key: Key) { node.object[key.stringValue] = .double(value) }
  mutating func encode(_ value: Float, forKey key: Key) { node.object[key.stringValue] = .double(Double(value)) }
  mutating func encode(_ value: Int, forKey key: Key) { node.object[key.stringValue] = .integer(value) }
  mutating func encode(_ value: Int8, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: Int16, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: Int32, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: Int64, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: UInt, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: UInt8, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: UInt16, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: UInt32, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }
  mutating func encode(_ value: UInt64, forKey key: Key) { node.object[key.stringValue] = JSON(integer: value) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    node.object[key.stringValue] = try EncodingNode.box(value, parent: node, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    node.pendingMember(key).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    node.pendingMember(key).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { node.pendingMember(JSONCodingKey("super")) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { node.pendingMember(key) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let node: EncodingNode

  var codingPath: [any CodingKey] { node.codingPath }
  var count: Int { node.elements.count }

  mutating func encodeNil() { node.elements.append(.null) }
  mutating func encode(_ value: Bool) { node.elements.append(.bool(value)) }
  mutating func encode(_ value: String) { node.elements.append(.string(value)) }
  mutating func encode(_ value: Double) { node.elements.append(.double(value)) }
  mutating func encode(_ value: Float) { node.elements.append(.double(Double(value))) }
  mutating func encode(_ value: Int) { node.elements.append(.integer(value)) }
  mutating func encode(_ value: Int8) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: Int16) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: Int32) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: Int64) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: UInt) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: UInt8) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: UInt16) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: UInt32) { node.elements.append(JSON(integer: value)) }
  mutating func encode(_ value: UInt64) { node.elements.append(JSON(integer: value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = JSONCodingKey(index: node.elements.count)
    node.elements.append(try EncodingNode.box(value, parent: node, key: key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    node.pendingElement().container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { node.pendingElement().unkeyedContainer() }
  mutating func superEncoder() -> any Encoder { node.pendingElement() }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let node: EncodingNode

  var codingPath: [any CodingKey] { node.codingPath }

  mutating func encodeNil() { node.set(.null) }
  mutating func encode(_ value: Bool) { node.set(.bool(value)) }
  mutating func encode(_ value: String) { node.set(.string(value)) }
  mutating func encode(_ value: Double) { node.set(.double(value)) }
  mutating func encode(_ value: Float) { node.set(.double(Double(value))) }
  mutating func encode(_ value: Int) { node.set(.integer(value)) }
  mutating func encode(_ value: Int8) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: Int16) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: Int32) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: Int64) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: UInt) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: UInt8) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: UInt16) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: UInt32) { node.set(JSON(integer: value)) }
  mutating func encode(_ value: UInt64) { node.set(JSON(integer: value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    node.set(try EncodingNode.box(value, parent: node.parent, key: node.key))
  }
}

extension JSON {
  /// An integer of any width: `.integer` when it fits in `Int`, else the nearest `.double` (as JSON readers take it).
  init(integer value: some FixedWidthInteger) {
    if let exact = Int(exactly: value) { self = .integer(exact) } else { self = .double(Double(value)) }
  }
}

/// The one date format of the JSON this program writes and reads.
enum JSONDates {
  static func format(_ date: Date) -> String { date.formatted(.iso8601) }

  static func parse(_ text: String) -> Date? { try? Date(text, strategy: .iso8601) }
}
