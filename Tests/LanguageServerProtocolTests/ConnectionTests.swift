import Foundation
import Testing

@testable import LanguageServerProtocol
import TestSupport

/// A handler built from closures, recording the order in which it saw messages.
final class ScriptedHandler: MessageHandler {
  var seen: [String] = []
  var onRequest: (RequestMessage, RequestContext) throws -> JSON
  var onNotification: (NotificationMessage, Connection) throws -> Void

  init(
    onRequest: @escaping (RequestMessage, RequestContext) throws -> JSON = { request, _ in
      throw ResponseError.methodNotFound(request.method)
    },
    onNotification: @escaping (NotificationMessage, Connection) throws -> Void = { _, _ in }
  ) {
    self.onRequest = onRequest
    self.onNotification = onNotification
  }

  func handle(request: RequestMessage, context: RequestContext) throws -> JSON {
    seen.append("\(request.method)#\(request.id)")
    return try onRequest(request, context)
  }

  func handle(notification: NotificationMessage, connection: Connection) throws {
    seen.append(notification.method)
    try onNotification(notification, connection)
  }
}

struct BrokenPipe: ByteSink {
  func write(_ bytes: UnsafeRawBufferPointer) throws { throw SystemCallError("write", errorNumber: EPIPE) }
}

/// Polls instead of sleeping a fixed time, so tests are fast when things go right and bounded when they don't.
func waitUntil(_ condition: () -> Bool) -> Bool {
  for _ in 0..<5000 {
    if condition() { return true }
    usleep(1000)
  }
  return false
}

func request(_ id: Int, _ method: String, _ params: JSON = [:]) -> [UInt8] {
  MessageWriter.frame(RequestMessage(id: .integer(id), method: method, params: params).toJSON().serialized())
}

func notification(_ method: String, _ params: JSON = [:]) -> [UInt8] {
  MessageWriter.frame(NotificationMessage(method: method, params: params).toJSON().serialized())
}

func cancel(_ id: Int) -> [UInt8] { notification("$/cancelRequest", ["id": .integer(id)]) }

struct ConnectionRun {
  var output: [JSON]
  var log: [String]

  /// The response to request `id`.
  func response(_ id: Int) -> JSON? { output.first { $0["id"] == .integer(id) && $0["method"] == nil } }
}

func run(_ input: [UInt8], handler: ScriptedHandler, before: (Connection) -> Void = { _ in }) throws -> ConnectionRun {
  let sink = MemoryByteSink()
  let log = LockedBox<[String]>([])
  let connection = Connection(input: MemoryByteSource(input), output: sink) { line in log.modify { $0.append(line) } }
  before(connection)
  connection.run(handler: handler)
  var output: [JSON] = []
  for event in try readAll(MemoryByteSource(sink.bytes)) {
    if case .message(let body) = event { output.append(try JSON.parse(body)) }
  }
  return ConnectionRun(output: output, log: log.current)
}

