extension JSON {
  /// The compact UTF-8 serialization that goes into a message body.
  ///
  /// Non-ASCII text is written as raw UTF-8 (not `\u` escapes) because that is shorter and every LSP peer reads
  /// UTF-8; only what JSON requires is escaped. Non-finite doubles, which JSON cannot express, are written as
  /// `null`, as JavaScript's `JSON.stringify` does.
  public func serialized() -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(128)
    serialize(into: &output)
    return output
  }

  /// The serialization as a `String`, for logs and tests.
  public func serializedString() -> String {
    String(decoding: serialized(), as: UTF8.self)
  }

  /// Appends to an existing buffer, so a framed message can be built without copying the body.
  public func serialize(into output: inout [UInt8]) {
    switch self {
    case .null:
      output.append(contentsOf: "null".utf8)
    case .bool(let value):
      output.append(contentsOf: value ? "true".utf8 : "false".utf8)
    case .integer(let value):
      JSON.serializeInteger(value, into: &output)
    case .double(let value):
      if value.isFinite {
        output.append(contentsOf: value.description.utf8)
      } else {
        output.append(contentsOf: "null".utf8)
      }
    case .string(let value):
      JSON.serializeString(value, into: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        element.serialize(into: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let object):
      output.append(UInt8(ascii: "{"))
      var first = true
      object.forEachMember { key, value in
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        JSON.serializeString(key, into: &output)
        output.append(UInt8(ascii: ":"))
        value.serialize(into: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  /// Indented by two spaces, one member or element a line, keys sorted when asked: for files people read and diff.
  /// Scalars are written as `serialized()` writes them.
  public func prettySerialized(sortingKeys: Bool = false) -> [UInt8] {
    var output: [UInt8] = []
    prettySerialize(into: &output, indent: 0, sortingKeys: sortingKeys)
    return output
  }

  private func prettySerialize(into output: inout [UInt8], indent: Int, sortingKeys: Bool) {
    func newline(_ level: Int) {
      output.append(UInt8(ascii: "\n"))
      output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }
    switch self {
    case .array(let elements) where !elements.isEmpty:
      output.append(UInt8(ascii: "["))
      for (offset, element) in elements.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        element.prettySerialize(into: &output, indent: indent + 1, sortingKeys: sortingKeys)
      }
      newline(indent)
      output.append(UInt8(ascii: "]"))
    case .object(let object) where !object.isEmpty:
      output.append(UInt8(ascii: "{"))
      var members = object.members
      if sortingKeys { members.sort { $0.key < $1.key } }
      for (offset, member) in members.enumerated() {
        if offset > 0 { output.append(UInt8(ascii: ",")) }
        newline(indent + 1)
        JSON.serializeString(member.key, into: &output)
        output.append(contentsOf: ": ".utf8)
        member.value.prettySerialize(into: &output, indent: indent + 1, sortingKeys: sortingKeys)
      }
      newline(indent)
      output.append(UInt8(ascii: "}"))
    default:
      serialize(into: &output)
    }
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// The decimal digits of `value`, as `String(value)` writes them, without making the string: replies are full of
  /// small integers (line, character, kind).
  @usableFromInline static func serializeInteger(_ value: Int, into output: inout [UInt8]) {
    if value >= 0, value < 10 {
      output.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    // At most 20 digits and a sign.
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &buffer) { digits in
      var magnitude = value.magnitude
      var start = digits.count
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude != 0
      if value < 0 {
        start -= 1
        digits[start] = UInt8(ascii: "-")
      }
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[start...]))
    }
  }

  @usableFromInline static func serializeString(_ string: String, into output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { bytes in
      var runStart = 0
      while runStart < bytes.count {
        // The run of bytes written as they are, found a word at a time, then copied at once.
        let index = JSONByteScan.firstSpecial(in: bytes, from: runStart)
        if runStart < index { output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index])) }
        guard index < bytes.count else { break }
        let byte = bytes[index]
        runStart = index + 1
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
          output.append(contentsOf: "u00".utf8)
          output.append(hexDigits[Int(byte >> 4)])
          output.append(hexDigits[Int(byte & 0x0F)])
        }
      }
    }
    output.append(UInt8(ascii: "\""))
  }
}
