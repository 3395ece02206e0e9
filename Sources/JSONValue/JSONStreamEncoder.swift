import Foundation

/// Encodes `Encodable` values straight to compact JSON text, the bytes `JSONValueEncoder` and `JSON.serialized()`
/// give together, without building the `JSON` tree in between.
///
/// It is for the language server's replies (a completion list of hundreds of items, a hover): the tree cost an
/// allocation per value and a search of the keys already set per member, and was then walked again to serialize it.
/// Measured with callgrind (release, a 1,000-line file), a completion reply's encoding and serialization went from
/// 1.65 M to 1.47 M instructions: most of what is left is `Codable`'s own (a boxed container and generic metadata
/// look-ups per value), which any encoder pays.
///
/// `Codable` lets a type use its containers in any order, which one pass cannot follow. Whatever it cannot write in
/// order is written through the tree instead, for the smallest value that contains it: a dictionary (whose keys the
/// tree sorts), a key encoded twice in one object (the tree keeps the first position and the last value), a
/// container written after a later one was begun, an encoder given a second value. The bytes are the same either
/// way; `JSONStreamEncoderTests` holds the two equal.
public struct JSONStreamEncoder {
  public init() {}

  /// The compact JSON text of `value`; fails only when a type's own `encode(to:)` throws.
  public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let stream = JSONStream()
    stream.output.reserveCapacity(256)
    try stream.write(value, level: 0)
    return stream.output
  }
}

extension Encodable {
  /// The value's compact JSON text, as `toJSON().serialized()` gives it; written in one pass (`JSONStreamEncoder`).
  /// A type whose own `encode(to:)` throws is written as `null`, as `toJSON()` does.
  public func serializedJSON() -> [UInt8] {
    (try? JSONStreamEncoder().encode(self)) ?? Array("null".utf8)
  }
}

/// What a value being written could not write in order; caught by the `write` of the value that owns the container
/// misused (`level`), which writes that value through the tree instead.
struct JSONStreamDetour: Error {
  var level: Int
}

/// The output and the containers open in it, innermost last.
final class JSONStream {
  struct Frame {
    var id: Int
    /// The level of the encoder the container belongs to (nested containers share their encoder's).
    var level: Int
    var isObject: Bool
    var count = 0
    /// Where this object's keys begin in `keys`.
    var keysStart: Int
  }

  // Touched by one encoding on one thread, never across a call that could reach the same storage again, as
  // `EncodingNode`'s storage.
  @exclusivity(unchecked) var output: [UInt8] = []
  @exclusivity(unchecked) var frames: [Frame] = []
  /// The keys of the open objects, for finding a key written twice.
  @exclusivity(unchecked) var keys: [String] = []
  @exclusivity(unchecked) private var nextID = 0
  /// What the encoder of each level (`JSONStreamNode`, a value) has done, by level. A level holds one encoder at a
  /// time: the next value at that level is begun only when the one before it is written.
  @exclusivity(unchecked) var nodes: [JSONStreamNode.Record] = []
  @exclusivity(unchecked) private var nextSerial = 0
  /// The level of the container misused, when something could not be written in order.
  @exclusivity(unchecked) var detour: Int?

  /// Writes one value. Leaves are written at once; anything else gets an encoder of its own at `level + 1`.
  func write<T: Encodable>(_ value: T, level: Int) throws {
    if T.self == JSON.self { return unsafeBitCast(value, to: JSON.self).serialize(into: &output) }
    if T.self == String.self { return JSON.serializeString(unsafeBitCast(value, to: String.self), into: &output) }
    if T.self == Int.self { return JSON.serializeInteger(unsafeBitCast(value, to: Int.self), into: &output) }
    if T.self == Bool.self { return output.append(contentsOf: unsafeBitCast(value, to: Bool.self) ? "true".utf8 : "false".utf8) }
    // As `EncodingNode.box` writes a date.
    if T.self == Date.self {
      return JSON.serializeString(JSONDates.format(unsafeBitCast(value, to: Date.self)), into: &output)
    }
    let start = output.count
    let depth = frames.count
    let keyCount = keys.count
    let encoder = JSONStreamNode(stream: self, level: level + 1)
    do {
      if detour != nil { throw JSONStreamDetour(level: detour ?? 0) }
      try value.encode(to: encoder)
      if let detour { throw JSONStreamDetour(level: detour) }
      close(above: depth)
      if nodes[level + 1].state == .empty { output.append(contentsOf: "{}".utf8) }
    } catch let detour as JSONStreamDetour where detour.level > level {
      // Written through the tree: the same bytes, in the order the tree keeps.
      self.detour = nil
      output.removeSubrange(start...)
      frames.removeSubrange(depth...)
      keys.removeSubrange(keyCount...)
      try EncodingNode.box(value, parent: nil, key: nil).serialize(into: &output)
    }
  }

