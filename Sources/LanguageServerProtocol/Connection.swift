import Foundation

/// Receives the messages of a `Connection`.
///
/// Both methods are called on the connection's worker — the thread that called `Connection.run(handler:)` —
/// one message at a time, in the order the client sent them. A handler therefore needs no locking for its own
/// state (documents, caches), and a `didChange` is always applied before the `completion` that followed it.
public protocol MessageHandler: AnyObject {
  /// Computes the result of a request. Throw a `ResponseError` to answer with that error; a thrown
  /// `JSONDecodingError` becomes `InvalidParams`, anything else `InternalError`. Return `.null` for a `null`
  /// result. Long computations should poll `context.isCancelled` and give up early. Unknown methods, including
  /// `$/`-prefixed ones, should throw `ResponseError.methodNotFound`.
  func handle(request: RequestMessage, context: RequestContext) throws -> JSON

  /// The result of a request as the JSON text of the reply's `result`: what the connection sends. By default
  /// `handle(request:context:)`'s value, serialized; a handler whose results are typed writes them in one pass
  /// (`Encodable.serializedJSON()`), without the `JSON` tree.
  func serializedResult(request: RequestMessage, context: RequestContext) throws -> [UInt8]

  /// Handles a notification. Errors are only logged: notifications have no reply. Unknown notifications should
  /// be ignored (the specification says so for `$/` ones such as `$/setTrace`). `$/cancelRequest` never arrives
  /// here; the connection consumes it (see `RequestContext.isCancelled`).
  func handle(notification: NotificationMessage, connection: Connection) throws
}

extension MessageHandler {
  public func serializedResult(request: RequestMessage, context: RequestContext) throws -> [UInt8] {
    try handle(request: request, context: context).serialized()
  }
}

/// What a request handler may need besides the request: cancellation and a way to talk back to the client.
public struct RequestContext: Sendable {
  public let id: RequestID
  public let method: String
  public let connection: Connection

  /// True once the client sent `$/cancelRequest` for this request. Safe to poll from any thread.
  public var isCancelled: Bool { connection.isCancelled(id) }

  /// Throws `RequestCancelled` if the client gave up on this request, as a one-line checkpoint for handlers.
  public func checkCancellation() throws(ResponseError) {
    if isCancelled { throw ResponseError.requestCancelled }
  }
}

/// A JSON-RPC endpoint over a byte stream: reads requests and notifications, hands them to a `MessageHandler`,
/// writes the responses, and lets the server send its own notifications and requests.
///
/// ## Threading model
/// - A **reader thread** (started by `run`) does nothing but read frames, parse them, and sort them. It answers
///   malformed messages itself (`ParseError`, `InvalidRequest`), applies `$/cancelRequest` immediately by marking
///   the id cancelled, and appends everything else to a FIFO queue. Because cancellations bypass the queue, a
///   request that is cancelled while still waiting is never run.
/// - A **single worker** — the thread that called `run` — takes messages off the queue in order and calls the
///   handler. The one exception is a request of a method in `overtaking` (completion, say): it is taken before the
///   other requests queued ahead of it, never before a notification, a response or a request of `initialize` or
///   `shutdown` queued ahead of it, so it sees the documents as the client left them when it asked; at most
///   `overtakingLimit` in a row go before the same request. A queued request whose id was cancelled is answered with
///   `RequestCancelled` without calling the handler; a request cancelled while its handler ran is answered the same
///   way, whatever the handler returned.
/// - **Writes** go through a locked `MessageWriter`, so any thread may call `send(notification:params:)` or
///   `sendRequest` while the worker is answering requests.
/// - Responses to the server's own requests are delivered as callbacks **on the worker**, in order with the
///   other messages, so they need no extra synchronization either. A handler must therefore never block waiting
///   for such a response.
///
/// Until `stop()` is called, every request gets exactly one answer, and nothing a client sends can crash the
/// connection.
///
/// ## Bounds
/// - A message body larger than `maximumMessageSize` is skipped unread, and answered with an `InvalidRequest` error
///   (its id unknown, so `null`) that says so.
/// - At most `maximumQueuedMessages` messages, of at most `maximumQueuedBytes` bytes together, wait for the worker.
///   When the queue is full the reader stops reading until the worker has taken one (backpressure): a client that
///   sends faster than the server answers is slowed down, and the server's memory does not grow with what it was sent.
///   (Cancellations behind the full queue then wait too; a cancellation already read always applies at once.)
/// - Once the connection has stopped (`exit`, or the client gone so that writing failed), every request reads as
///   cancelled, so a long handler polling `isCancelled` ends promptly and the process can exit.
public final class Connection: @unchecked Sendable {
  /// Work for the worker; `$/cancelRequest` never becomes one.
  private enum WorkItem {
    case request(RequestMessage)
    case notification(NotificationMessage)
    case response(Result<JSON, ResponseError>, @Sendable (Result<JSON, ResponseError>) -> Void)
  }

