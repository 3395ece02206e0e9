extension LSP {
  /// `textDocument/hover`: what is under the cursor; `null` means nothing.
  public struct HoverRequest: RequestType, Hashable {
    public static let method = "textDocument/hover"

    public static let capability: String? = "hoverProvider"
    public typealias Response = Hover?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
  }

  /// The result of `textDocument/hover`.
  public struct Hover: Equatable, Sendable, Codable {
    public var contents: MarkupContent
    /// The span the hover describes, so the client can highlight it and avoid re-asking within it.
    public var range: Range?

    public init(contents: MarkupContent, range: Range? = nil) {
      self.contents = contents
      self.range = range
    }
  }

  /// `textDocument/signatureHelp`: the call around the cursor. (Its `context` is not read: the answer depends on
  /// the text alone.)
  public struct SignatureHelpRequest: RequestType, Hashable {
    public static let method = "textDocument/signatureHelp"

    public static let capability: String? = "signatureHelpProvider"
    public typealias Response = SignatureHelp?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
  }

  /// A parameter's place in its signature's label, as UTF-16 offsets `[start, end)`: unambiguous where the same
  /// text appears twice. Written as the specification's two-element array.
  public struct ParameterLabel: Hashable, Sendable, Codable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
      self.start = start
      self.end = end
    }

    public init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      start = try container.decode(Int.self)
      end = try container.decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      try container.encode(start)
      try container.encode(end)
    }
  }

  /// One parameter of a signature; the client highlights its `label` within the signature label.
  public struct ParameterInformation: Hashable, Sendable, Codable {
    public var label: ParameterLabel
    public var documentation: MarkupContent?

    public init(label: ParameterLabel, documentation: MarkupContent? = nil) {
      self.label = label
      self.documentation = documentation
    }
  }

  /// One callable form shown in signature help.
  public struct SignatureInformation: Hashable, Sendable, Codable {
    public var label: String
    public var documentation: MarkupContent?
    public var parameters: [ParameterInformation]?
    /// Overrides `SignatureHelp.activeParameter` for this signature.
    public var activeParameter: Int?

    public init(
      label: String, documentation: MarkupContent? = nil, parameters: [ParameterInformation]? = nil,
      activeParameter: Int? = nil
    ) {
      self.label = label
      self.documentation = documentation
      self.parameters = parameters
      self.activeParameter = activeParameter
    }
  }

  /// The result of `textDocument/signatureHelp`.
  public struct SignatureHelp: Hashable, Sendable, Codable {
    public var signatures: [SignatureInformation]
    public var activeSignature: Int?
    public var activeParameter: Int?

    public init(signatures: [SignatureInformation], activeSignature: Int? = nil, activeParameter: Int? = nil) {
      self.signatures = signatures
      self.activeSignature = activeSignature
      self.activeParameter = activeParameter
    }
  }
}
