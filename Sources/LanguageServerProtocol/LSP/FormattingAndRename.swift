extension LSP {
  /// The editor's whitespace settings for a formatting request. The specification lets clients add arbitrary
  /// `boolean | integer | string` properties; those are kept in `additionalProperties`.
  public struct FormattingOptions: Equatable, Sendable, JSONConvertible {
    public var tabSize: Int
    public var insertSpaces: Bool
    public var trimTrailingWhitespace: Bool?
    public var insertFinalNewline: Bool?
    public var trimFinalNewlines: Bool?
    public var additionalProperties: JSONObject

    private static let knownKeys: Set<String> = [
      "tabSize", "insertSpaces", "trimTrailingWhitespace", "insertFinalNewline", "trimFinalNewlines",
    ]

    public init(
      tabSize: Int, insertSpaces: Bool, trimTrailingWhitespace: Bool? = nil, insertFinalNewline: Bool? = nil,
      trimFinalNewlines: Bool? = nil, additionalProperties: JSONObject = JSONObject()
    ) {
      self.tabSize = tabSize
      self.insertSpaces = insertSpaces
      self.trimTrailingWhitespace = trimTrailingWhitespace
      self.insertFinalNewline = insertFinalNewline
      self.trimFinalNewlines = trimFinalNewlines
      self.additionalProperties = additionalProperties
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "FormattingOptions")
      tabSize = try fields.decode("tabSize")
      insertSpaces = try fields.decode("insertSpaces")
      trimTrailingWhitespace = try fields.decodeIfPresent("trimTrailingWhitespace")
      insertFinalNewline = try fields.decodeIfPresent("insertFinalNewline")
      trimFinalNewlines = try fields.decodeIfPresent("trimFinalNewlines")
      var extra = JSONObject()
      for (key, value) in fields.object.members where !Self.knownKeys.contains(key) { extra[key] = value }
      additionalProperties = extra
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("tabSize", tabSize)
      object.put("insertSpaces", insertSpaces)
      object.put("trimTrailingWhitespace", ifPresent: trimTrailingWhitespace)
      object.put("insertFinalNewline", ifPresent: insertFinalNewline)
      object.put("trimFinalNewlines", ifPresent: trimFinalNewlines)
      for (key, value) in additionalProperties.members where !Self.knownKeys.contains(key) { object[key] = value }
      return .object(object)
    }
  }

  /// `textDocument/formatting` params; the result is a list of edits, not a new text.
  public struct DocumentFormattingParams: Equatable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var options: FormattingOptions

    public init(textDocument: TextDocumentIdentifier, options: FormattingOptions) {
      self.textDocument = textDocument
      self.options = options
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentFormattingParams")
      textDocument = try fields.decode("textDocument")
      options = try fields.decode("options")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON(), "options": options.toJSON()] }
  }

  /// `textDocument/rangeFormatting` params: format only a selection.
  public struct DocumentRangeFormattingParams: Equatable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var range: Range
    public var options: FormattingOptions

    public init(textDocument: TextDocumentIdentifier, range: Range, options: FormattingOptions) {
      self.textDocument = textDocument
      self.range = range
      self.options = options
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentRangeFormattingParams")
      textDocument = try fields.decode("textDocument")
      range = try fields.decode("range")
      options = try fields.decode("options")
    }

    public func toJSON() -> JSON {
      ["textDocument": textDocument.toJSON(), "range": range.toJSON(), "options": options.toJSON()]
    }
  }

  /// Sent after the user types one of the server's on-type trigger characters (`ch`).
  public struct DocumentOnTypeFormattingParams: Equatable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var ch: String
    public var options: FormattingOptions

    public init(textDocument: TextDocumentIdentifier, position: Position, ch: String, options: FormattingOptions) {
      self.textDocument = textDocument
      self.position = position
      self.ch = ch
      self.options = options
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentOnTypeFormattingParams")
      textDocument = try fields.decode("textDocument")
      position = try fields.decode("position")
      ch = try fields.decode("ch")
      options = try fields.decode("options")
    }

    public func toJSON() -> JSON {
      [
        "textDocument": textDocument.toJSON(), "position": position.toJSON(), "ch": .string(ch),
        "options": options.toJSON(),
      ]
    }
  }

  /// `textDocument/rename` params; the result is a `WorkspaceEdit` touching every reference.
  public struct RenameParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var newName: String

    public init(textDocument: TextDocumentIdentifier, position: Position, newName: String) {
      self.textDocument = textDocument
      self.position = position
      self.newName = newName
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "RenameParams")
      textDocument = try fields.decode("textDocument")
      position = try fields.decode("position")
      newName = try fields.decode("newName")
    }

    public func toJSON() -> JSON {
      ["textDocument": textDocument.toJSON(), "position": position.toJSON(), "newName": .string(newName)]
    }
  }

  /// The non-null results of `textDocument/prepareRename` (answer `null` when nothing can be renamed there).
  public enum PrepareRenameResult: Hashable, Sendable, JSONConvertible {
    /// The range of the name; the client uses its text as the default new name.
    case range(Range)
    /// The range and the text to propose.
    case rangeWithPlaceholder(range: Range, placeholder: String)
    /// "Renaming is valid here; find the name the way you normally would."
    case defaultBehavior

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "PrepareRenameResult")
      if fields["defaultBehavior"] != nil {
        let _: Bool = try fields.decode("defaultBehavior")
        self = .defaultBehavior
      } else if fields["placeholder"] != nil {
        self = .rangeWithPlaceholder(range: try fields.decode("range"), placeholder: try fields.decode("placeholder"))
      } else {
        self = .range(try Range(json: json))
      }
    }

    public func toJSON() -> JSON {
      switch self {
      case .range(let range): return range.toJSON()
      case .rangeWithPlaceholder(let range, let placeholder):
        return ["range": range.toJSON(), "placeholder": .string(placeholder)]
      case .defaultBehavior: return ["defaultBehavior": true]
      }
    }
  }
}
