import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// Features whose engines live elsewhere in the core and may not be there yet; only what works is advertised.
  func addOptionalCapabilities(_ capabilities: inout LSP.ServerCapabilities) {}

  func handleOptionalFeature(_ request: RequestMessage, context: RequestContext) throws -> JSON? { nil }
}
