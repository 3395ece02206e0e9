import Foundation
import Testing

@testable import LanguageServerProtocol
import TestSupport

@Suite struct JSONParsingTests {
  @Test func parsesScalars() throws {
    #expect(try JSON.parse("null") == .null)
    #expect(try JSON.parse(" true ") == .bool(true))
    #expect(try JSON.parse("false") == .bool(false))
    #expect(try JSON.parse("0") == .integer(0))
    #expect(try JSON.parse("-12") == .integer(-12))
    #expect(try JSON.parse("1.5") == .double(1.5))
    #expect(try JSON.parse("-2.5e3") == .double(-2500))
    #expect(try JSON.parse("1E2") == .double(100))
    #expect(try JSON.parse("\"hi\"") == .string("hi"))
  }

  @Test func integersStayIntegersAndExtremesFit() throws {
    guard case .integer(let max) = try JSON.parse("9223372036854775807") else {
      Issue.record("Int.max should parse as an integer")
      return
    }
    #expect(max == Int.max)
    guard case .integer(let min) = try JSON.parse("-9223372036854775808") else {
      Issue.record("Int.min should parse as an integer")
      return
    }
    #expect(min == Int.min)
  }

  @Test func hugeNumbersBecomeDoublesWithoutFailing() throws {
    guard case .double(let big) = try JSON.parse("9223372036854775808") else {
      Issue.record("an integer past Int.max should become a double")
      return
    }
    #expect(big == 9_223_372_036_854_775_808.0)
    let digits = String(repeating: "9", count: 100_000)
    guard case .double(let huge) = try JSON.parse(digits) else {
      Issue.record("100,000 digits should become a double")
      return
    }
    #expect(huge == .infinity)
    guard case .double(let tiny) = try JSON.parse("1e-99999") else {
      Issue.record("a tiny exponent should become a double")
      return
    }
    #expect(tiny == 0)
    #expect(try JSON.parse("1e999999999999999999999").doubleValue == .infinity)
    // Non-finite values cannot be written as JSON numbers.
    #expect(JSON.double(.infinity).serializedString() == "null")
  }

