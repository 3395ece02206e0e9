/// What completion works out from the program alone, kept between requests: each jurisdiction's parameters as
/// candidates (sorted by name, documentation rendered, value for the year worked out) and the `Province` interface's
/// members. A completion after `ON.` otherwise sorted, rendered and evaluated all of them at every keystroke, most of
/// the request's work, for a list that changes only when the jurisdiction or the interface does.
///
/// An entry is for one year and is kept with what it was made from: the jurisdiction and the interface (a few
/// dictionaries and arrays; never the program). Without a year, that is all its candidates depend on, so an entry
/// serves every later program whose jurisdiction and interface are still the same values — an edit of a formula's
/// body leaves them as they were, and the server re-checks such an edit by keeping them (`Checker.recheck`).
/// "The same" is told by storage (`CompletionCache.isSame`), which is cheap, and never wrong the other way: values
/// made again hold new storage, and are worked out again. With a year, values come from evaluating the program, so an
/// entry serves only the program it was made for (told apart by identity, held weakly). What depends on the text
/// (the prefix, the range, locals that hide a jurisdiction) is never kept: it is applied at each request.
///
/// A front end keeps one for as long as it likes and passes it to every `CompletionEngine.complete`; it is not for
/// sharing between threads.
public final class CompletionCache {
  private weak var program: Program?
  private var year: Int?
  private var entries: [Owner: Entry] = [:]

  public init() {}

  /// Whose members an entry holds.
  enum Owner: Hashable {
    /// A jurisdiction, by code (`ON`, `federal`).
    case jurisdiction(String)
    /// The `Province` interface: the members of any value of type `Province`.
    case province
  }

  /// What an entry's candidates were made from, besides the year (and, with a year, the program).
  struct Sources {
    var jurisdiction: JurisdictionInfo?
    var interface: InterfaceInfo?

    /// Whether these are the very values `other` holds: the same text and the same storage for the rest.
    func isSame(as other: Sources) -> Bool {
      switch (jurisdiction, other.jurisdiction) {
      case (nil, nil): break
      case (let mine?, let theirs?):
        guard mine.code == theirs.code, mine.kind == theirs.kind, mine.fullName == theirs.fullName,
          CompletionCache.isSame(mine.years, theirs.years),
          CompletionCache.isSame(mine.parameterTypes, theirs.parameterTypes)
        else { return false }
      default: return false
      }
      switch (interface, other.interface) {
      case (nil, nil): return true
      case (let mine?, let theirs?):
        return mine.name == theirs.name && CompletionCache.isSame(mine.members, theirs.members)
      default: return false
      }
    }
  }

  struct Entry {
    var sources: Sources
    var candidates: [CompletionCandidate]
  }

  /// Whether two copy-on-write collections share their storage, so hold the same elements: their bits are equal.
  /// Sound because the cache keeps its copy alive — storage with two owners is never changed in place, and storage
  /// still owned is never freed and reused for another collection. Equal collections with different storage answer
  /// no, which only costs a cache miss.
  static func isSame<Value>(_ mine: Value, _ theirs: Value) -> Bool {
    withUnsafeBytes(of: mine) { a in withUnsafeBytes(of: theirs) { b in a.elementsEqual(b) } }
  }

  /// The candidates kept for `owner` when they were made for this year (and with a year, this program) from the same
  /// `sources`; otherwise made by `make` and kept.
  func members(
    of owner: Owner, program: Program, year: Int?, sources: Sources, _ make: () -> [CompletionCandidate]
  ) -> [CompletionCandidate] {
    if self.year != year || (year != nil && self.program !== program) { entries.removeAll() }
    self.program = program
    self.year = year
    if let entry = entries[owner], entry.sources.isSame(as: sources) { return entry.candidates }
    let made = make()
    entries[owner] = Entry(sources: sources, candidates: made)
    madeCount += 1
    return made
  }

  /// How many owners have candidates kept, and how many times candidates were made (for tests).
  var count: Int { entries.count }
  private(set) var madeCount = 0
}
