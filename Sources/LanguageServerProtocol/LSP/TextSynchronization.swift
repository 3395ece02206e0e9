extension LSP {
  /// `textDocument/didOpen`: from here until `didClose` the client owns the text; the server must use it, not the
  /// file on disk.
  public struct DidOpenTextDocumentNotification: NotificationType, Hashable {
    public static let method = "textDocument/didOpen"

    public var textDocument: TextDocumentItem
  }

  /// `textDocument/didChange`: edits since the previous version; `textDocument.version` is the version after them.
  public struct DidChangeTextDocumentNotification: NotificationType, Hashable {
    public static let method = "textDocument/didChange"

    public var textDocument: VersionedTextDocumentIdentifier
    public var contentChanges: [TextDocumentContentChangeEvent]
  }

  /// One edit of a `didChange`. The specification's two shapes are one type here: with a `range` it is an
  /// incremental replacement, without one it replaces the whole document. Apply a notification's changes in
  /// order, each to the result of the previous one.
  public struct TextDocumentContentChangeEvent: Hashable, Sendable, Codable {
    public var range: Range?
    public var text: String
  }

  /// `textDocument/didClose`: ownership of the text returns to the file on disk.
  public struct DidCloseTextDocumentNotification: NotificationType, Hashable {
    public static let method = "textDocument/didClose"

    public var textDocument: TextDocumentIdentifier
  }

  /// `textDocument/didSave`: the document was written to disk.
  public struct DidSaveTextDocumentNotification: NotificationType, Hashable {
    public static let method = "textDocument/didSave"

    public var textDocument: TextDocumentIdentifier
  }
}
