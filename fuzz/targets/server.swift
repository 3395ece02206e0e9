// libFuzzer target: arbitrary bytes as a client's messages to the TaxPro language server's message handler.
//
// One server for the whole run, with the standard library, initialized once. Each input is read as a framed
// stream (in pieces of varying size, as in the `lsp` target); every request and notification in it goes to the
// server's handler as the connection's worker would give it, except `initialize`, `shutdown` and `exit`, which would
// end the server for the inputs after (the lifecycle is fuzzed in the `lsp` target). Documents an input opens are
// closed after it, so inputs do not pile up. Every request must end in a result or an error reply; nothing may trap.
import Foundation
@testable import LanguageServerProtocol
import TaxProLibrary
import TaxProServer

struct NullSink: ByteSink {
  func write(_ bytes: UnsafeRawBufferPointer) throws {}
}

struct NoInput: ByteSource, Sendable {
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { 0 }
}

let connection = Connection(input: NoInput(), output: NullSink(), log: { _ in })
nonisolated(unsafe) var nextID = 1_000_000

nonisolated(unsafe) let server: LanguageServer = {
  let server = LanguageServer(library: StandardLibrary.files(), log: { _ in })
  let params: JSON = ["processId": .null, "rootUri": .null, "capabilities": [:]]
  let request = RequestMessage(id: 0, method: "initialize", params: params)
  guard (try? server.handle(request: request, context: RequestContext(id: 0, method: "initialize", connection: connection))) != nil
  else { fatalError("fuzz: the server did not initialize") }
  try? server.handle(notification: NotificationMessage(method: "initialized", params: [:]), connection: connection)
  return server
}()

let skipped: Set<String> = ["initialize", "shutdown", "exit"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var reader = MessageReader(source: PieceSource(bytes: bytes))
  reader.maximumContentLength = 1 << 20
  var opened: [String] = []
  for _ in 0..<200 {
    guard let event = try? reader.next() else { break }
    guard case .message(let body) = event else {
      if case .endOfInput = event { break }
      continue
    }
    switch IncomingMessage.parse(body) {
    case .request(let request) where !skipped.contains(request.method):
      _ = try? server.handle(
        request: request, context: RequestContext(id: request.id, method: request.method, connection: connection))
    case .notification(let notification) where !skipped.contains(notification.method):
      if notification.method == "textDocument/didOpen",
        let uri = notification.params?["textDocument"]?["uri"]?.stringValue
      {
        opened.append(uri)
      }
      try? server.handle(notification: notification, connection: connection)
    default:
      break
    }
  }
  for uri in opened {
    let close = NotificationMessage(method: "textDocument/didClose", params: ["textDocument": ["uri": .string(uri)]])
    try? server.handle(notification: close, connection: connection)
  }
  // Wait for the re-check the input caused, so that its work is part of this input.
  nextID += 1
  let symbols = RequestMessage(id: .integer(nextID), method: "workspace/symbol", params: ["query": ""])
  _ = try? server.handle(
    request: symbols, context: RequestContext(id: symbols.id, method: symbols.method, connection: connection))
  return 0
}
