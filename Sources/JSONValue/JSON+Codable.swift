/// A `JSON` value inside a `Codable` type stands for data the type does not interpret (LSP's `LSPAny`: settings,
/// `data` a client hands back). With this module's coders it is taken and written as it is; with another coder it
/// goes through that coder's containers.
extension JSON: Codable {
  public init(from decoder: any Decoder) throws {
    if let node = decoder as? DecodingNode {
      self = node.value
      return
    }
    if let container = try? decoder.container(keyedBy: JSONCodingKey.self) {
      var object = JSONObject()
      for key in container.allKeys { object[key.stringValue] = try container.decode(JSON.self, forKey: key) }
      self = .object(object)
    } else if var container = try? decoder.unkeyedContainer() {
      var elements: [JSON] = []
      while !container.isAtEnd { elements.append(try container.decode(JSON.self)) }
      self = .array(elements)
    } else {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let flag = try? container.decode(Bool.self) {
        self = .bool(flag)
      } else if let integer = try? container.decode(Int.self) {
        self = .integer(integer)
      } else if let number = try? container.decode(Double.self) {
        self = .double(number)
      } else {
        self = .string(try container.decode(String.self))
      }
    }
  }

  public func encode(to encoder: any Encoder) throws {
    if let node = encoder as? EncodingNode {
      node.set(self)
      return
    }
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let flag):
      var container = encoder.singleValueContainer()
      try container.encode(flag)
    case .integer(let integer):
      var container = encoder.singleValueContainer()
      try container.encode(integer)
    case .double(let number):
      var container = encoder.singleValueContainer()
      try container.encode(number)
    case .string(let text):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let object):
      var container = encoder.container(keyedBy: JSONCodingKey.self)
      for (key, value) in object.members { try container.encode(value, forKey: JSONCodingKey(key)) }
    }
  }
}
