// LanguageServerProtocol: JSON-RPC 2.0 over `Content-Length` framing, and the LSP 3.17 data types.
//
// Layers, bottom up (each file is one concept):
//   JSON, JSONObject, JSONParser, JSONSerializer   the wire value, a byte-level parser, a compact serializer
//   JSONCoding                                     JSONEncodable/JSONDecodable, JSONFields, path-annotated errors
//   ByteStreams, MessageReader, MessageWriter      byte sources/sinks and the header framing
//   JSONRPCErrors, JSONRPCMessages                 ids, requests, notifications, responses, classification
//   Connection, ServerLifecycle                    the reader-thread + single-worker loop, and the LSP lifecycle
//   LSP/                                           the protocol's structures, in the `LSP` namespace
//
// Invariants:
// - The module knows nothing of any particular language: no imports beyond Foundation, no language names.
// - Nothing a peer sends can crash it: parsing is depth-limited and validates UTF-8, framing recovers from
//   garbage, decoding reports `JSONDecodingError` with a path, and malformed messages get JSON-RPC error replies.
// - Positions are kept as the protocol's line/character integers; converting them to offsets in a text is the
//   server's job, because only the server holds the text.
// - Optional protocol fields are omitted when nil, never written as `null`, except where the specification
//   requires `null` (a `null` result, `OptionalVersionedTextDocumentIdentifier.version`, `InitializeParams`).