  private let writer: MessageWriter
  private let log: @Sendable (String) -> Void
  /// Guards every `var` below.
  private let condition = NSCondition()
  private var input: (any ByteSource & Sendable)?
  /// Whether `run` has been called.
  private var running = false
  private var queue: [WorkItem] = []
  private var queueHead = 0
  private var inputEnded = false
  private var stopped = false
  private var pendingRequests: Set<RequestID> = []
  private var cancelledRequests: Set<RequestID> = []
  private var responseHandlers: [RequestID: @Sendable (Result<JSON, ResponseError>) -> Void] = [:]
  private var nextOutgoingID = 1
  /// The body sizes of the queued items (from `queueHead`), and their sum, for the queue's bounds.
  private var queuedSizes: [Int] = []
  private var queuedBytes = 0
  /// Whether the reader waits for room in the queue. The condition has two kinds of waiter, the worker (for an item)
  /// and the reader (for room), at most one of each; this lets each side wake the other with `signal` alone, and
  /// only when it waits.
  private var readerWaitsForRoom = false

  /// The largest message body read; larger ones are skipped and answered with an error.
  public let maximumMessageSize: Int
  /// The most messages waiting for the worker before the reader stops reading.
  public let maximumQueuedMessages: Int
  /// The most bytes of message bodies waiting for the worker before the reader stops reading (one message is always
  /// let in, whatever its size up to `maximumMessageSize`).
  public let maximumQueuedBytes: Int
  /// The methods of the requests that go before the other requests queued ahead of them (see the threading model):
  /// those a user waits for at a keystroke, which should not wait behind a document's symbols or semantic tokens.
  public let overtaking: Set<String>
  /// How far behind the head of the queue an overtaking request is looked for.
  static let overtakingReach = 64
  /// How many requests may go before the one at the head of the queue: a client that keeps asking for hovers must not
  /// keep a document's symbols from ever being answered.
  static let overtakingLimit = 16
  /// How many went before the request at the head of the queue so far.
  private var overtakenHead = 0

  /// - Parameters:
  ///   - log: where protocol problems are reported (framing errors, malformed messages, failed writes). It must
  ///     not write to `output`, which carries the protocol.
  public init(
    input: some ByteSource & Sendable,
    output: some ByteSink,
    maximumMessageSize: Int = 64 << 20,
    maximumQueuedMessages: Int = 1_024,
    maximumQueuedBytes: Int = 64 << 20,
    overtaking: Set<String> = [],
    log: @escaping @Sendable (String) -> Void = Connection.logToStandardError
  ) {
    self.overtaking = overtaking
    self.input = input
    self.writer = MessageWriter(sink: output)
    self.log = log
    self.maximumMessageSize = maximumMessageSize
    self.maximumQueuedMessages = max(1, maximumQueuedMessages)
    self.maximumQueuedBytes = maximumQueuedBytes
  }

  /// The usual language-server transport: standard input and output, with the log on standard error. Also
  /// ignores `SIGPIPE`, so a client that disappears ends the loop instead of killing the process.
  public static func standardIO(
    overtaking: Set<String> = [], log: @escaping @Sendable (String) -> Void = logToStandardError
  ) -> Connection {
    ignoreBrokenPipeSignal()
    return Connection(
      input: FileDescriptorByteSource.standardInput, output: FileDescriptorByteSink.standardOutput,
      overtaking: overtaking, log: log)
  }

