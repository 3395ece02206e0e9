import Foundation
import Testing

@testable import TaxProCore
import TestSupport

/// "Did you mean": the banded, bounded distance agrees with the full table, suggestions do not depend on the order of
/// the candidates, and the work per lookup is bounded (issue 15: a 100,000-character misspelt name took 75 s, 10,000
/// unknown names 85 s).
@Suite struct SuggestionTests {
  /// The whole table, no band, no early exit: optimal string alignment distance.
  static func fullDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }

  @Test func theBandedDistanceIsTheFullTablesUpToTheLimit() {
    var generator = SeededGenerator(seed: 15)
    let alphabet = Array("abcab_".utf8)
    for _ in 0..<20_000 {
      let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
      var b = a
      for _ in 0..<Int.random(in: 0...4, using: &generator) {
        let position = b.isEmpty ? 0 : Int.random(in: 0..<b.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: b.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)], at: position)
        case 1: if !b.isEmpty { b.remove(at: position) }
        case 2: if !b.isEmpty { b[position] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        default: if position + 1 < b.count { b.swapAt(position, position + 1) }
        }
      }
      let limit = Int.random(in: 0...3, using: &generator)
      let full = Self.fullDistance(a, b)
      let banded = Suggestions.distance(a, b, limit: limit)
      #expect(banded == min(full, limit + 1), "\(a) \(b) limit \(limit)")
    }
  }

  @Test func suggestionsDoNotDependOnTheCandidatesOrder() {
    var generator = SeededGenerator(seed: 51)
    let names = ["income", "income_tax", "incomes", "outcome", "Income", "tax", "taxes", "ON", "QC", "net_income",
      "rate", "rates", "grate", "crate"]
    for _ in 0..<300 {
      var shuffled = names
      shuffled.shuffle(using: &generator)
      for typo in ["incme", "incom", "INCOME", "taxs", "rat", "crates", "qc", "net_incme", "zzz"] {
        let answer = Suggestions.closest(to: typo, among: shuffled)
        #expect(answer == Suggestions.closest(to: typo, among: names), "\(typo)")
        #expect(answer == Suggestions.closest(to: typo, in: SuggestionIndex(shuffled)), "\(typo)")
      }
    }
    #expect(Suggestions.closest(to: "incme", among: names) == "income")
    #expect(Suggestions.closest(to: "income", among: names) == "Income")
    #expect(Suggestions.closest(to: "zzz", among: names) == nil)
  }

  /// A name of 100,000 characters next to another as long, and 10,000 unknown names in one file: each checks in a
  /// fraction of a second (timed generously: debug builds, shared machines), with the right suggestion.
  @Test func longNamesAndManyUnknownNamesCheckQuickly() {
    let long = String(repeating: "a", count: 100_000)
    let clock = ContinuousClock()
    var start = clock.now
    var program = onLargeStack {
      Checker.check([Parser.parse(SourceFile(id: FileID(0), name: "long.tax", text:
        "formula \(long)b(): Number = 1\nformula g(): Number = \(long)c\n"))])
    }
    #expect(clock.now - start < .seconds(30))
    #expect(program.diagnostics.first?.notes.first?.message == "did you mean '\(long)b'?")

    var lines = ""
    for index in 0..<10_000 { lines += "let v\(index) = incme_tx\(index) + w\(index)\n" }
    let text = lines
    start = clock.now
    program = onLargeStack { Checker.check([Parser.parse(SourceFile(id: FileID(0), name: "many.tax", text: text))]) }
    #expect(clock.now - start < .seconds(30))
    #expect(program.diagnostics.count == 20_000)
    let second = program.diagnostics.filter { $0.message == "unknown name 'w5'" }
    #expect(second.first?.notes.first?.message == "did you mean 'v5'?")
  }

  /// When no name is a likely typo: names that hold it as whole words or start with its letters, shortest first and
  /// the same whatever order they came in; a lookup among 100,000 formulas looks at a bounded number of them.
  @Test func relatedNamesHoldTheWordsOrStartWithTheLetters() {
    var generator = SeededGenerator(seed: 33)
    let names = ["cpp_contribution", "cpp2_contribution", "cpp_base_contribution", "take_home_pay", "ei_premium",
      "qpip_premium", "oas_recovery_tax", "taxable_income", "net_income", "abs"]
    for _ in 0..<50 {
      var shuffled = names
      shuffled.shuffle(using: &generator)
      let index = SuggestionIndex(shuffled)
      #expect(Suggestions.related(to: "cpp", in: index) == ["cpp_contribution", "cpp2_contribution", "cpp_base_contribution"])
      #expect(Suggestions.related(to: "takehome", in: index) == ["take_home_pay"])
      #expect(Suggestions.related(to: "TakeHome", in: index) == ["take_home_pay"])
      #expect(Suggestions.related(to: "premium", in: index) == ["ei_premium", "qpip_premium"])
      #expect(Suggestions.related(to: "income", in: index) == ["net_income", "taxable_income"])
      #expect(Suggestions.related(to: "ei", in: index) == ["ei_premium"])
      // Two letters are a hint only as a whole word; a name is not related to itself.
      #expect(Suggestions.related(to: "ta", in: index) == [])
      #expect(Suggestions.related(to: "abs", in: index) == [])
      #expect(Suggestions.related(to: "pay_home", in: index) == [])
    }
    let many = SuggestionIndex((0..<100_000).map { "formula_number_\($0)" } + ["zzzzzzzzzzzzzzzzzzzz_target"])
    #expect(Suggestions.related(to: "target", in: many) == [])
    #expect(Suggestions.related(to: "target", in: many, budget: 200_000) == ["zzzzzzzzzzzzzzzzzzzz_target"])
  }
}
