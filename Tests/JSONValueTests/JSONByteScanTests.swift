import Foundation
import Testing

import JSONValue

/// Strings are scanned a word at a time when written and read (`JSONByteScan`); these hold the results to what a
/// byte-by-byte reading gives: Foundation's parser, and an escaper written out here, on strings whose special bytes
/// fall at every position in and across words.
@Suite struct JSONByteScanTests {
  /// The pieces random strings are made of: runs of ordinary ASCII of every length around a word, the bytes JSON
  /// escapes, DEL, non-ASCII of two, three and four bytes (a UTF-16 surrogate pair when escaped).
  static let pieces: [String] = [
    "a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefghi", "0123456789abcdef", "\"", "\\", "\n", "\r", "\t",
    "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", " ", "\u{7F}", "é", "€", "😀", "/", "~", "\u{202E}",
  ]

  static func randomStrings(count: Int) -> [String] {
    var random = SystemRandomNumberGenerator()
    return (0..<count).map { _ in
      (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }
  }

  /// JSON's escaping byte by byte, as the serializer did before it scanned words.
  static func escapedByteByByte(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{8}": output += "\\b"
      case "\u{C}": output += "\\f"
      case "\u{0}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output + "\""
  }

  @Test func stringsAreWrittenAsByteByByteEscapingWritesThem() {
    for text in Self.randomStrings(count: 3_000) {
      #expect(JSON.string(text).serializedString() == Self.escapedByteByByte(text), "\(text.debugDescription)")
    }
  }

  @Test func stringsReadBackAsFoundationReadsThem() throws {
    for text in Self.randomStrings(count: 3_000) {
      let serialized = JSON.string(text).serialized()
      let parsed = try JSON.parse(serialized)
      let foundation = try JSONSerialization.jsonObject(with: Data(serialized), options: .fragmentsAllowed) as? String
      #expect(parsed == .string(text), "\(text.debugDescription)")
      #expect(foundation == text, "\(text.debugDescription)")
    }
  }

  /// Escapes the serializer never writes (`\/`, `\u` for any character, surrogate pairs), in long strings.
  @Test func otherEscapesReadAsFoundationReadsThem() throws {
    let escapes = [#"\/"#, #"\u0041"#, #"\u00e9"#, #"\u20AC"#, #"\ud83d\ude00"#, #"\uD83D\uDE00"#, #"\b"#, #"\f"#]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let body = (0..<Int.random(in: 0...16, using: &random)).map { _ in
        Bool.random(using: &random) ? (escapes.randomElement(using: &random) ?? "") : "plain text é "
      }.joined()
      let text = "{\"text\":\"\(body)\",\"n\":1}"
      let parsed = try JSON.parse(text)
      let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      #expect(parsed["text"] == foundation?["text"].flatMap { $0 as? String }.map(JSON.string), "\(body)")
    }
  }

  /// A raw control byte or an unterminated string is rejected at the byte a byte-by-byte reading stops at,
  /// wherever it falls in a word.
  @Test func errorsAreReportedWhereByteByByteReadingFindsThem() {
    for length in 0..<40 {
      let prefix = String(repeating: "x", count: length)
      for control in [UInt8(0x00), 0x01, 0x0A, 0x1F] {
        var bytes = Array("[\"\(prefix)".utf8)
        bytes.append(control)
        bytes.append(contentsOf: "yz\"]".utf8)
        #expect(throws: JSONParseError(.controlCharacterInString, at: 2 + length)) { try JSON.parse(bytes) }
        // The same after an escape, on the path that copies runs.
        var escaped = Array("[\"\\n\(prefix)".utf8)
        escaped.append(control)
        escaped.append(contentsOf: "\"]".utf8)
        #expect(throws: JSONParseError(.controlCharacterInString, at: 4 + length)) { try JSON.parse(escaped) }
      }
      #expect(throws: JSONParseError(.unexpectedEndOfInput, at: 2 + length)) { try JSON.parse("[\"\(prefix)") }
      #expect(throws: JSONParseError(.unexpectedEndOfInput, at: 4 + length)) { try JSON.parse("[\"\\t\(prefix)") }
      // Invalid UTF-8 is reported at the start of the string, as before.
      var invalid = Array("[\"\(prefix)".utf8)
      invalid.append(0xFF)
      invalid.append(contentsOf: "\"]".utf8)
      #expect(throws: JSONParseError(.invalidUTF8, at: 2)) { try JSON.parse(invalid) }
    }
  }

  /// A long document text, as `didOpen` sends it: one escape a line.
  @Test func longTextsRoundTrip() throws {
    let text = (0..<2_000).map { "line \($0): tax(ON.income_tax, $1,234.56) / 3 é \"quoted\"\t" }.joined(separator: "\n")
    let message: JSON = ["textDocument": ["text": .string(text), "version": 1]]
    #expect(try JSON.parse(message.serialized()) == message)
    #expect(String(decoding: message.serialized(), as: UTF8.self).contains(Self.escapedByteByByte(text)))
  }
}

/// Integers are written digit by digit into the output (`JSON.serializeInteger`), as `String(_:)` writes them.
@Suite struct JSONIntegerWritingTests {
  @Test func integersAreWrittenAsStringWritesThem() throws {
    var random = SystemRandomNumberGenerator()
    var values = [0, 1, 9, 10, 11, 99, 100, -1, -9, -10, -11, Int.max, Int.min, Int.max - 1, Int.min + 1]
    values += (0..<2_000).map { _ in Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0...63, using: &random) }
    for value in values {
      #expect(JSON.integer(value).serializedString() == String(value))
      // Through the one-pass encoder: a leaf, a member and an element.
      struct Wrapper: Encodable {
        var value: Int
        var list: [Int]
      }
      let text = String(decoding: try JSONStreamEncoder().encode(Wrapper(value: value, list: [value, value / 3])), as: UTF8.self)
      #expect(text == "{\"value\":\(value),\"list\":[\(value),\(value / 3)]}")
      #expect(String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self) == String(value))
    }
  }
}
