/// What a completion candidate stands for. Front ends map it to an icon (the LSP's `CompletionItemKind`) or a colour,
/// and the ranking uses it to put the names nearest the cursor first.
public enum CompletionKind: String, Sendable, CaseIterable {
  /// A named argument of the formula being called (`income:`).
  case argumentLabel
  /// A formula's parameter or a `let` above the cursor in a body or test.
  case local
  /// A value the host keeps between inputs: the REPL's `ans` and `let` results.
  case sessionValue
  /// A parameter of a jurisdiction (`ON.income_tax`) or of the `Province` interface (`p.income_tax`).
  case jurisdictionParameter
  /// A top-level `let` constant.
  case constant
  case formula
  /// A province or territory code, or `federal`.
  case jurisdiction
  case builtin
  case keyword
  case type

  /// Lower sorts first among candidates that match equally well: the order of the cases (a switch rather than
  /// `allCases.firstIndex`, which makes the array of cases at each of a sort's comparisons).
  var rank: Int {
    switch self {
    case .argumentLabel: 0
    case .local: 1
    case .sessionValue: 2
    case .jurisdictionParameter: 3
    case .constant: 4
    case .formula: 5
    case .jurisdiction: 6
    case .builtin: 7
    case .keyword: 8
    case .type: 9
    }
  }
}

/// How well a candidate matches the word before the cursor. Candidates come sorted best first, so a front end that
/// wants only real prefix matches (a terminal's Tab) can stop at the first `substring`.
public enum CompletionMatch: Int, Sendable, Comparable {
  /// The label starts with the word, letter case included (or the word is empty).
  case prefix
  /// The label starts with the word when case is ignored (`on` → `ON`).
  case caseInsensitivePrefix
  /// The word occurs inside the label (`tax` → `provincial_tax`); only for words of two letters or more.
  case substring

  public static func < (lhs: CompletionMatch, rhs: CompletionMatch) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One thing that could be written at the cursor.
public struct CompletionCandidate: Sendable, Equatable {
  /// What a list shows: `income_tax`, `provincial_tax`, `income:`.
  public var label: String
  public var kind: CompletionKind
  /// The type or signature: `Money`, `provincial_tax(income: Money, province: Province): Money`.
  public var detail: String
  /// Markdown, from the `##` comments where there are any.
  public var documentation: String?
  /// The text that replaces `range`; differs from the label for argument labels (`income: `).
  public var insertText: String
  /// The text matched against what was typed (the label without decoration).
  public var filterText: String
  /// UTF-8 byte range of the query's text that `insertText` replaces: from the start of the word to the cursor.
  public var range: Range<Int>
  public var match: CompletionMatch
  /// The value when it is known without running anything the user wrote: a jurisdiction parameter for the requested
  /// year, a session value.
  public var value: String?
  /// A program's formula or constant whose `detail` and `documentation` are written once the candidate is among those
  /// kept (`CompletionEngine.complete`): at the top level every formula of the workspace is a candidate, and writing
  /// each one's signature and documentation was most of a completion's time in a document of 10,000 formulas.
  var details: Details? = nil

  enum Details: Sendable, Equatable {
    case formula(Int)
    case constant(Int)
  }
}

/// What kind of place the cursor is in, so a front end can say why a list is empty or tune what it shows.
public enum CompletionPosition: Sendable, Equatable {
  /// Where a name can be written: inside an expression or at the start of a statement.
  case names
  /// After `object.`, where `object` is a jurisdiction code, `federal` or a name of type `Province` (the string is how
  /// it was written).
  case member(of: String)
  /// Where a type is written: after `:` in a parameter list, a return type or an annotated `let`.
  case type
  /// Where a new name is being declared (a formula, a parameter, a `let`): nothing existing fits.
  case declaration
  /// Inside a comment, a text or a number.
  case none
}

/// A request for completions: the current text of a source (possibly broken or half typed) and a cursor in it.
public struct CompletionQuery: Sendable {
  /// The whole text being edited: a document for the language server, the entry so far for the REPL.
  public var text: String
  /// The cursor, as a UTF-8 byte offset into `text` (clamped to the text).
  public var offset: Int
  /// `.file` for documents, `.interactive` for REPL input (where expressions may stand at the top level).
  public var mode: ParseMode
  /// Names the host defines beside the program: the REPL's `ans` and `let` values.
  public var sessionValues: [String: Value]
  /// When set, jurisdiction parameters carry their value for this tax year.
  public var year: Int?

