import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// Asks a pulling client to pull again after something outside its open documents changed.
  func refreshPulledDiagnostics() {
    guard usesPullDiagnostics else { return }
    connection?.send(LSP.DiagnosticsRefreshRequest())
  }

  /// `textDocument/diagnostic`: the full report, or "unchanged" when the client already has this analysis's.
  func pullDiagnostics(_ request: LSP.DocumentDiagnosticsRequest) -> LSP.DocumentDiagnosticReport {
    let analysis = analysis()
    let resultId = "\(analysis.generation)-\(analysis.year.map(String.init) ?? "latest")"
    guard let id = workspace.id(for: request.textDocument.uri) else { return .full(resultId: nil, items: []) }
    if request.previousResultId == resultId { return .unchanged(resultId: resultId) }
    var conversion = DiagnosticConversion(program: analysis.program, uris: workspace.uris)
    return .full(resultId: resultId, items: conversion.diagnostics(for: id, in: analysis))
  }

  /// The line table of the text a span of the program refers to (the current text: spans are only converted
  /// with a current analysis).
  func sourceFile(_ id: FileID, _ program: Program) -> LineMap? {
    lineMap(id)
  }
}
