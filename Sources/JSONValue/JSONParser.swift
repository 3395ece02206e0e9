import Foundation

/// Why a byte sequence is not acceptable JSON, and where the parser gave up.
///
/// The offset is a byte offset into the parsed buffer; it is reported so that a log of a bad message points at the
/// culprit without the server having to echo the (possibly huge) message back.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong; distinct cases let tests and logs tell hostile input apart from truncated input.
  public enum Reason: Sendable, Equatable {
    case unexpectedEndOfInput
    case unexpectedByte(UInt8)
    case invalidNumber
    case invalidEscape
    /// A `\u` escape names half of a surrogate pair without the other half.
    case unpairedSurrogate
    case invalidUTF8
    /// Raw bytes below 0x20 are forbidden inside strings by RFC 8259.
    case controlCharacterInString
    case nestingTooDeep(limit: Int)
    case trailingData
  }

  public var reason: Reason
  public var offset: Int

  public init(_ reason: Reason, at offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  public var description: String {
    let what: String
    switch reason {
    case .unexpectedEndOfInput: what = "unexpected end of input"
    case .unexpectedByte(let byte): what = "unexpected byte 0x\(String(byte, radix: 16))"
    case .invalidNumber: what = "invalid number"
    case .invalidEscape: what = "invalid escape sequence"
    case .unpairedSurrogate: what = "unpaired UTF-16 surrogate in \\u escape"
    case .invalidUTF8: what = "invalid UTF-8 in string"
    case .controlCharacterInString: what = "unescaped control character in string"
    case .nestingTooDeep(let limit): what = "nesting deeper than \(limit) levels"
    case .trailingData: what = "unexpected data after the JSON value"
    }
    return "\(what) at byte \(offset)"
  }
}

extension JSON {
  /// Arrays and objects nested deeper than this are rejected. The parser recurses once per level, so the limit is
  /// what keeps a message made of 100,000 `[` from exhausting a thread's stack; no LSP message comes near it.
  public static let defaultMaximumDepth = 512

  /// Parses exactly one JSON value (surrounded by optional whitespace) from UTF-8 bytes.
  public static func parse(
    _ bytes: some ContiguousBytes, maximumDepth: Int = defaultMaximumDepth
  ) throws(JSONParseError) -> JSON {
    let result: Result<JSON, JSONParseError> = bytes.withUnsafeBytes { raw in
      var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
      return parser.parseDocument()
    }
    return try result.get()
  }

  /// Parses JSON text; a convenience for tests and configuration strings.
  public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSON {
    var text = text
    let result: Result<JSON, JSONParseError> = text.withUTF8 { bytes in
      var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
      return parser.parseDocument()
    }
    return try result.get()
  }
}

/// A recursive-descent parser over raw bytes. It never builds `Character`s: all scanning is on `UInt8`, and
/// strings are materialized once, validated as UTF-8 in bulk.
struct JSONParser {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let maximumDepth: Int
  private var index = 0
  private var depth = 0
  /// Reused across strings that contain escapes, to avoid one allocation per escaped string.
  private var scratch: [UInt8] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  mutating func parseDocument() -> Result<JSON, JSONParseError> {
    do throws(JSONParseError) {
      let value = try parseValue()
      skipWhitespace()
      if index < bytes.count { throw JSONParseError(.trailingData, at: index) }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }

  // MARK: Values

  private mutating func parseValue() throws(JSONParseError) -> JSON {
    skipWhitespace()
    guard index < bytes.count else { throw JSONParseError(.unexpectedEndOfInput, at: index) }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      return try parseObject()
    case UInt8(ascii: "["):
      return try parseArray()
    case UInt8(ascii: "\""):
      return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    case let byte:
      throw JSONParseError(.unexpectedByte(byte), at: index)
    }
  }

  private mutating func enterContainer() throws(JSONParseError) {
    depth += 1
    if depth > maximumDepth { throw JSONParseError(.nestingTooDeep(limit: maximumDepth), at: index) }
  }

