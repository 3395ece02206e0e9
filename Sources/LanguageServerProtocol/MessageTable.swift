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
  /// A request's entry: its typed result (for `handle`, which gives the `JSON` tree), and the same result written
  /// as the reply's text, by the response type itself when it is `JSONWritable`.
  private struct RequestEntry {
    var result: (Handler, RequestMessage, RequestContext) throws -> any Encodable
    var serialized: (Handler, RequestMessage, RequestContext) throws -> [UInt8]
  }
  private typealias NotificationEntry = (Handler, NotificationMessage, Connection) throws -> Void

  private var requests: [String: RequestEntry] = [:]
  private var notifications: [String: NotificationEntry] = [:]
  /// The server capabilities the entries announce, in the order they were made.
  public private(set) var capabilities = JSONObject()

  public init() {}

  /// Answers `R` with `handle`, announcing it with `options` (`true` when nil).
  public mutating func on<R: RequestType>(
    _ type: R.Type, options: (any JSONWritable)? = nil, _ handle: @escaping (Handler) -> (R) throws -> R.Response
  ) {
    register(R.self, options, { handler, request, _ in try handle(handler)(request) }) { $0.serializedJSON() }
  }

  /// Answers `R` with `handle`, which also gets the request's context (cancellation, the connection).
  public mutating func on<R: RequestType>(
    _ type: R.Type, options: (any JSONWritable)? = nil,
    _ handle: @escaping (Handler) -> (R, RequestContext) throws -> R.Response
  ) {
    register(R.self, options, { handler, request, context in try handle(handler)(request, context) }) {
      $0.serializedJSON()
    }
  }

  /// As `on(_:options:_:)`, for a response that writes itself (`JSONWritable`): the latency path.
  public mutating func on<R: RequestType>(
    _ type: R.Type, options: (any JSONWritable)? = nil, _ handle: @escaping (Handler) -> (R) throws -> R.Response
  ) where R.Response: JSONWritable {
    register(R.self, options, { handler, request, _ in try handle(handler)(request) }) { $0.writtenJSON() }
  }

  /// As `on(_:options:_:)` with the request's context, for a response that writes itself (`JSONWritable`).
  public mutating func on<R: RequestType>(
    _ type: R.Type, options: (any JSONWritable)? = nil,
    _ handle: @escaping (Handler) -> (R, RequestContext) throws -> R.Response
  ) where R.Response: JSONWritable {
    register(R.self, options, { handler, request, context in try handle(handler)(request, context) }) {
      $0.writtenJSON()
    }
  }

  private mutating func register<R: RequestType>(
    _ type: R.Type, _ options: (any JSONWritable)?, _ call: @escaping (Handler, R, RequestContext) throws -> R.Response,
    serialize: @escaping (R.Response) -> [UInt8]
  ) {
    announce(R.self, options)
    let decode = Self.decoder(R.self)
    requests[R.method] = RequestEntry(
      result: { handler, message, context in try call(handler, decode(message.params), context) },
      serialized: { handler, message, context in try serialize(call(handler, decode(message.params), context)) })
  }

  /// How the params of a message `M` are read, chosen once per entry: leniently or not (`LenientDecodable`), and, for
  /// a request that is a document and a position or one of `usualShapeMessages`, straight from the usual shape when
  /// they have it.
  private static func decoder<M: MessageType>(_ type: M.Type) -> (JSON?) throws -> M {
    let lenient = M.decodesLeniently
    if let positional = textDocumentPositionRequests.first(where: { $0 == M.self }) {
      return { params in
        if let parts = textDocumentPosition(in: params), let request = positional.request(as: M.self, parts) {
          return request
        }
        return try decodeParams(params, as: M.self, lenient: lenient)
      }
    }
    if let usual = usualShapeMessages.first(where: { $0 == M.self }) {
      return { params in
        if let message = usual.read(as: M.self, params) { return message }
        return try decodeParams(params, as: M.self, lenient: lenient)
      }
    }
    return { params in try decodeParams(params, as: M.self, lenient: lenient) }
  }

  private mutating func announce<R: RequestType>(_ type: R.Type, _ options: (any JSONWritable)?) {
    guard let key = R.capability else { return }
    capabilities[key] = options.map(Self.tree) ?? true
  }

  /// Announces a capability that belongs to no single request (`positionEncoding`, `textDocumentSync`).
  public mutating func announce(_ key: String, _ value: some JSONWritable) {
    capabilities[key] = Self.tree(value)
  }

  /// `value` as a tree, read back from the text it writes: the options write themselves (see `Writing.swift`), which
  /// a fresh server's first encoding through `Codable` made slow.
  private static func tree(_ value: any JSONWritable) -> JSON {
    (try? JSON.parse(value.writtenJSON())) ?? value.toJSON()
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
    let decode = Self.decoder(N.self)
    notifications[N.method] = { handler, message, _ in try handle(handler)(decode(message.params)) }
  }

  /// The methods of the requests in the table.
  public var requestMethods: Set<String> { Set(requests.keys) }

  /// The methods of the notifications in the table.
  public var notificationMethods: Set<String> { Set(notifications.keys) }

  /// The encoded result of a request, or `MethodNotFound` for a method not in the table.
  public func handle(_ request: RequestMessage, by handler: Handler, context: RequestContext) throws -> JSON {
    try result(request, by: handler, context: context).toJSON()
  }

  /// The typed result of a request (its `Response`). `MethodNotFound` for a method not in the table.
  public func result(_ request: RequestMessage, by handler: Handler, context: RequestContext) throws -> any Encodable {
    guard let entry = requests[request.method] else { throw ResponseError.methodNotFound(request.method) }
    return try entry.result(handler, request, context)
  }

  /// The result of a request written as the reply's text, in one pass: by the response itself when it is
  /// `JSONWritable`, else by `JSONStreamEncoder`. The same bytes as `handle(_:by:context:)`'s tree serialized.
  public func serializedResult(_ request: RequestMessage, by handler: Handler, context: RequestContext) throws
    -> [UInt8]
  {
    guard let entry = requests[request.method] else { throw ResponseError.methodNotFound(request.method) }
    return try entry.serialized(handler, request, context)
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
