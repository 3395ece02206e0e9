extension LSP {
  /// How the client sends document changes: the server announces the kind it wants in its capabilities.
  public struct TextDocumentSyncKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let none = TextDocumentSyncKind(rawValue: 0)
    /// Every change carries the whole text.
    public static let full = TextDocumentSyncKind(rawValue: 1)
    /// Changes carry ranges and replacement text.
    public static let incremental = TextDocumentSyncKind(rawValue: 2)
  }

  /// From `didOpen` until `didClose` the client owns the text: the server must use it, not the file on disk.
  public struct DidOpenTextDocumentParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentItem

    public init(textDocument: TextDocumentItem) { self.textDocument = textDocument }

    public init(json: JSON) throws(JSONDecodingError) {
      textDocument = try JSONFields(json, "DidOpenTextDocumentParams").decode("textDocument")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON()] }
  }

  /// One edit of a `didChange`. The specification's two shapes are one type here: with a `range` it is an
  /// incremental replacement, without one it replaces the whole document. Apply a notification's changes in
  /// order, each to the result of the previous one.
  public struct TextDocumentContentChangeEvent: Hashable, Sendable, JSONConvertible {
    public var range: Range?
    /// Deprecated by the specification; kept only so it round-trips. Use `range`.
    public var rangeLength: Int?
    public var text: String

    /// A whole-document replacement.
    public init(text: String) {
      self.range = nil
      self.rangeLength = nil
      self.text = text
    }

    /// An incremental replacement of `range`.
    public init(range: Range, rangeLength: Int? = nil, text: String) {
      self.range = range
      self.rangeLength = rangeLength
      self.text = text
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "TextDocumentContentChangeEvent")
      range = try fields.decodeIfPresent("range")
      rangeLength = try fields.decodeIfPresent("rangeLength")
      text = try fields.decode("text")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("range", ifPresent: range)
      object.put("rangeLength", ifPresent: rangeLength)
      object.put("text", text)
      return .object(object)
    }
  }

  /// Edits since the previous version; `textDocument.version` is the version after applying them.
  public struct DidChangeTextDocumentParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: VersionedTextDocumentIdentifier
    public var contentChanges: [TextDocumentContentChangeEvent]

    public init(textDocument: VersionedTextDocumentIdentifier, contentChanges: [TextDocumentContentChangeEvent]) {
      self.textDocument = textDocument
      self.contentChanges = contentChanges
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DidChangeTextDocumentParams")
      textDocument = try fields.decode("textDocument")
      contentChanges = try fields.decode("contentChanges")
    }

    public func toJSON() -> JSON {
      ["textDocument": textDocument.toJSON(), "contentChanges": contentChanges.toJSON()]
    }
  }

  /// Ownership of the text returns to the file on disk.
  public struct DidCloseTextDocumentParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier

    public init(textDocument: TextDocumentIdentifier) { self.textDocument = textDocument }

    public init(json: JSON) throws(JSONDecodingError) {
      textDocument = try JSONFields(json, "DidCloseTextDocumentParams").decode("textDocument")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON()] }
  }

  /// The document was written to disk.
  public struct DidSaveTextDocumentParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    /// Present only if the server asked for it with `save.includeText`.
    public var text: String?

    public init(textDocument: TextDocumentIdentifier, text: String? = nil) {
      self.textDocument = textDocument
      self.text = text
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DidSaveTextDocumentParams")
      textDocument = try fields.decode("textDocument")
      text = try fields.decodeIfPresent("text")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("textDocument", textDocument)
      object.put("text", ifPresent: text)
      return .object(object)
    }
  }
}
