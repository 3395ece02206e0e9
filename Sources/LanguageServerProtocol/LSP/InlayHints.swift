extension LSP {
  /// `textDocument/inlayHint` params: the client asks only for the visible range.
  public struct InlayHintParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var range: Range

    public init(textDocument: TextDocumentIdentifier, range: Range) {
      self.textDocument = textDocument
      self.range = range
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "InlayHintParams")
      textDocument = try fields.decode("textDocument")
      range = try fields.decode("range")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON(), "range": range.toJSON()] }
  }

  /// Lets editors style type hints and parameter-name hints differently (or hide one kind).
  public struct InlayHintKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let type = InlayHintKind(rawValue: 1)
    public static let parameter = InlayHintKind(rawValue: 2)
  }

  /// A piece of a hint's label that can have its own tooltip, go-to location or command.
  public struct InlayHintLabelPart: Equatable, Sendable, JSONConvertible {
    public var value: String
    public var tooltip: MarkupContent?
    public var location: Location?
    public var command: Command?

    public init(value: String, tooltip: MarkupContent? = nil, location: Location? = nil, command: Command? = nil) {
      self.value = value
      self.tooltip = tooltip
      self.location = location
      self.command = command
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "InlayHintLabelPart")
      value = try fields.decode("value")
      tooltip = try fields.decodeIfPresent("tooltip")
      location = try fields.decodeIfPresent("location")
      command = try fields.decodeIfPresent("command")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("value", value)
      object.put("tooltip", ifPresent: tooltip)
      object.put("location", ifPresent: location)
      object.put("command", ifPresent: command)
      return .object(object)
    }
  }

  /// `InlayHint.label`: plain text, or parts with their own interactions. Neither may be empty.
  public enum InlayHintLabel: Equatable, Sendable, JSONConvertible, ExpressibleByStringLiteral {
    case string(String)
    case parts([InlayHintLabelPart])

    public init(stringLiteral value: String) { self = .string(value) }

    public init(json: JSON) throws(JSONDecodingError) {
      if case .string(let label) = json {
        self = .string(label)
      } else {
        self = .parts(try [InlayHintLabelPart](json: json))
      }
    }

    public func toJSON() -> JSON {
      switch self {
      case .string(let label): return .string(label)
      case .parts(let parts): return parts.toJSON()
      }
    }
  }

  /// Text the editor shows inline without it being part of the document (inferred types, computed values).
  public struct InlayHint: Equatable, Sendable, JSONConvertible {
    public var position: Position
    public var label: InlayHintLabel
    public var kind: InlayHintKind?
    /// Edits that make the hint part of the document when the user accepts it.
    public var textEdits: [TextEdit]?
    /// The specification allows a bare string, which decodes as plain text.
    public var tooltip: MarkupContent?
    public var paddingLeft: Bool?
    public var paddingRight: Bool?
    /// Preserved by the client for `inlayHint/resolve`.
    public var data: JSON?

    public init(
      position: Position, label: InlayHintLabel, kind: InlayHintKind? = nil, textEdits: [TextEdit]? = nil,
      tooltip: MarkupContent? = nil, paddingLeft: Bool? = nil, paddingRight: Bool? = nil, data: JSON? = nil
    ) {
      self.position = position
      self.label = label
      self.kind = kind
      self.textEdits = textEdits
      self.tooltip = tooltip
      self.paddingLeft = paddingLeft
      self.paddingRight = paddingRight
      self.data = data
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "InlayHint")
      position = try fields.decode("position")
      label = try fields.decode("label")
      kind = try fields.decodeIfPresent("kind")
      textEdits = try fields.decodeIfPresent("textEdits")
      tooltip = try fields.decodeIfPresent("tooltip")
      paddingLeft = try fields.decodeIfPresent("paddingLeft")
      paddingRight = try fields.decodeIfPresent("paddingRight")
      data = fields.raw("data")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("position", position)
      object.put("label", label)
      object.put("kind", ifPresent: kind)
      object.put("textEdits", ifPresent: textEdits)
      object.put("tooltip", ifPresent: tooltip)
      object.put("paddingLeft", ifPresent: paddingLeft)
      object.put("paddingRight", ifPresent: paddingRight)
      object.put("data", ifPresent: data)
      return .object(object)
    }
  }
}
