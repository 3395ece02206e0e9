extension LSP {
  /// Replaces `range` with `newText`; an empty range inserts, an empty text deletes.
  public struct TextEdit: Hashable, Sendable, Codable {
    public var range: Range
    public var newText: String

    public init(range: Range, newText: String) {
      self.range = range
      self.newText = newText
    }
  }

  /// Edits to one document, pinned to the version they were computed for so the client can refuse stale ones.
  public struct TextDocumentEdit: Hashable, Sendable, Codable {
    public var textDocument: OptionalVersionedTextDocumentIdentifier
    public var edits: [TextEdit]

    public init(textDocument: OptionalVersionedTextDocumentIdentifier, edits: [TextEdit]) {
      self.textDocument = textDocument
      self.edits = edits
    }
  }

  /// Changes across the workspace, e.g. for a rename: plain edits by document (`changes`, written with the URIs
  /// sorted), or edits pinned to versions (`documentChanges`) for clients that say they take them.
  public struct WorkspaceEdit: Equatable, Sendable, Codable {
    public var changes: [DocumentURI: [TextEdit]]?
    public var documentChanges: [TextDocumentEdit]?

    public init(changes: [DocumentURI: [TextEdit]]? = nil, documentChanges: [TextDocumentEdit]? = nil) {
      self.changes = changes
      self.documentChanges = documentChanges
    }
  }
}
