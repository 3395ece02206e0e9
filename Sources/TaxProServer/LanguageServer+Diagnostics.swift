import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
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
    var conversion = DiagnosticConversion(program: analysis.program, uris: workspace.uris)
    let items = conversion.diagnostics(for: id, in: analysis)
    return LSP.RelatedDocumentDiagnosticReport(.full(resultId: resultId, items: items)).toJSON()
  }

  /// The line table of the text a span of the program refers to (the current text: spans are only converted
  /// with a current analysis).
  func sourceFile(_ id: FileID, _ program: Program) -> LineMap? {
    lineMap(id)
  }
}
