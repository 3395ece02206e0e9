@testable import LanguageServerProtocol
import TaxProCore
@testable import TaxProLibrary
import Testing

@testable import TaxProServer

/// `Workspace.id(for:)` remembers the URIs it has resolved; what it answers must not change for that.
struct WorkspaceTests {
  static let library = [
    LibraryFile(name: "<std>/ON.tax", path: "/opt/taxpro/library/ON.tax", text: "let on_rate = 5%\n", isTest: false)
  ]

  @Test func spellingsOfOneFileAreOneDocument() {
    let workspace = Workspace(library: WorkspaceTests.library)
    let uri = LSP.DocumentURI("file:///tmp/work/doc.tax")
    #expect(workspace.id(for: uri) == nil)
    workspace.open(LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: "let a = $1\n"))
    let id = workspace.id(for: uri)
    #expect(id != nil)
    // Asked again (now from what was remembered), and through another spelling of the same path.
    #expect(workspace.id(for: uri) == id)
    #expect(workspace.id(for: LSP.DocumentURI("file:///tmp/work/./sub/../doc.tax")) == id)
    let other = LSP.DocumentURI("file:///tmp/work/other.tax")
    workspace.open(LSP.TextDocumentItem(uri: other, languageId: "taxpro", version: 1, text: "let b = $2\n"))
    #expect(workspace.id(for: other) != id)
    #expect(workspace.id(for: uri) == id)
  }

  @Test func theLibrarysFileOpenedKeepsTheLibrarysID() {
    let workspace = Workspace(library: WorkspaceTests.library)
    let uri = LSP.DocumentURI("file:///opt/taxpro/library/ON.tax")
    #expect(workspace.id(for: uri) == FileID(0))
    workspace.open(LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: "let on_rate = 6%\n"))
    #expect(workspace.id(for: uri) == FileID(0))
    #expect(workspace.sourceFile(FileID(0))?.text == "let on_rate = 6%\n")
  }
}
