import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `Parser.reparse` must give exactly what parsing the new text from scratch gives, after any edit, including the
/// bookkeeping the next re-parse relies on.
@Suite struct ReparseTests {
  /// Whether the re-parse equals the fresh parse; every difference is recorded as an issue.
  @discardableResult
  static func expectSameParse(_ reparsed: Reparse, _ fresh: SyntaxTree, _ context: String) -> Bool {
    #expect(reparsed.origins.count == reparsed.tree.declarations.count, "\(context)")
    return expectSameTree(reparsed.tree, fresh, context)
      && reparsed.origins.count == reparsed.tree.declarations.count
  }

  /// Whether `tree` is exactly `fresh`, a serial parse of the same text, down to the bookkeeping of `Parser.reparse`;
  /// every difference is recorded as an issue.
  @discardableResult
  static func expectSameTree(
    _ tree: SyntaxTree, _ fresh: SyntaxTree, freshDump: String? = nil, _ context: String
  ) -> Bool {
    let (reparsedText, freshText) = (ProgramDump.tree(tree), freshDump ?? ProgramDump.tree(fresh))
    guard reparsedText == freshText, tree.lexerDiagnosticCount == fresh.lexerDiagnosticCount,
      tree.segments.map(\.start) == fresh.segments.map(\.start),
      tree.segments.map(\.isBoundary) == fresh.segments.map(\.isBoundary),
      tree.segments.map(\.declarationCount) == fresh.segments.map(\.declarationCount),
      tree.segments.map(\.diagnosticCount) == fresh.segments.map(\.diagnosticCount),
      tree.segments.map(\.followsFormula) == fresh.segments.map(\.followsFormula),
      tree.segments.map(\.errorAtStart) == fresh.segments.map(\.errorAtStart)
    else {
      // TAXPRO_REPARSE_DEBUG=directory keeps both dumps of the first difference there.
      if let directory = ProcessInfo.processInfo.environment["TAXPRO_REPARSE_DEBUG"] {
        try? reparsedText.write(toFile: directory + "/reparsed.dump", atomically: true, encoding: .utf8)
        try? freshText.write(toFile: directory + "/fresh.dump", atomically: true, encoding: .utf8)
      }
      #expect(reparsedText == freshText, "\(context)")
      #expect(tree.lexerDiagnosticCount == fresh.lexerDiagnosticCount, "\(context)")
      #expect(tree.segments.map(\.start) == fresh.segments.map(\.start), "\(context)")
      #expect(tree.segments.map(\.isBoundary) == fresh.segments.map(\.isBoundary), "\(context)")
      #expect(tree.segments.map(\.declarationCount) == fresh.segments.map(\.declarationCount), "\(context)")
      #expect(tree.segments.map(\.diagnosticCount) == fresh.segments.map(\.diagnosticCount), "\(context)")
      #expect(tree.segments.map(\.followsFormula) == fresh.segments.map(\.followsFormula), "\(context)")
      #expect(tree.segments.map(\.errorAtStart) == fresh.segments.map(\.errorAtStart), "\(context)")
      return false
    }
    return true
  }

  static func run(text initial: String, edits: Int, seed: UInt64) -> Int {
    var random = SeededGenerator(seed: seed)
    var bytes = Array(initial.utf8)
    let id = FileID(7)
    var tree = Parser.parse(SourceFile(id: id, name: "doc.tax", bytes: bytes))
    var reused = 0
    for step in 0..<edits {
      let (range, replacement) = EditScenarios.edit(bytes, using: &random)
      let previous = bytes
      bytes.replaceSubrange(range, with: replacement)
      let known = EditScenarios.knownEdit(step, range, replacement, &bytes, using: &random)
      let source = SourceFile(id: id, name: "doc.tax", bytes: bytes)
      // Repaired, if an edit split a character: the next edit is made on the text as it is.
      bytes = source.bytes
      let reparsed = Parser.reparse(tree, as: source, edit: EditScenarios.sent(known, tree.source, source))
      let fresh = Parser.parse(source)
      let context = "seed \(seed), edit \(step): \(range) ← \(String(decoding: replacement, as: UTF8.self).debugDescription)"
      // After a difference every later tree differs too: one report is enough.
      guard expectSameParse(reparsed, fresh, context) else {
        if let directory = ProcessInfo.processInfo.environment["TAXPRO_REPARSE_DEBUG"] {
          FileManager.default.createFile(atPath: directory + "/before.tax", contents: Data(previous))
          FileManager.default.createFile(atPath: directory + "/after.tax", contents: Data(bytes))
        }
        break
      }
      reused += reparsed.origins.filter { $0 != nil }.count
      tree = reparsed.tree
    }
    return reused
  }

  @Test func randomEditsOfGeneratedFormulas() {
    let reused = onLargeStack { Self.run(text: EditScenarios.formulas(120), edits: 300, seed: 1) }
    // Most edits touch one declaration: most are kept.
    #expect(reused > 300 * 50)
  }

  @Test func randomEditsOfTheExamplesAndTheLibrary() throws {
    var texts = try EditScenarios.examples().map(\.text)
    texts += StandardLibrary.files().filter { ["<std>/ON.tax", "<std>/income_tax.tax"].contains($0.name) }.map(\.text)
    for (number, text) in texts.enumerated() {
      _ = onLargeStack { Self.run(text: text, edits: 60, seed: UInt64(100 + number)) }
    }
  }

  @Test func editsAreTheCommonBeginningAndEnd() {
    var random = SeededGenerator(seed: 5)
    for _ in 0..<2_000 {
      let old = (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) }
      var new = old
      let start = Int.random(in: 0...old.count, using: &random)
      let end = Int.random(in: start...old.count, using: &random)
      new.replaceSubrange(
        start..<end, with: (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 97...99, using: &random) })
      // Byte by byte, as the definition says.
      var prefix = 0
      while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
      var suffix = 0
      while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
        suffix += 1
      }
      #expect(
        SourceEdit(from: old, to: new)
          == SourceEdit(start: prefix, oldEnd: old.count - suffix, newEnd: new.count - suffix), "\(old) → \(new)")
    }
  }

  @Test func editsThatKeepTheLength() {
    // The benchmark's edit: one digit for another, in the middle; every declaration but one is kept as it was.
    let text = EditScenarios.formulas(200)
    var bytes = Array(text.utf8)
    let id = FileID(3)
    let tree = Parser.parse(SourceFile(id: id, name: "doc.tax", bytes: bytes))
    let middle = bytes.count / 2
    guard let digit = bytes.indices.dropFirst(middle).first(where: { bytes[$0] == UInt8(ascii: "7") }) else {
      Issue.record("no digit")
      return
    }
    bytes[digit] = UInt8(ascii: "3")
    let source = SourceFile(id: id, name: "doc.tax", bytes: bytes)
    let reparsed = Parser.reparse(tree, as: source)
    Self.expectSameParse(reparsed, Parser.parse(source), "digit")
      #expect(reparsed.origins.filter { $0 == nil }.count == 1)
    #expect(reparsed.edit == SourceEdit(start: digit, oldEnd: digit + 1, newEnd: digit + 1))
  }
}
