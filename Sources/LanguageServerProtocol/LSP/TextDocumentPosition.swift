import JSONValue

/// A request whose params are the specification's `TextDocumentPositionParams` and nothing else: a document and a
/// place in it (hover, completion, definition, highlights, signature help, prepare-rename).
///
/// These are the requests an editor sends as the cursor moves or the user types, so their params are read without
/// `Decodable`'s containers when they have the usual shape (`MessageTable` decides once per entry whether a request
/// is one of them). Anything else — a field missing, `null` or of another kind, a number written as a float, a
/// negative line — goes through `Decodable` as any request does, so the value and every error are the same either way.
/// The request's own fields stay its only field list: the conformance uses its memberwise initializer.
protocol TextDocumentPositionRequest: RequestType {
  init(textDocument: LSP.TextDocumentIdentifier, position: LSP.Position)
}

extension LSP.HoverRequest: TextDocumentPositionRequest {}
extension LSP.CompletionRequest: TextDocumentPositionRequest {}
extension LSP.DefinitionRequest: TextDocumentPositionRequest {}
extension LSP.DocumentHighlightRequest: TextDocumentPositionRequest {}
extension LSP.SignatureHelpRequest: TextDocumentPositionRequest {}
extension LSP.PrepareRenameRequest: TextDocumentPositionRequest {}

/// The requests above, found by type without asking the runtime whether a type conforms (`as? any ….Type`): a
/// type that does not conform is looked for through every conformance in the program, some 180,000 instructions,
/// which a table of thirty requests paid at start-up.
let textDocumentPositionRequests: [any TextDocumentPositionRequest.Type] = [
  LSP.HoverRequest.self, LSP.CompletionRequest.self, LSP.DefinitionRequest.self, LSP.DocumentHighlightRequest.self,
  LSP.SignatureHelpRequest.self, LSP.PrepareRenameRequest.self,
]

extension TextDocumentPositionRequest {
  /// The request made from a document and a position, as an `R` (which it is: the caller asked with `R.self`).
  static func request<R>(as type: R.Type, _ parts: (LSP.TextDocumentIdentifier, LSP.Position)) -> R? {
    Self(textDocument: parts.0, position: parts.1) as? R
  }
}

/// The document and position of `params` when they have the usual shape; nil for anything `Decodable` must judge
/// (see `TextDocumentPositionRequest`).
func textDocumentPosition(in params: JSON?) -> (LSP.TextDocumentIdentifier, LSP.Position)? {
  guard case .object(let params)? = params,
    case .object(let document)? = params["textDocument"], case .string(let uri)? = document["uri"],
    case .object(let position)? = params["position"],
    case .integer(let line)? = position["line"], line >= 0,
    case .integer(let character)? = position["character"], character >= 0
  else { return nil }
  return (LSP.TextDocumentIdentifier(uri: LSP.DocumentURI(uri)), LSP.Position(line: line, character: character))
}
