/// A value that writes its own compact JSON text, with no `Codable` containers in between: for the language
/// server's replies on the latency path (hover, completion, diagnostics).
///
/// `JSONStreamEncoder` writes any `Encodable` in one pass, but `Codable` reaches the encoder through existential
/// containers (`KeyedEncodingContainer`'s box, a generic method per value, metadata and witness-table look-ups at
/// run time). On a hover that is most of the reply's code: measured with callgrind (release, a 4,000-line
/// document), the hover path ran 1,421 distinct 64-byte lines of code against the previous build's 1,096, 283 of
/// them encoding. Between two keystrokes that code is cold, so every line of it is a cache miss, and the hover's
/// median latency grew by about 40 µs. A type that writes itself runs only its own specialised code.
///
/// The bytes must be exactly those `JSONStreamEncoder` (and so `toJSON().serialized()`) gives for the same value:
/// members in declaration order, a `nil` optional left out. `JSONWritableTests` holds every conforming type of the
/// protocol module to that, with a value whose every optional is set.
public protocol JSONWritable: Encodable {
  /// Appends the value's compact JSON text to `writer`.
  func writeJSON(to writer: inout JSONWriter)
}

extension JSONWritable {
  /// The value's compact JSON text, written by the value itself.
  @inlinable public func writtenJSON() -> [UInt8] {
    var writer = JSONWriter()
    writeJSON(to: &writer)
    return writer.bytes
  }
}

/// The output of `JSONWritable` values: compact JSON text, built member by member.
public struct JSONWriter {
  /// The text written so far.
  public var bytes: [UInt8] { output }
  @usableFromInline var output: [UInt8] = []
  /// Whether the container being written already has a member or element, so the next needs a comma first.
  @usableFromInline var needsComma = false

  // The writing methods are `@inlinable` so that they are specialised, with the closures of `object`, into each
  // conforming type's `writeJSON(to:)` in the module that declares it; across modules they would otherwise run as
  // unspecialised generic code, which is what this type is here to avoid.

  public init(capacity: Int = 256) {
    output.reserveCapacity(capacity)
  }

  /// Writes an object; `body` writes its members with `member(_:_:)`.
  @inlinable public mutating func object(_ body: (inout JSONWriter) -> Void) {
    output.append(UInt8(ascii: "{"))
    needsComma = false
    body(&self)
    output.append(UInt8(ascii: "}"))
  }

  /// Writes a member of the object being written. `key` is written as it is, so it must need no escaping (the
  /// protocol's field names are plain ASCII words).
  @inlinable public mutating func member<Value: JSONWritable>(_ key: StaticString, _ value: Value) {
    if needsComma { output.append(UInt8(ascii: ",")) }
    output.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { output.append(contentsOf: $0) }
    output.append(contentsOf: "\":".utf8)
    value.writeJSON(to: &self)
    needsComma = true
  }

  /// Writes a member unless `value` is nil, as the encoders leave out a `nil` optional.
  @inlinable public mutating func member<Value: JSONWritable>(_ key: StaticString, _ value: Value?) {
    guard let value else { return }
    member(key, value)
  }

  /// Writes a member whose value is `text`, JSON text another writer wrote, as it is.
  @inlinable public mutating func member(_ key: StaticString, writtenText text: [UInt8]) {
    if needsComma { output.append(UInt8(ascii: ",")) }
    output.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { output.append(contentsOf: $0) }
    output.append(contentsOf: "\":".utf8)
    output.append(contentsOf: text)
    needsComma = true
  }

  /// Writes an array of `elements`.
  @inlinable public mutating func array<Elements: Sequence>(_ elements: Elements) where Elements.Element: JSONWritable {
    output.append(UInt8(ascii: "["))
    needsComma = false
    for element in elements {
      if needsComma { output.append(UInt8(ascii: ",")) }
      element.writeJSON(to: &self)
      needsComma = true
    }
    output.append(UInt8(ascii: "]"))
  }

  /// Writes a string, escaped.
  @inlinable public mutating func string(_ value: String) { JSON.serializeString(value, into: &output) }

  /// Writes an integer.
  @inlinable public mutating func integer(_ value: Int) { JSON.serializeInteger(value, into: &output) }

  /// Writes `true` or `false`.
  @inlinable public mutating func bool(_ value: Bool) { output.append(contentsOf: value ? "true".utf8 : "false".utf8) }

  /// Writes `null`.
  @inlinable public mutating func null() { output.append(contentsOf: "null".utf8) }
}

extension String: JSONWritable {
  @inlinable public func writeJSON(to writer: inout JSONWriter) { writer.string(self) }
}

extension Int: JSONWritable {
  @inlinable public func writeJSON(to writer: inout JSONWriter) { writer.integer(self) }
}

extension Bool: JSONWritable {
  @inlinable public func writeJSON(to writer: inout JSONWriter) { writer.bool(self) }
}

extension JSON: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { serialize(into: &writer.output) }
}

extension Array: JSONWritable where Element: JSONWritable {
  @inlinable public func writeJSON(to writer: inout JSONWriter) { writer.array(self) }
}

/// A `nil` written as a value (a reply of `null`, an element) is `null`; as a member it is left out
/// (`JSONWriter.member(_:_:)`).
extension Optional: JSONWritable where Wrapped: JSONWritable {
  @inlinable public func writeJSON(to writer: inout JSONWriter) {
    if let self { self.writeJSON(to: &writer) } else { writer.null() }
  }
}
