import Foundation

/// Decodes `Decodable` values from a `JSON` value, the other half of `JSONValueEncoder`.
///
/// Decoding is where untrusted input meets typed code, so every mismatch is a `DecodingError` whose context has the
/// coding path and a message naming what was expected and what was found (`expected integer, found string`,
/// `expected TextDocumentIdentifier object, found array`); nothing traps. Absent and `null` are alike for optional
/// fields, because peers differ in which they send. Integers may arrive as integral doubles (some peers write every
/// number as a float); `Date` is read from RFC 3339 text.
public struct JSONValueDecoder {
  /// Whether optional fields of the wrong kind read as absent (see `LenientDecodable`), all the way down.
  public var lenient: Bool

  /// Lenient for the types that ask for it, once, at the top: a check per value decoded would be most of the cost of
  /// decoding a small message (the runtime's conformance checks are slow).
  public init(lenient: Bool = false) {
    self.lenient = lenient
  }

  public func decode<T: Decodable>(_ type: T.Type = T.self, from json: JSON) throws -> T {
    try DecodingNode.unbox(type, from: json, parent: nil, key: nil, lenient: lenient)
  }
}

extension Decodable {
  /// Decodes a value sent by a peer, reporting a mismatch with the path to it.
  public init(json: JSON) throws(JSONDecodingError) {
    try self.init(json: json, lenient: Self.self is any LenientDecodable.Type)
  }

  /// As `init(json:)`, leniently or not as told (a caller that decodes many values of one type decides once).
  public init(json: JSON, lenient: Bool) throws(JSONDecodingError) {
    do {
      self = try JSONValueDecoder(lenient: lenient).decode(Self.self, from: json)
    } catch {
      throw JSONDecodingError(error)
    }
  }
}

/// A type whose optional fields holding the wrong kind of value read as absent, all the way down, instead of failing
/// the whole value: for large, open-ended descriptions a peer writes about itself (an LSP client's capabilities),
/// where one odd leaf should cost that leaf, not the session. `init(json:)` decodes such a type leniently; inside a
/// value decoded strictly it is decoded strictly too (the lenience is the decoder's, chosen at the top).
public protocol LenientDecodable: Decodable {}

/// A value being decoded, with the way to it.
final class DecodingNode: Decoder, CodingNode {
  let value: JSON
  let parent: DecodingNode?
  let key: (any CodingKey)?
  /// The type being decoded, named in errors about the shape of its value.
  let type: Any.Type
  let lenient: Bool

  init(value: JSON, parent: DecodingNode?, key: (any CodingKey)?, type: Any.Type, lenient: Bool) {
    self.value = value
    self.parent = parent
    self.key = key
    self.type = type
    self.lenient = lenient
  }

  var codingPath: [any CodingKey] { path }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The path of a member or element of this value.
  func path(_ key: any CodingKey) -> [any CodingKey] { path + [key] }

  static func unbox<T: Decodable>(
    _ type: T.Type, from value: JSON, parent: DecodingNode?, key: (any CodingKey)?, lenient: Bool
  ) throws -> T {
    if T.self == JSON.self, let json = value as? T { return json }
    if T.self == Date.self {
      guard case .string(let text) = value, let date = JSONDates.parse(text), let result = date as? T else {
        throw DecodingError.typeMismatch(
          Date.self, context(parent, key, "expected a date (RFC 3339 text), found \(value.kindName)"))
      }
      return result
    }
    let node = DecodingNode(value: value, parent: parent, key: key, type: T.self, lenient: lenient)
    return try T(from: node)
  }

