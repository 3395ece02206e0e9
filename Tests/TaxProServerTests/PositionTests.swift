@testable import LanguageServerProtocol
import TaxProCore
import TestSupport
import Testing

@testable import TaxProServer

struct PositionTests {
  static func map(_ text: String) -> LineMap { LineMap(SourceFile(id: FileID(1), name: "t", text: text)) }
  static func position(_ line: Int, _ character: Int) -> LSP.Position { LSP.Position(line: line, character: character) }

  @Test func asciiPositionsAreByteColumns() {
    let map = Self.map("let a = 1\nlet b = 2\n")
    #expect(map.offset(of: Self.position(1, 4)) == 14)
    #expect(map.position(of: 14) == Self.position(1, 4))
    #expect(map.position(of: 20) == Self.position(2, 0))
  }

  @Test func nonASCIICountsUTF16CodeUnits() {
    // é is 2 bytes and 1 unit; 💰 is 4 bytes and 2 units (a surrogate pair).
    let map = Self.map("# é💰x\nlet y")
    let x = Array("# é💰".utf8).count
    #expect(map.position(of: x) == Self.position(0, 5))
    #expect(map.offset(of: Self.position(0, 5)) == x)
    #expect(map.offset(of: Self.position(0, 3)) == 4)  // after é
    // Inside the surrogate pair: the start of the scalar.
    #expect(map.offset(of: Self.position(0, 4)) == 4)
    // A byte offset inside a scalar maps to its start.
    #expect(map.position(of: 5) == Self.position(0, 3))
  }

  @Test func outOfRangePositionsAreClamped() {
    let map = Self.map("ab\ncd")
    #expect(map.offset(of: Self.position(0, 99)) == 2)
    #expect(map.offset(of: Self.position(1, 99)) == 5)
    #expect(map.offset(of: Self.position(99, 0)) == 5)
    #expect(map.offset(of: Self.position(-1, -1)) == 0)
    #expect(map.position(of: -5) == Self.position(0, 0))
    #expect(map.position(of: 500) == Self.position(1, 2))
    let empty = Self.map("")
    #expect(empty.offset(of: Self.position(3, 3)) == 0)
    #expect(empty.position(of: 0) == Self.position(0, 0))
  }

  @Test func lineEndingsOfEveryKind() {
    let map = Self.map("a\r\nbc\rd\ne")
    #expect(map.lineStarts == [0, 3, 6, 8])
    #expect(map.offset(of: Self.position(0, 5)) == 1)  // the end of "a", before "\r\n"
    #expect(map.offset(of: Self.position(2, 1)) == 7)
    #expect(map.position(of: 2) == Self.position(0, 1))  // between "\r" and "\n": the end of the line
    #expect(map.position(of: 9) == Self.position(3, 1))
  }

  @Test func roundTripsAtEveryScalarBoundary() {
    let text = "## Café ☕️ 💰\nformula f(x: Money): Money = x # 🇨🇦\r\n\r\nlet ä = f($1)\r"
    let map = Self.map(text)
    var offset = 0
    for scalar in text.unicodeScalars {
      #expect(map.offset(of: map.position(of: offset)) == offset || map.bytes[offset] == 10)
      offset += String(scalar).utf8.count
    }
  }

  @Test func rangesAndSpans() {
    let map = Self.map("let 💰 = 1")
    let range = map.range(of: Span(file: FileID(1), start: 4, end: 8))
    #expect(range == LSP.Range(start: Self.position(0, 4), end: Self.position(0, 6)))
    #expect(map.byteRange(of: range) == 4..<8)
    // A reversed range is empty at its start.
    #expect(map.byteRange(of: LSP.Range(start: Self.position(0, 6), end: Self.position(0, 1))) == 8..<8)
  }

  @Test func labelOffsetsInUTF16() {
    #expect(LineMap.utf16Offset("f(é: Money, 💰: Rate)", byteOffset: Array("f(é: Money, ".utf8).count) == 12)
    #expect(LineMap.utf16Offset("f(💰: Rate)", byteOffset: Array("f(💰".utf8).count) == 4)
  }
}

struct EditTests {
  @Test func minimalEditKeepsTheCommonEnds() throws {
    let source = PositionTests.map("formula  f(x: Money): Money =\n  x  *  2\n")
    let edit = try #require(LanguageServer.minimalEdit(from: source, to: "formula f(x: Money): Money =\n  x * 2\n"))
    #expect(edit.range.start == PositionTests.position(0, 8))
    #expect(edit.range.end == PositionTests.position(1, 7))
    #expect(LanguageServer.minimalEdit(from: source, to: source.text) == nil)
    // Never splits a scalar: é and è share their first byte.
    let accents = PositionTests.map("# é\n")
    let change = try #require(LanguageServer.minimalEdit(from: accents, to: "# è\n"))
    #expect(change.range.start == PositionTests.position(0, 2))
    #expect(change.newText == "è")
  }

