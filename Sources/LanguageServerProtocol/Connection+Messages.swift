extension Connection {
  /// Sends a notification to the client (e.g. `textDocument/publishDiagnostics`). Thread-safe.
  public func send<N: NotificationType>(_ notification: N) {
    if let params = Connection.params(notification) {
      send(notification: N.method, params: params)
    } else {
      send(notification: N.method)
    }
  }

  /// Sends a notification that writes itself (`JSONWritable`): the message's text written in one pass, with no
  /// `JSON` tree built first. The same bytes as `send(_:)` of any other notification. Thread-safe.
  public func send<N: NotificationType & JSONWritable>(_ notification: N) {
    let params = notification.writtenJSON()
    var writer = JSONWriter(capacity: params.count + 64)
    writer.object {
      $0.member("jsonrpc", "2.0")
      $0.member("method", N.method)
      // A message without fields is sent without `params`, as `params(_:)` leaves them out.
      if !params.elementsEqual("{}".utf8) { $0.member("params", writtenText: params) }
    }
    send(body: writer.bytes)
  }

  /// Queues a notification for this side's own handler, as `post(_:)` does. Thread-safe.
  public func post<N: NotificationType>(_ notification: N) {
    post(NotificationMessage(method: N.method, params: notification.toJSON()))
  }

  /// Sends a request to the client and calls `onResponse` on the worker with its decoded reply (a reply that does
  /// not decode is `InvalidParams`). Thread-safe; see `sendRequest(method:params:onResponse:)`.
  @discardableResult
  public func send<R: RequestType>(
    _ request: R, onResponse: @escaping @Sendable (Result<R.Response, ResponseError>) -> Void = { _ in }
  ) -> RequestID {
    let decode: @Sendable (Result<JSON, ResponseError>) -> Void = { result in
      onResponse(
        result.flatMap { json in
          do throws(JSONDecodingError) {
            return .success(try R.Response(json: json))
          } catch {
            return .failure(.invalidParams(error.description))
          }
        })
    }
    if let params = Connection.params(request) {
      return sendRequest(method: R.method, params: params, onResponse: decode)
    }
    return sendRequest(method: R.method, onResponse: decode)
  }

  /// A message's params, or nil for a message without fields: the specification's parameterless messages (the
  /// refresh requests) are sent without `params`.
  private static func params(_ message: some MessageType) -> JSON? {
    let json = message.toJSON()
    if case .object(let object) = json, object.isEmpty { return nil }
    return json
  }
}
