import Foundation
import Testing

@testable import TaxProCore

/// `CompletionCache`: the answers with a cache are the answers without one, request after request, and what it keeps
/// for one program or year is never served for another.
@Suite struct CompletionCacheTests {
  static func program(_ text: String) -> Program {
    Checker.check([Parser.parse(SourceFile(id: FileID(0), name: "<library>", text: CompletionTests.library + text))])
  }

  /// Completion at a `1️⃣` marker, with the cache given or none.
  static func complete(
    _ marked: String, in program: Program, cache: CompletionCache?, mode: ParseMode = .interactive, year: Int? = nil
  ) -> CompletionList {
    let parts = marked.components(separatedBy: "1️⃣")
    precondition(parts.count == 2, "one cursor marker expected")
    let query = CompletionQuery(text: parts[0] + parts[1], offset: parts[0].utf8.count, mode: mode, year: year)
    return CompletionEngine.complete(query, in: program, cache: cache)
  }

  static func labels(_ list: CompletionList) -> [String] { list.candidates.map(\.label) }

  @Test(arguments: [
    ("tax(ON.1️⃣", ParseMode.interactive), ("tax(ON.inc1️⃣", .interactive), ("tax(ON.INC1️⃣ome", .interactive),
    ("ON.rate1️⃣", .interactive), ("federal.1️⃣", .interactive), ("federal.zz1️⃣", .interactive),
    ("QC.b1️⃣", .interactive), ("formula f(p: Province): Money = tax(p.1️⃣", .file),
    ("formula f(p: Province): Money = p.cr1️⃣", .file), ("formula f(ON: Money): Money = ON.1️⃣", .file),
    ("formula f(x: Money): Rate =\n  let ON = QC\n  ON.1️⃣", .file), ("x + 1️⃣", .interactive),
  ] as [(String, ParseMode)])
  func sameAnswersWithTheCacheAsWithout(_ marked: String, _ mode: ParseMode) {
    let program = CompletionTests.program
    let cache = CompletionCache()
    for year in [nil, 2025, 2024, nil] as [Int?] {
      let without = Self.complete(marked, in: program, cache: nil, mode: mode, year: year)
      // The first request fills the cache, the second is answered from it.
      for _ in 0..<2 {
        let with = Self.complete(marked, in: program, cache: cache, mode: mode, year: year)
        #expect(with.candidates == without.candidates, "\(marked) in \(year.map(String.init) ?? "no year")")
        #expect(with.range == without.range && with.wordRange == without.wordRange && with.position == without.position)
      }
    }
  }

  /// After an edit the program is a new one: a parameter added or removed, documentation or a value changed, all show
  /// in the next completion through the same cache.
  @Test func aNewProgramIsNeverAnsweredFromTheOldOne() {
    let cache = CompletionCache()
    let before = Self.program(
      """

      province YT "Yukon" {
        year 2025 {
          ## First wording.
          zz_figure = $1
          zz_old = $2
        }
      }
      """)
    let first = Self.complete("YT.zz1️⃣", in: before, cache: cache, year: 2025)
    #expect(Self.labels(first) == ["zz_figure", "zz_old"])
    #expect(first.candidates.first?.documentation?.contains("First wording.") == true)
    #expect(first.candidates.first?.value == "$1.00")
    #expect(cache.count == 1)

    let after = Self.program(
      """

      province YT "Yukon" {
        year 2025 {
          ## Second wording.
          zz_figure = $3
          zz_new = $4
        }
      }
      """)
    let second = Self.complete("YT.zz1️⃣", in: after, cache: cache, year: 2025)
    #expect(Self.labels(second) == ["zz_figure", "zz_new"])
    let figure = second.candidates.first
    #expect(figure?.documentation?.contains("Second wording.") == true)
    #expect(figure?.documentation?.contains("First wording.") == false)
    #expect(figure?.value == "$3.00")
    #expect(second.candidates == Self.complete("YT.zz1️⃣", in: after, cache: nil, year: 2025).candidates)

    // The interface's members too, for a value of type `Province`.
    let province = "formula f(p: Province): Money = p.1️⃣"
    #expect(Self.labels(Self.complete(province, in: after, cache: cache, mode: .file)).contains("credit_rate"))
    let renamed = Checker.check([
      Parser.parse(
        SourceFile(
          id: FileID(0), name: "<library>",
          text: CompletionTests.library.replacingOccurrences(of: "credit_rate", with: "tax_credit_rate")))
    ])
    let members = Self.labels(Self.complete(province, in: renamed, cache: cache, mode: .file))
    #expect(members.contains("tax_credit_rate") && !members.contains("credit_rate"))
  }