@Suite struct ConnectionTests {
  @Test func dispatchesInOrderAndAnswersEveryRequest() throws {
    let handler = ScriptedHandler(onRequest: { request, _ in
      switch request.method {
      case "textDocument/hover":
        let params = try request.decodeParams(LSP.HoverRequest.self)
        return LSP.Hover(contents: .markdown("line \(params.position.line)")).toJSON()
      case "fails":
        struct Boom: Error {}
        throw Boom()
      default:
        throw ResponseError.methodNotFound(request.method)
      }
    })
    let hoverParams: JSON = ["textDocument": ["uri": "file:///a.tax"], "position": ["line": 4, "character": 0]]
    let input =
      notification("textDocument/didOpen") + request(1, "textDocument/hover", hoverParams)
      + request(2, "no/suchMethod") + request(3, "textDocument/hover", ["textDocument": 1]) + request(4, "fails")
      + MessageWriter.frame(bytes("{not json")) + MessageWriter.frame(bytes(#"{"jsonrpc":"2.0","method":5}"#))
    let result = try run(input, handler: handler)

    #expect(handler.seen == ["textDocument/didOpen", "textDocument/hover#1", "no/suchMethod#2", "textDocument/hover#3", "fails#4"])
    #expect(result.response(1)?["result"] == ["contents": ["kind": "markdown", "value": "line 4"]])
    #expect(result.response(2)?["error"]?["code"] == -32601)
    #expect(result.response(3)?["error"]?["code"] == -32602)
    #expect(result.response(4)?["error"]?["code"] == -32603)
    let anonymous = result.output.filter { $0["id"] == .null }.compactMap { $0["error"]?["code"]?.intValue }
    #expect(anonymous.sorted() == [-32700, -32600])
    #expect(result.output.count == 6)
  }

  /// A request of an overtaking method goes before the requests queued ahead of it, never before a notification, a
  /// response, `initialize` or `shutdown`; the others keep their order, as everything does without such methods.
  @Test func urgentRequestsOvertakeQueuedRequestsOnly() throws {
    let input =
      notification("hold") + request(1, "slow") + request(2, "symbols") + request(3, "tokens") + request(4, "textDocument/completion")
      + notification("change") + request(5, "symbols") + request(6, "textDocument/hover")
      + request(7, "textDocument/completion") + request(8, "shutdown") + request(9, "textDocument/hover")
      + request(10, "initialize") + request(11, "textDocument/completion")
    for overtaking in [true, false] {
      let sink = MemoryByteSink()
      let connection = Connection(
        input: MemoryByteSource(input), output: sink,
        overtaking: overtaking ? ["textDocument/completion", "textDocument/hover"] : [])
      // The first message, a notification (which nothing overtakes), holds the worker until every other message
      // waits in the queue: the order is then the same however the reader and the worker interleave.
      let handler = ScriptedHandler(
        onRequest: { request, _ in .string(request.method) },
        onNotification: { notification, _ in
          if notification.method == "hold" { #expect(waitUntil { connection.queuedMessageCount == 12 }) }
        })
      connection.run(handler: handler)
      let expected =
        overtaking
        ? [
          "hold", "textDocument/completion#4", "slow#1", "symbols#2", "tokens#3", "change", "textDocument/hover#6",
          "textDocument/completion#7", "symbols#5", "shutdown#8", "textDocument/hover#9", "initialize#10",
          "textDocument/completion#11",
        ]
        : [
          "hold", "slow#1", "symbols#2", "tokens#3", "textDocument/completion#4", "change", "symbols#5", "textDocument/hover#6",
          "textDocument/completion#7", "shutdown#8", "textDocument/hover#9", "initialize#10",
          "textDocument/completion#11",
        ]
      #expect(handler.seen == expected, "overtaking: \(overtaking)")
      // Every request is answered once, with its own result.
      var answered: [Int: JSON] = [:]
      for event in try readAll(MemoryByteSource(sink.bytes)) {
        if case .message(let body) = event, let message = try? JSON.parse(body), let id = message["id"]?.intValue {
          #expect(answered[id] == nil)
          answered[id] = message["result"]
        }
      }
      #expect(answered.count == 11 && answered[4] == "textDocument/completion" && answered[9] == "textDocument/hover")
    }
  }

  /// Requests that keep coming do not keep the one at the head of the queue waiting for ever: after
  /// `overtakingLimit` of them it is taken.
  @Test func overtakingRequestsCannotStarveTheHead() throws {
    let limit = Connection.overtakingLimit
    let input =
      notification("hold") + request(1, "symbols")
      + (2...(limit + 5)).map { request($0, "textDocument/hover") }.reduce([], +)
    let connection = Connection(input: MemoryByteSource(input), output: MemoryByteSink(), overtaking: ["textDocument/hover"])
    let handler = ScriptedHandler(
      onRequest: { request, _ in .string(request.method) },
      onNotification: { _, _ in #expect(waitUntil { connection.queuedMessageCount == limit + 5 }) })
    connection.run(handler: handler)
    let hovers = (2...(limit + 5)).map { "textDocument/hover#\($0)" }
    #expect(handler.seen == ["hold"] + hovers.prefix(limit) + ["symbols#1"] + hovers.dropFirst(limit))
  }

  /// A server may start the reader before it is ready to run (`startReading()`, which `taxpro lsp` calls while it
  /// sets itself up): what is read meanwhile waits in the queue and is handled in order once `run` starts, even when
  /// the input has already ended. Starting the reader again reads nothing twice; a second `run` is refused.
  @Test func messagesReadBeforeRunWaitForIt() throws {
    let handler = ScriptedHandler(onRequest: { request, _ in .string(request.method) })
    let input = notification("first") + request(1, "second") + request(2, "third")
    let sink = MemoryByteSink()
    let log = LockedBox<[String]>([])
    let connection = Connection(input: MemoryByteSource(input), output: sink) { line in log.modify { $0.append(line) } }
    connection.startReading()
    connection.startReading()
    usleep(20_000)  // room for the reader to reach the end of input before `run`; the order holds either way
    connection.run(handler: handler)
    connection.run(handler: handler)
    #expect(handler.seen == ["first", "second#1", "third#2"])
    var responses: [JSON] = []
    for event in try readAll(MemoryByteSource(sink.bytes)) {
      if case .message(let body) = event { responses.append(try JSON.parse(body)) }
    }
    #expect(responses.map { $0["result"] } == ["second", "third"])
    #expect(log.current == ["Connection.run called more than once"])
  }

  @Test func aRequestCancelledWhileQueuedIsAnsweredWithoutRunning() throws {
    let handler = ScriptedHandler(onRequest: { request, context in
      if request.id == 1 {
        // Hold the worker until the reader has seen the cancellation of request 2.
        #expect(waitUntil { context.connection.isCancelled(2) })
      }
      return "ran"
    })
    let result = try run(request(1, "slow") + request(2, "queued") + cancel(2) + request(3, "after"), handler: handler)
    #expect(handler.seen == ["slow#1", "after#3"])
    #expect(result.response(1)?["result"] == "ran")
    #expect(result.response(2)?["error"]?["code"] == -32800)
    #expect(result.response(3)?["result"] == "ran")
  }

  @Test func aRequestCancelledWhileRunningIsAnsweredAsCancelled() throws {
    let handler = ScriptedHandler(onRequest: { _, context in
      #expect(waitUntil { context.isCancelled })
      #expect(throws: ResponseError.requestCancelled) { try context.checkCancellation() }
      return "too late"
    })
    let result = try run(request(1, "long") + cancel(1), handler: handler)
    #expect(result.response(1)?["error"]?["code"] == -32800)
  }

  @Test func cancellationsOfUnknownOrFinishedRequestsLeaveNoTrace() throws {
    let handler = ScriptedHandler(onRequest: { _, _ in "ok" })
    var connection: Connection?
    // The first cancel arrives before request 5 exists and must be ignored; the cancel of 6 arrives either while
    // 6 is pending (then 6 is cancelled) or after it finished (then it is ignored): in both cases nothing stays.
    let result = try run(cancel(5) + request(5, "later") + request(6, "other") + cancel(6), handler: handler) {
      connection = $0
    }
    #expect(handler.seen.first == "later#5")
    #expect(result.response(5)?["result"] == "ok")
    #expect(result.response(6) != nil)
    #expect(connection?.isCancelled(5) == false)
    #expect(connection?.isCancelled(6) == false)
  }

  @Test func aHandlerCanSeeQueuedChanges() throws {
    let handler = ScriptedHandler(onRequest: { _, context in
      let changed = waitUntil {
        context.connection.hasQueuedNotification { $0.method == "textDocument/didChange" }
      }
      if changed { throw ResponseError.contentModified }
      return .null
    })
    let result = try run(request(1, "textDocument/semanticTokens/full") + notification("textDocument/didChange"), handler: handler)
    #expect(result.response(1)?["error"]?["code"] == -32801)
    #expect(handler.seen == ["textDocument/semanticTokens/full#1", "textDocument/didChange"])
  }

  @Test func stopEndsTheLoopBeforeLaterMessages() throws {
    let handler = ScriptedHandler(
      onRequest: { _, _ in .null },
      onNotification: { notification, connection in
        if notification.method == "exit" { connection.stop() }
      })
    let result = try run(request(1, "shutdown") + notification("exit") + request(2, "textDocument/hover"), handler: handler)
    #expect(handler.seen == ["shutdown#1", "exit"])
    #expect(result.response(1) == ["jsonrpc": "2.0", "id": 1, "result": nil])
    #expect(result.response(2) == nil)
  }

  @Test func responsesToServerRequestsReachTheirCallbacks() throws {
    let received = LockedBox<[Result<JSON, ResponseError>]>([])
    let handler = ScriptedHandler()
    let clientReplies =
      MessageWriter.frame(bytes(#"{"jsonrpc":"2.0","id":1,"result":[{"taxpro.year":2024}]}"#))
      + MessageWriter.frame(bytes(#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}}"#))
      + MessageWriter.frame(bytes(#"{"jsonrpc":"2.0","id":77,"result":null}"#))
    let result = try run(clientReplies, handler: handler) { connection in
      let params: JSON = ["items": [["section": "taxpro"]]]
      connection.sendRequest(method: "workspace/configuration", params: params) { reply in
        received.modify { $0.append(reply) }
      }
      connection.sendRequest(method: "workspace/semanticTokens/refresh") { reply in received.modify { $0.append(reply) } }
    }
    #expect(
      result.output.first
        == [
          "jsonrpc": "2.0", "id": 1, "method": "workspace/configuration",
          "params": ["items": [["section": "taxpro"]]],
        ])
    #expect(result.output.dropFirst().first == ["jsonrpc": "2.0", "id": 2, "method": "workspace/semanticTokens/refresh"])
    #expect(
      received.current == [
        .success([["taxpro.year": 2024]]), .failure(ResponseError(code: .methodNotFound, message: "nope")),
      ])
    #expect(result.log.contains { $0.contains("unknown request 77") })
  }

  @Test func aBrokenOutputStopsTheConnection() {
    let log = LockedBox<[String]>([])
    let connection = Connection(input: MemoryByteSource(request(1, "a") + request(2, "b")), output: BrokenPipe()) {
      line in log.modify { $0.append(line) }
    }
    let handler = ScriptedHandler(onRequest: { _, _ in .null })
    connection.run(handler: handler)
    #expect(handler.seen == ["a#1"])
    #expect(log.current.contains { $0.contains("Writing output failed") })
  }

  /// A full queue stops the reader (backpressure) rather than growing: with room for 4, the reader waits while the
  /// worker is busy, and every request is still answered once it goes on.
  @Test func aFullQueueStopsTheReaderUntilThereIsRoom() throws {
    var input: [UInt8] = []
    for id in 1...100 { input += request(id, "r") }
    let sink = MemoryByteSink()
    let connection = Connection(
      input: MemoryByteSource(input), output: sink, maximumQueuedMessages: 4, log: { _ in })
    let largest = LockedBox(0)
    let handler = ScriptedHandler(onRequest: { request, context in
      let queued = context.connection.queuedMessageCount
      largest.modify { $0 = max($0, queued) }
      if request.id == 1 {
        // Give the reader every chance to read past the bound while the worker is held here.
        #expect(waitUntil { context.connection.queuedMessageCount == 4 })
        Thread.sleep(forTimeInterval: 0.2)
        #expect(context.connection.queuedMessageCount == 4)
      }
      return "ok"
    })
    connection.run(handler: handler)
    #expect(largest.current <= 4)
    var answered = 0
    for event in try readAll(MemoryByteSource(sink.bytes)) {
      if case .message(let body) = event, try JSON.parse(body)["result"] == "ok" { answered += 1 }
    }
    #expect(answered == 100)
  }

  /// A body over the size cap is skipped unread and answered with an error that says why; the next message is read.
  @Test func anOversizedMessageIsAnsweredWithAnError() throws {
    let sink = MemoryByteSink()
    let big = MessageWriter.frame(Array(repeating: UInt8(ascii: " "), count: 3 << 20))
    let connection = Connection(
      input: MemoryByteSource(big + request(1, "after")), output: sink, maximumMessageSize: 1 << 20, log: { _ in })
    connection.run(handler: ScriptedHandler(onRequest: { _, _ in "read" }))
    var output: [JSON] = []
    for event in try readAll(MemoryByteSource(sink.bytes)) {
      if case .message(let body) = event { output.append(try JSON.parse(body)) }
    }
    #expect(output.count == 2)
    #expect(output.first?["id"] == .null)
    #expect(output.first?["error"]?["code"] == -32600)
    #expect(output.first?["error"]?["message"]?.stringValue?.contains("larger than the limit of 1 MiB") == true)
    #expect(output.last?["result"] == "read")
  }

  /// Once stopped, every request reads as cancelled, so a long handler ends and the process can exit.
  @Test func aStoppedConnectionCancelsTheRunningRequest() throws {
    let handler = ScriptedHandler(onRequest: { _, context in
      #expect(!context.isCancelled)
      context.connection.stop()
      #expect(context.isCancelled)
      return .null
    })
    _ = try run(request(1, "long"), handler: handler)
    #expect(handler.seen == ["long#1"])
  }

  @Test func framingProblemsAreLoggedAndSkipped() throws {
    let handler = ScriptedHandler(onRequest: { _, _ in 1 })
    let input = bytes("garbage\r\n") + request(1, "x") + bytes("Content-Length: 100\r\n\r\n{}")
    let result = try run(input, handler: handler)
    #expect(result.response(1)?["result"] == 1)
    #expect(result.log.contains { $0.contains("invalid header") })
    #expect(result.log.contains { $0.contains("input ended after 2 of 100") })
  }

  @Test func hostileBodiesGetParseErrorsOnTheReaderThread() throws {
    let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    let badUTF8: [UInt8] = Array(#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":""#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8)
    let handler = ScriptedHandler(onRequest: { _, _ in "fine" })
    let result = try run(
      MessageWriter.frame(deep) + MessageWriter.frame(badUTF8) + request(2, "after"), handler: handler)
    #expect(result.output.filter { $0["error"]?["code"] == -32700 && $0["id"] == .null }.count == 2)
    #expect(result.response(2)?["result"] == "fine")
  }

  @Test func randomMessagesNeverCrashTheConnection() throws {
    var generator = SeededGenerator(seed: 2024)
    let fragments: [JSON] = [
      "2.0", 1, "x", .null, [:], [1], ["id": 1], -1, 1.5, "$/cancelRequest", "textDocument/hover",
    ]
    let keys = ["jsonrpc", "id", "method", "params", "result", "error"]
    var input: [UInt8] = []
    for _ in 0..<300 {
      var object = JSONObject()
      for key in keys where generator.next() % 2 == 0 {
        object[key] = fragments[Int(generator.next() % UInt64(fragments.count))]
      }
      input += MessageWriter.frame(JSON.object(object).serialized())
    }
    let handler = ScriptedHandler(onRequest: { request, _ in
      _ = try request.decodeParams(LSP.HoverRequest.self)
      return .null
    })
    let result = try run(input, handler: handler)
    // Every answer is well formed: it carries an id (possibly null) and exactly one of result and error.
    for message in result.output where message["method"] == nil {
      #expect(message["id"] != nil)
      #expect((message["result"] == nil) != (message["error"] == nil))
    }
  }
}