  private mutating func parseObject() throws(JSONParseError) -> JSON {
    try enterContainer()
    index += 1  // {
    var object = JSONObject()
    skipWhitespace()
    if try peek() == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      guard try peek() == UInt8(ascii: "\"") else { throw unexpected() }
      let key = try parseString()
      skipWhitespace()
      guard try peek() == UInt8(ascii: ":") else { throw unexpected() }
      index += 1
      object[key] = try parseValue()
      skipWhitespace()
      switch try peek() {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "}"):
        index += 1
        depth -= 1
        return .object(object)
      default:
        throw unexpected()
      }
    }
  }

  private mutating func parseArray() throws(JSONParseError) -> JSON {
    try enterContainer()
    index += 1  // [
    var elements: [JSON] = []
    skipWhitespace()
    if try peek() == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(elements)
    }
    while true {
      elements.append(try parseValue())
      skipWhitespace()
      switch try peek() {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "]"):
        index += 1
        depth -= 1
        return .array(elements)
      default:
        throw unexpected()
      }
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let count = literal.utf8CodeUnitCount
    let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
    for offset in 0..<count {
      guard index + offset < bytes.count else { throw JSONParseError(.unexpectedEndOfInput, at: bytes.count) }
      let byte = bytes[index + offset]
      if byte != expected[offset] { throw JSONParseError(.unexpectedByte(byte), at: index + offset) }
    }
    index += count
  }

  // MARK: Numbers

  private mutating func parseNumber() throws(JSONParseError) -> JSON {
    let start = index
    var isInteger = true
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw JSONParseError(.unexpectedEndOfInput, at: index) }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if isDigit(bytes[index]) {
      skipDigits()
    } else {
      throw JSONParseError(.invalidNumber, at: index)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw JSONParseError(.invalidNumber, at: index) }
      skipDigits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw JSONParseError(.invalidNumber, at: index) }
      skipDigits()
    }
    let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
    if isInteger, let value = integerValue(text) { return .integer(value) }
    // The grammar above already matched, so Double's own parser only sees well-formed input; values beyond
    // Double's range become ±infinity, which the serializer writes as `null`.
    guard let value = Double(String(decoding: text, as: UTF8.self)) else {
      throw JSONParseError(.invalidNumber, at: start)
    }
    return .double(value)
  }

  /// Accumulates negatively so that `Int.min` parses; returns nil on overflow so the caller falls back to Double.
  private func integerValue(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
    var digits = text[...]
    let negative = digits.first == UInt8(ascii: "-")
    if negative { digits = digits.dropFirst() }
    var value = 0
    for byte in digits {
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = shifted.subtractingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
      if overflow1 || overflow2 { return nil }
      value = next
    }
    if negative { return value }
    let (positive, overflow) = (0).subtractingReportingOverflow(value)
    return overflow ? nil : positive
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }

  // MARK: Strings

  /// Scans a string starting at its opening quote. Strings without escapes (nearly all of them, including whole
  /// document texts) are validated and copied in one step straight from the input buffer.
  private mutating func parseString() throws(JSONParseError) -> String {
    index += 1  // opening quote
    let start = index
    while index < bytes.count {
      // Ordinary bytes are skipped a word at a time: a document's whole text often comes before the first escape.
      index = JSONByteScan.firstSpecial(in: bytes, from: index)
      guard index < bytes.count else { break }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let string = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: start)
        index += 1
        return string
      }
      if byte == UInt8(ascii: "\\") {
        scratch.removeAll(keepingCapacity: true)
        // Room for the rest of the input at once (escapes only shorten it): a document's text is one string, with an
        // escape on every line, and would otherwise be copied as the buffer doubles.
        scratch.reserveCapacity(bytes.count - start)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        return try parseEscapedString(from: start)
      }
      if byte < 0x20 { throw JSONParseError(.controlCharacterInString, at: index) }
      index += 1
    }
    throw JSONParseError(.unexpectedEndOfInput, at: index)
  }

  private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        let result = scratch.withUnsafeBufferPointer { buffer in String(validating: buffer, as: UTF8.self) }
        guard let result else { throw JSONParseError(.invalidUTF8, at: start) }
        return result
      case UInt8(ascii: "\\"):
        try parseEscape()
      case 0..<0x20:
        throw JSONParseError(.controlCharacterInString, at: index)
      default:
        // Copy the run up to the next quote, backslash or control byte at once.
        let runStart = index
        index = JSONByteScan.firstSpecial(in: bytes, from: index + 1)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      }
    }
    throw JSONParseError(.unexpectedEndOfInput, at: index)
  }

  private mutating func parseEscape() throws(JSONParseError) {
    let escapeStart = index
    index += 1  // backslash
    guard index < bytes.count else { throw JSONParseError(.unexpectedEndOfInput, at: index) }
    let letter = bytes[index]
    index += 1
    switch letter {
    case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
    case UInt8(ascii: "b"): scratch.append(0x08)
    case UInt8(ascii: "f"): scratch.append(0x0C)
    case UInt8(ascii: "n"): scratch.append(0x0A)
    case UInt8(ascii: "r"): scratch.append(0x0D)
    case UInt8(ascii: "t"): scratch.append(0x09)
    case UInt8(ascii: "u"):
      let first = try parseHex4()
      var scalarValue = UInt32(first)
      if (0xD800...0xDBFF).contains(first) {
        // A high surrogate must be followed immediately by `\u` and a low surrogate.
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { throw JSONParseError(.unpairedSurrogate, at: escapeStart) }
        index += 2
        let second = try parseHex4()
        guard (0xDC00...0xDFFF).contains(second) else { throw JSONParseError(.unpairedSurrogate, at: escapeStart) }
        scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(first) {
        throw JSONParseError(.unpairedSurrogate, at: escapeStart)
      }
      appendUTF8(scalarValue)
    default:
      throw JSONParseError(.invalidEscape, at: escapeStart)
    }
  }

  /// Encodes a scalar value that is known not to be a surrogate (the caller combined or rejected those).
  private mutating func appendUTF8(_ value: UInt32) {
    switch value {
    case 0..<0x80:
      scratch.append(UInt8(value))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | (value >> 6)))
      scratch.append(UInt8(0x80 | (value & 0x3F)))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | (value >> 12)))
      scratch.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
      scratch.append(UInt8(0x80 | (value & 0x3F)))
    default:
      scratch.append(UInt8(0xF0 | (value >> 18)))
      scratch.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
      scratch.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
      scratch.append(UInt8(0x80 | (value & 0x3F)))
    }
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
    guard index + 4 <= bytes.count else { throw JSONParseError(.unexpectedEndOfInput, at: bytes.count) }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw JSONParseError(.invalidEscape, at: index)
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  private func makeString(_ raw: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONParseError) -> String {
    guard let string = String(validating: raw, as: UTF8.self) else { throw JSONParseError(.invalidUTF8, at: offset) }
    return string
  }

  // MARK: Helpers

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  private func peek() throws(JSONParseError) -> UInt8 {
    guard index < bytes.count else { throw JSONParseError(.unexpectedEndOfInput, at: index) }
    return bytes[index]
  }

  private func unexpected() -> JSONParseError {
    guard index < bytes.count else { return JSONParseError(.unexpectedEndOfInput, at: index) }
    return JSONParseError(.unexpectedByte(bytes[index]), at: index)
  }
}