  public init(
    text: String, offset: Int, mode: ParseMode = .file, sessionValues: [String: Value] = [:], year: Int? = nil
  ) {
    self.text = text
    self.offset = offset
    self.mode = mode
    self.sessionValues = sessionValues
    self.year = year
  }
}

/// The answer to a `CompletionQuery`.
public struct CompletionList: Sendable {
  public var position: CompletionPosition
  /// The part of the word before the cursor that candidates were matched against.
  public var prefix: String
  /// From the start of the word to the cursor: what an inserted candidate replaces.
  public var range: Range<Int>
  /// The whole word around the cursor, for editors that replace rather than insert (LSP `InsertReplaceEdit`).
  public var wordRange: Range<Int>
  /// Best match first; see `CompletionMatch` and `CompletionKind` for the order.
  public var candidates: [CompletionCandidate]
  /// Whether more candidates matched than the `limit` the query was answered with: `candidates` are then the best
  /// ones only, and typing further narrows them (the language server's `isIncomplete`).
  public var isIncomplete = false
}

/// Completion for the REPL and the language server.
///
/// It works from the tokens around the cursor rather than from a successful parse, because completion is asked for
/// exactly when the text is unfinished: the lexer never fails, and the parser's recovering tree is used only to find
/// the formula or test the cursor is in and the parameters and `let`s visible there. Global names come from the
/// checked `program`, which may be older than the text (the last version that was analysed).
///
/// **Invariant:** pure. No I/O, no evaluation of anything the text declares; the only evaluation is of jurisdiction
/// parameters from the program, for their values.
public enum CompletionEngine {
  /// The candidates at the query's cursor, best first, with the range they replace. A `cache` kept by the caller
  /// between requests saves working out again what depends on the program alone (see `CompletionCache`); the answer
  /// is the same with it or without it.
  ///
  /// With a `limit`, only that many of the best candidates are kept (the same ones, in the same order, as the first
  /// of the whole list), and the list says whether any were left out (`isIncomplete`).
  public static func complete(
    _ query: CompletionQuery, in program: Program, cache: CompletionCache? = nil, limit: Int? = nil
  ) -> CompletionList {
    let analysis = CompletionAnalysis(query: query, program: program, cache: cache)
    var (candidates, isIncomplete) = rank(
      analysis.candidates(), prefix: analysis.prefix, range: analysis.range, limit: limit)
    for at in candidates.indices where candidates[at].details != nil { analysis.writeDetails(of: &candidates[at]) }
    return CompletionList(
      position: analysis.position, prefix: analysis.prefix, range: analysis.range, wordRange: analysis.wordRange,
      candidates: candidates, isIncomplete: isIncomplete)
  }

  /// Keeps the candidates that match `prefix`, best first, one per label.
  static func rank(_ candidates: [CompletionCandidate], prefix: String, range: Range<Int>) -> [CompletionCandidate] {
    rank(candidates, prefix: prefix, range: range, limit: nil).candidates
  }

  /// `rank`, keeping at most `limit` of the best (all of them when nil), and whether any matching one was left out.
  /// The best are chosen without ordering the rest: at the top level of a document of 10,000 formulas a one-letter
  /// prefix matches all of them.
  static func rank(
    _ candidates: [CompletionCandidate], prefix: String, range: Range<Int>, limit: Int?
  ) -> (candidates: [CompletionCandidate], isIncomplete: Bool) {
    let matcher = Matcher(prefix)
    // Earlier (nearer) candidates win a tie on the label: a local shadows a formula of the same name. Positions are
    // ordered rather than the candidates (large to move), by kind then position, unless already in that order (a
    // member list is one kind).
    var order = Array(candidates.indices)
    if !candidates.indices.dropFirst().allSatisfy({ candidates[$0 - 1].kind.rank <= candidates[$0].kind.rank }) {
      let ranks = candidates.map(\.kind.rank)
      order.sort { ranks[$0] != ranks[$1] ? ranks[$0] < ranks[$1] : $0 < $1 }
    }
    var seen = Set<String>(minimumCapacity: candidates.count)
    var kept: [CompletionCandidate] = []
    kept.reserveCapacity(candidates.count)
    // Each label lowered once rather than at every comparison.
    var keys: [SortKey] = []
    keys.reserveCapacity(candidates.count)
    for index in order {
      var candidate = candidates[index]
      guard let match = matcher.match(candidate.filterText) else { continue }
      guard seen.insert(candidate.label).inserted else { continue }
      candidate.match = match
      candidate.range = range
      keys.append(SortKey(match: match, kind: candidate.kind.rank, lowered: lowered(candidate.label)))
      kept.append(candidate)
    }
    // A total order: labels are unique here.
    func precedes(_ a: Int, _ b: Int) -> Bool {
      let (keyA, keyB) = (keys[a], keys[b])
      if keyA.match != keyB.match { return keyA.match < keyB.match }
      if keyA.kind != keyB.kind { return keyA.kind < keyB.kind }
      if keyA.lowered != keyB.lowered { return keyA.lowered < keyB.lowered }
      return kept[a].label < kept[b].label
    }
    guard let limit, kept.count > limit else { return (kept.indices.sorted(by: precedes).map { kept[$0] }, false) }
    return (best(limit, of: kept.count, by: precedes).map { kept[$0] }, true)
  }

