import Foundation
@testable import LanguageServerProtocol
import TaxProCore
@testable import TaxProLibrary
import Testing

@testable import TaxProServer

/// `Workspace.id(for:)` remembers the URIs it has resolved; what it answers must not change for that. The workspace
/// makes the program the command line and the REPL would make of the same files.
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

  /// Paths are standardized by their text, as Foundation's `URL` standardizes them (absolute, relative, odd).
  @Test(arguments: [
    "/a/b", "/a/b/", "/a//b", "/a/./b", "/a/../b", "/../a", "/a/b/..", "/a/b/../..", "/a/b/../../..", "a/b", "./a",
    "../a", "/", "//", "/a/.", "/a/..", "/.", "/a/b/./", "/a/.b/..c/...", "/tmp/x y/é.tax", "", ".", "..", "/a//../b",
    "/a/b//", "///a", "~/a", "~", "a/../../b", "/a/b%20c/d", "/~/a", "/a/~",
  ])
  func pathsAreStandardizedAsURLStandardizesThem(_ path: String) {
    #expect(Workspace.standardizedPath(path) == URL(fileURLWithPath: path).standardizedFileURL.path)
  }

  @Test func theLibrarysFileOpenedKeepsTheLibrarysID() {
    let workspace = Workspace(library: WorkspaceTests.library)
    let uri = LSP.DocumentURI("file:///opt/taxpro/library/ON.tax")
    #expect(workspace.id(for: uri) == FileID(0))
    workspace.open(LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: "let on_rate = 6%\n"))
    #expect(workspace.id(for: uri) == FileID(0))
    #expect(workspace.sourceFile(FileID(0))?.text == "let on_rate = 6%\n")
  }

  /// The same files, a copy of a library file among them, make the same program in the same order through the
  /// server's workspace as through the importer the command line and the REPL use.
  @Test func theProgramIsTheImportersProgram() throws {
    let directory = NSTemporaryDirectory() + "taxpro-workspace-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for name in ["interfaces.tax", "federal.tax"] {
      #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()))
    }
    let library = [
      LibraryFile(name: "<std>/interfaces.tax", path: "/l/interfaces.tax", text: "let a = 1\n", isTest: false),
      LibraryFile(name: "<std>/ON.tax", path: "/l/ON.tax", text: "let on_rate = 5%\n", isTest: false),
      LibraryFile(name: "<std>/federal.tax", path: "/l/federal.tax", text: "let b = 2\n", isTest: false),
    ]
    let files = [(directory + "/ON.tax", "let on_rate = 6%\n"), ("/tmp/elsewhere/z.tax", "let z = 1\n"), ("/tmp/elsewhere/y.tax", "let y = 2\n")]
    var importer = SourceImporter(library: library)
    let workspace = Workspace(library: library)
    for (path, text) in files {
      importer.importFile(path: path, bytes: Array(text.utf8))
      workspace.open(
        LSP.TextDocumentItem(uri: LSP.DocumentURI(filePath: path), languageId: "taxpro", version: 1, text: text))
    }
    let names = importer.trees.map(\.source.name)
    #expect(names == ["<std>/interfaces.tax", "<std>/federal.tax"] + files.map(\.0))
    #expect(workspace.programTrees().map(\.source.name) == names)
    #expect(workspace.programTrees().map(\.source.text) == importer.trees.map(\.source.text))
  }
}
