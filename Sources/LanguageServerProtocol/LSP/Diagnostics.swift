extension LSP {
  /// How an editor presents a diagnostic (squiggle colour, problems-panel filter).
  public struct DiagnosticSeverity: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let error = DiagnosticSeverity(rawValue: 1)
    public static let warning = DiagnosticSeverity(rawValue: 2)
    public static let information = DiagnosticSeverity(rawValue: 3)
    public static let hint = DiagnosticSeverity(rawValue: 4)
  }

  /// Extra rendering hints: editors fade unnecessary code and strike through deprecated code.
  public struct DiagnosticTag: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let unnecessary = DiagnosticTag(rawValue: 1)
    public static let deprecated = DiagnosticTag(rawValue: 2)
  }

  /// A diagnostic's stable code, which the specification allows to be a number or a string.
  public enum DiagnosticCode: Hashable, Sendable, JSONConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral
  {
    case integer(Int)
    case string(String)

    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .string(value) }

    public init(json: JSON) throws(JSONDecodingError) {
      switch json {
      case .string(let value): self = .string(value)
      default:
        guard let value = json.intValue else { throw .typeMismatch(expected: "integer or string", found: json) }
        self = .integer(value)
      }
    }

    public func toJSON() -> JSON {
      switch self {
      case .integer(let value): return .integer(value)
      case .string(let value): return .string(value)
      }
    }
  }

  /// A link to documentation of a diagnostic code.
  public struct CodeDescription: Hashable, Sendable, JSONConvertible {
    public var href: String

    public init(href: String) { self.href = href }

    public init(json: JSON) throws(JSONDecodingError) {
      href = try JSONFields(json, "CodeDescription").decode("href")
    }

    public func toJSON() -> JSON { ["href": .string(href)] }
  }

  /// A secondary location that explains a diagnostic ("previous definition is here").
  public struct DiagnosticRelatedInformation: Hashable, Sendable, JSONConvertible {
    public var location: Location
    public var message: String

    public init(location: Location, message: String) {
      self.location = location
      self.message = message
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DiagnosticRelatedInformation")
      location = try fields.decode("location")
      message = try fields.decode("message")
    }

    public func toJSON() -> JSON { ["location": location.toJSON(), "message": .string(message)] }
  }

  /// A problem at a range. Clients echo diagnostics back in `CodeActionContext`, so `data` and `code` are the
  /// way to connect a quick fix to the problem it fixes.
  public struct Diagnostic: Equatable, Sendable, JSONConvertible {
    public var range: Range
    /// The specification recommends always sending one, since clients differ on the default.
    public var severity: DiagnosticSeverity?
    public var code: DiagnosticCode?
    public var codeDescription: CodeDescription?
    /// Who produced it, e.g. the language's name; shown next to the message.
    public var source: String?
    public var message: String
    public var tags: [DiagnosticTag]?
    public var relatedInformation: [DiagnosticRelatedInformation]?
    /// Preserved by the client and handed back in `textDocument/codeAction`, e.g. to carry a fix's data.
    public var data: JSON?

    public init(
      range: Range, severity: DiagnosticSeverity? = nil, code: DiagnosticCode? = nil,
      codeDescription: CodeDescription? = nil, source: String? = nil, message: String, tags: [DiagnosticTag]? = nil,
      relatedInformation: [DiagnosticRelatedInformation]? = nil, data: JSON? = nil
    ) {
      self.range = range
      self.severity = severity
      self.code = code
      self.codeDescription = codeDescription
      self.source = source
      self.message = message
      self.tags = tags
      self.relatedInformation = relatedInformation
      self.data = data
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "Diagnostic")
      range = try fields.decode("range")
      severity = try fields.decodeIfPresent("severity")
      code = try fields.decodeIfPresent("code")
      codeDescription = try fields.decodeIfPresent("codeDescription")
      source = try fields.decodeIfPresent("source")
      message = try fields.decode("message")
      tags = try fields.decodeIfPresent("tags")
      relatedInformation = try fields.decodeIfPresent("relatedInformation")
      data = fields.raw("data")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("range", range)
      object.put("severity", ifPresent: severity)
      object.put("code", ifPresent: code)
      object.put("codeDescription", ifPresent: codeDescription)
      object.put("source", ifPresent: source)
      object.put("message", message)
      object.put("tags", ifPresent: tags)
      object.put("relatedInformation", ifPresent: relatedInformation)
      object.put("data", ifPresent: data)
      return .object(object)
    }
  }

  /// The push model: the server sends all diagnostics of a document, replacing the previous set (an empty
  /// array clears them).
  public struct PublishDiagnosticsParams: Equatable, Sendable, JSONConvertible {
    public var uri: DocumentURI
    /// The document version the diagnostics were computed for, so the client can drop outdated ones.
    public var version: Int?
    public var diagnostics: [Diagnostic]

    public init(uri: DocumentURI, version: Int? = nil, diagnostics: [Diagnostic]) {
      self.uri = uri
      self.version = version
      self.diagnostics = diagnostics
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "PublishDiagnosticsParams")
      uri = try fields.decode("uri")
      version = try fields.decodeIfPresent("version")
      diagnostics = try fields.decode("diagnostics")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("uri", uri)
      object.put("version", ifPresent: version)
      object.put("diagnostics", diagnostics)
      return .object(object)
    }
  }

  // MARK: Pull diagnostics

  /// `textDocument/diagnostic`: the client asks when it wants diagnostics, passing the id of the report it
  /// already has so the server can answer "unchanged".
  public struct DocumentDiagnosticParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var identifier: String?
    public var previousResultId: String?

    public init(textDocument: TextDocumentIdentifier, identifier: String? = nil, previousResultId: String? = nil) {
      self.textDocument = textDocument
      self.identifier = identifier
      self.previousResultId = previousResultId
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentDiagnosticParams")
      textDocument = try fields.decode("textDocument")
      identifier = try fields.decodeIfPresent("identifier")
      previousResultId = try fields.decodeIfPresent("previousResultId")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("textDocument", textDocument)
      object.put("identifier", ifPresent: identifier)
      object.put("previousResultId", ifPresent: previousResultId)
      return .object(object)
    }
  }

  /// One document's pull-diagnostics report: the full list, or "unchanged since `resultId`".
  public enum DocumentDiagnosticReport: Equatable, Sendable, JSONConvertible {
    case full(resultId: String?, items: [Diagnostic])
    case unchanged(resultId: String)

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentDiagnosticReport")
      let kind: String = try fields.decode("kind")
      switch kind {
      case "full":
        self = .full(resultId: try fields.decodeIfPresent("resultId"), items: try fields.decode("items"))
      case "unchanged":
        self = .unchanged(resultId: try fields.decode("resultId"))
      default:
        throw JSONDecodingError("expected \"full\" or \"unchanged\"", path: [.key("kind")])
      }
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      switch self {
      case .full(let resultId, let items):
        object.put("kind", "full")
        object.put("resultId", ifPresent: resultId)
        object.put("items", items)
      case .unchanged(let resultId):
        object.put("kind", "unchanged")
        object.put("resultId", resultId)
      }
      return .object(object)
    }
  }

  /// The result of `textDocument/diagnostic`: a report for the requested document plus, optionally, reports for
  /// documents whose diagnostics changed because of it.
  public struct RelatedDocumentDiagnosticReport: Equatable, Sendable, JSONConvertible {
    public var report: DocumentDiagnosticReport
    public var relatedDocuments: [DocumentURI: DocumentDiagnosticReport]?

    public init(_ report: DocumentDiagnosticReport, relatedDocuments: [DocumentURI: DocumentDiagnosticReport]? = nil) {
      self.report = report
      self.relatedDocuments = relatedDocuments
    }

    public init(json: JSON) throws(JSONDecodingError) {
      report = try DocumentDiagnosticReport(json: json)
      let fields = try JSONFields(json, "DocumentDiagnosticReport")
      if let raw: [String: DocumentDiagnosticReport] = try fields.decodeIfPresent("relatedDocuments") {
        var related: [DocumentURI: DocumentDiagnosticReport] = [:]
        for (uri, report) in raw { related[DocumentURI(uri)] = report }
        relatedDocuments = related
      } else {
        relatedDocuments = nil
      }
    }

    public func toJSON() -> JSON {
      guard case .object(var object) = report.toJSON() else { return report.toJSON() }
      if let relatedDocuments {
        var map = JSONObject()
        for uri in relatedDocuments.keys.sorted() { map[uri.stringValue] = relatedDocuments[uri]?.toJSON() }
        object["relatedDocuments"] = .object(map)
      }
      return .object(object)
    }
  }
}
