import Foundation
@testable import LanguageServerProtocol
@testable import TaxProCore
import TaxProLibrary
import Testing

@testable import TaxProServer

/// What the server warms while idle (`LanguageServer.warmCompletion`) leaves nothing for a first completion to make
/// after `ON.` or on a value of type `Province`, and changes no answer.
struct CompletionWarmingTests {
  static let text = """
    formula a(): Money = ON.
    formula b(p: Province): Money = p.
    formula c(): Money = t

    """

  /// A server with the standard library, a client that reads Markdown, and one open document, checked.
  static func server() -> (LanguageServer, LSP.TextDocumentIdentifier) {
    let server = LanguageServer(library: StandardLibrary.files(), log: { _ in })
    var capabilities = LSP.ClientCapabilities()
    capabilities.textDocument = LSP.ClientCapabilities.TextDocument(
      completion: LSP.ClientCapabilities.Completion(
        completionItem: LSP.ClientCapabilities.CompletionItem(documentationFormat: [.markdown, .plaintext])))
    server.client = capabilities
    // A connection that is never run: the server's analyzer checks on its own thread and keeps the program it checked,
    // as in a session (the diagnostics it pushes go to memory, as does the first-analysis message it posts).
    server.connection = Connection(input: MemoryByteSource([]), output: MemoryByteSink())
    let uri = LSP.DocumentURI("file:///tmp/warm/doc.tax")
    server.workspace.open(LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: text))
    _ = server.analysis()
    return (server, LSP.TextDocumentIdentifier(uri: uri))
  }

  /// The completion at the end of each of the document's `lines`.
  static func complete(
    _ server: LanguageServer, _ document: LSP.TextDocumentIdentifier, lines numbers: Range<Int> = 0..<3
  ) throws -> [LSP.CompletionList] {
    let lines = text.split(separator: "\n")
    return try numbers.map { line in
      try #require(
        server.completion(
          LSP.CompletionRequest(
            textDocument: document, position: LSP.Position(line: line, character: lines[line].utf16.count))))
    }
  }

  @Test func afterWarmingTheFirstMemberCompletionsMakeNothing() throws {
    let (server, document) = Self.server()
    let program = server.recentAnalysis().program
    var rounds = 1
    while server.warmCompletion(in: program) { rounds += 1 }
    // One round for `Province`, one per jurisdiction.
    #expect(rounds == program.jurisdictions.count + 1)
    #expect(!server.warmCompletion(in: program))
    let made = server.completionCache.madeCount
    let rendered = server.completionDocumentation.count
    #expect(made == program.jurisdictions.count + 1)
    #expect(rendered > 100)
    // After `ON.` and `p.`: nothing made.
    let members = try Self.complete(server, document, lines: 0..<2)
    #expect(server.completionCache.madeCount == made)
    #expect(server.completionDocumentation.count == rendered)
    // The top level is not warmed (its candidates are every formula): its documentation is made on the request.
    let lists = members + (try Self.complete(server, document, lines: 2..<3))
    #expect(server.completionDocumentation.count > rendered)
    // The answers are the ones a server that did not warm gives.
    let (cold, coldDocument) = Self.server()
    let coldLists = try Self.complete(cold, coldDocument)
    #expect(lists == coldLists)
    #expect(lists[0].items.contains { $0.label == "basic_personal_amount" && $0.documentation != nil })
    #expect(lists[1].items.contains { $0.label == "income_tax" })
    #expect(lists[2].items.contains { $0.label == "tax" })
    // The server that did not warm made them on these requests.
    #expect(cold.completionCache.madeCount == 2)
    #expect(cold.completionDocumentation.count > 0)
  }
}
