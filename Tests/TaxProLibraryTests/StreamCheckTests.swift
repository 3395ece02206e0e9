import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `Checker.streamedDiagnostics`, the check `taxpro check` runs: files parsed and checked a piece at a time must give
/// exactly the diagnostics of `Checker.diagnostics(of:)` on the whole parse (same list, same order, same text),
/// whether the stream went through or gave up. Pieces are forced small, so that a program of a few formulas is cut
/// into many.
@Suite struct StreamCheckTests {
  /// A small library in the standard one's shape (interfaces, every province and the federal jurisdiction, a
  /// constant, formulas with and without a result type), so that a random program's check is quick.
  static let smallLibrary: [SyntaxTree] = {
    var text = """
      parameters Province {
        income_tax: Brackets
      }
      parameters Federal {
        income_tax: Brackets
      }
      federal "Canada" {
        year 2025 {
          income_tax = brackets {
            $0 -> 15%
            $57,375 -> 20.5%
          }
        }
      }
      let library_rate = 5%
      formula library_inferred(x: Money) =
        x * library_rate
      formula library_declared(x: Money): Money =
        library_inferred(x) + $1

      """
    for code in EditScenarios.provinces {
      text += """
        province \(code) "Province \(code)" {
          year 2025 {
            income_tax = brackets {
              $0 -> 10%
              $50,000 -> 12%
            }
          }
        }

        """
    }
    return [Parser.parse(SourceFile(id: FileID(0), name: "<std>/small.tax", bytes: Array(text.utf8)))]
  }()

  static let checkedSmallLibrary = onLargeStack { CheckedLibrary(smallLibrary, diagnosticsOnly: true) }

  /// The files of one program, ids after the library's.
  static func sources(_ texts: [String]) -> [SourceFile] {
    texts.enumerated().map { SourceFile(id: FileID(100 + $0.offset), name: "doc\($0.offset).tax", bytes: Array($0.element.utf8)) }
  }

  /// Compares the stream (pieces of about `pieceLength` bytes) with the whole check; returns the stream's result.
  @discardableResult
  static func compare(
    _ texts: [String], library: CheckedLibrary, pieceLength: Int, _ context: String
  ) -> (streamed: Bool, checkedAsParsed: Int) {
    let files = sources(texts)
    let whole = onLargeStack { Checker.diagnostics(of: library.trees + files.map { Parser.parse($0) }) }
    let stream = onLargeStack {
      Checker.streamedCheck(
        library: library, sources: files, pieceThreshold: 1, pieceLength: pieceLength, pipelined: false)
    }
    #expect(stream.diagnostics.map(ProgramDump.text) == whole.map(ProgramDump.text), "\(context)")
    // Parsed on a second thread while this one checks: the same diagnostics, streamed or given up the same.
    let pipelined = onLargeStack {
      Checker.streamedCheck(
        library: library, sources: files, pieceThreshold: 1, pieceLength: pieceLength, pipelined: true)
    }
    #expect(pipelined.diagnostics.map(ProgramDump.text) == whole.map(ProgramDump.text), "pipelined, \(context)")
    #expect(pipelined.streamed == stream.streamed, "pipelined, \(context)")
    #expect(pipelined.checkedAsParsed == stream.checkedAsParsed, "pipelined, \(context)")
    return (stream.streamed, stream.checkedAsParsed)
  }

  /// A random program: generated formulas (with constants, tests, errors and inferred results), their
  /// declarations perhaps shuffled (forward references) and results untyped, then a few random edits, cut into one to
  /// three files.
  static func randomProgram(seed: UInt64) -> [String] {
    var random = SeededGenerator(seed: seed)
    var blocks = EditScenarios.formulas(Int.random(in: 3...40, using: &random))
      .components(separatedBy: "\n## Formula ")
    if Bool.random(using: &random) {
      let first = blocks.removeFirst()
      blocks.shuffle(using: &random)
      blocks.insert(first, at: 0)
    }
    var text = blocks.joined(separator: "\n## Formula ")
    if Int.random(in: 0..<4, using: &random) == 0 {
      // Some results inferred.
      var lines = text.components(separatedBy: "\n")
      for index in lines.indices where lines[index].hasSuffix("): Money =") && Int.random(in: 0..<3, using: &random) == 0 {
        lines[index] = String(lines[index].dropLast("): Money =".count)) + ") ="
      }
      text = lines.joined(separator: "\n")
    }
    var bytes = Array(text.utf8)
    for _ in 0..<Int.random(in: 0...5, using: &random) {
      let (range, replacement) = EditScenarios.edit(bytes, using: &random)
      bytes.replaceSubrange(range, with: replacement)
      bytes = SourceFile(id: FileID(1), name: "x", bytes: bytes).bytes
    }
    let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
    let fileCount = Int.random(in: 1...3, using: &random)
    var cuts = (0..<(fileCount - 1)).map { _ in Int.random(in: 0...lines.count, using: &random) }.sorted()
    cuts = [0] + cuts + [lines.count]
    return (0..<fileCount).map { lines[cuts[$0]..<cuts[$0 + 1]].joined(separator: "\n") + "\n" }
  }