  /// Closes the containers above the first `depth`, which are finished once a container below them is written to.
  func close(above depth: Int) {
    while frames.count > depth {
      let frame = frames.removeLast()
      output.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
      if frame.isObject { keys.removeSubrange(frame.keysStart...) }
    }
  }

  /// Starts the record of a new encoder at `level`; returns its serial number.
  func beginNode(level: Int) -> Int {
    nextSerial += 1
    while nodes.count <= level { nodes.append(JSONStreamNode.Record(serial: 0)) }
    nodes[level] = JSONStreamNode.Record(serial: nextSerial)
    return nextSerial
  }

  /// Opens a container; returns its frame's id.
  func open(object: Bool, level: Int) -> Int {
    nextID += 1
    frames.append(Frame(id: nextID, level: level, isObject: object, keysStart: keys.count))
    output.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
    return nextID
  }

  /// Makes the container `id` the innermost again (closing those above it), or records a detour when it was
  /// closed already; true when it may be written to.
  func reach(_ id: Int, level: Int) -> Bool {
    guard detour == nil else { return false }
    guard let index = frames.lastIndex(where: { $0.id == id }) else {
      detour = level
      return false
    }
    close(above: index + 1)
    return true
  }

  /// Starts a member of the innermost object: the separator and the key. False (a detour recorded) when the key
  /// was written already.
  func member(_ key: String, level: Int) -> Bool {
    let frame = frames.count - 1
    // Lengths first: keys of one object mostly differ in length, and comparing those is cheaper than the text.
    let length = key.utf8.count
    for index in frames[frame].keysStart..<keys.count where keys[index].utf8.count == length && keys[index] == key {
      detour = level
      return false
    }
    keys.append(key)
    if frames[frame].count > 0 { output.append(UInt8(ascii: ",")) }
    frames[frame].count += 1
    JSON.serializeString(key, into: &output)
    output.append(UInt8(ascii: ":"))
    return true
  }

  /// Starts an element of the innermost array.
  func element() {
    let frame = frames.count - 1
    if frames[frame].count > 0 { output.append(UInt8(ascii: ",")) }
    frames[frame].count += 1
  }

  func scalar(_ value: JSON) { value.serialize(into: &output) }
}

/// The encoder of one value: it writes one container (asked for any number of times) or one single value.
///
/// A value, not an object: one is made for every value written that is not a leaf, and as two words it is passed as
/// `any Encoder` without an allocation. What it has done is kept in the stream's record of its level, with the
/// encoder's serial number; an encoder used after the next one at its level was made (kept by a type for later)
/// finds another serial there, and is a detour.
struct JSONStreamNode: Encoder {
  enum State {
    case empty
    case single
    case container
  }

  /// What the encoder at a level has done.
  struct Record {
    var serial: Int
    var state = State.empty
    /// The id of the container the encoder opened, and whether it is an object.
    var frameID = 0
    var isObject = false
  }

  let stream: JSONStream
  /// The level in the low 32 bits, the serial number above.
  private let tag: Int

  init(stream: JSONStream, level: Int) {
    self.stream = stream
    tag = level | stream.beginNode(level: level) << 32
  }

  var level: Int { tag & 0xFFFF_FFFF }

  /// Whether the record of this encoder's level is this encoder's.
  private var isCurrent: Bool { stream.nodes[level].serial == tag >> 32 }

  // The path is not kept (it would be built for every value); types that read it see an empty one.
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The container of this encoder: opened the first time, the same one after; a second kind, or a container after
  /// a single value, is a detour.
  func frame(object: Bool) -> Int {
    guard isCurrent else {
      stream.detour = stream.detour ?? level
      return -1
    }
    let level = self.level
    switch stream.nodes[level].state {
    case .empty:
      let id = stream.open(object: object, level: level)
      stream.nodes[level].state = .container
      stream.nodes[level].isObject = object
      stream.nodes[level].frameID = id
    case .container where stream.nodes[level].isObject == object:
      break
    default:
      stream.detour = stream.detour ?? level
    }
    return stream.nodes[level].frameID
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    // A dictionary's members are sorted by key: written through the tree.
    if Key.self == EncodingNode.dictionaryKeyType { stream.detour = stream.detour ?? level }
    return KeyedEncodingContainer(StreamKeyedContainer<Key>(node: self, id: frame(object: true)))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    StreamUnkeyedContainer(node: self, id: frame(object: false))
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { StreamSingleValueContainer(node: self) }

  /// Claims this encoder for its one single value; false (a detour recorded) when it has written already.
  func single() -> Bool {
    guard stream.detour == nil else { return false }
    guard isCurrent, stream.nodes[level].state == .empty else {
      stream.detour = level
      return false
    }
    stream.nodes[level].state = .single
    return true
  }
}

private struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: JSONStreamNode
  let id: Int

  var codingPath: [any CodingKey] { [] }

