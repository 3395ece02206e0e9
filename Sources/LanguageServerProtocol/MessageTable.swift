/// The messages a server handles, each with its typed handler: the one list that drives decoding, dispatch and the
/// capabilities the server announces.
///
/// An entry is made from a message type and a method of the handler, `table.on(LSP.HoverRequest.self,
/// LanguageServer.hover)`, so the compiler checks that the method takes that message and returns its `Response`.
/// The table decodes the params into the message (a mismatch is `InvalidParams` naming the field), calls the method
/// and encodes what it returns; nothing outside it sees a request's JSON. A request's entry also announces it in
/// `capabilities`, under its `capability` key, with the options given (or `true`).
///
/// Whether a message is decoded leniently (`LenientDecodable`) is decided once per entry, not per message.
///
/// Handlers are unapplied methods (`(Handler) -> (Message) -> …`), so the table holds no reference to a handler and
/// one table can serve any number of them.
public struct MessageTable<Handler: AnyObject> {
  private typealias RequestEntry = (Handler, RequestMessage, RequestContext) throws -> any Encodable
  private typealias NotificationEntry = (Handler, NotificationMessage, Connection) throws -> Void

  private var requests: [String: RequestEntry] = [:]
  private var notifications: [String: NotificationEntry] = [:]
  /// The server capabilities the entries announce, in the order they were made.
  public private(set) var capabilities = JSONObject()

  public init() {}

  /// Answers `R` with `handle`, announcing it with `options` (`true` when nil).
  public mutating func on<R: RequestType>(
    _ type: R.Type, options: (any Encodable)? = nil, _ handle: @escaping (Handler) -> (R) throws -> R.Response
  ) {
    announce(R.self, options)
    let decode = Self.decoder(R.self)
    requests[R.method] = { handler, message, _ in
      try handle(handler)(decode(message))
    }
  }

  /// Answers `R` with `handle`, which also gets the request's context (cancellation, the connection).
  public mutating func on<R: RequestType>(
    _ type: R.Type, options: (any Encodable)? = nil,
    _ handle: @escaping (Handler) -> (R, RequestContext) throws -> R.Response
  ) {
    announce(R.self, options)
    let decode = Self.decoder(R.self)
    requests[R.method] = { handler, message, context in
      try handle(handler)(decode(message), context)
    }
  }

  /// How the params of `R` are read, chosen once per entry: leniently or not (`LenientDecodable`), and, for a
  /// request that is a document and a position, straight from the usual shape when they have it.
  private static func decoder<R: RequestType>(_ type: R.Type) -> (RequestMessage) throws -> R {
    let lenient = R.decodesLeniently
    if let positional = textDocumentPositionRequests.first(where: { $0 == R.self }) {
      return { message in
        if let parts = textDocumentPosition(in: message.params), let request = positional.request(as: R.self, parts) {
          return request
        }
        return try message.decodeParams(R.self, lenient: lenient)
      }
    }
    return { message in try message.decodeParams(R.self, lenient: lenient) }
  }

  private mutating func announce<R: RequestType>(_ type: R.Type, _ options: (any Encodable)?) {
    guard let key = R.capability else { return }
    capabilities[key] = options?.toJSON() ?? true
  }

  /// Announces a capability that belongs to no single request (`positionEncoding`, `textDocumentSync`).
  public mutating func announce(_ key: String, _ value: some Encodable) {
    capabilities[key] = value.toJSON()
  }

  /// The capabilities without those of `requests`, which the server handles but does not offer to this client.
  public func capabilities(without requests: [any RequestType.Type]) -> JSONObject {
    var result = capabilities
    for request in requests {
      if let key = request.capability { result[key] = nil }
    }
    return result
  }

  /// Handles the notification `N` with `handle`.
  public mutating func on<N: NotificationType>(_ type: N.Type, _ handle: @escaping (Handler) -> (N) throws -> Void) {
    let lenient = N.decodesLeniently
    notifications[N.method] = { handler, message, _ in
      try handle(handler)(message.decodeParams(N.self, lenient: lenient))
    }
  }

  /// The methods of the requests in the table.
  public var requestMethods: Set<String> { Set(requests.keys) }

  /// The methods of the notifications in the table.
  public var notificationMethods: Set<String> { Set(notifications.keys) }

  /// The encoded result of a request, or `MethodNotFound` for a method not in the table.
  public func handle(_ request: RequestMessage, by handler: Handler, context: RequestContext) throws -> JSON {
    try result(request, by: handler, context: context).toJSON()
  }

  /// The typed result of a request (its `Response`), for the caller to encode: `toJSON()`, or
  /// `serializedJSON()` for the reply's text in one pass. `MethodNotFound` for a method not in the table.
  public func result(_ request: RequestMessage, by handler: Handler, context: RequestContext) throws -> any Encodable {
    guard let entry = requests[request.method] else { throw ResponseError.methodNotFound(request.method) }
    return try entry(handler, request, context)
  }

  /// Handles a notification; one not in the table is ignored, as the specification asks of servers. Returns
  /// whether it was in the table.
  @discardableResult
  public func handle(_ notification: NotificationMessage, by handler: Handler, connection: Connection) throws -> Bool {
    guard let entry = notifications[notification.method] else { return false }
    try entry(handler, notification, connection)
    return true
  }
}