  @Test func incrementalChangesApplyInOrder() {
    let workspace = Workspace(library: [])
    let uri = LSP.DocumentURI("file:///tmp/doc.tax")
    workspace.open(LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: "let a = $1 # 💰\nlet b = a\n"))
    let outcome = workspace.change(
      LSP.DidChangeTextDocumentNotification(
        textDocument: LSP.VersionedTextDocumentIdentifier(uri: uri, version: 2),
        contentChanges: [
          LSP.TextDocumentContentChangeEvent(
            range: LSP.Range(start: PositionTests.position(0, 13), end: PositionTests.position(0, 15)), text: "€"),
          LSP.TextDocumentContentChangeEvent(
            range: LSP.Range(start: PositionTests.position(1, 4), end: PositionTests.position(1, 5)), text: "bee"),
        ]))
    guard case .applied = outcome else {
      Issue.record("the change was not applied")
      return
    }
    let id = workspace.id(for: uri)!
    #expect(workspace.sourceFile(id)?.text == "let a = $1 # €\nlet bee = a\n")
    let stale = workspace.change(
      LSP.DidChangeTextDocumentNotification(
        textDocument: LSP.VersionedTextDocumentIdentifier(uri: uri, version: 1),
        contentChanges: [LSP.TextDocumentContentChangeEvent(text: "gone")]))
    guard case .staleVersion(current: 2) = stale else {
      Issue.record("a stale version was applied")
      return
    }
    #expect(workspace.sourceFile(id)?.text == "let a = $1 # €\nlet bee = a\n")
    #expect(workspace.programTrees().count == 1)
  }

  /// The edit the workspace keeps from each of a document's last few texts to the current one (what the analyzer
  /// re-parses with instead of comparing the texts) must lead from that text to this one, whatever the changes: a
  /// burst of several in one notification, replacements of the whole text, characters of several bytes.
  @Test func theEditsKeptLeadFromEachRecentTextToTheCurrentOne() throws {
    let workspace = Workspace(library: [])
    let uri = LSP.DocumentURI("file:///tmp/edits.tax")
    let pieces = ["a", "é", "💰", "\n", "", "let x = 1\n", "€€", " "]
    var random = SeededGenerator(seed: 18)
    var text = "let a = $1\nlet b = a * 2\n## doc\nformula f(x: Money): Money = x\n"
    workspace.open(LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: text))
    let id = try #require(workspace.id(for: uri))
    var texts: [Int: [UInt8]] = [:]
    for version in 2..<120 {
      let source = try #require(workspace.sources[id])
      if let revision = source.revision { texts[revision] = source.file.bytes }
      var changes: [LSP.TextDocumentContentChangeEvent] = []
      // The bytes a lone change replaced: what the kept edit must be, not a wider range.
      var replaced: SourceEdit? = nil
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        if Int.random(in: 0..<15, using: &random) == 0 {
          text = (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
          changes.append(LSP.TextDocumentContentChangeEvent(text: text))
          continue
        }
        // A range between two characters, in UTF-16 units as the protocol counts.
        let characters = Array(text)
        let low = Int.random(in: 0...characters.count, using: &random)
        let high = min(characters.count, low + Int.random(in: 0...3, using: &random))
        let inserted = (0..<Int.random(in: 0...2, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        func position(_ index: Int) -> LSP.Position {
          let lines = String(characters[..<index]).split(separator: "\n", omittingEmptySubsequences: false)
          return PositionTests.position(lines.count - 1, lines.last.map { $0.utf16.count } ?? 0)
        }
        changes.append(
          LSP.TextDocumentContentChangeEvent(range: LSP.Range(start: position(low), end: position(high)), text: inserted))
        let (start, end) = (String(characters[..<low]).utf8.count, String(characters[..<high]).utf8.count)
        replaced = changes.count == 1 ? SourceEdit(start: start, oldEnd: end, newEnd: start + inserted.utf8.count) : nil
        text = String(characters[..<low]) + inserted + String(characters[high...])
      }
      let outcome = workspace.change(
        LSP.DidChangeTextDocumentNotification(
          textDocument: LSP.VersionedTextDocumentIdentifier(uri: uri, version: version), contentChanges: changes))
      guard case .applied = outcome else {
        Issue.record("the change was not applied")
        return
      }
      let current = try #require(workspace.sources[id])
      #expect(current.file.text == text)
      var checked = 0
      for entry in current.edits.entries {
        let old = try #require(texts[entry.revision])
        #expect(entry.edit.describes(old, current.file.bytes), "from revision \(entry.revision) to version \(version)")
        checked += 1
      }
      #expect(checked > 0)
      if changes.count == 1, let replaced { #expect(current.edits.entries.last?.edit == replaced) }
    }
  }
}