  /// The first `limit` of `0..<count` in the order `precedes` gives, in that order: kept sorted as they are found, a
  /// candidate that does not precede the last of a full list costing one comparison.
  static func best(_ limit: Int, of count: Int, by precedes: (Int, Int) -> Bool) -> [Int] {
    guard limit > 0 else { return [] }
    var chosen: [Int] = []
    chosen.reserveCapacity(limit + 1)
    for index in 0..<count {
      if chosen.count == limit {
        guard let last = chosen.last, precedes(index, last) else { continue }
        chosen.removeLast()
      }
      var low = 0
      var high = chosen.count
      while low < high {
        let middle = (low + high) / 2
        if precedes(chosen[middle], index) { low = middle + 1 } else { high = middle }
      }
      chosen.insert(index, at: low)
    }
    return chosen
  }

  /// `label.lowercased()`, without making a copy of a label that has no capital (nearly every name).
  static func lowered(_ label: String) -> String {
    label.utf8.contains { $0 &- 65 < 26 || $0 >= 0x80 } ? label.lowercased() : label
  }

  /// What `rank` orders candidates by, worked out once per candidate.
  private struct SortKey {
    var match: CompletionMatch
    var kind: Int
    var lowered: String
  }

  static func match(_ label: String, _ prefix: String) -> CompletionMatch? { Matcher(prefix).match(label) }

  /// How well labels match one prefix, with the prefix's lowercase form worked out once.
  struct Matcher {
    let prefix: String
    let lowerPrefix: String
    /// Substring matches are only for prefixes of two letters or more.
    let allowsSubstring: Bool

    /// `lowerPrefix`'s bytes when the prefix is ASCII (names nearly always are), for `asciiMatch`.
    let asciiLowerPrefix: [UInt8]?

    init(_ prefix: String) {
      self.prefix = prefix
      lowerPrefix = prefix.lowercased()
      allowsSubstring = lowerPrefix.count >= 2
      asciiLowerPrefix = prefix.utf8.allSatisfy { $0 < 0x80 } ? Array(lowerPrefix.utf8) : nil
    }

    func match(_ label: String) -> CompletionMatch? {
      if prefix.isEmpty || label.hasPrefix(prefix) { return .prefix }
      if let asciiLowerPrefix, case .decided(let found) = Matcher.asciiMatch(label, asciiLowerPrefix, allowsSubstring) {
        return found
      }
      let lowerLabel = label.lowercased()
      if lowerLabel.hasPrefix(lowerPrefix) { return .caseInsensitivePrefix }
      if allowsSubstring, lowerLabel.contains(lowerPrefix) { return .substring }
      return nil
    }

    /// The case-insensitive matches of an ASCII label, byte by byte: what `match` decides with lowercased copies and
    /// the standard library's generic substring search, which for a completion among 10,000 formulas was most of its
    /// time. `notASCII` (decide the general way) when the label is not ASCII.
    static func asciiMatch(_ label: String, _ lowerPrefix: [UInt8], _ allowsSubstring: Bool) -> ASCIIMatch {
      var label = label
      return label.withUTF8 { bytes -> ASCIIMatch in
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return .notASCII }
        func lower(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }
        func matches(at start: Int) -> Bool {
          for index in lowerPrefix.indices where lower(bytes[start + index]) != lowerPrefix[index] { return false }
          return true
        }
        let last = bytes.count - lowerPrefix.count
        guard last >= 0 else { return .decided(nil) }
        if matches(at: 0) { return .decided(.caseInsensitivePrefix) }
        if allowsSubstring, last >= 1, (1...last).contains(where: matches) { return .decided(.substring) }
        return .decided(nil)
      }
    }

    enum ASCIIMatch {
      case notASCII
      case decided(CompletionMatch?)
    }
  }
}
