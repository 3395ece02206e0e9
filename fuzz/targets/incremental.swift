// libFuzzer target: the language server's incremental path against the whole one, on arbitrary texts and edits.
//
// The input is a text, a zero byte, and a replacement; the first three bytes say where the replacement goes (a
// 16-bit offset into the text, taken modulo its length + 1) and how many bytes it replaces, and whether the standard
// library (part of it) is checked with the text (odd first byte) or the text alone (even). The text is parsed and checked; then
// the edit is made and
// - `Parser.reparse` of the old tree must equal `Parser.parse` of the new text (told the edit as an editor sends it
//   when the second byte's high bit is set, else finding it by comparing the texts);
// - `Checker.recheck` of the old program, whenever it does not decline, must equal `Checker.check` of the new trees:
//   the program (declarations, formulas, constants, tests, jurisdictions, diagnostics, occurrences), the checker's
//   tables, and every diagnostic.
// - `Parser.parseInTwo`, cut at the first few places it may be, must decline or equal `Parser.parse` (with its
//   segments), and so must `Parser.parseInPieces`, cut at every place it may be and in pieces of 64 bytes.
// A difference is a crash, with both texts in the message.
import Foundation

@testable import TaxProCore

/// Part of the standard library (the interfaces, `federal`, two provinces and the income-tax and credit formulas, so
/// that inputs can use them; all of it would make each run several times slower), parsed once.
let libraryTrees = parseLibraryFiles(
  only: ["interfaces.tax", "federal.tax", "ON.tax", "QC.tax", "income_tax.tax", "credits.tax"])

func fail(_ what: String, _ before: [UInt8], _ after: [UInt8], _ got: String, _ expected: String) -> Never {
  fatalError("""
    fuzz: \(what) differs from the whole one
    --- text before
    \(String(decoding: before, as: UTF8.self))
    --- text after
    \(String(decoding: after, as: UTF8.self))
    --- incremental
    \(got)
    --- whole
    \(expected)
    """)
}

/// The bookkeeping of a tree that `Parser.reparse` relies on, as text.
func segmentsDump(_ tree: SyntaxTree) -> String {
  "lexer diagnostics \(tree.lexerDiagnosticCount)\n" + tree.segments.map { segment in
    "\(segment.start) \(segment.declarationCount) \(segment.diagnosticCount) \(segment.isBoundary) "
      + "\(segment.followsFormula) \(segment.errorAtStart)\n"
  }.joined()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 3 else { return 0 }
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  let withLibrary = input[0] & 1 == 1
  let rest = input[3...]
  let separator = rest.firstIndex(of: 0) ?? rest.endIndex
  let before = Array(rest[..<separator])
  let replacement = separator < rest.endIndex ? Array(rest[(separator + 1)...]) : []
  let start = (Int(input[1]) << 8 | Int(input[2])) % (before.count + 1)
  let end = min(before.count, start + Int(input[0] >> 1))
  var after = before
  after.replaceSubrange(start..<end, with: replacement)

  let library = withLibrary ? libraryTrees : []
  let id = FileID(library.count)
  let old = Parser.parse(SourceFile(id: id, name: "doc.tax", bytes: before))
  let oldProgram = Checker.check(library + [old])
  let source = SourceFile(id: id, name: "doc.tax", bytes: after)
  // Half the time with the edit as an editor sends it (the language server passes it on), which need not be the
  // smallest: the replacement may repeat what it replaced.
  let sent = input[1] & 0x80 != 0 ? SourceEdit(start: start, oldEnd: end, newEnd: start + replacement.count) : nil
  let reparse = Parser.reparse(old, as: source, edit: sent)
  let fresh = Parser.parse(source)
  let (reparsed, parsed) = (ProgramDump.tree(reparse.tree), ProgramDump.tree(fresh))
  if reparsed != parsed { fail("the re-parse", before, after, reparsed, parsed) }
  // The parse on two threads, cut at each place it may be (a few of them), must decline or equal the serial one.
  var offset = 0
  for _ in 0..<4 {
    guard let split = Parser.split(source.bytes, near: offset) else { break }
    offset = split.keyword
    guard let inTwo = Parser.parseInTwo(source, mode: .file, at: split) else { continue }
    let (got, expected) = (segmentsDump(inTwo) + ProgramDump.tree(inTwo), segmentsDump(fresh) + parsed)
    if got != expected { fail("the parse in two at \(split)", before, after, got, expected) }
  }
  // The parse a piece at a time, cut as often as it may be and in pieces of a few lines, must decline or equal it.
  for length in [1, 64] {
    guard let inPieces = Parser.parseInPieces(source, mode: .file, pieceLength: length) else { continue }
    let (got, expected) = (segmentsDump(inPieces) + ProgramDump.tree(inPieces), segmentsDump(fresh) + parsed)
    if got != expected { fail("the parse in pieces of \(length) bytes", before, after, got, expected) }
  }
  guard let rechecked = Checker.recheck(oldProgram, after: reparse) else { return 0 }
  let checked = Checker.check(library + [fresh])
  let got = ProgramDump.program(rechecked, files: [id]) + ProgramDump.tables(rechecked, file: id)
    + rechecked.diagnostics.map(ProgramDump.text).joined()
  let expected = ProgramDump.program(checked, files: [id]) + ProgramDump.tables(checked, file: id)
    + checked.diagnostics.map(ProgramDump.text).joined()
  if got != expected { fail("the re-check", before, after, got, expected) }
  return 0
}
