import LanguageServerProtocol
import TaxProCore

/// Turns core diagnostics into protocol ones for one analysis. It needs only the analysis and the documents' URIs,
/// so it runs on the analyzer's thread as well as on the worker.
struct DiagnosticConversion {
  let program: Program
  let uris: [FileID: LSP.DocumentURI]
  private var lineMaps: [FileID: LineMap] = [:]

  init(program: Program, uris: [FileID: LSP.DocumentURI]) {
    self.program = program
    self.uris = uris
  }

  mutating func lineMap(_ id: FileID) -> LineMap? {
    if let map = lineMaps[id] { return map }
    guard let source = program.sources[id] else { return nil }
    let map = LineMap(source)
    lineMaps[id] = map
    return map
  }

  /// Notes become related information where they point somewhere (and are appended to the message otherwise, so a
  /// "did you mean" is never lost).
  mutating func convert(_ diagnostic: Diagnostic) -> LSP.Diagnostic? {
    guard let source = lineMap(diagnostic.span.file) else { return nil }
    var message = diagnostic.message
    var related: [LSP.DiagnosticRelatedInformation] = []
    for note in diagnostic.notes {
      if let span = note.span, let uri = uris[span.file], let target = lineMap(span.file) {
        related.append(
          LSP.DiagnosticRelatedInformation(
            location: LSP.Location(uri: uri, range: target.range(of: span)), message: note.message))
      } else {
        message += "\n\(note.kind.rawValue): \(note.message)"
      }
    }
    let severity: LSP.DiagnosticSeverity =
      switch diagnostic.severity {
      case .error: .error
      case .warning: .warning
      case .information: .information
      }
    return LSP.Diagnostic(
      range: source.range(of: diagnostic.span), severity: severity, code: diagnostic.code.rawValue, source: "taxpro",
      message: message, relatedInformation: related.isEmpty ? nil : related)
  }

  mutating func diagnostics(for id: FileID, in analysis: Analysis) -> [LSP.Diagnostic] {
    (analysis.diagnostics[id] ?? []).compactMap { convert($0) }
  }
}
