/// The `id` of a request: JSON-RPC allows integers and strings, and a response must echo the same kind back.
public enum RequestID: Hashable, Sendable, Codable, CustomStringConvertible {
  case integer(Int)
  case string(String)

  /// Read from the JSON value directly: every message's id is, and trying one kind then the other through a decoder
  /// costs a thrown error per message.
  public init?(_ json: JSON) {
    switch json {
    case .string(let text): self = .string(text)
    default:
      guard let integer = json.intValue else { return nil }
      self = .integer(integer)
    }
  }

  public var json: JSON {
    switch self {
    case .integer(let value): .integer(value)
    case .string(let value): .string(value)
    }
  }

  public init(from decoder: any Decoder) throws {
    guard let id = RequestID(try JSON(from: decoder)) else {
      throw DecodingError.typeMismatch(
        RequestID.self, DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected integer or string"))
    }
    self = id
  }

  public func encode(to encoder: any Encoder) throws {
    try json.encode(to: encoder)
  }

  public var description: String {
    switch self {
    case .integer(let value): return String(value)
    case .string(let value): return "\"\(value)\""
    }
  }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
  public init(integerLiteral value: Int) { self = .integer(value) }
  public init(stringLiteral value: String) { self = .string(value) }
}

/// A call that expects exactly one response carrying the same id.
public struct RequestMessage: Sendable, Equatable {
  public var id: RequestID
  public var method: String
  /// An object or array, or nil when the peer sent none (or sent `null`, which some clients do for `shutdown`).
  public var params: JSON?

  public init(id: RequestID, method: String, params: JSON? = nil) {
    self.id = id
    self.method = method
    self.params = params
  }

  /// Decodes the params into a protocol type, turning any mismatch into an `InvalidParams` error that names the
  /// offending field; a handler can `try` this and let the connection send the reply.
  public func decodeParams<T: Decodable>(_ type: T.Type = T.self) throws(ResponseError) -> T {
    try LanguageServerProtocol.decodeParams(params, as: type, lenient: T.self is any LenientDecodable.Type)
  }

  /// As `decodeParams(_:)`, leniently or not as told (see `LenientDecodable`).
  public func decodeParams<T: Decodable>(_ type: T.Type = T.self, lenient: Bool) throws(ResponseError) -> T {
    try LanguageServerProtocol.decodeParams(params, as: type, lenient: lenient)
  }

  public func toJSON() -> JSON {
    var object: JSONObject = ["jsonrpc": "2.0", "id": id.json, "method": .string(method)]
    object["params"] = params
    return .object(object)
  }
}

/// A one-way message; no response is ever sent, not even an error.
public struct NotificationMessage: Sendable, Equatable {
  public var method: String
  public var params: JSON?

  public init(method: String, params: JSON? = nil) {
    self.method = method
    self.params = params
  }

  /// As `RequestMessage.decodeParams`; the error has nowhere to go but a log, since notifications get no reply.
  public func decodeParams<T: Decodable>(_ type: T.Type = T.self) throws(ResponseError) -> T {
    try LanguageServerProtocol.decodeParams(params, as: type, lenient: T.self is any LenientDecodable.Type)
  }

  /// As `decodeParams(_:)`, leniently or not as told (see `LenientDecodable`).
  public func decodeParams<T: Decodable>(_ type: T.Type = T.self, lenient: Bool) throws(ResponseError) -> T {
    try LanguageServerProtocol.decodeParams(params, as: type, lenient: lenient)
  }

  public func toJSON() -> JSON {
    var object: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
    object["params"] = params
    return .object(object)
  }
}

/// The answer to a request: a result (possibly `null`) or an error, never both.
public struct ResponseMessage: Sendable, Equatable {
  /// Nil only when the request's id could not be determined (parse errors, invalid requests); it is then sent
  /// as `null`, as JSON-RPC requires.
  public var id: RequestID?
  public var result: Result<JSON, ResponseError>

  public init(id: RequestID?, result: Result<JSON, ResponseError>) {
    self.id = id
    self.result = result
  }

  public init(id: RequestID?, error: ResponseError) {
    self.init(id: id, result: .failure(error))
  }

  public init(id: RequestID, result: some Encodable) {
    self.init(id: id, result: .success(result.toJSON()))
  }

  public func toJSON() -> JSON {
    var object: JSONObject = ["jsonrpc": "2.0", "id": id?.json ?? .null]
    switch result {
    case .success(let value):
      // `result` must be present on success even when it is `null` (e.g. the reply to `shutdown`).
      object["result"] = value
    case .failure(let error):
      object["error"] = error.toJSON()
    }
    return .object(object)
  }

