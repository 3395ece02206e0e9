/// A type that can be written as a JSON value.
///
/// This is a plain protocol over `JSON` rather than `Encodable` because protocol types need control that
/// `Codable` makes awkward: unions (`string | MarkupContent`), optional fields that must be omitted rather than
/// `null`, and open-ended integer enumerations.
public protocol JSONEncodable {
  func toJSON() -> JSON
}

/// A type that can be read from a JSON value sent by a peer.
///
/// Decoding is where untrusted input meets typed code, so it reports every mismatch as a `JSONDecodingError`
/// (which the connection turns into an `InvalidParams` reply) and never traps.
public protocol JSONDecodable {
  init(json: JSON) throws(JSONDecodingError)
}

/// Both directions; every LSP type in this module conforms, so clients and tests can use the same types.
public typealias JSONConvertible = JSONDecodable & JSONEncodable

/// A decoding failure with the path to the offending value, so that a reply like
/// `textDocument.position.line: expected integer, found string` tells the client exactly what was wrong.
public struct JSONDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// One step into the JSON: an object member or an array element.
  public enum PathComponent: Sendable, Equatable {
    case key(String)
    case index(Int)
  }

  /// From the outermost value inwards.
  public var path: [PathComponent]
  public var message: String

  public init(_ message: String, path: [PathComponent] = []) {
    self.message = message
    self.path = path
  }

  /// The standard "wrong kind of value" error.
  public static func typeMismatch(expected: String, found json: JSON) -> JSONDecodingError {
    JSONDecodingError("expected \(expected), found \(json.kindName)")
  }

  /// Used while unwinding through containers to record where the failure happened.
  public func prefixed(with component: PathComponent) -> JSONDecodingError {
    JSONDecodingError(message, path: [component] + path)
  }

  public var description: String {
    guard !path.isEmpty else { return message }
    var text = ""
    for component in path {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return "\(text): \(message)"
  }
}

// MARK: - Reading object fields

/// Reads the fields of a JSON object with path-annotated errors; the workhorse of every `init(json:)`.
///
/// "Absent" and `null` are treated alike for optional fields, because the specification's `?:` fields are
/// omitted by some clients and sent as `null` by others.
public struct JSONFields: Sendable {
  public let object: JSONObject

  /// Fails unless `json` is an object; `typeName` only feeds the error message.
  public init(_ json: JSON, _ typeName: String) throws(JSONDecodingError) {
    guard case .object(let object) = json else {
      throw JSONDecodingError.typeMismatch(expected: "\(typeName) object", found: json)
    }
    self.object = object
  }

  /// The raw member, for fields whose type is `LSPAny` or a union decoded by hand.
  public subscript(key: String) -> JSON? { object[key] }

  /// Reads a required field; absence is an error naming the field.
  public func decode<T: JSONDecodable>(_ key: String, as type: T.Type = T.self) throws(JSONDecodingError) -> T {
    guard let value = object[key] else { throw JSONDecodingError("missing required field", path: [.key(key)]) }
    do throws(JSONDecodingError) {
      return try T(json: value)
    } catch {
      throw error.prefixed(with: .key(key))
    }
  }

  /// Reads an optional field (or a required `T | null` one); absent and `null` both give nil.
  public func decodeIfPresent<T: JSONDecodable>(
    _ key: String, as type: T.Type = T.self
  ) throws(JSONDecodingError) -> T? {
    guard let value = object[key], !value.isNull else { return nil }
    do throws(JSONDecodingError) {
      return try T(json: value)
    } catch {
      throw error.prefixed(with: .key(key))
    }
  }

  /// A field holding arbitrary JSON (`LSPAny`), returned as-is when present and not `null`.
  public func raw(_ key: String) -> JSON? {
    guard let value = object[key], !value.isNull else { return nil }
    return value
  }
}

// MARK: - Writing object fields

extension JSONObject {
  /// Writes a required field.
  public mutating func put(_ key: String, _ value: some JSONEncodable) {
    self[key] = value.toJSON()
  }

