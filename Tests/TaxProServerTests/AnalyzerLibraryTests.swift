import Foundation
@testable import LanguageServerProtocol
import TaxProCore
@testable import TaxProLibrary
import TestSupport
import Testing

@testable import TaxProServer

/// The standard library is checked once, on the library parse's own thread right after its parse (`LibraryParse`),
/// not on the first open's path: the analyzer takes that check, and documents checked on top of it get the
/// diagnostics of a whole check (`TAXPRO_LSP_LIBRARY_ONCE=0`).
struct AnalyzerLibraryTests {
  static let files = StandardLibrary.files()

  /// An analyzer that pushes nothing (jobs without targets).
  static func analyzer(libraryOnce: Bool, willParseFirst: (@Sendable (Int) -> Void)? = nil) -> (Analyzer, Pipe) {
    let sink = Pipe()
    let connection = Connection(
      input: FileDescriptorByteSource(fileDescriptor: Pipe().fileHandleForReading.fileDescriptor),
      output: FileDescriptorByteSink(fileDescriptor: sink.fileHandleForWriting.fileDescriptor), log: { _ in })
    let analyzer = Analyzer(
      connection: connection, log: { _ in }, timing: false, libraryOnce: libraryOnce, willParseFirst: willParseFirst)
    return (analyzer, sink)
  }

  /// The program the server checks for these documents: the library's trees (taken from the parse, which may still
  /// be running), then the documents.
  static func job(_ generation: Int, library: LibraryParse, _ documents: [String]) -> Analyzer.Job {
    var uris: [FileID: LSP.DocumentURI] = [:]
    var inputs: [Analyzer.Input] = []
    for (position, file) in files.enumerated() {
      uris[FileID(position)] = LSP.DocumentURI(filePath: "/tmp/analyzer-library/library/" + file.name)
      inputs.append(.library(library, position: position))
    }
    var ids: [FileID] = []
    for (number, text) in documents.enumerated() {
      let id = FileID(FileIDRange.files.lowerBound + number)
      ids.append(id)
      uris[id] = LSP.DocumentURI(filePath: "/tmp/analyzer-library/\(number).tax")
      inputs.append(.source(SourceFile(id: id, name: "\(number).tax", text: text)))
    }
    return Analyzer.Job(
      generation: generation, year: nil, inputs: inputs, testFiles: ids, uris: uris, targets: nil, library: library)
  }