  /// Makes writes to a closed pipe fail with `EPIPE` instead of terminating the process.
  public static func ignoreBrokenPipeSignal() {
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// The default log: one line per problem on standard error, which editors show in their server log. Written
  /// with `write(2)` and errors ignored, because `FileHandle.write(_:)` traps when standard error is closed.
  @Sendable public static func logToStandardError(_ message: String) {
    let line = Array("\(message)\n".utf8)
    line.withUnsafeBytes { bytes in try? FileDescriptorByteSink(fileDescriptor: 2).write(bytes) }
  }

  // MARK: Running

  /// Starts the reader thread now, before `run`: what it reads meanwhile waits in the queue, so that a server still
  /// setting itself up reads and parses its first message in parallel. Does nothing once the reader has started.
  public func startReading() {
    condition.lock()
    let source = input
    input = nil
    condition.unlock()
    guard let source else { return }
    let thread = Thread { [self] in readLoop(source) }
    thread.name = "LanguageServerProtocol reader"
    thread.start()
  }

  /// Starts the reader thread (unless `startReading()` has) and processes messages on the calling thread until the
  /// input ends (after the queue drains), `stop()` is called, or the output fails. Call it once.
  ///
  /// After `stop()` the reader thread may stay blocked in `read` until the next byte or end of input; a server
  /// exits the process right after `exit`, so that never matters in practice.
  public func run(handler: some MessageHandler) {
    condition.lock()
    let again = running
    running = true
    condition.unlock()
    guard !again else {
      log("Connection.run called more than once")
      return
    }
    startReading()
    while let item = nextWorkItem() {
      switch item {
      case .request(let request):
        process(request, handler: handler)
      case .notification(let notification):
        do {
          try handler.handle(notification: notification, connection: self)
        } catch {
          log("Error handling notification \(notification.method): \(error)")
        }
      case .response(let result, let callback):
        callback(result)
      }
    }
  }

  /// Makes `run` return after the message being processed, e.g. on the `exit` notification. Thread-safe.
  public func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  private func nextWorkItem() -> WorkItem? {
    condition.lock()
    defer { condition.unlock() }
    while !stopped, queueHead == queue.count, !inputEnded { condition.wait() }
    guard !stopped, queueHead < queue.count else { return nil }
    if overtakenHead < Connection.overtakingLimit, let index = overtakingIndex() {
      overtakenHead += 1
      let item = queue.remove(at: index)
      queuedBytes -= queuedSizes.remove(at: index)
      if readerWaitsForRoom { condition.signal() }
      return item
    }
    overtakenHead = 0
    let item = queue[queueHead]
    queuedBytes -= queuedSizes[queueHead]
    queueHead += 1
    if queueHead == queue.count {
      queue.removeAll(keepingCapacity: true)
      queuedSizes.removeAll(keepingCapacity: true)
      queueHead = 0
    } else if queueHead > 1024, queueHead * 2 > queue.count {
      queue.removeSubrange(0..<queueHead)
      queuedSizes.removeSubrange(0..<queueHead)
      queueHead = 0
    }
    // A reader waiting for room may go on. (Only the reader waits while the worker runs.)
    if readerWaitsForRoom { condition.signal() }
    return item
  }

  /// Where the first request of an `overtaking` method waits behind the head of the queue with only requests that may
  /// be overtaken before it (any but `initialize`, `shutdown` and the overtaking ones); nil when there is none, or the
  /// head may not be overtaken. Called with the lock held.
  private func overtakingIndex() -> Int? {
    func mayBeOvertaken(_ item: WorkItem) -> Bool {
      guard case .request(let request) = item else { return false }
      return !overtaking.contains(request.method) && request.method != "initialize" && request.method != "shutdown"
    }
    guard !overtaking.isEmpty, mayBeOvertaken(queue[queueHead]) else { return nil }
    var index = queueHead + 1
    while index < min(queue.count, queueHead + Connection.overtakingReach) {
      if case .request(let request) = queue[index], overtaking.contains(request.method) { return index }
      guard mayBeOvertaken(queue[index]) else { return nil }
      index += 1
    }
    return nil
  }

  /// Queues an item for the worker, first waiting (on the reader thread) while the queue is full, unless
  /// `waitsForRoom` is false (the server's own posted notifications: few, and a post from the worker must not wait
  /// for itself).
  private func enqueue(_ item: WorkItem, size: Int, waitsForRoom: Bool = true) {
    condition.lock()
    while waitsForRoom, !stopped, queue.count - queueHead > 0,
      queue.count - queueHead >= maximumQueuedMessages || queuedBytes + size > maximumQueuedBytes
    {
      readerWaitsForRoom = true
      condition.wait()
      readerWaitsForRoom = false
    }
    if case .request(let request) = item { pendingRequests.insert(request.id) }
    queue.append(item)
    queuedSizes.append(size)
    queuedBytes += size
    // From the reader, the only thread that can be waiting is the worker; a post from another thread may find the
    // reader waiting for room too, and must wake the worker whichever of them `signal` would pick.
    if waitsForRoom { condition.signal() } else { condition.broadcast() }
    condition.unlock()
  }

  /// How many messages wait for the worker now (for tests and the log).
  public var queuedMessageCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count - queueHead
  }

