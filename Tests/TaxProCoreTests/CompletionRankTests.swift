import Testing

@testable import TaxProCore

/// `CompletionEngine.rank`, which orders positions rather than candidates and lowers each label once, against its
/// definition: sorted by kind (stable), the first of each label that matches kept, then best match, kind, label
/// without case, label.
@Suite struct CompletionRankTests {
  static func reference(
    _ candidates: [CompletionCandidate], prefix: String, range: Range<Int>
  ) -> [CompletionCandidate] {
    var seen = Set<String>()
    var kept: [CompletionCandidate] = []
    let byKind = candidates.enumerated().sorted { a, b in
      a.element.kind.rank != b.element.kind.rank ? a.element.kind.rank < b.element.kind.rank : a.offset < b.offset
    }
    for (_, candidate) in byKind {
      var candidate = candidate
      guard let match = CompletionEngine.match(candidate.filterText, prefix) else { continue }
      guard seen.insert(candidate.label).inserted else { continue }
      candidate.match = match
      candidate.range = range
      kept.append(candidate)
    }
    return kept.sorted { a, b in
      if a.match != b.match { return a.match < b.match }
      if a.kind.rank != b.kind.rank { return a.kind.rank < b.kind.rank }
      let (lowerA, lowerB) = (a.label.lowercased(), b.label.lowercased())
      if lowerA != lowerB { return lowerA < lowerB }
      return a.label < b.label
    }
  }

  static func candidate(_ label: String, _ kind: CompletionKind, _ detail: String = "") -> CompletionCandidate {
    CompletionCandidate(
      label: label, kind: kind, detail: detail, documentation: nil, insertText: label, filterText: label, range: 0..<0,
      match: .prefix, value: nil)
  }

  @Test func agreesWithItsDefinition() {
    // Kinds out of order, a label shadowed by a nearer kind, labels equal but for case, capitals and accents.
    let candidates = [
      Self.candidate("Income", .formula, "formula"), Self.candidate("income", .local, "local"),
      Self.candidate("income", .formula, "shadowed"), Self.candidate("INCOME_TAX", .constant),
      Self.candidate("income_tax", .jurisdictionParameter), Self.candidate("if", .keyword),
      Self.candidate("Élan", .formula), Self.candidate("élan", .constant), Self.candidate("tax", .builtin),
      Self.candidate("rate", .argumentLabel), Self.candidate("Rate", .type), Self.candidate("taxable", .sessionValue),
      Self.candidate("ON", .jurisdiction), Self.candidate("on_time", .formula), Self.candidate("x", .local),
    ]
    for prefix in ["", "i", "I", "in", "INC", "tax", "on", "ON", "é", "É", "rate", "zz", "_"] {
      for rotation in 0..<candidates.count {
        let input = Array(candidates[rotation...] + candidates[..<rotation])
        let ranked = CompletionEngine.rank(input, prefix: prefix, range: 2..<5)
        #expect(ranked == Self.reference(input, prefix: prefix, range: 2..<5), "prefix '\(prefix)'")
      }
    }
    for label in ["income", "Income", "INCOME_TAX", "élan", "Élan", "x9", "ÀB", ""] {
      #expect(CompletionEngine.lowered(label) == label.lowercased())
    }
  }

  /// With a limit, the best candidates are chosen without ordering the rest: they must be the whole ranking's first
  /// ones, in its order, and the list incomplete exactly when some were left out.
  @Test func aLimitKeepsTheFirstOfTheWholeRanking() {
    var random = SystemRandomNumberGenerator()
    let kinds: [CompletionKind] = [.local, .formula, .constant, .builtin, .keyword, .jurisdiction]
    let letters = ["a", "b", "B", "ab", "aB", "é", "_", "1"]
    for round in 0..<300 {
      let count = Int.random(in: 0...60, using: &random)
      let candidates = (0..<count).map { _ in
        Self.candidate(
          (0..<Int.random(in: 1...4, using: &random)).map { _ in letters.randomElement(using: &random) ?? "a" }.joined(),
          kinds.randomElement(using: &random) ?? .formula)
      }
      let prefix = ["", "a", "A", "b", "ab", "é", "z"].randomElement(using: &random) ?? ""
      let whole = CompletionEngine.rank(candidates, prefix: prefix, range: 0..<1)
      for limit in [0, 1, 2, 5, 17, whole.count, whole.count + 1] {
        let limited = CompletionEngine.rank(candidates, prefix: prefix, range: 0..<1, limit: limit)
        #expect(limited.candidates == Array(whole.prefix(limit)), "round \(round), prefix '\(prefix)', limit \(limit)")
        #expect(limited.isIncomplete == (whole.count > limit), "round \(round), limit \(limit)")
      }
      let unlimited = CompletionEngine.rank(candidates, prefix: prefix, range: 0..<1, limit: nil)
      #expect(unlimited.candidates == whole && !unlimited.isIncomplete)
    }
  }
}
