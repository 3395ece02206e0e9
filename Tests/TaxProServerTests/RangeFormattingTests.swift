import Foundation
@testable import LanguageServerProtocol
import TaxProCore
import Testing

@testable import TaxProServer

/// Range formatting formats the declarations a range touches as formatting the whole file would, and leaves the rest
/// of the file as it is.
struct RangeFormattingTests {
  static let messy = """
    # Header comment.

    ## Doubles.
    formula   f( x :Money ):Money=
          x*2


    let   c=f( $1 )   # trailing
    ## Checks.
    test "t" {
        c==$2
    }

    """

  /// A server with one open document (and no library: the layout needs none).
  static func server(_ text: String) -> (LanguageServer, LSP.TextDocumentIdentifier) {
    let server = LanguageServer(library: [], log: { _ in })
    let uri = LSP.DocumentURI("file:///tmp/range/doc.tax")
    server.workspace.open(LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: text))
    return (server, LSP.TextDocumentIdentifier(uri: uri))
  }

  static func apply(_ edits: [LSP.TextEdit], to text: String) -> String {
    var bytes = Array(text.utf8)
    let map = LineMap(SourceFile(id: FileID(0), name: "doc", text: text))
    for edit in edits.sorted(by: { $0.range.start > $1.range.start }) {
      bytes.replaceSubrange(map.byteRange(of: edit.range), with: Array(edit.newText.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func rangeFormatted(_ text: String, lines: ClosedRange<Int>) throws -> String {
    let (server, document) = server(text)
    let range = LSP.Range(
      start: LSP.Position(line: lines.lowerBound, character: 0), end: LSP.Position(line: lines.upperBound, character: 1))
    let request = LSP.DocumentRangeFormattingRequest(
      textDocument: document, range: range, options: LSP.FormattingOptions(tabSize: 2, insertSpaces: true))
    return apply(try #require(server.rangeFormatting(request)), to: text)
  }

  @Test func onlyTheTouchedDeclarationChanges() throws {
    let whole = Formatter.format(Self.messy)
    // The formula (lines 3 and 4): it and its doc comment take their formatted form; the rest stays messy.
    let formula = try Self.rangeFormatted(Self.messy, lines: 4...4)
    #expect(formula.contains("## Doubles.\nformula f(x: Money): Money = x * 2\n"))
    #expect(whole.contains("## Doubles.\nformula f(x: Money): Money = x * 2\n"))
    #expect(formula.contains("let   c=f( $1 )   # trailing\n"))
    #expect(formula.contains("    c==$2\n"))
    #expect(formula.hasPrefix("# Header comment.\n\n## Doubles.\n"))
    // The constant and the test: the formula stays as it was.
    let rest = try Self.rangeFormatted(Self.messy, lines: 7...10)
    #expect(rest.contains("formula   f( x :Money ):Money=\n      x*2\n\n\nlet c = f($1)  # trailing\n"))
    let tail = try #require(whole.range(of: "let c = "))
    #expect(rest.hasSuffix(whole[tail.lowerBound...]))
    // Everything, from the first line: the whole file's formatting.
    #expect(try Self.rangeFormatted(Self.messy, lines: 0...11) == whole)
  }

  @Test func nothingToDoAwayFromDeclarationsOrInFormattedText() throws {
    #expect(try Self.rangeFormatted(Self.messy, lines: 1...1) == Self.messy)
    let whole = Formatter.format(Self.messy)
    for line in 0..<whole.split(separator: "\n", omittingEmptySubsequences: false).count {
      #expect(try Self.rangeFormatted(whole, lines: line...line) == whole)
    }
  }

  /// On real programs (provinces, bracket tables, comments), each declaration formatted alone is what formatting the
  /// file gives it: every example, made messy by indenting nothing and respacing operators, comes out the same.
  @Test func everyDeclarationOfTheExamplesAloneAsInTheWholeFile() throws {
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples")
    let names = try FileManager.default.contentsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".tax") }
    #expect(names.count >= 6)
    for name in names.sorted() {
      let text = try String(contentsOf: examples.appendingPathComponent(name), encoding: .utf8)
      let messy = text.replacingOccurrences(of: " + ", with: "+").replacingOccurrences(of: ", ", with: " ,")
      let whole = Formatter.format(messy)
      let tree = Parser.parse(SourceFile(id: FileID(0), name: name, text: messy))
      #expect(!tree.diagnostics.hasErrors, "\(name)")
      var text2 = messy
      // Declaration by declaration from the end, so that earlier lines keep their numbers.
      for declaration in tree.declarations.reversed() {
        let line = tree.source.lineIndex(of: declaration.span.start)
        text2 = try Self.rangeFormatted(text2, lines: line...line)
      }
      #expect(Formatter.format(text2) == whole, "\(name)")
      #expect(text2.split(separator: "\n").filter { !$0.isEmpty } == whole.split(separator: "\n").filter { !$0.isEmpty }, "\(name)")
    }
  }
}