  private static func context(_ parent: DecodingNode?, _ key: (any CodingKey)?, _ message: String) -> DecodingError.Context {
    var path = parent?.codingPath ?? []
    if let key { path.append(key) }
    return DecodingError.Context(codingPath: path, debugDescription: message)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = value else {
      throw DecodingError.typeMismatch(
        [String: JSON].self,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: "expected \(self.type) object, found \(value.kindName)"))
    }
    return KeyedDecodingContainer(KeyedContainer<Key>(node: self, object: object))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw DecodingError.typeMismatch(
        [JSON].self, DecodingError.Context(codingPath: codingPath, debugDescription: "expected array, found \(value.kindName)"))
    }
    return UnkeyedContainer(node: self, elements: elements)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(node: self) }

  func child(_ value: JSON, _ key: any CodingKey, _ type: Any.Type) -> DecodingNode {
    DecodingNode(value: value, parent: self, key: key, type: type, lenient: lenient)
  }

  // MARK: Leaves

  /// A leaf of the expected kind, or the error that names what was found instead (`null` is "not found").
  static func leaf<T>(
    _ value: JSON, at path: @autoclosure () -> [any CodingKey], _ expected: String, _ read: (JSON) -> T?
  ) throws -> T {
    if let result = read(value) { return result }
    let context = DecodingError.Context(codingPath: path(), debugDescription: "expected \(expected), found \(value.kindName)")
    if value.isNull { throw DecodingError.valueNotFound(T.self, context) }
    throw DecodingError.typeMismatch(T.self, context)
  }

  static func bool(_ value: JSON, at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
    try leaf(value, at: path(), "boolean") { $0.boolValue }
  }

  static func string(_ value: JSON, at path: @autoclosure () -> [any CodingKey]) throws -> String {
    try leaf(value, at: path(), "string") { $0.stringValue }
  }

  static func double(_ value: JSON, at path: @autoclosure () -> [any CodingKey]) throws -> Double {
    try leaf(value, at: path(), "number") { $0.doubleValue }
  }

  static func integer<I: FixedWidthInteger>(_ value: JSON, at path: @autoclosure () -> [any CodingKey]) throws -> I {
    let integer: Int = try leaf(value, at: path(), "integer") { $0.intValue }
    guard let result = I(exactly: integer) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: path(), debugDescription: "\(integer) does not fit in \(I.self)"))
    }
    return result
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let node: DecodingNode
  let object: JSONObject

  var codingPath: [any CodingKey] { node.codingPath }
  var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

  private func member(_ key: Key) throws -> JSON {
    guard let value = object[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing required field"))
    }
    return value
  }

  /// The member, or nil when it is absent or `null`.
  private func optionalMember(_ key: Key) -> JSON? {
    guard let value = object[key.stringValue], !value.isNull else { return nil }
    return value
  }

  /// Reads an optional member; in a lenient value, one of the wrong kind is absent too.
  private func optional<T>(_ key: Key, _ read: (JSON) throws -> T) throws -> T? {
    guard let value = optionalMember(key) else { return nil }
    if node.lenient { return try? read(value) }
    return try read(value)
  }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try DecodingNode.bool(member(key), at: node.path(key)) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try DecodingNode.string(member(key), at: node.path(key)) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try DecodingNode.double(member(key), at: node.path(key)) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decode(Double.self, forKey: key)) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try DecodingNode.integer(member(key), at: node.path(key)) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try DecodingNode.integer(member(key), at: node.path(key)) }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try DecodingNode.unbox(type, from: member(key), parent: node, key: key, lenient: node.lenient)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try optional(key) { try DecodingNode.bool($0, at: node.path(key)) }
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try optional(key) { try DecodingNode.string($0, at: node.path(key)) }
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try optional(key) { try DecodingNode.integer($0, at: node.path(key)) }
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try optional(key) { try DecodingNode.double($0, at: node.path(key)) }
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try optional(key) { try DecodingNode.unbox(type, from: $0, parent: node, key: key, lenient: node.lenient) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try node.child(member(key), key, [String: JSON].self).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try node.child(member(key), key, [JSON].self).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    node.child(object["super"] ?? .null, JSONCodingKey("super"), Any.self)
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    node.child(object[key.stringValue] ?? .null, key, Any.self)
  }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
  let node: DecodingNode
  let elements: [JSON]
  var currentIndex = 0

  var codingPath: [any CodingKey] { node.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private var key: JSONCodingKey { JSONCodingKey(index: currentIndex) }

  /// The next element, consumed.
  private mutating func next<T>(_ type: T.Type) throws -> JSON {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, DecodingError.Context(codingPath: node.path(key), debugDescription: "unexpected end of array"))
    }
    defer { currentIndex += 1 }
    return elements[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex].isNull else { return false }
    currentIndex += 1
    return true
  }

  private mutating func integer<I: FixedWidthInteger>() throws -> I {
    let path = node.path(key)
    return try DecodingNode.integer(next(I.self), at: path)
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let path = node.path(key)
    return try DecodingNode.bool(next(type), at: path)
  }

  mutating func decode(_ type: String.Type) throws -> String {
    let path = node.path(key)
    return try DecodingNode.string(next(type), at: path)
  }

  mutating func decode(_ type: Double.Type) throws -> Double {
    let path = node.path(key)
    return try DecodingNode.double(next(type), at: path)
  }

  mutating func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let key = self.key
    return try DecodingNode.unbox(type, from: next(type), parent: node, key: key, lenient: node.lenient)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
    let key = self.key
    return try node.child(next([String: JSON].self), key, [String: JSON].self).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let key = self.key
    return try node.child(next([JSON].self), key, [JSON].self).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let key = self.key
    return node.child(try next(Any.self), key, Any.self)
  }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
  let node: DecodingNode

  var codingPath: [any CodingKey] { node.codingPath }

  func decodeNil() -> Bool { node.value.isNull }
  func decode(_ type: Bool.Type) throws -> Bool { try DecodingNode.bool(node.value, at: codingPath) }
  func decode(_ type: String.Type) throws -> String { try DecodingNode.string(node.value, at: codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try DecodingNode.double(node.value, at: codingPath) }
  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
  func decode(_ type: Int.Type) throws -> Int { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: Int32.Type) throws -> Int32 { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: Int64.Type) throws -> Int64 { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: UInt.Type) throws -> UInt { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try DecodingNode.integer(node.value, at: codingPath) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try DecodingNode.integer(node.value, at: codingPath) }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try DecodingNode.unbox(type, from: node.value, parent: node.parent, key: node.key, lenient: node.lenient)
  }
}