  /// The text of a successful response whose result is serialized already (`MessageHandler.serializedResult`):
  /// the bytes `toJSON().serialized()` gives for the same id and result, with the result spliced in as it is.
  public static func serialized(id: RequestID, result: [UInt8]) -> [UInt8] {
    var body = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
    body.reserveCapacity(body.count + result.count + 24)
    id.json.serialize(into: &body)
    body.append(contentsOf: #","result":"#.utf8)
    body.append(contentsOf: result)
    body.append(UInt8(ascii: "}"))
    return body
  }
}

/// Absent params read as an empty object, so that a message without fields (`shutdown`, `exit`) decodes from none.
func decodeParams<T: Decodable>(_ params: JSON?, as type: T.Type, lenient: Bool) throws(ResponseError) -> T {
  do throws(JSONDecodingError) {
    return try T(json: params ?? .object(JSONObject()), lenient: lenient)
  } catch {
    throw ResponseError.invalidParams(error.description)
  }
}

// MARK: - Classification

/// What an incoming body turned out to be.
///
/// Classification is separate from the connection so it can be tested on its own and reused by a client; it
/// decides the error reply for malformed messages so that every server gives the same, specification-conforming
/// answers.
public enum IncomingMessage: Sendable, Equatable {
  case request(RequestMessage)
  case notification(NotificationMessage)
  case response(ResponseMessage)
  case invalid(InvalidMessage)

  /// Parses and classifies a framed body. Malformed JSON becomes `.invalid` with a `ParseError` reply.
  public static func parse(_ body: [UInt8]) -> IncomingMessage {
    do throws(JSONParseError) {
      return classify(try JSON.parse(body))
    } catch {
      let parseError = ResponseError.parseError(error.description)
      return .invalid(InvalidMessage(error: parseError, reply: ResponseMessage(id: nil, error: parseError)))
    }
  }

  /// Sorts a parsed JSON value into request, notification or response per JSON-RPC 2.0.
  ///
  /// Malformed requests and notifications get an `InvalidRequest` reply carrying the id when one could be
  /// read, and `null` otherwise (JSON-RPC answers even an unidentifiable request that way). A malformed
  /// *response* gets no reply, since answering a response could start an endless exchange.
  public static func classify(_ json: JSON) -> IncomingMessage {
    guard case .object(let object) = json else {
      return invalidRequest(id: nil, "a message must be a JSON object, not \(json.kindName)")
    }
    let id: RequestID? = object["id"].flatMap { RequestID($0) }
    guard object["jsonrpc"] == .string("2.0") else {
      return invalid(object, id: id, "\"jsonrpc\" must be \"2.0\"")
    }
    if let methodJSON = object["method"] {
      guard case .string(let method) = methodJSON else { return invalidRequest(id: id, "\"method\" must be a string") }
      var params = object["params"]
      switch params {
      case .object?, .array?, nil:
        break
      case .null?:
        params = nil
      case let other?:
        return invalidRequest(id: id, "\"params\" must be an object or array, not \(other.kindName)")
      }
      guard object["id"] != nil else { return .notification(NotificationMessage(method: method, params: params)) }
      guard let id else { return invalidRequest(id: nil, "\"id\" must be an integer or a string") }
      return .request(RequestMessage(id: id, method: method, params: params))
    }
    return classifyResponse(object, id: id)
  }

  private static func classifyResponse(_ object: JSONObject, id: RequestID?) -> IncomingMessage {
    guard let idJSON = object["id"] else {
      return invalidRequest(id: nil, "a message needs a \"method\" or must be a response with an \"id\"")
    }
    guard id != nil || idJSON.isNull else { return invalidResponse("\"id\" must be an integer, a string or null") }
    switch (object["result"], object["error"]) {
    case (let result?, nil):
      return .response(ResponseMessage(id: id, result: .success(result)))
    case (nil, let errorJSON?):
      do throws(JSONDecodingError) {
        return .response(ResponseMessage(id: id, error: try ResponseError(json: errorJSON)))
      } catch {
        return invalidResponse("malformed \"error\": \(error)")
      }
    case (.some, .some):
      return invalidResponse("a response cannot have both \"result\" and \"error\"")
    case (nil, nil):
      return invalidResponse("a response needs \"result\" or \"error\"")
    }
  }

  /// Decides whether a message without a valid `jsonrpc` member should be answered: anything with a `method`
  /// is treated as a request, anything else as a response.
  private static func invalid(_ object: JSONObject, id: RequestID?, _ detail: String) -> IncomingMessage {
    object["method"] != nil || object["id"] == nil ? invalidRequest(id: id, detail) : invalidResponse(detail)
  }

  private static func invalidRequest(id: RequestID?, _ detail: String) -> IncomingMessage {
    let error = ResponseError.invalidRequest(detail)
    return .invalid(InvalidMessage(error: error, reply: ResponseMessage(id: id, error: error)))
  }

  private static func invalidResponse(_ detail: String) -> IncomingMessage {
    .invalid(InvalidMessage(error: .invalidRequest(detail), reply: nil))
  }
}

/// A message that could not be accepted, with what (if anything) to send back.
public struct InvalidMessage: Sendable, Equatable {
  /// What was wrong, for the log.
  public var error: ResponseError
  /// The reply to send, or nil when the message must not be answered (a malformed response).
  public var reply: ResponseMessage?

  public init(error: ResponseError, reply: ResponseMessage?) {
    self.error = error
    self.reply = reply
  }
}
