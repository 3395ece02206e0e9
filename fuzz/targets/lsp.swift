// libFuzzer target: arbitrary bytes as a client's stream to a language server.
//
// The bytes go through `Content-Length` framing in pieces of varying size; each body is parsed and classified as
// JSON-RPC; requests' and notifications' parameters are decoded as the LSP types the server would decode for them,
// and what decodes is encoded again, which must decode to an equal value. JSON that parses must serialize to JSON
// that parses to the same value. Nothing may trap.
import Foundation
import LanguageServerProtocol

/// `json` with non-finite numbers replaced by `null`.
func finite(_ json: JSON) -> JSON {
  switch json {
  case .double(let value) where !value.isFinite: return .null
  case .array(let elements): return .array(elements.map(finite))
  case .object(let object): return .object(JSONObject(object.members.map { ($0.key, finite($0.value)) }))
  default: return json
  }
}

func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ json: JSON?) {
  guard let json, let value = try? T(json: json) else { return }
  let again = value.toJSON()
  guard let reparsed = try? JSON.parse(again.serialized()) else { fatalError("fuzz: \(T.self) encodes to bad JSON") }
  guard let decoded = try? T(json: reparsed) else { fatalError("fuzz: \(T.self) does not decode what it encoded") }
  if decoded != value { fatalError("fuzz: \(T.self) changed in a round trip") }
}

/// The messages whose params are round-tripped, by method; anything else is tried as a hover.
let messages: [String: any (MessageType & Equatable).Type] = Dictionary(
  uniqueKeysWithValues: ([
    LSP.InitializeRequest.self, LSP.DidOpenTextDocumentNotification.self, LSP.DidChangeTextDocumentNotification.self,
    LSP.CompletionRequest.self, LSP.ReferencesRequest.self, LSP.RenameRequest.self, LSP.CodeActionRequest.self,
    LSP.DocumentFormattingRequest.self, LSP.ExecuteCommandRequest.self, LSP.DidChangeConfigurationNotification.self,
  ] as [any (MessageType & Equatable).Type]).map { ($0.method, $0) })

func decodeParams(_ method: String, _ params: JSON?) {
  let type: any (MessageType & Equatable).Type = messages[method] ?? LSP.HoverRequest.self
  roundTrip(type, params)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // The whole input as one JSON text: it must survive serialization (numbers beyond Double's range, read as
  // infinities, are written as `null`, as the serializer documents).
  if let json = try? JSON.parse(bytes) {
    guard let again = try? JSON.parse(json.serialized()), again == finite(json) else {
      fatalError("fuzz: JSON does not survive serialization")
    }
  }
  var reader = MessageReader(source: PieceSource(bytes: bytes))
  reader.maximumContentLength = 1 << 20
  var lifecycle = ServerLifecycle()
  for _ in 0..<10_000 {
    guard let event = try? reader.next() else { break }
    switch event {
    case .endOfInput: return 0
    case .framingError(let error): _ = error.description
    case .message(let body):
      switch IncomingMessage.parse(body) {
      case .request(let request):
        _ = lifecycle.admit(request: request.method)
        decodeParams(request.method, request.params)
        _ = request.toJSON().serialized()
      case .notification(let notification):
        _ = lifecycle.admit(notification: notification.method)
        decodeParams(notification.method, notification.params)
        _ = notification.toJSON().serialized()
      case .response(let response): _ = response.toJSON().serialized()
      case .invalid(let invalid): _ = invalid.reply?.toJSON().serialized()
      }
    }
  }
  return 0
}
