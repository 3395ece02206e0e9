extension LSP {
  /// The result of `textDocument/hover` (a `null` result means "nothing here").
  public struct Hover: Equatable, Sendable, JSONConvertible {
    /// The specification also allows the deprecated `MarkedString` forms; they decode into markdown, so a server
    /// only ever sees and sends `MarkupContent`.
    public var contents: MarkupContent
    /// The span the hover describes, so the client can highlight it and avoid re-asking within it.
    public var range: Range?

    public init(contents: MarkupContent, range: Range? = nil) {
      self.contents = contents
      self.range = range
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "Hover")
      guard let contents = fields["contents"] else {
        throw JSONDecodingError("missing required field", path: [.key("contents")])
      }
      do throws(JSONDecodingError) {
        self.contents = try Hover.markup(from: contents)
      } catch {
        throw error.prefixed(with: .key("contents"))
      }
      range = try fields.decodeIfPresent("range")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("contents", contents)
      object.put("range", ifPresent: range)
      return .object(object)
    }

    /// `MarkupContent | MarkedString | MarkedString[]` → `MarkupContent`.
    private static func markup(from json: JSON) throws(JSONDecodingError) -> MarkupContent {
      switch json {
      case .string(let markdown):
        return .markdown(markdown)
      case .array(let parts):
        var pieces: [String] = []
        for (index, part) in parts.enumerated() {
          do throws(JSONDecodingError) {
            pieces.append(try markedString(part))
          } catch {
            throw error.prefixed(with: .index(index))
          }
        }
        return .markdown(pieces.joined(separator: "\n\n"))
      case .object(let object) where object["kind"] != nil:
        return try MarkupContent(json: json)
      default:
        return .markdown(try markedString(json))
      }
    }

    private static func markedString(_ json: JSON) throws(JSONDecodingError) -> String {
      if case .string(let markdown) = json { return markdown }
      let fields = try JSONFields(json, "MarkedString")
      let language: String = try fields.decode("language")
      let value: String = try fields.decode("value")
      return "```\(language)\n\(value)\n```"
    }
  }

  /// Why signature help was requested.
  public struct SignatureHelpTriggerKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let invoked = SignatureHelpTriggerKind(rawValue: 1)
    public static let triggerCharacter = SignatureHelpTriggerKind(rawValue: 2)
    /// The cursor moved or the document changed while help was showing.
    public static let contentChange = SignatureHelpTriggerKind(rawValue: 3)
  }

  /// Lets the server keep the active overload stable while the user types within a call.
  public struct SignatureHelpContext: Equatable, Sendable, JSONConvertible {
    public var triggerKind: SignatureHelpTriggerKind
    public var triggerCharacter: String?
    /// True when help was already showing, so the server can keep the user's chosen overload.
    public var isRetrigger: Bool
    public var activeSignatureHelp: SignatureHelp?

    public init(
      triggerKind: SignatureHelpTriggerKind, triggerCharacter: String? = nil, isRetrigger: Bool,
      activeSignatureHelp: SignatureHelp? = nil
    ) {
      self.triggerKind = triggerKind
      self.triggerCharacter = triggerCharacter
      self.isRetrigger = isRetrigger
      self.activeSignatureHelp = activeSignatureHelp
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SignatureHelpContext")
      triggerKind = try fields.decode("triggerKind")
      triggerCharacter = try fields.decodeIfPresent("triggerCharacter")
      isRetrigger = try fields.decode("isRetrigger")
      activeSignatureHelp = try fields.decodeIfPresent("activeSignatureHelp")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("triggerKind", triggerKind)
      object.put("triggerCharacter", ifPresent: triggerCharacter)
      object.put("isRetrigger", isRetrigger)
      object.put("activeSignatureHelp", ifPresent: activeSignatureHelp)
      return .object(object)
    }
  }

  /// `textDocument/signatureHelp` params.
  public struct SignatureHelpParams: Equatable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var context: SignatureHelpContext?

    public init(textDocument: TextDocumentIdentifier, position: Position, context: SignatureHelpContext? = nil) {
      self.textDocument = textDocument
      self.position = position
      self.context = context
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SignatureHelpParams")
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

  /// A parameter's label: its own text, or (better, as it is unambiguous) UTF-16 offsets into the signature label.
  public enum ParameterLabel: Hashable, Sendable, JSONConvertible {
    case string(String)
    case offsets(start: Int, end: Int)

    public init(json: JSON) throws(JSONDecodingError) {
      switch json {
      case .string(let label):
        self = .string(label)
      case .array(let bounds) where bounds.count == 2:
        guard let start = bounds[0].intValue, let end = bounds[1].intValue else {
          throw .typeMismatch(expected: "two integers", found: json)
        }
        self = .offsets(start: start, end: end)
      default:
        throw .typeMismatch(expected: "string or [start, end]", found: json)
      }
    }

    public func toJSON() -> JSON {
      switch self {
      case .string(let label): return .string(label)
      case .offsets(let start, let end): return [.integer(start), .integer(end)]
      }
    }
  }

  /// One parameter of a signature; the client highlights its `label` within the signature label.
  public struct ParameterInformation: Hashable, Sendable, JSONConvertible {
    public var label: ParameterLabel
    public var documentation: MarkupContent?

    public init(label: ParameterLabel, documentation: MarkupContent? = nil) {
      self.label = label
      self.documentation = documentation
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "ParameterInformation")
      label = try fields.decode("label")
      documentation = try fields.decodeIfPresent("documentation")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("label", label)
      object.put("documentation", ifPresent: documentation)
      return .object(object)
    }
  }

  /// One callable form (overload) shown in signature help.
  public struct SignatureInformation: Hashable, Sendable, JSONConvertible {
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

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SignatureInformation")
      label = try fields.decode("label")
      documentation = try fields.decodeIfPresent("documentation")
      parameters = try fields.decodeIfPresent("parameters")
      activeParameter = try fields.decodeIfPresent("activeParameter")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("label", label)
      object.put("documentation", ifPresent: documentation)
      object.put("parameters", ifPresent: parameters)
      object.put("activeParameter", ifPresent: activeParameter)
      return .object(object)
    }
  }

  /// The result of `textDocument/signatureHelp`.
  public struct SignatureHelp: Hashable, Sendable, JSONConvertible {
    public var signatures: [SignatureInformation]
    public var activeSignature: Int?
    public var activeParameter: Int?

    public init(signatures: [SignatureInformation], activeSignature: Int? = nil, activeParameter: Int? = nil) {
      self.signatures = signatures
      self.activeSignature = activeSignature
      self.activeParameter = activeParameter
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SignatureHelp")
      signatures = try fields.decode("signatures")
      activeSignature = try fields.decodeIfPresent("activeSignature")
      activeParameter = try fields.decodeIfPresent("activeParameter")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("signatures", signatures)
      object.put("activeSignature", ifPresent: activeSignature)
      object.put("activeParameter", ifPresent: activeParameter)
      return .object(object)
    }
  }
}
