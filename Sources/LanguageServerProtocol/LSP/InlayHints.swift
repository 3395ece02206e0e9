extension LSP {
  /// `textDocument/inlayHint`: the client asks only for the visible range.
  public struct InlayHintRequest: RequestType, Hashable {
    public static let method = "textDocument/inlayHint"

    public static let capability: String? = "inlayHintProvider"
    public typealias Response = [InlayHint]?

    public var textDocument: TextDocumentIdentifier
    public var range: Range
  }

  /// Lets editors style type hints and parameter-name hints differently (or hide one kind).
  public struct InlayHintKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let type = InlayHintKind(rawValue: 1)
  }

  /// Text the editor shows inline without it being part of the document (computed values).
  public struct InlayHint: Equatable, Sendable, Codable {
    public var position: Position
    public var label: String
    public var kind: InlayHintKind?
    public var tooltip: MarkupContent?
    public var paddingLeft: Bool?

    public init(
      position: Position, label: String, kind: InlayHintKind? = nil, tooltip: MarkupContent? = nil,
      paddingLeft: Bool? = nil
    ) {
      self.position = position
      self.label = label
      self.kind = kind
      self.tooltip = tooltip
      self.paddingLeft = paddingLeft
    }
  }

  /// `workspace/inlayHint/refresh`, sent by the server: asks the client to ask for hints again.
  public struct InlayHintRefreshRequest: RequestType, Equatable {
    public static let method = "workspace/inlayHint/refresh"
    public typealias Response = VoidResponse
    public init() {}
  }
}
