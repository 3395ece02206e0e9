extension LSP {
  /// Replaces `range` with `newText`; an empty range inserts, an empty text deletes.
  public struct TextEdit: Hashable, Sendable, JSONConvertible {
    public var range: Range
    public var newText: String

    public init(range: Range, newText: String) {
      self.range = range
      self.newText = newText
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "TextEdit")
      range = try fields.decode("range")
      newText = try fields.decode("newText")
    }

    public func toJSON() -> JSON { ["range": range.toJSON(), "newText": .string(newText)] }
  }

  /// Edits to one document, pinned to the version they were computed for so the client can refuse stale ones.
  public struct TextDocumentEdit: Hashable, Sendable, JSONConvertible {
    public var textDocument: OptionalVersionedTextDocumentIdentifier
    public var edits: [TextEdit]

    public init(textDocument: OptionalVersionedTextDocumentIdentifier, edits: [TextEdit]) {
      self.textDocument = textDocument
      self.edits = edits
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "TextDocumentEdit")
      textDocument = try fields.decode("textDocument")
      edits = try fields.decode("edits")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON(), "edits": edits.toJSON()] }
  }

  /// Overwrite/ignore flags shared by the file operations of a workspace edit.
  public struct FileOperationOptions: Hashable, Sendable, JSONConvertible {
    public var overwrite: Bool?
    public var ignoreIfExists: Bool?

    public init(overwrite: Bool? = nil, ignoreIfExists: Bool? = nil) {
      self.overwrite = overwrite
      self.ignoreIfExists = ignoreIfExists
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "options")
      overwrite = try fields.decodeIfPresent("overwrite")
      ignoreIfExists = try fields.decodeIfPresent("ignoreIfExists")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("overwrite", ifPresent: overwrite)
      object.put("ignoreIfExists", ifPresent: ignoreIfExists)
      return .object(object)
    }
  }

  /// Deleting differs from creating and renaming: it can recurse into folders and tolerate a missing file.
  public struct DeleteFileOptions: Hashable, Sendable, JSONConvertible {
    public var recursive: Bool?
    public var ignoreIfNotExists: Bool?

    public init(recursive: Bool? = nil, ignoreIfNotExists: Bool? = nil) {
      self.recursive = recursive
      self.ignoreIfNotExists = ignoreIfNotExists
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "options")
      recursive = try fields.decodeIfPresent("recursive")
      ignoreIfNotExists = try fields.decodeIfPresent("ignoreIfNotExists")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("recursive", ifPresent: recursive)
      object.put("ignoreIfNotExists", ifPresent: ignoreIfNotExists)
      return .object(object)
    }
  }

  /// One entry of `WorkspaceEdit.documentChanges`: an edit of a document, or a file operation.
  public enum DocumentChange: Hashable, Sendable, JSONConvertible {
    case edit(TextDocumentEdit)
    case create(uri: DocumentURI, options: FileOperationOptions?)
    case rename(oldUri: DocumentURI, newUri: DocumentURI, options: FileOperationOptions?)
    case delete(uri: DocumentURI, options: DeleteFileOptions?)

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentChange")
      switch fields["kind"] {
      case nil:
        self = .edit(try TextDocumentEdit(json: json))
      case .string("create")?:
        self = .create(uri: try fields.decode("uri"), options: try fields.decodeIfPresent("options"))
      case .string("rename")?:
        self = .rename(
          oldUri: try fields.decode("oldUri"), newUri: try fields.decode("newUri"),
          options: try fields.decodeIfPresent("options"))
      case .string("delete")?:
        self = .delete(uri: try fields.decode("uri"), options: try fields.decodeIfPresent("options"))
      case let other?:
        throw JSONDecodingError("unknown resource operation \(other)", path: [.key("kind")])
      }
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      switch self {
      case .edit(let edit):
        return edit.toJSON()
      case .create(let uri, let options):
        object.put("kind", "create")
        object.put("uri", uri)
        object.put("options", ifPresent: options)
      case .rename(let oldUri, let newUri, let options):
        object.put("kind", "rename")
        object.put("oldUri", oldUri)
        object.put("newUri", newUri)
        object.put("options", ifPresent: options)
      case .delete(let uri, let options):
        object.put("kind", "delete")
        object.put("uri", uri)
        object.put("options", ifPresent: options)
      }
      return .object(object)
    }
  }

  /// Changes across the workspace, e.g. for a rename. Use `changes` for plain edits, or `documentChanges` when
  /// versions or file operations matter (the client announces support for the latter in its capabilities).
  public struct WorkspaceEdit: Equatable, Sendable, JSONConvertible {
    public var changes: [DocumentURI: [TextEdit]]?
    public var documentChanges: [DocumentChange]?
    /// `changeAnnotations`, passed through untyped; few servers need them.
    public var changeAnnotations: JSON?

    public init(
      changes: [DocumentURI: [TextEdit]]? = nil, documentChanges: [DocumentChange]? = nil,
      changeAnnotations: JSON? = nil
    ) {
      self.changes = changes
      self.documentChanges = documentChanges
      self.changeAnnotations = changeAnnotations
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "WorkspaceEdit")
      if let raw: [String: [TextEdit]] = try fields.decodeIfPresent("changes") {
        var changes: [DocumentURI: [TextEdit]] = [:]
        for (uri, edits) in raw { changes[DocumentURI(uri)] = edits }
        self.changes = changes
      } else {
        changes = nil
      }
      documentChanges = try fields.decodeIfPresent("documentChanges")
      changeAnnotations = fields.raw("changeAnnotations")
    }

    /// `changes` is written with its URIs sorted, so the same edit always serializes identically.
    public func toJSON() -> JSON {
      var object = JSONObject()
      if let changes {
        var map = JSONObject()
        for uri in changes.keys.sorted() { map[uri.stringValue] = changes[uri]?.toJSON() }
        object["changes"] = .object(map)
      }
      object.put("documentChanges", ifPresent: documentChanges)
      object.put("changeAnnotations", ifPresent: changeAnnotations)
      return .object(object)
    }
  }
}
