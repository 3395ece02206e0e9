/// What completion works out from the program alone, kept between requests: each jurisdiction's parameters as
/// candidates (sorted by name, documentation rendered, value for the year worked out) and the `Province` interface's
/// members. A completion after `ON.` otherwise sorted, rendered and evaluated all of them at every keystroke, most of
/// the request's work, for a list that is the same until the program changes.
///
/// An entry is for one program and one year. A `Program` is immutable and every check makes a new one, so the program
/// is told apart by identity; it is held weakly (the cache never keeps an old program alive), and a request for
/// another program or year empties the cache. What depends on the text being edited (the prefix, the range, locals
/// that hide a jurisdiction) is never kept: it is applied to the kept candidates at each request.
///
/// A front end keeps one for as long as it likes and passes it to every `CompletionEngine.complete`; it is not for
/// sharing between threads.
public final class CompletionCache {
  private weak var program: Program?
  private var year: Int?
  private var members: [Owner: [CompletionCandidate]] = [:]

  public init() {}

  /// Whose members an entry holds.
  enum Owner: Hashable {
    /// A jurisdiction, by code (`ON`, `federal`).
    case jurisdiction(String)
    /// The `Province` interface: the members of any value of type `Province`.
    case province
  }

  /// The candidates kept for `owner`, made by `make` when there are none for this program and year.
  func members(
    of owner: Owner, program: Program, year: Int?, _ make: () -> [CompletionCandidate]
  ) -> [CompletionCandidate] {
    if self.program !== program || self.year != year {
      self.program = program
      self.year = year
      members.removeAll()
    }
    if let kept = members[owner] { return kept }
    let made = make()
    members[owner] = made
    return made
  }

  /// How many owners have candidates kept (for tests).
  var count: Int { members.count }
}