  /// An edit of a formula's body, re-checked, keeps the jurisdictions and interfaces as they were: without a year the
  /// next program is answered from what was kept. With a year (values come from the program) it is not.
  @Test func aRecheckedBodyEditKeepsWhatWasKept() throws {
    let library = SourceFile(id: FileID(0), name: "<library>", text: CompletionTests.library)
    let text = "formula g(x: Money): Money = x * 2\n"
    let tree = Parser.parse(SourceFile(id: FileID(1), name: "doc.tax", text: text))
    let program = Checker.check([Parser.parse(library), tree])
    let edited = SourceFile(id: FileID(1), name: "doc.tax", text: text.replacingOccurrences(of: "2", with: "3"))
    let rechecked = try #require(Checker.recheck(program, after: Parser.reparse(tree, as: edited)))
    #expect(rechecked !== program)

    for year in [nil, 2025] as [Int?] {
      let cache = CompletionCache()
      for marked in ["tax(ON.1️⃣", "formula f(p: Province): Money = p.1️⃣"] {
        let before = Self.complete(marked, in: program, cache: cache, mode: .file, year: year)
        let made = cache.madeCount
        let after = Self.complete(marked, in: rechecked, cache: cache, mode: .file, year: year)
        let context = "\(marked) in \(year.map(String.init) ?? "no year")"
        #expect(cache.madeCount == (year == nil ? made : made + 1), "\(context)")
        #expect(after.candidates == before.candidates)
        let uncached = Self.complete(marked, in: rechecked, cache: nil, mode: .file, year: year)
        #expect(after.candidates == uncached.candidates, "\(context)")
      }
    }
    // The same text checked again holds new storage: worked out again, the same.
    let cache = CompletionCache()
    let first = Self.complete("ON.1️⃣", in: program, cache: cache)
    let again = Self.complete("ON.1️⃣", in: Checker.check([Parser.parse(library), tree]), cache: cache)
    #expect(cache.madeCount == 2 && again.candidates == first.candidates)
  }

  /// Values are for the year asked: another year empties what was kept for the last one.
  @Test func anotherYearIsWorkedOutAgain() {
    let cache = CompletionCache()
    let program = CompletionTests.program
    let valued = Self.complete("ON.basic1️⃣", in: program, cache: cache, year: 2025)
    #expect(valued.candidates.first?.value == "$12,747.00")
    let unvalued = Self.complete("ON.basic1️⃣", in: program, cache: cache, year: nil)
    #expect(unvalued.candidates.first?.label == "basic_personal_amount")
    #expect(unvalued.candidates.first?.value == nil)
    #expect(unvalued.candidates.first?.documentation?.contains("**2025:**") == false)
  }

  /// The ranking's order of kinds is the order of the cases, as its documentation says.
  @Test func kindRankIsTheOrderOfTheCases() {
    #expect(CompletionKind.allCases.map(\.rank) == Array(CompletionKind.allCases.indices))
  }

  /// A local that hides a jurisdiction is found without parsing when no token could declare it, and still found when
  /// one does: in a test block, after a line break inside a parameter list.
  @Test func localsThatHideAJurisdiction() {
    let program = CompletionTests.program
    let cache = CompletionCache()
    let inATest = Self.complete("test \"t\" {\n  let ON = 5\n  ON.1️⃣", in: program, cache: cache, mode: .file)
    #expect(inATest.candidates.isEmpty)
    #expect(Self.complete("formula f(\n  ON\n  : Money): Money = ON.1️⃣", in: program, cache: cache, mode: .file)
      .candidates.isEmpty)
    #expect(!Self.complete("formula f(x: Money): Money = ON.1️⃣ + ON", in: program, cache: cache, mode: .file)
      .candidates.isEmpty)
  }
}