  @Test func randomProgramsGiveTheWholeChecksDiagnostics() {
    let library = Self.checkedSmallLibrary
    #expect(library.isReusable)
    var streamed = 0
    var checkedAsParsed = 0
    for seed in UInt64(1)...300 {
      let texts = Self.randomProgram(seed: seed)
      var random = SeededGenerator(seed: seed &* 31)
      let result = Self.compare(
        texts, library: library, pieceLength: Int.random(in: 1...800, using: &random), "seed \(seed)")
      if result.streamed { streamed += 1 }
      checkedAsParsed += result.checkedAsParsed
    }
    // Most random programs stream, and most of their bodies are checked as their piece is parsed.
    #expect(streamed > 150)
    #expect(checkedAsParsed > 1000)
  }

  @Test func generatedFormulasStreamInSmallPieces() {
    let library = Self.checkedSmallLibrary
    let text = EditScenarios.formulas(200)
    for pieceLength in [1, 100, 1_000, 10_000] {
      let result = Self.compare([text], library: library, pieceLength: pieceLength, "piece length \(pieceLength)")
      #expect(result.streamed, "piece length \(pieceLength)")
      // Only the formulas that use a constant of the file (`h…` uses `c4`) wait for the end.
      #expect(result.checkedAsParsed > 200, "piece length \(pieceLength)")
    }
  }

  /// Hand-written programs, each a case the stream must think through.
  static let written: [(String, [String], shouldStream: Bool?)] = [
    (
      "forward references to written result types",
      [
        """
        formula a(x: Money): Money =
          b(x) + later_constant
        formula b(x: Money): Money =
          x * 2 + c(x)
        let later_constant = $5
        formula c(x: Money): Money =
          x
        """
      ], true
    ),
    (
      "a forward reference to an inferred result",
      [
        """
        formula a(x: Money): Money =
          b(x)
        formula b(x: Money) =
          x * 2
        """
      ], false
    ),
    (
      "unknown names with suggestions, later names among them",
      [
        """
        formula early(income: Money): Money =
          incme + nosuch(income) + lately(income) + AB.incme_tax * 0 + income_tx
        formula later(income: Money): Money =
          income
        let income_tax = $3
        """
      ], true
    ),
    (
      "duplicates, built-ins and types redefined",
      [
        """
        formula dup(x: Money): Money = x
        formula max(x: Money): Money = x
        let Money = 3
        formula dup(x: Money): Money = x * 2
        let dup = 4
        formula uses(x: Money): Money = dup(x) + dup
        """,
        """
        formula dup(x: Money): Money = x * 3
        let library_rate = 1%
        """,
      ], true
    ),
    (
      "cycles of written result types, and of constants",
      [
        """
        formula p(x: Money): Money =
          q(x)
        formula q(x: Money): Money =
          p(x) + r
        let r = s + $1
        let s = r * 2
        formula self_call(x: Money): Money = self_call(x)
        """
      ], true
    ),
    (
      "inferred results called backwards",
      [
        """
        formula base(x: Money) =
          x * 2
        formula next(x: Money) =
          base(x) + $1
        formula last(x: Money): Rate =
          next(x)
        """
      ], true
    ),
    (
      "a constant using an inferred formula",
      [
        """
        formula base(x: Money) =
          x * 2
        let k = base($1)
        formula uses(x: Money): Money = x + k
        """
      ], false
    ),
    (
      "locals that hide globals, and lets used before they are defined",
      [
        """
        formula hides(income: Money, rate: Rate = income_rate, n: Number in 0..limit): Money =
          let a = b + income
          let b = income * rate
          let limit = 3
          a + b + limit + income_rate
        let income_rate = 5%
        let limit = 10
        formula income(x: Money): Money = x
        """
      ], true
    ),
    (
      "parse errors",
      [
        """
        formula broken(x: Money): Money =
          x + (
        formula fine(x: Money): Money =
          x + $1,23 + "unterminated
        let = 5
        formula g(x: Money, ): Money = x +
        test "t" {
          fine($1) == $2
          broken($1)
        }
        """
      ], nil
    ),
    (
      "tests, constants and parts lines",
      [
        """
        let rate = 10%
        test "early" {
          let y = later($100)
          y > $0
          y
        }
        ## parts: whole = a + missing
        formula later(x: Money): Money =
          let a = x * rate
          let whole = a
          whole
        test "late" year 2025 {
          later($1) == $0.10
        }
        """
      ], true
    ),
    ("a jurisdiction in the files", ["province ZZ \"Zed\" {\n  year 2025 {\n    income_tax = 5\n  }\n}\n"], false),
    ("an interface in the files", ["parameters Province {\n  other: Money\n}\n"], false),
  ]

