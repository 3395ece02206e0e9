/// A JSON value as it travels over the wire.
///
/// The module has its own JSON type rather than `Codable` + `JSONSerialization` because every LSP message is
/// parsed and built on the latency path of completion and hover: a byte-level parser into this enum avoids
/// Foundation's `Any` boxing, keeps object keys in a stable order (so output is reproducible and testable),
/// and lets hostile input be rejected with an error instead of a crash.
///
/// Numbers keep the distinction the protocol cares about: LSP integers arrive as `.integer`; anything with a
/// fraction or exponent, or an integer too large for `Int`, arrives as `.double`. Numeric equality ignores that
/// distinction, so `.integer(1) == .double(1.0)`.
public enum JSON: Sendable {
  case null
  case bool(Bool)
  case integer(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object(JSONObject)
}

// MARK: - Reading values

extension JSON {
  /// Member lookup that tolerates non-objects, so optional chains like `json["a"]?["b"]` read naturally.
  public subscript(key: String) -> JSON? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// Element lookup that tolerates non-arrays and out-of-range indices instead of trapping on client data.
  public subscript(index: Int) -> JSON? {
    if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
    return nil
  }

  /// Walks a path of object keys, for digging into raw client capabilities such as
  /// `["textDocument", "completion", "completionItem", "snippetSupport"]`.
  public func value(at path: [String]) -> JSON? {
    var current = self
    for key in path {
      guard let next = current[key] else { return nil }
      current = next
    }
    return current
  }

  /// Whether the value is an explicit `null`, which LSP often uses interchangeably with "absent".
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The typed accessors return nil for any other kind instead of coercing, so a client sending `"1"` for a
  /// number is caught rather than silently accepted.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// Accepts an integral `.double` too, because some clients serialize every number as a float.
  public var intValue: Int? {
    switch self {
    case .integer(let value):
      return value
    case .double(let value):
      return Int(exactly: value)
    default:
      return nil
    }
  }

  public var doubleValue: Double? {
    switch self {
    case .integer(let value):
      return Double(value)
    case .double(let value):
      return value
    default:
      return nil
    }
  }

  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  public var arrayValue: [JSON]? {
    if case .array(let value) = self { return value }
    return nil
  }

  public var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// A short name of the value's kind, for error messages that tell a client what it sent instead.
  public var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .integer: return "integer"
    case .double: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

// MARK: - Equality

extension JSON: Equatable {
  /// Numbers compare by value across `.integer`/`.double`, and objects compare as key sets regardless of order,
  /// because both distinctions are artifacts of how a peer happened to write the same JSON.
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null):
      return true
    case (.bool(let a), .bool(let b)):
      return a == b
    case (.integer(let a), .integer(let b)):
      return a == b
    case (.integer(let a), .double(let b)):
      return Int(exactly: b) == a
    case (.double(let a), .integer(let b)):
      return Int(exactly: a) == b
    case (.double(let a), .double(let b)):
      return a == b
    case (.string(let a), .string(let b)):
      return a == b
    case (.array(let a), .array(let b)):
      return a == b
    case (.object(let a), .object(let b)):
      return a == b
    default:
      return false
    }
  }
}

// MARK: - Literals

extension JSON: ExpressibleByNilLiteral {
  public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int) { self = .integer(value) }
}

extension JSON: ExpressibleByFloatLiteral {
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSON: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
  /// Dictionary literals keep their written order, which makes hand-written expected JSON in tests readable.
  public init(dictionaryLiteral elements: (String, JSON)...) {
    var object = JSONObject()
    for (key, value) in elements { object[key] = value }
    self = .object(object)
  }
}

extension JSON: CustomStringConvertible {
  /// The compact serialization, so logs and test failures show what would go over the wire.
  public var description: String { serializedString() }
}