  /// Waits up to `seconds` for `condition`.
  static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.002)
    }
    return condition()
  }

  /// A library formula's name, to call and to clash with.
  static var libraryFormula: String {
    for tree in StandardLibrary.parse(files) {
      for declaration in tree.declarations { if case .formula(let formula) = declaration { return formula.name.name } }
    }
    return "missing"
  }

  /// Documents with and without errors, using the library's names.
  static var documents: [String] {
    let name = libraryFormula
    return [
      "formula a(x: Money): Money = x + unknownThing + incme\nformula b(y: Mony): Money = a(y, y)\n",
      "formula \(name)(x: Money): Money = x\nlet \(name) = 3\n",
      "formula t(x: Money): Rate = x * 2\nlet k: Money = 5%\ntest \"t\" { expect t($1) == 3 }\n",
      "formula u(x: Money): Money = \(name)(x) + tax(ON.income_tax, x) + ON.nope\n1 + $2\nON.income_tax\n",
      (1...300).map { "formula f\($0)(x: Money): Money = x * \($0)% + $\($0)\n" }.joined(),
    ]
  }

  /// `willParseFirst` (which `taxpro lsp` uses to fault in the heap ahead of the first check) hears once how many
  /// bytes of text the first job parses, before its analysis exists; later jobs, larger ones too, do not call it.
  @Test func theFirstParseIsAnnouncedOnceWithItsSize() throws {
    let announcements = LockedBox<[Int]>([])
    let (analyzer, _) = Self.analyzer(
      libraryOnce: Analyzer.checksLibraryOnce, willParseFirst: { size in announcements.modify { $0.append(size) } })
    let parse = LibraryParse(Self.files, checks: true)
    let first = Self.documents[0]
    analyzer.submit(Self.job(1, library: parse, [first]))
    _ = try #require(analyzer.wait(for: Analyzer.Key(generation: 1, year: nil)))
    #expect(announcements.current == [first.utf8.count])
    analyzer.submit(Self.job(2, library: parse, [first, Self.documents[4]]))
    _ = try #require(analyzer.wait(for: Analyzer.Key(generation: 2, year: nil)))
    #expect(announcements.current == [first.utf8.count])
  }

  @Test func theLibraryIsCheckedOnItsOwnThreadWithoutAnyDocument() throws {
    #expect(!Self.files.isEmpty)
    let parse = LibraryParse(Self.files, checks: true)
    #expect(parse.checks)
    // Nobody asks for it: the parse's thread checks the library by itself.
    #expect(Self.eventually(within: 30) { parse.isChecked })
    let checked = try #require(parse.checked)
    #expect(parse.checked === checked)
    #expect(checked.trees.map(\.source.id) == parse.trees.map(\.source.id))
    #expect(checked.isReusable)
  }

  @Test func aParseThatDoesNotCheckHasNoCheckToWaitFor() {
    let parse = LibraryParse(Self.files, checks: false)
    #expect(!parse.checks)
    #expect(parse.trees.count == Self.files.count)
    #expect(parse.checked == nil)
    #expect(!parse.isChecked)
    let none = LibraryParse([], checks: true)
    #expect(!none.checks)
    #expect(none.checked == nil)
  }

  /// A document submitted the moment the library's parse starts: the analyzer waits for the parse's check and keeps
  /// that one (it checks the library no second time), for this check and the next.
  @Test func theAnalyzerTakesTheLibrarysCheckFromItsParse() throws {
    let parse = LibraryParse(Self.files, checks: true)
    let (analyzer, sink) = Self.analyzer(libraryOnce: true)
    defer { try? sink.fileHandleForReading.close() }
    analyzer.submit(Self.job(1, library: parse, [Self.documents[4]]))
    let first = try #require(analyzer.wait(for: Analyzer.Key(generation: 1, year: nil)))
    let checked = try #require(parse.checked)
    #expect(analyzer.libraryCheck === checked)
    #expect(first.program.trees.count == Self.files.count + 1)

    analyzer.submit(Self.job(2, library: parse, [Self.documents[0]]))
    let second = try #require(analyzer.wait(for: Analyzer.Key(generation: 2, year: nil)))
    #expect(second.generation == 2)
    #expect(analyzer.libraryCheck === checked)
  }

  /// With the library checked once on its own thread, documents opened at once get the diagnostics of checking the
  /// library with them each time (`TAXPRO_LSP_LIBRARY_ONCE=0`), and that way nothing checks the library on its own.
  @Test func documentsOpenedAtOnceGetTheDiagnosticsOfAWholeCheck() throws {
    for (number, document) in Self.documents.enumerated() {
      let once = LibraryParse(Self.files, checks: true)
      let (onTop, onTopSink) = Self.analyzer(libraryOnce: true)
      defer { try? onTopSink.fileHandleForReading.close() }
      onTop.submit(Self.job(1, library: once, [document]))

      let whole = LibraryParse(Self.files, checks: false)
      let (everything, everythingSink) = Self.analyzer(libraryOnce: false)
      defer { try? everythingSink.fileHandleForReading.close() }
      everything.submit(Self.job(1, library: whole, [document]))

      let expected = try #require(everything.wait(for: Analyzer.Key(generation: 1, year: nil)))
      let got = try #require(onTop.wait(for: Analyzer.Key(generation: 1, year: nil)))
      #expect(onTop.libraryCheck != nil)
      #expect(everything.libraryCheck == nil)
      #expect(!whole.isChecked)
      #expect(got.diagnostics == expected.diagnostics, "document \(number)")
      #expect(got.program.diagnostics == expected.program.diagnostics, "document \(number)")
      let id = FileID(FileIDRange.files.lowerBound)
      if number < 4 { #expect(!(got.diagnostics[id] ?? []).isEmpty, "document \(number) has errors") }
    }
  }
}
