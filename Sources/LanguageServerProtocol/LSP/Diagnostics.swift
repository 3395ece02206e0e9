extension LSP {
  /// How an editor presents a diagnostic (squiggle colour, problems-panel filter).
  public struct DiagnosticSeverity: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let error = DiagnosticSeverity(rawValue: 1)
    public static let warning = DiagnosticSeverity(rawValue: 2)
    public static let information = DiagnosticSeverity(rawValue: 3)
  }

  /// A secondary location that explains a diagnostic ("previous definition is here").
  public struct DiagnosticRelatedInformation: Hashable, Sendable, Codable {
    public var location: Location
    public var message: String

    public init(location: Location, message: String) {
      self.location = location
      self.message = message
    }
  }

  /// A problem at a range.
  public struct Diagnostic: Hashable, Sendable, Codable {
    public var range: Range
    /// The specification recommends always sending one, since clients differ on the default.
    public var severity: DiagnosticSeverity?
    /// A stable code (the specification also allows a number).
    public var code: String?
    /// Who produced it, e.g. the language's name; shown next to the message.
    public var source: String?
    public var message: String
    public var relatedInformation: [DiagnosticRelatedInformation]?

    public init(
      range: Range, severity: DiagnosticSeverity? = nil, code: String? = nil, source: String? = nil, message: String,
      relatedInformation: [DiagnosticRelatedInformation]? = nil
    ) {
      self.range = range
      self.severity = severity
      self.code = code
      self.source = source
      self.message = message
      self.relatedInformation = relatedInformation
    }
  }

  /// `textDocument/publishDiagnostics`, the push model: all diagnostics of a document, replacing the previous set
  /// (an empty array clears them).
  public struct PublishDiagnosticsNotification: NotificationType, Equatable {
    public static let method = "textDocument/publishDiagnostics"

    public var uri: DocumentURI
    /// The document version the diagnostics were computed for, so the client can drop outdated ones.
    public var version: Int?
    public var diagnostics: [Diagnostic]

    public init(uri: DocumentURI, version: Int? = nil, diagnostics: [Diagnostic]) {
      self.uri = uri
      self.version = version
      self.diagnostics = diagnostics
    }
  }

  /// `textDocument/diagnostic`, the pull model: the client asks when it wants diagnostics, passing the id of the
  /// report it already has so the server can answer "unchanged".
  public struct DocumentDiagnosticsRequest: RequestType, Hashable {
    public static let method = "textDocument/diagnostic"

    public static let capability: String? = "diagnosticProvider"
    public typealias Response = DocumentDiagnosticReport

    public var textDocument: TextDocumentIdentifier
    public var previousResultId: String?
  }

  /// Whether a pulled report carries the diagnostics or says they have not changed since `resultId`.
  public struct DocumentDiagnosticReportKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let full = DocumentDiagnosticReportKind(rawValue: "full")
    public static let unchanged = DocumentDiagnosticReportKind(rawValue: "unchanged")
  }

  /// One document's pull-diagnostics report (the specification's related full and unchanged reports in one type):
  /// the full list, or "unchanged since `resultId`", plus optionally the reports of other documents whose
  /// diagnostics changed with it.
  public struct DocumentDiagnosticReport: Equatable, Sendable, Codable {
    public var kind: DocumentDiagnosticReportKind
    public var resultId: String?
    /// Present in a full report.
    public var items: [Diagnostic]?
    public var relatedDocuments: [DocumentURI: DocumentDiagnosticReport]?

    public init(
      kind: DocumentDiagnosticReportKind, resultId: String? = nil, items: [Diagnostic]? = nil,
      relatedDocuments: [DocumentURI: DocumentDiagnosticReport]? = nil
    ) {
      self.kind = kind
      self.resultId = resultId
      self.items = items
      self.relatedDocuments = relatedDocuments
    }

    public static func full(resultId: String?, items: [Diagnostic]) -> DocumentDiagnosticReport {
      DocumentDiagnosticReport(kind: .full, resultId: resultId, items: items)
    }

    public static func unchanged(resultId: String) -> DocumentDiagnosticReport {
      DocumentDiagnosticReport(kind: .unchanged, resultId: resultId)
    }
  }

  /// `workspace/diagnostic/refresh`, sent by the server: asks the client to pull diagnostics again.
  public struct DiagnosticsRefreshRequest: RequestType, Equatable {
    public static let method = "workspace/diagnostic/refresh"
    public typealias Response = VoidResponse
    public init() {}
  }
}