  /// Starts the member `key`, or throws the detour that stops this value.
  private func begin(_ key: Key) throws {
    let stream = node.stream
    guard stream.reach(id, level: node.level), stream.member(key.stringValue, level: node.level) else {
      throw JSONStreamDetour(level: stream.detour ?? node.level)
    }
  }

  private func put(_ value: JSON, _ key: Key) throws {
    try begin(key)
    node.stream.scalar(value)
  }

  mutating func encodeNil(forKey key: Key) throws { try put(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { try put(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try begin(key)
    JSON.serializeString(value, into: &node.stream.output)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws { try put(.double(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try put(.double(Double(value)), key) }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    try begin(key)
    JSON.serializeInteger(value, into: &node.stream.output)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(JSON(integer: value), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(JSON(integer: value), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try begin(key)
    try node.stream.write(value, level: node.level)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let stream = node.stream
    if stream.reach(id, level: node.level), stream.member(key.stringValue, level: node.level) {
      return KeyedEncodingContainer(
        StreamKeyedContainer<NestedKey>(node: node, id: stream.open(object: true, level: node.level)))
    }
    return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(node: node, id: -1))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let stream = node.stream
    if stream.reach(id, level: node.level), stream.member(key.stringValue, level: node.level) {
      return StreamUnkeyedContainer(node: node, id: stream.open(object: false, level: node.level))
    }
    return StreamUnkeyedContainer(node: node, id: -1)
  }

  // An encoder handed out for later use cannot be followed in one pass.
  mutating func superEncoder() -> any Encoder { detour() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { detour() }

  private func detour() -> any Encoder {
    node.stream.detour = node.stream.detour ?? node.level
    return JSONStreamNode(stream: node.stream, level: node.level + 1)
  }
}

/// A container that writes one scalar at a time (an array's next element, a single value): the scalar `encode`
/// requirements both protocols share are written once, in the extension, over the container's `put`.
private protocol StreamScalarContainer {
  /// Writes `value` as the container's next scalar, or throws the detour that stops this value.
  mutating func put(_ value: JSON) throws
}

extension StreamScalarContainer {
  mutating func encodeNil() throws { try put(.null) }
  mutating func encode(_ value: Bool) throws { try put(.bool(value)) }
  mutating func encode(_ value: Double) throws { try put(.double(value)) }
  mutating func encode(_ value: Float) throws { try put(.double(Double(value))) }
  mutating func encode(_ value: Int8) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: Int16) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: Int32) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: Int64) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: UInt) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: UInt8) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: UInt16) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: UInt32) throws { try put(JSON(integer: value)) }
  mutating func encode(_ value: UInt64) throws { try put(JSON(integer: value)) }
}

private struct StreamUnkeyedContainer: UnkeyedEncodingContainer, StreamScalarContainer {
  let node: JSONStreamNode
  let id: Int
  var count = 0

  init(node: JSONStreamNode, id: Int) {
    self.node = node
    self.id = id
  }

  var codingPath: [any CodingKey] { [] }

  private mutating func begin() throws {
    let stream = node.stream
    guard stream.reach(id, level: node.level) else { throw JSONStreamDetour(level: stream.detour ?? node.level) }
    stream.element()
    count += 1
  }

  mutating func put(_ value: JSON) throws {
    try begin()
    node.stream.scalar(value)
  }

  mutating func encode(_ value: String) throws {
    try begin()
    JSON.serializeString(value, into: &node.stream.output)
  }
  mutating func encode(_ value: Int) throws {
    try begin()
    JSON.serializeInteger(value, into: &node.stream.output)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try begin()
    try node.stream.write(value, level: node.level)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let stream = node.stream
    guard stream.reach(id, level: node.level) else {
      return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(node: node, id: -1))
    }
    stream.element()
    count += 1
    return KeyedEncodingContainer(
      StreamKeyedContainer<NestedKey>(node: node, id: stream.open(object: true, level: node.level)))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let stream = node.stream
    guard stream.reach(id, level: node.level) else { return StreamUnkeyedContainer(node: node, id: -1) }
    stream.element()
    count += 1
    return StreamUnkeyedContainer(node: node, id: stream.open(object: false, level: node.level))
  }

  mutating func superEncoder() -> any Encoder {
    node.stream.detour = node.stream.detour ?? node.level
    return JSONStreamNode(stream: node.stream, level: node.level + 1)
  }
}

private struct StreamSingleValueContainer: SingleValueEncodingContainer, StreamScalarContainer {
  let node: JSONStreamNode

  var codingPath: [any CodingKey] { [] }

  func put(_ value: JSON) throws {
    guard node.single() else { throw JSONStreamDetour(level: node.stream.detour ?? node.level) }
    node.stream.scalar(value)
  }

  mutating func encode(_ value: String) throws { try put(.string(value)) }
  mutating func encode(_ value: Int) throws { try put(.integer(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    guard node.single() else { throw JSONStreamDetour(level: node.stream.detour ?? node.level) }
    try node.stream.write(value, level: node.level)
  }
}