  @Test func parsesNestedStructuresInOrder() throws {
    let json = try JSON.parse(#"{"b": [1, 2, {"c": null}], "a": "x", "b2": {}}"#)
    #expect(json.objectValue?.keys == ["b", "a", "b2"])
    #expect(json["b"]?[2]?["c"] == .null)
    #expect(json["a"]?.stringValue == "x")
    #expect(json["missing"] == nil)
    #expect(json["b"]?[7] == nil)
    #expect(json.value(at: ["b2"]) == .object([:]))
  }

  @Test func duplicateKeysKeepTheLastValueAtTheFirstPosition() throws {
    let json = try JSON.parse(#"{"a": 1, "b": 2, "a": 3}"#)
    #expect(json.objectValue?.keys == ["a", "b"])
    #expect(json["a"] == .integer(3))
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let json = try JSON.parse(#""a\"b\\c\/d\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00 é""#)
    #expect(json.stringValue == "a\"b\\c/d\u{8}\u{c}\n\r\tAé€😀 é")
  }

  @Test func keepsRawUTF8() throws {
    #expect(try JSON.parse("\"Québec 🍁\"").stringValue == "Québec 🍁")
  }

  @Test(arguments: [
    "", " ", "[", "]", "{", "}", "[1,]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{\"a\" 1}",
    "tru", "nul", "falsey", "01", "-", "+1", "1.", ".5", "1e", "1e+", "--1", "0x10", "NaN", "Infinity",
    "\"abc", "\"\\", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"",
    "\"\\ud800x\"", "\"a\u{1}b\"", "\"tab\there\"", "[1] 2", "{} {}", "'single'", "[1,,2]", "{,}", "\u{feff}1",
  ])
  func rejectsMalformedInput(_ text: String) {
    #expect(throws: JSONParseError.self) { try JSON.parse(text) }
  }

  @Test func rejectsInvalidUTF8() {
    let cases: [[UInt8]] = [
      [0x22, 0xFF, 0x22],  // invalid lead byte
      [0x22, 0xC3, 0x22],  // truncated sequence
      [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
      [0x22, 0xED, 0xA0, 0x80, 0x22],  // UTF-8 encoded surrogate
      [0x22, 0x5C, 0x6E, 0xF4, 0x90, 0x80, 0x80, 0x22],  // beyond U+10FFFF, in the escaped path
    ]
    for bytes in cases {
      #expect(throws: JSONParseError.self) { try JSON.parse(bytes) }
    }
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    #expect(throws: JSONParseError(.nestingTooDeep(limit: 512), at: 512)) { try JSON.parse(deep) }
    let deepObjects = String(repeating: "{\"a\":", count: 100_000)
    #expect(throws: JSONParseError.self) { try JSON.parse(deepObjects) }
    let closed = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: JSONParseError.self) { try JSON.parse(closed) }
  }

  @Test func nestingUpToTheLimitIsAccepted() throws {
    let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    let json = try JSON.parse(text)
    #expect(json.arrayValue?.count == 1)
  }

  @Test func truncatedInputNeverCrashes() throws {
    let full = Array(
      #"{"jsonrpc":"2.0","id":12,"method":"x","params":{"s":"é\u00e9\ud83d\ude00","n":[-1.5e3,true,null]}}"#.utf8)
    #expect(throws: Never.self) { try JSON.parse(full) }
    for length in 0..<full.count {
      #expect(throws: JSONParseError.self) { try JSON.parse(Array(full[0..<length])) }
    }
  }

  @Test func randomBytesNeverCrash() {
    var generator = SeededGenerator(seed: 0x7A11_BEEF)
    let alphabet = Array(#"{}[]",:\-0123456789.eE+tfnrul"u\abcd éü"#.utf8) + [0x00, 0x1F, 0xFF, 0xC3, 0xED, 0xA0]
    for _ in 0..<3000 {
      let count = Int(generator.next() % 64)
      var bytes: [UInt8] = []
      for _ in 0..<count {
        if generator.next() % 4 == 0 {
          bytes.append(UInt8(truncatingIfNeeded: generator.next()))
        } else {
          bytes.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
        }
      }
      // Either outcome is fine; what matters is returning at all.
      _ = try? JSON.parse(bytes)
    }
  }

  @Test func parsesFromData() throws {
    let data = Data(#"{"k":[1]}"#.utf8)
    #expect(try JSON.parse(data) == ["k": [1]])
  }
}

@Suite struct JSONSerializationTests {
  @Test func serializesCompactlyInInsertionOrder() {
    let json: JSON = ["z": 1, "a": [true, false, nil], "m": ["x": 1.5], "s": "text"]
    #expect(json.serializedString() == #"{"z":1,"a":[true,false,null],"m":{"x":1.5},"s":"text"}"#)
  }

  @Test func escapesWhatJSONRequiresAndKeepsUnicode() {
    let json = JSON.string("q\"b\\n\n r\r t\t \u{0} \u{1F} \u{7F} / é 😀 \u{8}\u{c}")
    #expect(json.serializedString() == "\"q\\\"b\\\\n\\n r\\r t\\t \\u0000 \\u001f \u{7F} / é 😀 \\b\\f\"")
  }

  @Test func numbersRoundTrip() throws {
    let values = [0.1, -2.5, 1e-7, 1e21, 123456789.125, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude]
    for value in values {
      let text = JSON.double(value).serializedString()
      #expect(try JSON.parse(text).doubleValue == value, "\(text)")
    }
    #expect(JSON.integer(Int.min).serializedString() == "-9223372036854775808")
  }

  @Test func roundTripsAComplexValue() throws {
    let text = #"{"a":[1,-2,3.25,"x\ny",{"b":null,"c":[]},{}],"é":"😀","t":true,"f":false}"#
    let json = try JSON.parse(text)
    #expect(json.serializedString() == text)
    #expect(try JSON.parse(json.serialized()) == json)
  }

  @Test func randomStringsRoundTrip() throws {
    var generator = SeededGenerator(seed: 42)
    let scalars: [Unicode.Scalar] = [
      "a", "\"", "\\", "\n", "\u{0}", "\u{1F}", "é", "€", "😀", "\u{FFFF}", "\u{10FFFF}", "/",
    ]
    for _ in 0..<500 {
      var string = ""
      for _ in 0..<Int(generator.next() % 20) {
        string.unicodeScalars.append(scalars[Int(generator.next() % UInt64(scalars.count))])
      }
      #expect(try JSON.parse(JSON.string(string).serialized()) == .string(string))
    }
  }

  @Test func equalityIgnoresKeyOrderAndNumberRepresentation() {
    #expect(JSON.integer(1) == JSON.double(1.0))
    #expect(JSON.integer(1) != JSON.double(1.5))
    #expect((["a": 1, "b": 2] as JSON) == (["b": 2, "a": 1] as JSON))
    #expect((["a": 1] as JSON) != (["a": 1, "b": 2] as JSON))
  }
}

@Suite struct JSONObjectTests {
  @Test func largeObjectsKeepOrderAndLookupAcrossTheIndexThreshold() throws {
    var object = JSONObject()
    for number in 0..<100 { object["k\(number)"] = .integer(number) }
    #expect(object.count == 100)
    #expect(object.keys.prefix(3) == ["k0", "k1", "k2"])
    #expect(object["k57"] == 57)
    object["k57"] = "replaced"
    #expect(object.keys[57] == "k57")
    object["k3"] = nil
    #expect(object.count == 99)
    #expect(object["k3"] == nil)
    #expect(object["k57"] == "replaced")
    #expect(object["k99"] == 99)
    for number in 0..<95 { object["k\(number)"] = nil }
    #expect(object.keys == ["k95", "k96", "k97", "k98", "k99"])
    #expect(object["k98"] == 98)
  }

  @Test func manyKeysParseQuickly() throws {
    let members = (0..<100_000).map { "\"key\($0)\":\($0)" }.joined(separator: ",")
    let json = try JSON.parse("{" + members + "}")
    #expect(json.objectValue?.count == 100_000)
    #expect(json["key99999"] == 99_999)
  }
}
