import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// A source lexed and parsed a piece at a time (`Parser.parseInPieces`) must give exactly the tree of one parse: the
/// declarations, comments and diagnostics, and the bookkeeping `Parser.reparse` relies on. Where that is not certain
/// it must decline (nil), never differ. Short pieces make many cuts in small sources; a piece of one byte cuts at
/// every place a source may be cut.
@Suite struct PieceParseTests {
  /// `text` parsed in pieces of each of `lengths` bytes, compared with the serial parse; returns how many of those
  /// parses went through (the others declined).
  @discardableResult
  static func comparePieces(
    _ text: String, mode: ParseMode = .file, lengths: [Int] = [1, 50, 400], _ context: String
  ) -> Int {
    comparePieces(Array(text.utf8), mode: mode, lengths: lengths, context)
  }

  @discardableResult
  static func comparePieces(_ bytes: [UInt8], mode: ParseMode = .file, lengths: [Int], _ context: String) -> Int {
    let source = SourceFile(id: FileID(4), name: "doc.tax", bytes: bytes)
    let serial = Parser.parseSerially(source, mode: mode)
    let serialDump = ProgramDump.tree(serial)
    var parsed = 0
    for length in lengths {
      guard let tree = Parser.parseInPieces(source, mode: mode, pieceLength: length) else { continue }
      parsed += 1
      guard ReparseTests.expectSameTree(tree, serial, freshDump: serialDump, "\(context), pieces of \(length)") else {
        break
      }
      #expect(tree.isIncomplete == serial.isIncomplete, "\(context), pieces of \(length)")
    }
    return parsed
  }

  @Test func everyFileOfTheRepository() throws {
    let files = try ParallelParseTests.repositoryFiles()
    #expect(files.count > 40)
    var parsed = 0
    for (path, text) in files {
      parsed += onLargeStack { Self.comparePieces(text, lengths: [1, 400], path) }
      _ = onLargeStack { Self.comparePieces(text, mode: .interactive, lengths: [1], path + " (interactive)") }
      let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
      _ = onLargeStack { Self.comparePieces(crlf, lengths: [1], path + " (CRLF)") }
    }
    // Files with a `formula` or `let` at the left margin after the first line are cut, and the parse goes through
    // unless an error is reported at a cut (52 of the parses in pieces, when this test was written; the library's
    // own files hold no such line).
    #expect(parsed > 45)
  }

  @Test func generatedFormulasAreParsedInPieces() {
    let text = EditScenarios.formulas(200)
    #expect(onLargeStack { Self.comparePieces(text, lengths: [1, 97, 1000, 4000], "generated formulas") } == 4)
    // The public entry point cuts a source of `pieceThreshold` bytes or more into pieces, and its tree is the serial
    // one.
    let source = SourceFile(id: FileID(4), name: "doc.tax", text: text)
    let threshold = source.bytes.count / 2
    #expect(Parser.parseInPieces(source, mode: .file, pieceLength: threshold / 2) != nil)
    let tree = onLargeStack { Parser.parse(source, mode: .file, pieceThreshold: threshold, pieceLength: threshold / 2) }
    ReparseTests.expectSameTree(tree, onLargeStack { Parser.parseSerially(source) }, "Parser.parse in pieces")
    #expect(Parser.pieceThreshold > Parser.pieceLength)
  }

  /// State a piece hands to the next: an error reported at the cut's keyword (not reported twice), a formula's
  /// result line followed by an indented stray line after the cut, diagnostics near the caps.
  @Test func stateCarriedAcrossCuts() {
    let texts = [
      "formula f(x: Money): Money =\nformula g(x: Money): Money = x\n  x + 1\nlet a = 1\n",
      "formula f(x: Money): Money = x\nlet a = 1\n  2\nformula g() = (1 +\nlet b = )\n## doc\nlet c = 3\n",
      "let a = \nlet b = \n## documentation of c\n# and a comment\nlet c = $1 +\nformula",
      "formula f(x: Money): Money = x\n\n\n## d\n\nformula g(x: Money): Money = f(x\n",
      String(repeating: "let x = ) ?\n", count: 300),
      String(repeating: "let x = 1 @ 2\n", count: 600),
    ]
    for (number, text) in texts.enumerated() {
      onLargeStack { Self.comparePieces(text, lengths: [1, 2, 30], "text \(number)") }
    }
  }

  /// Random edits of generated formulas and of the examples, parsed in pieces of several lengths.
  @Test func randomEdits() throws {
    var texts = [EditScenarios.formulas(40)]
    texts += try ["examples/provinces.tax", "Sources/TaxProLibrary/Resources/income_tax.tax"].compactMap {
      try? String(contentsOf: ParallelParseTests.root.appendingPathComponent($0), encoding: .utf8)
    }
    var parsed = 0
    for (number, text) in texts.enumerated() {
      for (step, version) in EditScenarios.versions(of: text, seed: UInt64(700 + number), steps: 12).enumerated() {
        parsed += onLargeStack { Self.comparePieces(version, lengths: [1, 300], "text \(number), edit \(step)") }
      }
    }
    // Edits that leave an error at a cut make the parse decline: 40 of 78 went through when this test was written.
    #expect(parsed > 30)
  }
}
