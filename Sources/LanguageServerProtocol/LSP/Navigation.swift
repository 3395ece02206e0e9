extension LSP {
  /// Options of a references request.
  public struct ReferenceContext: Hashable, Sendable, JSONConvertible {
    /// Whether the declaration itself should be among the results.
    public var includeDeclaration: Bool

    public init(includeDeclaration: Bool) { self.includeDeclaration = includeDeclaration }

    public init(json: JSON) throws(JSONDecodingError) {
      includeDeclaration = try JSONFields(json, "ReferenceContext").decode("includeDeclaration")
    }

    public func toJSON() -> JSON { ["includeDeclaration": .bool(includeDeclaration)] }
  }

  /// `textDocument/references` params.
  public struct ReferenceParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var context: ReferenceContext

    public init(textDocument: TextDocumentIdentifier, position: Position, context: ReferenceContext) {
      self.textDocument = textDocument
      self.position = position
      self.context = context
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "ReferenceParams")
      textDocument = try fields.decode("textDocument")
      position = try fields.decode("position")
      context = try fields.decode("context")
    }

    public func toJSON() -> JSON {
      ["textDocument": textDocument.toJSON(), "position": position.toJSON(), "context": context.toJSON()]
    }
  }

  /// Lets editors colour reads and writes of a symbol differently.
  public struct DocumentHighlightKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let text = DocumentHighlightKind(rawValue: 1)
    public static let read = DocumentHighlightKind(rawValue: 2)
    public static let write = DocumentHighlightKind(rawValue: 3)
  }

  /// One occurrence of the symbol under the cursor within the same document.
  public struct DocumentHighlight: Hashable, Sendable, JSONConvertible {
    public var range: Range
    public var kind: DocumentHighlightKind?

    public init(range: Range, kind: DocumentHighlightKind? = nil) {
      self.range = range
      self.kind = kind
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentHighlight")
      range = try fields.decode("range")
      kind = try fields.decodeIfPresent("kind")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("range", range)
      object.put("kind", ifPresent: kind)
      return .object(object)
    }
  }

  /// Groups folding ranges so the client can offer "fold all comments" and the like.
  public struct FoldingRangeKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let comment = FoldingRangeKind(rawValue: "comment")
    public static let imports = FoldingRangeKind(rawValue: "imports")
    public static let region = FoldingRangeKind(rawValue: "region")
  }

  /// A foldable span, by lines: clients may ignore the characters, so lines must be right on their own.
  public struct FoldingRange: Hashable, Sendable, JSONConvertible {
    public var startLine: Int
    public var startCharacter: Int?
    public var endLine: Int
    public var endCharacter: Int?
    public var kind: FoldingRangeKind?
    /// Text to show in place of the folded span.
    public var collapsedText: String?

    public init(
      startLine: Int, startCharacter: Int? = nil, endLine: Int, endCharacter: Int? = nil,
      kind: FoldingRangeKind? = nil, collapsedText: String? = nil
    ) {
      self.startLine = startLine
      self.startCharacter = startCharacter
      self.endLine = endLine
      self.endCharacter = endCharacter
      self.kind = kind
      self.collapsedText = collapsedText
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "FoldingRange")
      startLine = try fields.decode("startLine")
      startCharacter = try fields.decodeIfPresent("startCharacter")
      endLine = try fields.decode("endLine")
      endCharacter = try fields.decodeIfPresent("endCharacter")
      kind = try fields.decodeIfPresent("kind")
      collapsedText = try fields.decodeIfPresent("collapsedText")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("startLine", startLine)
      object.put("startCharacter", ifPresent: startCharacter)
      object.put("endLine", endLine)
      object.put("endCharacter", ifPresent: endCharacter)
      object.put("kind", ifPresent: kind)
      object.put("collapsedText", ifPresent: collapsedText)
      return .object(object)
    }
  }

  /// `textDocument/selectionRange` params: one result is expected per position, in order.
  public struct SelectionRangeParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var positions: [Position]

    public init(textDocument: TextDocumentIdentifier, positions: [Position]) {
      self.textDocument = textDocument
      self.positions = positions
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SelectionRangeParams")
      textDocument = try fields.decode("textDocument")
      positions = try fields.decode("positions")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON(), "positions": positions.toJSON()] }
  }

  /// A chain of ever larger ranges for "expand selection"; each parent must contain its child.
  public struct SelectionRange: Hashable, Sendable, JSONConvertible {
    public var range: Range
    /// Stored in an array because a struct cannot contain itself directly; it holds zero or one element.
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

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SelectionRange")
      range = try fields.decode("range")
      let parent: SelectionRange? = try fields.decodeIfPresent("parent")
      parentStorage = parent.map { [$0] } ?? []
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("range", range)
      object.put("parent", ifPresent: parent)
      return .object(object)
    }
  }
}
