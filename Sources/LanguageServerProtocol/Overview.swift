// LanguageServerProtocol: JSON-RPC 2.0 over `Content-Length` framing, and the LSP 3.17 messages.
//
// Layers, bottom up (each file is one concept):
//   (JSONValue)                                    the wire value, its parser and writer, Codable over it; re-exported
//   ByteStreams, MessageReader, MessageWriter      byte sources/sinks and the header framing
//   JSONRPCErrors, JSONRPCMessages                 ids, requests, notifications, responses, classification
//   Connection, ServerLifecycle                    the reader-thread + single-worker loop, and the LSP lifecycle
//   MessageTable, Connection+Messages              typed dispatch (and the capabilities it announces), typed sending
//   LSP/                                           one type per message (`Messages.swift`: `RequestType`,
//                                                  `NotificationType`) and the structures they carry, in `LSP`
//
// Invariants:
// - The module knows nothing of any particular language: no imports beyond Foundation and JSONValue, no language
//   names.
// - Nothing a peer sends can crash it: parsing is depth-limited and validates UTF-8, framing recovers from
//   garbage, decoding reports `JSONDecodingError` with a path, and malformed messages get JSON-RPC error replies.
// - Each field of a message is written once, in its type; the types are synthesized `Codable`. A message knows its
//   method and (for a request) its `Response`, so a handler is typed end to end: `(HoverRequest) -> Hover?`.
// - Positions are kept as the protocol's line/character integers; converting them to offsets in a text is the
//   server's job, because only the server holds the text.
// - Optional protocol fields are omitted when nil, never written as `null`, except where the specification
//   requires `null` (a `null` result, `OptionalVersionedTextDocumentIdentifier.version`).
@_exported import JSONValue
