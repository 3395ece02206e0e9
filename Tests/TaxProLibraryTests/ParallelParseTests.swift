import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// A source parsed in two parts on two threads (`Parser.parseInTwo`) must give exactly the tree of one serial parse,
/// wherever it is cut: the declarations, comments and diagnostics, and the bookkeeping `Parser.reparse` relies on.
/// When the cut is not one a serial parse passes through, the parallel parse must decline (nil), never differ.
@Suite struct ParallelParseTests {
  /// Every distinct split of `text` (at most `limit`, evenly chosen) parsed in two, compared with the serial parse;
  /// returns how many splits were parsed in two (the others declined).
  @discardableResult
  static func compareSplits(_ text: String, mode: ParseMode = .file, limit: Int = 30, _ context: String) -> Int {
    compareSplits(Array(text.utf8), mode: mode, limit: limit, context)
  }

  @discardableResult
  static func compareSplits(_ bytes: [UInt8], mode: ParseMode = .file, limit: Int = 30, _ context: String) -> Int {
    let source = SourceFile(id: FileID(4), name: "doc.tax", bytes: bytes)
    let serial = Parser.parseSerially(source, mode: mode)
    var splits: [ParseSplit] = []
    var offset = 0
    while let split = Parser.split(source.bytes, near: offset) {
      splits.append(split)
      offset = split.keyword
    }
    let step = max(1, splits.count / limit)
    // The serial tree's dump, made once for all the splits compared with it.
    let serialDump = ProgramDump.tree(serial)
    var parsedInTwo = 0
    for index in stride(from: 0, to: splits.count, by: step) {
      let split = splits[index]
      guard let tree = Parser.parseInTwo(source, mode: mode, at: split) else { continue }
      parsedInTwo += 1
      guard ReparseTests.expectSameTree(tree, serial, freshDump: serialDump, "\(context), split at \(split)") else {
        break
      }
    }
    // The public entry point, whichever way it goes.
    ReparseTests.expectSameTree(
      Parser.parse(source, mode: mode), serial, freshDump: serialDump, "\(context), Parser.parse")
    return parsedInTwo
  }

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Every `.tax` file of the repository (examples, fixtures, editor samples, the standard library and its tests).
  static func repositoryFiles() throws -> [(String, String)] {
    var files: [(String, String)] = []
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    while let path = walker.nextObject() as? String {
      // Built, fuzzed and benchmark files (`bench/out` holds generated sources of up to 28 MB) are not the repository's.
      if path.hasPrefix(".build") || path.hasPrefix("fuzz/out") || path.hasPrefix(".git") || path.hasPrefix(".venv")
        || path.hasPrefix("bench/out")
      {
        walker.skipDescendants()
        continue
      }
      guard path.hasSuffix(".tax") else { continue }
      files.append((path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)))
    }
    return files.sorted { $0.0 < $1.0 }
  }

  @Test func everyFileOfTheRepository() throws {
    let files = try Self.repositoryFiles()
    #expect(files.count > 40)
    var parsedInTwo = 0
    for (path, text) in files {
      parsedInTwo += onLargeStack { Self.compareSplits(text, limit: 8, path) }
      _ = onLargeStack { Self.compareSplits(text, mode: .interactive, limit: 2, path + " (interactive)") }
      let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
      _ = onLargeStack { Self.compareSplits(crlf, limit: 2, path + " (CRLF)") }
    }
    // Most of the library's files are declarations with documentation: the parse goes through most of their splits.
    #expect(parsedInTwo > 100)
  }

  @Test func generatedFormulas() {
    let text = EditScenarios.formulas(200)
    let parsedInTwo = onLargeStack { Self.compareSplits(text, limit: 12, "generated formulas") }
    #expect(parsedInTwo > 10)
    // The split the public entry point would take, near the middle, is a good one.
    let source = SourceFile(id: FileID(4), name: "doc.tax", text: text)
    guard let split = Parser.split(source.bytes, near: source.bytes.count / 2) else {
      Issue.record("no split near the middle")
      return
    }
    #expect(Parser.isBalanced(split, in: source.bytes))
    #expect(onLargeStack { Parser.parseInTwo(source, mode: .file, at: split) } != nil)
  }

  /// Random edits of generated formulas and of the examples (the snippets of the re-parse tests: brackets, strings and
  /// comments opened and not closed, declarations cut, line breaks of every kind), every split of each compared.
  @Test func randomEdits() throws {
    var texts = [EditScenarios.formulas(40)]
    texts += try ["examples/provinces.tax", "Sources/TaxProLibrary/Resources/income_tax.tax"].compactMap {
      try? String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)
    }
    var parsedInTwo = 0
    for (number, text) in texts.enumerated() {
      for (step, version) in EditScenarios.versions(of: text, seed: UInt64(300 + number), steps: 12).enumerated() {
        parsedInTwo += onLargeStack { Self.compareSplits(version, limit: 3, "text \(number), edit \(step)") }
      }
    }
    #expect(parsedInTwo > 60)
  }

  static let formula = "## Doc.\nformula f(x: Money): Money =\n  x * 2\n"

  /// `pieces` one after the other, `count` times.
  static func repeated(_ pieces: [String], _ count: Int) -> String {
    String(repeating: pieces.joined(), count: count)
  }

  /// Texts made to go wrong at the cut: each is cut at every split.
  @Test(arguments: [
    // A text left unclosed on the line above the cut; strings and comments end at the line's end.
    "formula a(x: Money): Money =\n  x + \"open\nformula b(x: Money): Money =\n  x\n",
    "let s = \"open\n## doc\nlet t = 1\n",
    // A syntax error right at the cut, and a formula cut before its body.
    "let a = 1\nformula (\nformula b() = 1\nlet c = 2\n",
    "formula a(x: Money) =\nformula b(x: Money): Money =\n  x\nlet c = 1\n",
    "let a = 1\nlet = 2\nlet b = 3\n",
    "formula a() = 1\nformula\nlet b = 2\n",
    "formula a() = 1\nformula 12\nlet b = 2\n",
    // Brackets left open above the cut: a declaration at the left margin closes them.
    "let a = max(1,\nformula b() = 2\nlet c = (\n\nlet d = 3\n",
    // A line that cannot end a statement above the cut: no `newline` token before the keyword.
    "let a = 1 +\nformula b() = 2\nlet c = 2 *\n\nlet d = 3\n",
    // A block left open: its `let` at the left margin is its own, so the first part runs past the cut.
    "test \"t\" {\n  1 == 1\nlet x = 1\n  x == 1\n}\nlet y = 2\n",
    "parameters P {\n  rate: Rate\nformula f() = 1\nlet z = 1\n",
    "test \"t\" {\n## doc\nlet x = 1\n}\nformula g() = 2\n",
    // Documentation across the cut, with and without a blank line, and a trailing comment above it.
    "let a = 1 # trailing\n## doc\n## more\nlet b = 2\n\n# plain\nformula c() = 3\n",
    "let a = 1\n\n##\n  ## indented\nformula c() = 3\n",
    // A formula's stray body line after the cut (follows a formula), and the keywords as prefixes of names.
    "formula a() = 1\n  2\nformula b() = 2\n  3\nletter = 4\nformulas = 5\nlet c = 6\n",
    // Lone carriage returns and a byte-order mark.
    "\u{FEFF}let a = 1\rlet b = 2\r\nlet c = 3\n\rlet d = 4\n",
    // `federal` and contextual keywords right before the cut.
    "federal {\nlet a = 1\n}\nprovince\nlet b = 2\nparameters\nformula c() = 1\ntest\nlet d = 2\n",
  ])
  func adversarialCuts(text: String) {
    // Padded on both sides so that the cuts fall in the middle of the text as well as at its edges.
    let padded = [Self.formula, text, Self.formula, text, Self.formula].joined()
    for variant in [padded, padded.replacingOccurrences(of: "\n", with: "\r\n")] {
      _ = onLargeStack { Self.compareSplits(variant, "adversarial \(variant.debugDescription)") }
      _ = onLargeStack { Self.compareSplits(variant, mode: .interactive, "adversarial, interactive") }
    }
  }

  /// Many errors: the caps of the lexer and the parser count from the start of the source, so a cut with them
  /// reached in the first part, in the second, or by the two together must decline or agree.
  @Test func diagnosticsCaps() {
    let parserError = "let = 1\n"
    let lexerError = "let a = 1 @\n"
    var texts: [String] = []
    for line in [parserError, lexerError] {
      // Errors between declarations throughout: the cuts put any share of them in either part.
      for count in [240, 250, 251, 499, 500, 600] {
        texts.append(Self.repeated([Self.formula, line], count) + Self.formula)
      }
      // Errors in a block above the cuts, or below them, or both.
      for (first, second) in [(600, 0), (0, 600), (499, 1), (1, 499), (250, 250), (251, 250), (300, 300)] {
        texts.append([Self.repeated([line], first), Self.repeated([Self.formula], 20), Self.repeated([line], second)].joined())
      }
    }
    texts.append(Self.repeated([Self.formula, parserError, Self.formula, lexerError], 200))
    var parsedInTwo = 0
    for (number, text) in texts.enumerated() {
      parsedInTwo += onLargeStack { Self.compareSplits(text, limit: 3, "caps, text \(number)") }
    }
    // Far from the caps, the cuts are taken.
    #expect(parsedInTwo > 0)
  }

  /// A source that is one declaration has no split: it is parsed whole.
  @Test func oneDeclaration() {
    let body: [String] = (0..<8_000).map { (number: Int) -> String in "  + \(number)" }
    let text = "formula f(x: Number): Number =\n  x\n" + body.joined(separator: "\n") + "\n"
    let source = SourceFile(id: FileID(4), name: "doc.tax", text: text)
    #expect(Parser.split(source.bytes, near: source.bytes.count / 2) == nil)
    let tree = onLargeStack { Parser.parse(source) }
    #expect(tree.declarations.count == 1)
    #expect(tree.diagnostics.isEmpty)
  }
}
