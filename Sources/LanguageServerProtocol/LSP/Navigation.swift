extension LSP {
  /// `textDocument/definition`: where the symbol under the cursor is declared; `null` when nothing is.
  public struct DefinitionRequest: RequestType, Hashable {
    public static let method = "textDocument/definition"

    public static let capability: String? = "definitionProvider"
    public typealias Response = [Location]?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
  }

  /// `textDocument/references`: every use of the symbol under the cursor.
  public struct ReferencesRequest: RequestType, Hashable {
    public static let method = "textDocument/references"

    public static let capability: String? = "referencesProvider"
    public typealias Response = [Location]?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var context: ReferenceContext
  }

  /// Options of a references request.
  public struct ReferenceContext: Hashable, Sendable, Codable {
    /// Whether the declaration itself should be among the results.
    public var includeDeclaration: Bool
  }

  /// `textDocument/documentHighlight`: the symbol under the cursor throughout its document.
  public struct DocumentHighlightRequest: RequestType, Hashable {
    public static let method = "textDocument/documentHighlight"

    public static let capability: String? = "documentHighlightProvider"
    public typealias Response = [DocumentHighlight]?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
  }

  /// Lets editors colour reads and writes of a symbol differently.
  public struct DocumentHighlightKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let read = DocumentHighlightKind(rawValue: 2)
    public static let write = DocumentHighlightKind(rawValue: 3)
  }

  /// One occurrence of the symbol under the cursor within the same document.
  public struct DocumentHighlight: Hashable, Sendable, Codable {
    public var range: Range
    public var kind: DocumentHighlightKind?

    public init(range: Range, kind: DocumentHighlightKind? = nil) {
      self.range = range
      self.kind = kind
    }
  }

  /// `textDocument/foldingRange`.
  public struct FoldingRangeRequest: RequestType, Hashable {
    public static let method = "textDocument/foldingRange"

    public static let capability: String? = "foldingRangeProvider"
    public typealias Response = [FoldingRange]?

    public var textDocument: TextDocumentIdentifier
  }

  /// Groups folding ranges so the client can offer "fold all comments" and the like.
  public struct FoldingRangeKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let comment = FoldingRangeKind(rawValue: "comment")
    public static let region = FoldingRangeKind(rawValue: "region")
  }

  /// A foldable span, by lines: clients may ignore characters, so lines must be right on their own.
  public struct FoldingRange: Hashable, Sendable, Codable {
    public var startLine: Int
    public var endLine: Int
    public var kind: FoldingRangeKind?

    public init(startLine: Int, endLine: Int, kind: FoldingRangeKind? = nil) {
      self.startLine = startLine
      self.endLine = endLine
      self.kind = kind
    }
  }

  /// `textDocument/selectionRange`: one answer is expected per position, in order.
  public struct SelectionRangeRequest: RequestType, Hashable {
    public static let method = "textDocument/selectionRange"

    public static let capability: String? = "selectionRangeProvider"
    public typealias Response = [SelectionRange]?

    public var textDocument: TextDocumentIdentifier
    public var positions: [Position]
  }

  /// A chain of ever larger ranges for "expand selection"; each parent must contain its child.
  public struct SelectionRange: Hashable, Sendable, Codable {
    public var range: Range
    /// An array because a struct cannot contain itself directly; it holds zero or one element, and is written as the
    /// specification's optional `parent`.
    private var parentStorage: [SelectionRange]

    public var parent: SelectionRange? {
      get { parentStorage.first }
      set { parentStorage = newValue.map { [$0] } ?? [] }
    }

    public init(range: Range, parent: SelectionRange? = nil) {
      self.range = range
      self.parentStorage = parent.map { [$0] } ?? []
    }

    /// Builds the chain from the innermost range outwards.
    public init?(nested ranges: [Range]) {
      guard let innermost = ranges.first else { return nil }
      var outer: SelectionRange?
      for range in ranges.dropFirst().reversed() { outer = SelectionRange(range: range, parent: outer) }
      self.init(range: innermost, parent: outer)
    }

    private enum CodingKeys: String, CodingKey {
      case range
      case parent
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        range: try container.decode(Range.self, forKey: .range),
        parent: try container.decodeIfPresent(SelectionRange.self, forKey: .parent))
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(range, forKey: .range)
      try container.encodeIfPresent(parent, forKey: .parent)
    }
  }
}
