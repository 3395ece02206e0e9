extension LSP {
  /// `textDocument/documentSymbol`: the document's outline.
  public struct DocumentSymbolRequest: RequestType, Hashable {
    public static let method = "textDocument/documentSymbol"

    public static let capability: String? = "documentSymbolProvider"
    public typealias Response = [DocumentSymbol]?

    public var textDocument: TextDocumentIdentifier
  }

  /// `workspace/symbol`: the text typed into the client's symbol search.
  public struct WorkspaceSymbolsRequest: RequestType, Hashable {
    public static let method = "workspace/symbol"

    public static let capability: String? = "workspaceSymbolProvider"
    public typealias Response = [WorkspaceSymbol]?

    public var query: String
  }

  /// Decides the icon of a symbol in outlines and symbol search.
  public struct SymbolKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let namespace = SymbolKind(rawValue: 3)
    public static let method = SymbolKind(rawValue: 6)
    public static let property = SymbolKind(rawValue: 7)
    public static let interface = SymbolKind(rawValue: 11)
    public static let function = SymbolKind(rawValue: 12)
    public static let variable = SymbolKind(rawValue: 13)
    public static let constant = SymbolKind(rawValue: 14)
  }

  /// One node of a document outline: it nests, and separates the whole declaration (`range`) from its name
  /// (`selectionRange`).
  public struct DocumentSymbol: Hashable, Sendable, Codable {
    public var name: String
    public var detail: String?
    public var kind: SymbolKind
    public var range: Range
    /// Must be contained in `range`.
    public var selectionRange: Range
    public var children: [DocumentSymbol]?

    public init(
      name: String, detail: String? = nil, kind: SymbolKind, range: Range, selectionRange: Range,
      children: [DocumentSymbol]? = nil
    ) {
      self.name = name
      self.detail = detail
      self.kind = kind
      self.range = range
      self.selectionRange = selectionRange
      self.children = children
    }
  }

  /// A `workspace/symbol` result.
  public struct WorkspaceSymbol: Equatable, Sendable, Codable {
    public var name: String
    public var kind: SymbolKind
    public var containerName: String?
    public var location: Location

    public init(name: String, kind: SymbolKind, containerName: String? = nil, location: Location) {
      self.name = name
      self.kind = kind
      self.containerName = containerName
      self.location = location
    }
  }
}
