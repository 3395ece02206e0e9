import Foundation
import Testing

import JSONValue

/// The one-pass encoder writes the bytes the tree and its serializer write, for types it can follow in order and for
/// those it cannot (which it writes through the tree).
@Suite struct JSONStreamEncoderTests {
  /// The text of `value` both ways; they must be equal.
  static func both<T: Encodable>(_ value: T) throws -> (stream: String, tree: String) {
    let stream = String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
    let tree = try JSONValueEncoder().encode(value).serializedString()
    return (stream, tree)
  }

  struct Inner: Codable {
    var name: String
    var count: Int?
  }

  struct Item: Codable {
    var label: String
    var kind: Int?
    var inner: Inner
    var list: [Inner]
    var flag: Bool?
    var ratio: Double
    var raw: JSON?
    var empty: [Int]
  }

  static let item = Item(
    label: "a \"quoted\"\nline\u{1}", kind: 3, inner: Inner(name: "é", count: nil),
    list: [Inner(name: "b", count: 2), Inner(name: "c", count: nil)], flag: false, ratio: 0.1,
    raw: ["anything": [1, "x", nil, 2.5, ["deep": true]]], empty: [])

  @Test func plainTypesAreWrittenAsTheTreeWritesThem() throws {
    let (stream, tree) = try Self.both([Self.item, Self.item])
    #expect(stream == tree)
    #expect(stream.hasPrefix(#"[{"label":"a \"quoted\"\nline\u0001","kind":3,"inner":{"name":"é"},"#))
    let optional: Item? = nil
    #expect(try Self.both(optional) == ("null", "null"))
    #expect(try Self.both("text").stream == #""text""#)
  }

  struct Tables: Codable {
    var before: Int
    var table: [String: Inner]
    var numbers: [Int: String]
    var empty: [String: Int]
    var after: [Inner]
  }

  @Test func dictionariesHaveTheirKeysSortedAsInTheTree() throws {
    let value = Tables(
      before: 1, table: ["z": Inner(name: "z", count: 1), "a": Inner(name: "a", count: nil)],
      numbers: [3: "c", 1: "a", 2: "b"], empty: [:], after: [Inner(name: "x", count: 0)])
    let (stream, tree) = try Self.both([value])
    #expect(stream == tree)
    #expect(stream.contains(#""table":{"a":{"name":"a"},"z":"#))
  }

  /// Writes `first` twice, the second time with another value.
  struct Duplicate: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONCodingKeyForTests.self)
      try container.encode(1, forKey: JSONCodingKeyForTests("first"))
      try container.encode(Inner(name: "n", count: 1), forKey: JSONCodingKeyForTests("second"))
      try container.encode("again", forKey: JSONCodingKeyForTests("first"))
    }
  }

  @Test func aKeyWrittenTwiceKeepsItsFirstPlaceAndLastValue() throws {
    let (stream, tree) = try Self.both([[Duplicate()]])
    #expect(stream == tree)
    #expect(stream == #"[[{"first":"again","second":{"name":"n","count":1}}]]"#)
  }

  /// Opens two nested containers and writes to the first after the second.
  struct Interleaved: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONCodingKeyForTests.self)
      var first = container.nestedUnkeyedContainer(forKey: JSONCodingKeyForTests("first"))
      var second = container.nestedContainer(keyedBy: JSONCodingKeyForTests.self, forKey: JSONCodingKeyForTests("second"))
      try first.encode(1)
      try second.encode(true, forKey: JSONCodingKeyForTests("b"))
      try first.encode(Inner(name: "late", count: nil))
      try container.encode("end", forKey: JSONCodingKeyForTests("end"))
    }
  }

  /// Nested containers used in order, as a hand-written `encode(to:)` uses them.
  struct Nested: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONCodingKeyForTests.self)
      var list = container.nestedUnkeyedContainer(forKey: JSONCodingKeyForTests("a"))
      try list.encode(1)
      var inner = list.nestedContainer(keyedBy: JSONCodingKeyForTests.self)
      try inner.encode("x", forKey: JSONCodingKeyForTests("k"))
      var deeper = list.nestedUnkeyedContainer()
      try deeper.encodeNil()
      try list.encode(2)
      try container.encode(true, forKey: JSONCodingKeyForTests("b"))
    }
  }

  @Test func nestedContainersInOrderOrNot() throws {
    let interleaved = try Self.both([Interleaved(), Interleaved()])
    #expect(interleaved.stream == interleaved.tree)
    #expect(interleaved.stream.hasPrefix(#"[{"first":[1,{"name":"late"}],"second":{"b":true},"end":"end"}"#))
    let nested = try Self.both(Nested())
    #expect(nested.stream == nested.tree)
    #expect(nested.stream == #"{"a":[1,{"k":"x"},[null],2],"b":true}"#)
  }

  class Base: Encodable {
    var base = 1
    enum CodingKeys: String, CodingKey { case base }
  }

  final class Derived: Base {
    var derived = "d"
    enum DerivedKeys: String, CodingKey { case derived }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: DerivedKeys.self)
      try container.encode(derived, forKey: .derived)
      try super.encode(to: encoder)
    }
  }

  final class ViaSuperEncoder: Base {
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try super.encode(to: container.superEncoder())
    }
  }

  /// Writes a single value, then another.
  struct TwoValues: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(1)
      try container.encode("two")
    }
  }

  struct Empty: Encodable {}

  struct Scalars: Encodable {
    var date = Date(timeIntervalSince1970: 1_767_225_600)
    var small: Int8 = -3
    var big = UInt64.max
    var float: Float = 0.5
    var notANumber = Double.nan
    var explicitNil: Int? = nil
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONCodingKeyForTests.self)
      try container.encode(date, forKey: JSONCodingKeyForTests("date"))
      try container.encode(small, forKey: JSONCodingKeyForTests("small"))
      try container.encode(big, forKey: JSONCodingKeyForTests("big"))
      try container.encode(float, forKey: JSONCodingKeyForTests("float"))
      try container.encode(notANumber, forKey: JSONCodingKeyForTests("nan"))
      try container.encode(explicitNil, forKey: JSONCodingKeyForTests("nil"))
      var list = container.nestedUnkeyedContainer(forKey: JSONCodingKeyForTests("list"))
      try list.encode(big)
      try list.encode(date)
      try list.encode(Empty())
    }
  }

  @Test func classesSingleValuesEmptyValuesAndScalars() throws {
    for value in [try Self.both(Derived()), try Self.both(ViaSuperEncoder()), try Self.both([TwoValues()]),
                  try Self.both([Empty()]), try Self.both(Scalars())] {
      #expect(value.stream == value.tree)
    }
    #expect(try Self.both(Derived()).stream == #"{"derived":"d","base":1}"#)
    #expect(try Self.both([TwoValues()]).stream == #"["two"]"#)
    #expect(try Self.both(Scalars()).stream.hasPrefix(#"{"date":"2026-01-01T00:00:00Z","small":-3,"#))
  }

  struct Failing: Encodable {
    struct Refusal: Error {}
    func encode(to encoder: any Encoder) throws { throw Refusal() }
  }

  @Test func aTypeThatThrowsIsWrittenAsNull() {
    #expect(throws: Failing.Refusal.self) { try JSONStreamEncoder().encode([Failing()]) }
    #expect(String(decoding: [Failing()].serializedJSON(), as: UTF8.self) == "null")
    #expect([Failing()].toJSON() == .null)
  }
}

/// A coding key made from any name.
struct JSONCodingKeyForTests: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ name: String) { stringValue = name }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
