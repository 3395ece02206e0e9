import Foundation
import Testing

import JSONValue

/// The coders over `JSON`: what synthesized `Codable` types become, and what a decoding failure says.
@Suite struct JSONCodingTests {
  struct Inner: Codable, Equatable {
    var name: String
    var count: Int?
  }

  struct Outer: Codable, Equatable {
    var title: String
    var inner: Inner
    var list: [Inner]
    var flag: Bool?
    var ratio: Double
    var raw: JSON?
    var table: [String: Int]
  }

  static let sample = Outer(
    title: "t", inner: Inner(name: "a", count: nil), list: [Inner(name: "b", count: 2)], flag: nil, ratio: 0.5,
    raw: ["anything": [1, "x"]], table: ["z": 1, "a": 2, "m": 3])

  @Test func fieldsInDeclarationOrderNilsOmittedDictionariesSorted() throws {
    let json = try JSONValueEncoder().encode(Self.sample)
    #expect(
      json.serializedString()
        == #"{"title":"t","inner":{"name":"a"},"list":[{"name":"b","count":2}],"ratio":0.5,"raw":{"anything":[1,"x"]},"table":{"a":2,"m":3,"z":1}}"#
    )
    #expect(try JSONValueDecoder().decode(Outer.self, from: json) == Self.sample)
  }

  @Test func absentAndNullAreAlikeForOptionals() throws {
    let fromNull = try Inner(json: ["name": "n", "count": nil])
    let fromAbsent = try Inner(json: ["name": "n"])
    #expect(fromNull == fromAbsent)
    #expect(try Inner(json: ["name": "n", "count": 3.0]).count == 3)
  }

  @Test(arguments: [
    (JSON.array([]), "expected Inner object, found array"),
    (JSON.object(["count": 1]), "name: missing required field"),
    (JSON.object(["name": 1]), "name: expected string, found integer"),
    (JSON.object(["name": nil]), "name: expected string, found null"),
    (JSON.object(["name": "n", "count": 1.5]), "count: expected integer, found number"),
    (JSON.object(["name": "n", "count": "1"]), "count: expected integer, found string"),
  ] as [(JSON, String)])
  func failuresSayWhereAndWhat(json: JSON, message: String) {
    #expect(throws: JSONDecodingError.self) { try Inner(json: json) }
    do {
      _ = try Inner(json: json)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func nestedFailuresNameThePath() throws {
    var json = try JSONValueEncoder().encode(Self.sample)
    guard case .object(var object) = json else { throw JSONDecodingError("not an object") }
    object["list"] = [["name": "ok"], ["name": ["not": "text"]]]
    json = .object(object)
    #expect(throws: JSONDecodingError("expected string, found object", path: [.key("list"), .index(1), .key("name")])) {
      try Outer(json: json)
    }
  }

  /// Foundation's own failures keep their standard cases, which the REPL's files turn into their messages.
  @Test func decoderThrowsStandardDecodingErrors() {
    do {
      _ = try JSONValueDecoder().decode([String: String].self, from: [1, 2])
      Issue.record("an array is not a dictionary")
    } catch DecodingError.typeMismatch(let type, let context) {
      #expect(String(describing: type).hasPrefix("Dictionary"))
      #expect(context.codingPath.isEmpty)
    } catch {
      Issue.record("unexpected \(error)")
    }
    do {
      _ = try JSONValueDecoder().decode(Inner.self, from: ["count": 1])
      Issue.record("name is required")
    } catch DecodingError.keyNotFound(let key, _) {
      #expect(key.stringValue == "name")
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  struct Stamped: Codable, Equatable {
    var date: Date
  }

  @Test func datesAreRFC3339InUTC() throws {
    let stamped = Stamped(date: Date(timeIntervalSince1970: 1_767_225_600))
    #expect(stamped.toJSON() == ["date": "2026-01-01T00:00:00Z"])
    #expect(try Stamped(json: ["date": "2026-01-01T00:00:00Z"]) == stamped)
    #expect(throws: JSONDecodingError.self) { try Stamped(json: ["date": "yesterday"]) }
  }

  struct Lenient: Codable, Equatable, LenientDecodable {
    var flag: Bool?
    var nested: Inner?
    var list: [Int]?
  }

  struct Strict: Codable, Equatable {
    var lenient: Lenient
    var count: Int?
  }

  @Test func lenientValuesReadOddOptionalsAsAbsent() throws {
    let lenient = try Lenient(json: ["flag": "yes", "nested": ["name": 1], "list": [1, "two"]])
    #expect(lenient == Lenient(flag: nil, nested: nil, list: nil))
    #expect(try Lenient(json: ["flag": true, "list": [1]]) == Lenient(flag: true, nested: nil, list: [1]))
    // The lenience is chosen at the top: inside a strict value a lenient type is strict; a lenient decoder is lenient
    // all the way down.
    #expect(throws: JSONDecodingError.self) { try Strict(json: ["lenient": ["flag": 3]]) }
    #expect(try Strict(json: ["lenient": ["flag": 3], "count": "3"], lenient: true) == Strict(lenient: Lenient(), count: nil))
  }

  struct Manual: Codable, Equatable {
    var a: [Int]
    var b: String

    enum CodingKeys: String, CodingKey {
      case a
      case b
      case nested
    }

    init(a: [Int], b: String) {
      self.a = a
      self.b = b
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      var list = try container.nestedUnkeyedContainer(forKey: .a)
      var a: [Int] = []
      while !list.isAtEnd { a.append(try list.decode(Int.self)) }
      self.a = a
      let nested = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
      b = try nested.decode(String.self, forKey: .b)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      var list = container.nestedUnkeyedContainer(forKey: .a)
      for value in a { try list.encode(value) }
      var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
      try nested.encode(b, forKey: .b)
      try container.encode(true, forKey: .b)
    }
  }

  @Test func nestedContainersKeepTheirPlace() throws {
    let value = Manual(a: [1, 2], b: "x")
    #expect(value.toJSON().serializedString() == #"{"a":[1,2],"nested":{"b":"x"},"b":true}"#)
    #expect(try Manual(json: value.toJSON()) == value)
  }

  @Test func jsonValuesPassThroughOtherCoders() throws {
    let value: JSON = ["a": [1, 2.5, "s", nil, true], "b": [:]]
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSON.self, from: data) == value)
  }

  @Test func widerIntegersAndFloats() throws {
    struct Numbers: Codable, Equatable {
      var small: Int8
      var big: UInt64
      var float: Float
    }
    let numbers = Numbers(small: -3, big: UInt64.max, float: 0.5)
    let json = numbers.toJSON()
    #expect(json["small"] == -3)
    #expect(json["big"] == .double(Double(UInt64.max)))
    #expect(try Numbers(json: ["small": 1, "big": 2, "float": 1]) == Numbers(small: 1, big: 2, float: 1))
    #expect(throws: JSONDecodingError.self) { try Numbers(json: ["small": 300, "big": 2, "float": 1]) }
  }

  @Test func prettyPrintingIndentsAndCanSortKeys() {
    let value: JSON = ["b": [1, [:], []], "a": ["x": "y"]]
    #expect(
      String(decoding: value.prettySerialized(sortingKeys: true), as: UTF8.self) == """
        {
          "a": {
            "x": "y"
          },
          "b": [
            1,
            {},
            []
          ]
        }
        """)
    #expect(String(decoding: value.prettySerialized(), as: UTF8.self).hasPrefix("{\n  \"b\""))
    #expect(String(decoding: JSON.string("s").prettySerialized(), as: UTF8.self) == "\"s\"")
  }
}
