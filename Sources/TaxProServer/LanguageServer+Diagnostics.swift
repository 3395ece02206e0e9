import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// Converts a core diagnostic: its notes become related information where they point somewhere (and are appended
  /// to the message otherwise, so a "did you mean" is never lost), and its fixes travel in `data` for code actions.
  func convert(_ diagnostic: Diagnostic, in source: LineMap, program: Program) -> LSP.Diagnostic {
    var message = diagnostic.message
    var related: [LSP.DiagnosticRelatedInformation] = []
    for note in diagnostic.notes {
      if let span = note.span, let uri = workspace.uri(of: span.file), let target = sourceFile(span.file, program) {
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
      range: source.range(of: diagnostic.span), severity: severity, code: .string(diagnostic.code), source: "taxpro",
      message: message, relatedInformation: related.isEmpty ? nil : related)
  }

  /// The line table of the text a span of the program refers to (the current text: spans are only converted
  /// with a current analysis).
  func sourceFile(_ id: FileID, _ program: Program) -> LineMap? {
    lineMap(id)
  }

  func lspDiagnostics(for id: FileID, analysis: Analysis) -> [LSP.Diagnostic] {
    guard let source = sourceFile(id, analysis.program) else { return [] }
    return (analysis.diagnostics[id] ?? []).map { convert($0, in: source, program: analysis.program) }
  }

  /// Pushes the diagnostics of every user file whose set changed (and clears those of files that went away).
  /// Clients that pull diagnostics get nothing pushed.
  func publishDiagnostics(_ connection: Connection) {
    guard !usesPullDiagnostics else { return }
    let analysis = analysis()
    var current: Set<FileID> = []
    for id in workspace.userFiles {
      guard let source = workspace.sources[id] else { continue }
      current.insert(id)
      let diagnostics = lspDiagnostics(for: id, analysis: analysis)
      // Open documents are always answered after a change (clients wait for it); closed files only when changed.
      if !source.isOpen, published[id] == diagnostics { continue }
      if !source.isOpen, published[id] == nil, diagnostics.isEmpty { continue }
      published[id] = diagnostics
      publishedURIs[id] = source.uri
      connection.send(
        notification: LSP.Method.publishDiagnostics,
        params: LSP.PublishDiagnosticsParams(uri: source.uri, version: source.version, diagnostics: diagnostics))
    }
    // The library opened in the editor is checked too; it has no diagnostics unless it was edited.
    for id in workspace.sources.keys where workspace.isLibrary(id) {
      guard let source = workspace.sources[id] else { continue }
      current.insert(id)
      let diagnostics = lspDiagnostics(for: id, analysis: analysis)
      published[id] = diagnostics
      publishedURIs[id] = source.uri
      connection.send(
        notification: LSP.Method.publishDiagnostics,
        params: LSP.PublishDiagnosticsParams(uri: source.uri, version: source.version, diagnostics: diagnostics))
    }
    for (id, uri) in publishedURIs where !current.contains(id) {
      published[id] = nil
      publishedURIs[id] = nil
      connection.send(
        notification: LSP.Method.publishDiagnostics, params: LSP.PublishDiagnosticsParams(uri: uri, diagnostics: []))
    }
  }

  /// Asks a pulling client to pull again after something outside its open documents changed.
  func refreshPulledDiagnostics(_ connection: Connection) {
    guard usesPullDiagnostics,
      clientCapabilities.capability("workspace", "diagnostics", "refreshSupport")?.boolValue == true
    else { return }
    connection.sendRequest(method: "workspace/diagnostic/refresh") { _ in }
  }

  /// `textDocument/diagnostic`: the full report, or "unchanged" when the client already has this analysis's.
  func pullDiagnostics(_ params: LSP.DocumentDiagnosticParams) throws -> JSON {
    let analysis = analysis()
    let resultId = "\(analysis.generation)-\(analysis.year.map(String.init) ?? "latest")"
    guard let id = workspace.id(for: params.textDocument.uri) else {
      return LSP.RelatedDocumentDiagnosticReport(.full(resultId: nil, items: [])).toJSON()
    }
    if params.previousResultId == resultId {
      return LSP.RelatedDocumentDiagnosticReport(.unchanged(resultId: resultId)).toJSON()
    }
    let items = lspDiagnostics(for: id, analysis: analysis)
    return LSP.RelatedDocumentDiagnosticReport(.full(resultId: resultId, items: items)).toJSON()
  }
}