  private func process(_ request: RequestMessage, handler: some MessageHandler) {
    let result: Result<[UInt8], ResponseError>
    if isCancelled(request.id) {
      result = .failure(.requestCancelled)
    } else {
      let context = RequestContext(id: request.id, method: request.method, connection: self)
      let outcome: Result<[UInt8], ResponseError>
      do {
        outcome = .success(try handler.serializedResult(request: request, context: context))
      } catch let error as ResponseError {
        outcome = .failure(error)
      } catch let error as JSONDecodingError {
        outcome = .failure(.invalidParams(error.description))
      } catch {
        outcome = .failure(.internalError(String(describing: error)))
      }
      result = isCancelled(request.id) ? .failure(.requestCancelled) : outcome
    }
    condition.lock()
    pendingRequests.remove(request.id)
    cancelledRequests.remove(request.id)
    condition.unlock()
    switch result {
    case .success(let serialized): send(body: ResponseMessage.serialized(id: request.id, result: serialized))
    case .failure(let error): send(ResponseMessage(id: request.id, error: error).toJSON())
    }
  }

  // MARK: Reading

  private func readLoop<Source: ByteSource>(_ source: Source) {
    var reader = MessageReader(source: source)
    reader.maximumContentLength = maximumMessageSize
    reading: while !isStopped {
      let event: MessageReader<Source>.Event
      do {
        event = try reader.next()
      } catch {
        log("Reading input failed: \(error)")
        break
      }
      switch event {
      case .endOfInput:
        break reading
      case .framingError(let error):
        log("Skipped malformed input: \(error)")
        if case .contentLengthTooLarge(let length) = error {
          // Its id is in the body left unread: the answer goes to no id, and says why.
          let megabytes = maximumMessageSize >> 20
          let error = ResponseError.invalidRequest(
            "a message of \(length) bytes is larger than the limit of \(megabytes) MiB; it was skipped")
          send(ResponseMessage(id: nil, error: error).toJSON())
        }
      case .message(let body):
        accept(IncomingMessage.parse(body), size: body.count)
      }
    }
    // The client closed its end of our input. If it closed our output too, it is gone: stop now, so that the
    // request being answered reads as cancelled and nothing queued runs for no one. (If it still reads, what is
    // queued is answered first, as always.)
    if writer.isClosedByPeer {
      log("The client closed both ends of the connection; stopping")
      stop()
    }
    condition.lock()
    inputEnded = true
    condition.broadcast()
    condition.unlock()
  }

