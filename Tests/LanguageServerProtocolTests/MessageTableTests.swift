import Foundation
import TestSupport
import Testing

@testable import LanguageServerProtocol

/// A handler served through a `MessageTable`: typed methods, no JSON in sight.
final class TypedHandler {
  var opened: [LSP.DocumentURI] = []
  let table: MessageTable<TypedHandler> = {
    var table = MessageTable<TypedHandler>()
    table.announce("positionEncoding", LSP.PositionEncodingKind.utf16)
    table.on(LSP.HoverRequest.self, TypedHandler.hover)
    table.on(LSP.ShutdownRequest.self, TypedHandler.shutdown)
    table.on(LSP.DefinitionRequest.self, TypedHandler.definition)
    table.on(LSP.DocumentDiagnosticsRequest.self, options: LSP.DiagnosticOptions(interFileDependencies: true, workspaceDiagnostics: false)) {
      _ in { _ in .full(resultId: nil, items: []) }
    }
    table.on(LSP.DidOpenTextDocumentNotification.self, TypedHandler.didOpen)
    return table
  }()

  func hover(_ request: LSP.HoverRequest) -> LSP.Hover? {
    request.position.line == 0 ? nil : LSP.Hover(contents: .plaintext("line \(request.position.line)"))
  }

  func shutdown(_ request: LSP.ShutdownRequest) -> VoidResponse { VoidResponse() }

  func definition(_ request: LSP.DefinitionRequest, context: RequestContext) throws -> [LSP.Location]? {
    try context.checkCancellation()
    throw ResponseError(code: .requestFailed, message: "nowhere")
  }

  func didOpen(_ notification: LSP.DidOpenTextDocumentNotification) { opened.append(notification.textDocument.uri) }

  func handle(request: RequestMessage, context: RequestContext) throws -> JSON {
    try table.handle(request, by: self, context: context)
  }

  func handle(notification: NotificationMessage, connection: Connection) throws {
    try table.handle(notification, by: self, connection: connection)
  }
}

@Suite struct MessageTableTests {
  @Test func decodesDispatchesAndEncodes() throws {
    let handler = TypedHandler()
    let position: JSON = ["textDocument": ["uri": "file:///a.tax"], "position": ["line": 4, "character": 0]]
    let input =
      notification(
        "textDocument/didOpen",
        ["textDocument": ["uri": "file:///a.tax", "languageId": "taxpro", "version": 1, "text": ""]])
      + notification("textDocument/didClose", ["textDocument": ["uri": "file:///a.tax"]])
      + request(1, "textDocument/hover", position)
      + request(2, "textDocument/hover", ["textDocument": ["uri": "file:///a.tax"], "position": ["line": 0, "character": 0]])
      + request(3, "textDocument/hover", ["position": 1]) + request(4, "textDocument/definition", position)
      + request(5, "workspace/symbol", ["query": ""])
      + MessageWriter.frame(RequestMessage(id: 6, method: "shutdown").toJSON().serialized())
    let scripted = ScriptedHandler(
      onRequest: { try handler.handle(request: $0, context: $1) },
      onNotification: { try handler.handle(notification: $0, connection: $1) })
    let result = try run(input, handler: scripted)
    #expect(handler.opened == ["file:///a.tax"])
    #expect(result.response(1)?["result"] == ["contents": ["kind": "plaintext", "value": "line 4"]])
    #expect(result.response(2)?["result"] == .null)
    #expect(result.response(3)?["error"]?["message"] == "Invalid params: textDocument: missing required field")
    #expect(result.response(4)?["error"] == ["code": -32803, "message": "nowhere"])
    #expect(result.response(5)?["error"]?["code"] == -32601)
    #expect(result.response(6) == ["jsonrpc": "2.0", "id": 6, "result": nil])
    #expect(
      handler.table.requestMethods == ["textDocument/hover", "shutdown", "textDocument/definition", "textDocument/diagnostic"])
    #expect(handler.table.notificationMethods == ["textDocument/didOpen"])
  }

  /// What a table handles is what it announces, in the order of its entries; `shutdown` needs no capability.
  @Test func capabilitiesComeFromTheEntries() {
    let table = TypedHandler().table
    #expect(
      JSON.object(table.capabilities).serializedString()
        == #"{"positionEncoding":"utf-16","hoverProvider":true,"definitionProvider":true,"diagnosticProvider":{"interFileDependencies":true,"workspaceDiagnostics":false}}"#
    )
    #expect(
      table.capabilities(without: [LSP.DocumentDiagnosticsRequest.self])
        == ["positionEncoding": "utf-16", "hoverProvider": true, "definitionProvider": true])
  }

  @Test func typedSendingWritesParamsAndDecodesReplies() throws {
    let replies = LockedBox<[Result<VoidResponse, ResponseError>]>([])
    let clientReplies =
      MessageWriter.frame(bytes(#"{"jsonrpc":"2.0","id":1,"result":null}"#))
      + MessageWriter.frame(bytes(#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}"#))
    let result = try run(clientReplies, handler: ScriptedHandler()) { connection in
      connection.send(LSP.ShowMessageNotification(type: .warning, message: "careful"))
      connection.send(LSP.InlayHintRefreshRequest()) { reply in replies.modify { $0.append(reply) } }
      let registration = LSP.Registration(
        id: "w", method: LSP.DidChangeWatchedFilesNotification.method,
        registerOptions: LSP.DidChangeWatchedFilesRegistrationOptions(watchers: [LSP.FileSystemWatcher(globPattern: "**/*.tax")]))
      connection.send(LSP.RegisterCapabilityRequest(registrations: [registration])) { reply in
        replies.modify { $0.append(reply) }
      }
    }
    #expect(
      result.output == [
        ["jsonrpc": "2.0", "method": "window/showMessage", "params": ["type": 2, "message": "careful"]],
        // A message without fields goes without params.
        ["jsonrpc": "2.0", "id": 1, "method": "workspace/inlayHint/refresh"],
        [
          "jsonrpc": "2.0", "id": 2, "method": "client/registerCapability",
          "params": [
            "registrations": [
              [
                "id": "w", "method": "workspace/didChangeWatchedFiles",
                "registerOptions": ["watchers": [["globPattern": "**/*.tax"]]],
              ]
            ]
          ],
        ],
      ])
    #expect(replies.current == [.success(VoidResponse()), .failure(ResponseError(code: .methodNotFound, message: "no"))])
  }
}
