extension LSP {
  /// Decides the icon the editor shows next to a completion item.
  public struct CompletionItemKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let text = CompletionItemKind(rawValue: 1)
    public static let method = CompletionItemKind(rawValue: 2)
    public static let function = CompletionItemKind(rawValue: 3)
    public static let constructor = CompletionItemKind(rawValue: 4)
    public static let field = CompletionItemKind(rawValue: 5)
    public static let variable = CompletionItemKind(rawValue: 6)
    public static let `class` = CompletionItemKind(rawValue: 7)
    public static let interface = CompletionItemKind(rawValue: 8)
    public static let module = CompletionItemKind(rawValue: 9)
    public static let property = CompletionItemKind(rawValue: 10)
    public static let unit = CompletionItemKind(rawValue: 11)
    public static let value = CompletionItemKind(rawValue: 12)
    public static let `enum` = CompletionItemKind(rawValue: 13)
    public static let keyword = CompletionItemKind(rawValue: 14)
    public static let snippet = CompletionItemKind(rawValue: 15)
    public static let color = CompletionItemKind(rawValue: 16)
    public static let file = CompletionItemKind(rawValue: 17)
    public static let reference = CompletionItemKind(rawValue: 18)
    public static let folder = CompletionItemKind(rawValue: 19)
    public static let enumMember = CompletionItemKind(rawValue: 20)
    public static let constant = CompletionItemKind(rawValue: 21)
    public static let `struct` = CompletionItemKind(rawValue: 22)
    public static let event = CompletionItemKind(rawValue: 23)
    public static let `operator` = CompletionItemKind(rawValue: 24)
    public static let typeParameter = CompletionItemKind(rawValue: 25)
  }

  /// Rendering hints for completion items; deprecated items are struck through.
  public struct CompletionItemTag: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let deprecated = CompletionItemTag(rawValue: 1)
  }

  /// Whether `insertText`/`textEdit` is literal text or a snippet with `$1`/`${1:placeholder}` tab stops.
  public struct InsertTextFormat: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let plainText = InsertTextFormat(rawValue: 1)
    public static let snippet = InsertTextFormat(rawValue: 2)
  }

  /// How the client treats leading whitespace of multi-line insertions.
  public struct InsertTextMode: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let asIs = InsertTextMode(rawValue: 1)
    public static let adjustIndentation = InsertTextMode(rawValue: 2)
  }

  /// Why completion was requested, so a server can e.g. offer only members after a `.`.
  public struct CompletionTriggerKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Typing an identifier, or an explicit invocation (Ctrl+Space).
    public static let invoked = CompletionTriggerKind(rawValue: 1)
    /// One of the server's `triggerCharacters`, such as `.`.
    public static let triggerCharacter = CompletionTriggerKind(rawValue: 2)
    /// Re-requesting an incomplete list while the user keeps typing.
    public static let triggerForIncompleteCompletions = CompletionTriggerKind(rawValue: 3)
  }

  /// How completion was triggered; only present if the client supports sending it.
  public struct CompletionContext: Hashable, Sendable, JSONConvertible {
    public var triggerKind: CompletionTriggerKind
    public var triggerCharacter: String?

    public init(triggerKind: CompletionTriggerKind, triggerCharacter: String? = nil) {
      self.triggerKind = triggerKind
      self.triggerCharacter = triggerCharacter
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CompletionContext")
      triggerKind = try fields.decode("triggerKind")
      triggerCharacter = try fields.decodeIfPresent("triggerCharacter")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("triggerKind", triggerKind)
      object.put("triggerCharacter", ifPresent: triggerCharacter)
      return .object(object)
    }
  }

  /// `textDocument/completion` params: the cursor position plus the trigger.
  public struct CompletionParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    /// Absent when the client does not support sending it.
    public var context: CompletionContext?

    public init(textDocument: TextDocumentIdentifier, position: Position, context: CompletionContext? = nil) {
      self.textDocument = textDocument
      self.position = position
      self.context = context
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CompletionParams")
      textDocument = try fields.decode("textDocument")
      position = try fields.decode("position")
      context = try fields.decodeIfPresent("context")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("textDocument", textDocument)
      object.put("position", position)
      object.put("context", ifPresent: context)
      return .object(object)
    }
  }

  /// Extra text shown right after the label (`detail`, e.g. a signature) and further right (`description`,
  /// e.g. a type or module).
  public struct CompletionItemLabelDetails: Hashable, Sendable, JSONConvertible {
    public var detail: String?
    public var description: String?

    public init(detail: String? = nil, description: String? = nil) {
      self.detail = detail
      self.description = description
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CompletionItemLabelDetails")
      detail = try fields.decodeIfPresent("detail")
      description = try fields.decodeIfPresent("description")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("detail", ifPresent: detail)
      object.put("description", ifPresent: description)
      return .object(object)
    }
  }

  /// A completion edit whose range depends on whether the user accepts with "insert" or "replace".
  public struct InsertReplaceEdit: Hashable, Sendable, JSONConvertible {
    public var newText: String
    public var insert: Range
    public var replace: Range

    public init(newText: String, insert: Range, replace: Range) {
      self.newText = newText
      self.insert = insert
      self.replace = replace
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "InsertReplaceEdit")
      newText = try fields.decode("newText")
      insert = try fields.decode("insert")
      replace = try fields.decode("replace")
    }

    public func toJSON() -> JSON {
      ["newText": .string(newText), "insert": insert.toJSON(), "replace": replace.toJSON()]
    }
  }

  /// `CompletionItem.textEdit`, which the specification types as `TextEdit | InsertReplaceEdit`.
  public enum CompletionTextEdit: Hashable, Sendable, JSONConvertible {
    case edit(TextEdit)
    case insertReplace(InsertReplaceEdit)

    public init(json: JSON) throws(JSONDecodingError) {
      if json["insert"] != nil {
        self = .insertReplace(try InsertReplaceEdit(json: json))
      } else {
        self = .edit(try TextEdit(json: json))
      }
    }

    public func toJSON() -> JSON {
      switch self {
      case .edit(let edit): return edit.toJSON()
      case .insertReplace(let edit): return edit.toJSON()
      }
    }
  }

  /// One proposal. Prefer `textEdit` over `insertText` and send `kind`, `detail` and `documentation` up front
  /// unless they are expensive (then provide them in `completionItem/resolve`).
  public struct CompletionItem: Equatable, Sendable, JSONConvertible {
    /// What is shown, and by default what is inserted and filtered on.
    public var label: String
    public var labelDetails: CompletionItemLabelDetails?
    public var kind: CompletionItemKind?
    public var tags: [CompletionItemTag]?
    /// One line of extra information, typically the type.
    public var detail: String?
    /// Shown in the side panel. The specification also allows a bare string, which decodes as plain text.
    public var documentation: MarkupContent?
    /// Deprecated by the specification in favour of `tags`; kept for old clients.
    public var deprecated: Bool?
    public var preselect: Bool?
    public var sortText: String?
    public var filterText: String?
    public var insertText: String?
    public var insertTextFormat: InsertTextFormat?
    public var insertTextMode: InsertTextMode?
    /// Preferred over `insertText`: it says exactly which range is replaced, avoiding client word guessing.
    public var textEdit: CompletionTextEdit?
    public var textEditText: String?
    public var additionalTextEdits: [TextEdit]?
    public var commitCharacters: [String]?
    public var command: Command?
    /// Preserved by the client for `completionItem/resolve`.
    public var data: JSON?

    public init(
      label: String, labelDetails: CompletionItemLabelDetails? = nil, kind: CompletionItemKind? = nil,
      tags: [CompletionItemTag]? = nil, detail: String? = nil, documentation: MarkupContent? = nil,
      deprecated: Bool? = nil, preselect: Bool? = nil, sortText: String? = nil, filterText: String? = nil,
      insertText: String? = nil, insertTextFormat: InsertTextFormat? = nil, insertTextMode: InsertTextMode? = nil,
      textEdit: CompletionTextEdit? = nil, textEditText: String? = nil, additionalTextEdits: [TextEdit]? = nil,
      commitCharacters: [String]? = nil, command: Command? = nil, data: JSON? = nil
    ) {
      self.label = label
      self.labelDetails = labelDetails
      self.kind = kind
      self.tags = tags
      self.detail = detail
      self.documentation = documentation
      self.deprecated = deprecated
      self.preselect = preselect
      self.sortText = sortText
      self.filterText = filterText
      self.insertText = insertText
      self.insertTextFormat = insertTextFormat
      self.insertTextMode = insertTextMode
      self.textEdit = textEdit
      self.textEditText = textEditText
      self.additionalTextEdits = additionalTextEdits
      self.commitCharacters = commitCharacters
      self.command = command
      self.data = data
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CompletionItem")
      label = try fields.decode("label")
      labelDetails = try fields.decodeIfPresent("labelDetails")
      kind = try fields.decodeIfPresent("kind")
      tags = try fields.decodeIfPresent("tags")
      detail = try fields.decodeIfPresent("detail")
      documentation = try fields.decodeIfPresent("documentation")
      deprecated = try fields.decodeIfPresent("deprecated")
      preselect = try fields.decodeIfPresent("preselect")
      sortText = try fields.decodeIfPresent("sortText")
      filterText = try fields.decodeIfPresent("filterText")
      insertText = try fields.decodeIfPresent("insertText")
      insertTextFormat = try fields.decodeIfPresent("insertTextFormat")
      insertTextMode = try fields.decodeIfPresent("insertTextMode")
      textEdit = try fields.decodeIfPresent("textEdit")
      textEditText = try fields.decodeIfPresent("textEditText")
      additionalTextEdits = try fields.decodeIfPresent("additionalTextEdits")
      commitCharacters = try fields.decodeIfPresent("commitCharacters")
      command = try fields.decodeIfPresent("command")
      data = fields.raw("data")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("label", label)
      object.put("labelDetails", ifPresent: labelDetails)
      object.put("kind", ifPresent: kind)
      object.put("tags", ifPresent: tags)
      object.put("detail", ifPresent: detail)
      object.put("documentation", ifPresent: documentation)
      object.put("deprecated", ifPresent: deprecated)
      object.put("preselect", ifPresent: preselect)
      object.put("sortText", ifPresent: sortText)
      object.put("filterText", ifPresent: filterText)
      object.put("insertText", ifPresent: insertText)
      object.put("insertTextFormat", ifPresent: insertTextFormat)
      object.put("insertTextMode", ifPresent: insertTextMode)
      object.put("textEdit", ifPresent: textEdit)
      object.put("textEditText", ifPresent: textEditText)
      object.put("additionalTextEdits", ifPresent: additionalTextEdits)
      object.put("commitCharacters", ifPresent: commitCharacters)
      object.put("command", ifPresent: command)
      object.put("data", ifPresent: data)
      return .object(object)
    }
  }

  /// A completion result; `isIncomplete` asks the client to re-query as the user types instead of filtering.
  public struct CompletionList: Equatable, Sendable, JSONConvertible {
    public var isIncomplete: Bool
    /// `itemDefaults`, passed through untyped: values shared by all items to shrink large lists.
    public var itemDefaults: JSON?
    public var items: [CompletionItem]

    public init(isIncomplete: Bool = false, itemDefaults: JSON? = nil, items: [CompletionItem]) {
      self.isIncomplete = isIncomplete
      self.itemDefaults = itemDefaults
      self.items = items
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CompletionList")
      isIncomplete = try fields.decode("isIncomplete")
      itemDefaults = fields.raw("itemDefaults")
      items = try fields.decode("items")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("isIncomplete", isIncomplete)
      object.put("itemDefaults", ifPresent: itemDefaults)
      object.put("items", items)
      return .object(object)
    }
  }
}