  /// Writes an optional field only when it has a value, because the specification's optional fields are
  /// omitted, not `null`.
  public mutating func put(_ key: String, ifPresent value: (some JSONEncodable)?) {
    if let value { self[key] = value.toJSON() }
  }

  /// Writes a `T | null` field that must appear even when empty.
  public mutating func put(_ key: String, orNull value: (some JSONEncodable)?) {
    self[key] = value?.toJSON() ?? .null
  }
}

// MARK: - Standard conformances

extension JSON: JSONConvertible {
  public init(json: JSON) { self = json }
  public func toJSON() -> JSON { self }
}

extension JSONObject: JSONConvertible {
  public init(json: JSON) throws(JSONDecodingError) {
    guard case .object(let object) = json else { throw .typeMismatch(expected: "object", found: json) }
    self = object
  }

  public func toJSON() -> JSON { .object(self) }
}

extension Int: JSONConvertible {
  public init(json: JSON) throws(JSONDecodingError) {
    guard let value = json.intValue else { throw .typeMismatch(expected: "integer", found: json) }
    self = value
  }

  public func toJSON() -> JSON { .integer(self) }
}

extension Double: JSONConvertible {
  public init(json: JSON) throws(JSONDecodingError) {
    guard let value = json.doubleValue else { throw .typeMismatch(expected: "number", found: json) }
    self = value
  }

  public func toJSON() -> JSON { .double(self) }
}

extension Bool: JSONConvertible {
  public init(json: JSON) throws(JSONDecodingError) {
    guard case .bool(let value) = json else { throw .typeMismatch(expected: "boolean", found: json) }
    self = value
  }

  public func toJSON() -> JSON { .bool(self) }
}

extension String: JSONConvertible {
  public init(json: JSON) throws(JSONDecodingError) {
    guard case .string(let value) = json else { throw .typeMismatch(expected: "string", found: json) }
    self = value
  }

  public func toJSON() -> JSON { .string(self) }
}

extension Array: JSONEncodable where Element: JSONEncodable {
  public func toJSON() -> JSON { .array(map { $0.toJSON() }) }
}

extension Array: JSONDecodable where Element: JSONDecodable {
  public init(json: JSON) throws(JSONDecodingError) {
    guard case .array(let elements) = json else { throw .typeMismatch(expected: "array", found: json) }
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      do throws(JSONDecodingError) {
        result.append(try Element(json: element))
      } catch {
        throw error.prefixed(with: .index(index))
      }
    }
    self = result
  }
}

extension Dictionary: JSONEncodable where Key == String, Value: JSONEncodable {
  /// Keys are sorted so that the same dictionary always serializes to the same bytes.
  public func toJSON() -> JSON {
    var object = JSONObject()
    for key in keys.sorted() {
      if let value = self[key] { object[key] = value.toJSON() }
    }
    return .object(object)
  }
}

extension Dictionary: JSONDecodable where Key == String, Value: JSONDecodable {
  public init(json: JSON) throws(JSONDecodingError) {
    guard case .object(let object) = json else { throw .typeMismatch(expected: "object", found: json) }
    var result: [String: Value] = [:]
    for (key, value) in object.members {
      do throws(JSONDecodingError) {
        result[key] = try Value(json: value)
      } catch {
        throw error.prefixed(with: .key(key))
      }
    }
    self = result
  }
}

// MARK: - Open enumerations

/// LSP enumerations are open: a newer client may send a value this module has never heard of, and the
/// specification asks servers to tolerate it. Types conforming to this protocol wrap the raw value instead of
/// being Swift enums, so unknown values decode instead of failing the whole message.
public protocol OpenEnumeration: RawRepresentable, Hashable, Sendable, JSONConvertible
where RawValue: JSONConvertible & Hashable & Sendable {
  init(rawValue: RawValue)
}

extension OpenEnumeration {
  public init(json: JSON) throws(JSONDecodingError) {
    self.init(rawValue: try RawValue(json: json))
  }

  public func toJSON() -> JSON { rawValue.toJSON() }
}