  /// Routes one incoming message on the reader thread.
  private func accept(_ message: IncomingMessage, size: Int) {
    switch message {
    case .invalid(let invalid):
      log("Rejected message: \(invalid.error.message)")
      if let reply = invalid.reply { send(reply.toJSON()) }
    case .request(let request):
      enqueue(.request(request), size: size)
    case .notification(let notification):
      if notification.method == "$/cancelRequest" {
        cancel(notification)
      } else {
        enqueue(.notification(notification), size: size)
      }
    case .response(let response):
      guard let id = response.id else {
        log("Client reported an error: \(response.result)")
        return
      }
      condition.lock()
      let callback = responseHandlers.removeValue(forKey: id)
      condition.unlock()
      if let callback {
        enqueue(.response(response.result, callback), size: size)
      } else {
        log("Ignored response to unknown request \(id)")
      }
    }
  }

  private func cancel(_ notification: NotificationMessage) {
    guard let idJSON = notification.params?["id"], let id = try? RequestID(json: idJSON) else {
      log("Ignored malformed $/cancelRequest")
      return
    }
    condition.lock()
    // Only ids still queued or running are remembered, so stale cancellations cannot accumulate.
    if pendingRequests.contains(id) { cancelledRequests.insert(id) }
    condition.unlock()
  }

  private var isStopped: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopped
  }

  // MARK: Public state and sending

  /// Whether the client cancelled request `id` while it was queued or running, or the connection has stopped (no
  /// answer can reach the client any more).
  public func isCancelled(_ id: RequestID) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopped || cancelledRequests.contains(id)
  }

  /// Whether a notification matching `predicate` is waiting in the queue. A handler can use it to answer
  /// `ContentModified` instead of computing a result for a document version that a queued `didChange` is about
  /// to replace. The predicate runs under the queue's lock, so it must be quick and must not call back into the
  /// connection.
  public func hasQueuedNotification(where predicate: (NotificationMessage) -> Bool) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    return queue[queueHead...].contains { item in
      if case .notification(let notification) = item { return predicate(notification) }
      return false
    }
  }

  /// Queues a notification for the handler as if the client had sent it, after the messages already queued: how work
  /// a server finished on another thread (reading the workspace) reaches the worker. Thread-safe.
  public func post(_ notification: NotificationMessage) {
    enqueue(.notification(notification), size: 0, waitsForRoom: false)
  }

  /// Sends a notification (e.g. `textDocument/publishDiagnostics`). Thread-safe.
  public func send(notification method: String, params: some Encodable) {
    send(NotificationMessage(method: method, params: params.toJSON()).toJSON())
  }

  /// Sends a notification without params.
  public func send(notification method: String) {
    send(NotificationMessage(method: method).toJSON())
  }

  /// Sends a request to the client (e.g. `workspace/configuration`) and calls `onResponse` on the worker when
  /// the answer arrives. If the input ends first, `onResponse` is never called. Thread-safe.
  @discardableResult
  public func sendRequest(
    method: String, params: some Encodable,
    onResponse: @escaping @Sendable (Result<JSON, ResponseError>) -> Void
  ) -> RequestID {
    sendRequest(method: method, encodedParams: params.toJSON(), onResponse: onResponse)
  }

  /// Sends a request without params (e.g. `workspace/semanticTokens/refresh`).
  @discardableResult
  public func sendRequest(
    method: String, onResponse: @escaping @Sendable (Result<JSON, ResponseError>) -> Void
  ) -> RequestID {
    sendRequest(method: method, encodedParams: nil, onResponse: onResponse)
  }

  private func sendRequest(
    method: String, encodedParams: JSON?, onResponse: @escaping @Sendable (Result<JSON, ResponseError>) -> Void
  ) -> RequestID {
    condition.lock()
    let id = RequestID.integer(nextOutgoingID)
    nextOutgoingID += 1
    responseHandlers[id] = onResponse
    condition.unlock()
    send(RequestMessage(id: id, method: method, params: encodedParams).toJSON())
    return id
  }

  /// Writes a message; a failed write means the client is gone, so the connection stops.
  private func send(_ json: JSON) {
    send(body: json.serialized())
  }

  /// Writes a message already serialized.
  func send(body: [UInt8]) {
    do {
      try writer.write(body: body)
    } catch {
      log("Writing output failed: \(error)")
      stop()
    }
  }
}
