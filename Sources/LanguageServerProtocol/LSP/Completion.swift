extension LSP {
  /// `textDocument/completion` at a position. (Its `context`, how completion was triggered, is not read.)
  public struct CompletionRequest: RequestType, Hashable {
    public static let method = "textDocument/completion"

    public static let capability: String? = "completionProvider"
    public typealias Response = CompletionList?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
  }

  /// Decides the icon the editor shows next to a completion item.
  public struct CompletionItemKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let function = CompletionItemKind(rawValue: 3)
    public static let field = CompletionItemKind(rawValue: 5)
    public static let variable = CompletionItemKind(rawValue: 6)
    public static let module = CompletionItemKind(rawValue: 9)
    public static let property = CompletionItemKind(rawValue: 10)
    public static let keyword = CompletionItemKind(rawValue: 14)
    public static let constant = CompletionItemKind(rawValue: 21)
    public static let `struct` = CompletionItemKind(rawValue: 22)
  }

  /// One proposal, with `kind`, `detail` and `documentation` up front and a `textEdit` that says exactly which range
  /// it replaces (so the client does not guess word boundaries).
  public struct CompletionItem: Equatable, Sendable, Codable {
    /// What is shown, and by default what is filtered on.
    public var label: String
    public var kind: CompletionItemKind?
    /// One line of extra information, typically the type.
    public var detail: String?
    /// Shown in the side panel: Markdown or plain text, or a bare string for a client that names no format.
    public var documentation: StringOrMarkupContent?
    public var sortText: String?
    public var filterText: String?
    public var textEdit: TextEdit?

    public init(
      label: String, kind: CompletionItemKind? = nil, detail: String? = nil,
      documentation: StringOrMarkupContent? = nil, sortText: String? = nil, filterText: String? = nil,
      textEdit: TextEdit? = nil
    ) {
      self.label = label
      self.kind = kind
      self.detail = detail
      self.documentation = documentation
      self.sortText = sortText
      self.filterText = filterText
      self.textEdit = textEdit
    }
  }

  /// A completion result; `isIncomplete` asks the client to re-query as the user types instead of filtering.
  public struct CompletionList: Equatable, Sendable, Codable {
    public var isIncomplete: Bool
    public var items: [CompletionItem]

    public init(isIncomplete: Bool = false, items: [CompletionItem]) {
      self.isIncomplete = isIncomplete
      self.items = items
    }
  }
}