  @Test func writtenProgramsGiveTheWholeChecksDiagnostics() {
    let library = Self.checkedSmallLibrary
    for (name, texts, shouldStream) in Self.written {
      for pieceLength in [1, 40, 1_000] {
        let result = Self.compare(texts, library: library, pieceLength: pieceLength, "\(name), \(pieceLength)")
        if let shouldStream { #expect(result.streamed == shouldStream, "\(name), \(pieceLength)") }
      }
    }
  }

  @Test func theParseDiagnosticsCapGivesUp() {
    // More errors than the parser reports: the piece parse declines after pieces were checked.
    let text = String(repeating: "formula f(x: Money): Money = x + )\n", count: 700)
    let result = Self.compare([text], library: Self.checkedSmallLibrary, pieceLength: 2_000, "the cap")
    #expect(!result.streamed)
  }

  @Test func manyInferredResultsGiveUp() {
    // Chains of on-demand checks that could reach the inference depth limit: checked whole.
    let text = (0..<450).map { "formula f\($0)(x: Money) =\n  x * 2\n" }.joined()
    let result = Self.compare([text], library: Self.checkedSmallLibrary, pieceLength: 500, "inferred")
    #expect(!result.streamed)
  }

  @Test func givingUpMidFileStopsTheParsingThread() {
    // Many small pieces, and a jurisdiction a few pieces in: the checker gives up there, the parse stops soon after.
    let formulas = EditScenarios.formulas(300)
    let jurisdiction = "province ZZ \"Zed\" {\n  year 2025 {\n    income_tax = 5\n  }\n}\n"
    let cut = formulas.index(formulas.startIndex, offsetBy: 600)
    let line = formulas[cut...].firstIndex(of: "\n").map { formulas.index(after: $0) } ?? formulas.endIndex
    let text = String(formulas[..<line]) + jurisdiction + String(formulas[line...])
    for pieceLength in [1, 50, 400] {
      let result = Self.compare([text], library: Self.checkedSmallLibrary, pieceLength: pieceLength, "\(pieceLength)")
      #expect(!result.streamed, "\(pieceLength)")
    }
    let source = Self.sources([text])[0]
    let handed = onLargeStack { () -> Int? in
      guard let stream = StreamCheck(library: Self.checkedSmallLibrary) else { return nil }
      stream.checker.sources[source.id] = source
      guard let outcome = stream.takePipelined(source, pieceLength: 1) else { return nil }
      outcome.thread.join()
      #expect(!stream.streams && outcome.taken && outcome.parsed == nil)
      return outcome.handOver.result.handed
    }
    // A few pieces before the jurisdiction's, of more than 300 (one a formula): the parse went at most a few pieces
    // past it (one queued, one being parsed).
    let pieces = text.components(separatedBy: "\nformula ").count
    #expect(pieces > 300)
    if let handed { #expect(handed < 20, "\(handed) of \(pieces) pieces parsed") } else { Issue.record("no thread") }
  }

  @Test func withTheStandardLibrary() throws {
    // The library the command line checks with, and documents with errors across several files.
    let library = onLargeStack { CheckedLibrary(StandardLibrary.trees(), diagnosticsOnly: true) }
    #expect(library.isReusable)
    var documents = [ParallelCheckTests.adversarial, EditScenarios.formulas(300)]
    for folder in ["examples", "Tests/TaxProCoreTests/Fixtures"] {
      for url in try ParallelCheckTests.files(under: folder) {
        documents.append(try String(contentsOf: url, encoding: .utf8))
      }
    }
    Self.compare(documents, library: library, pieceLength: 300, "every document")
    let generated = Self.compare(
      [EditScenarios.formulas(300)], library: library, pieceLength: 2_000, "generated formulas")
    #expect(generated.streamed && generated.checkedAsParsed > 300)
    Self.compare([ParallelCheckTests.adversarial], library: library, pieceLength: 100, "adversarial")
  }
}
