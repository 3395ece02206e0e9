import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary

/// The one importer: ids from their ranges, one id per path, a library file's copy in place of the library's own.
@Suite struct SourceImporterTests {
  static let library = [
    LibraryFile(name: "<std>/interfaces.tax", path: "/l/interfaces.tax", text: "let a = 1\n", isTest: false),
    LibraryFile(name: "<std>/federal.tax", path: "/l/federal.tax", text: "let b = 2\n", isTest: false),
    LibraryFile(name: "<std>/ON.tax", path: "/l/ON.tax", text: "let on_rate = 5%\n", isTest: false),
  ]

  @Test func theRangesAreApartAndFitASpan() {
    #expect(FileIDRange.library.upperBound <= FileIDRange.files.lowerBound)
    #expect(FileIDRange.files.upperBound <= FileIDRange.inputs.lowerBound)
    // A span keeps 32 bits of its file: the ends of every range come back as they went in.
    let ends = [
      FileIDRange.library.lowerBound, FileIDRange.library.upperBound - 1, FileIDRange.files.lowerBound,
      FileIDRange.files.upperBound - 1, FileIDRange.inputs.lowerBound, FileIDRange.inputs.upperBound,
    ]
    for end in ends { #expect(Span(file: FileID(end), start: 0, end: 0).file == FileID(end)) }
  }

  @Test func eachKindOfSourceHasItsRange() {
    var importer = SourceImporter(library: Self.library)
    #expect(importer.library.map(\.source.id.rawValue) == [0, 1, 2])
    #expect(importer.library.allSatisfy { FileIDRange.isLibrary($0.source.id) })
    let first = importer.importFile(path: "a.tax", bytes: Array("let c = 3\n".utf8))
    let second = importer.importFile(path: "b.tax", bytes: Array("let d = 4\n".utf8))
    #expect(FileIDRange.files.contains(first.source.id.rawValue))
    #expect(second.source.id.rawValue == first.source.id.rawValue + 1)
    #expect(!FileIDRange.isLibrary(first.source.id))
    #expect(FileIDRange.files.contains(importer.newFileID().rawValue))
    #expect(importer.userFileIDs == [first.source.id, second.source.id])
    let session = importer.session()
    let input = session.makeSource("1 + 1", name: "<input>")
    #expect(FileIDRange.inputs.contains(input.id.rawValue))
    #expect(session.program.diagnostics.isEmpty)
  }

  @Test func importingAPathAgainKeepsItsIdAndPlace() {
    var importer = SourceImporter(library: Self.library)
    let first = importer.importFile(path: "a.tax", bytes: Array("let c = 3\n".utf8))
    importer.importFile(path: "b.tax", bytes: Array("let d = 4\n".utf8))
    let again = importer.importFile(path: "a.tax", bytes: Array("let c = 30\n".utf8))
    #expect(again.source.id == first.source.id)
    #expect(importer.files.map(\.path) == ["a.tax", "b.tax"])
    #expect(importer.files[0].tree.source.text == "let c = 30\n")
    #expect(importer.contains(path: "a.tax") && !importer.contains(path: "c.tax"))
    #expect(importer.trees.map(\.source.name) == ["<std>/interfaces.tax", "<std>/federal.tax", "<std>/ON.tax", "a.tax", "b.tax"])
  }

  @Test func aCopyOfALibraryFileReplacesTheLibrarysOwn() throws {
    let directory = NSTemporaryDirectory() + "taxpro-importer-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for name in ["interfaces.tax", "federal.tax"] {
      #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()))
    }
    var importer = SourceImporter(library: Self.library)
    // Named one way, found another (`~` expanded): where it is decides.
    importer.importFile(path: "~/ON.tax", bytes: Array("let on_rate = 6%\n".utf8), location: directory + "/ON.tax")
    importer.importFile(path: "other.tax", bytes: Array("let e = 5\n".utf8), location: "/nonexistent/other.tax")
    #expect(importer.replacedLibraryNames == ["<std>/ON.tax"])
    #expect(importer.trees.map(\.source.name) == ["<std>/interfaces.tax", "<std>/federal.tax", "~/ON.tax", "other.tax"])
    let program = Checker.check(importer.trees)
    #expect(program.diagnostics.isEmpty)
  }
}
