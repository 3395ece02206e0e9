/// The occurrences of a program, asked the two questions every editor query starts from: what is under the
/// cursor, and where else is the same symbol written.
///
/// Each answer is one linear pass over the program's occurrences, on purpose: a program of 10,000 formulas records
/// a few hundred thousand occurrences, and sorting or hashing them all after every keystroke would cost more than the
/// check itself, while one pass per request takes a millisecond or two.
public struct SymbolIndex: Sendable {
  let occurrences: [SymbolOccurrence]

  /// Keeps a reference to the program's occurrences; nothing is copied or sorted up front.
  public init(_ program: Program) {
    self.occurrences = program.occurrences
  }

  /// The occurrence under a cursor at `offset`. A cursor just after a name (where editors put it after typing)
  /// counts as on the name, but a name that contains the cursor wins over one that ends there.
  public func occurrence(at offset: Int, in file: FileID) -> SymbolOccurrence? {
    var touching: SymbolOccurrence? = nil
    for occurrence in occurrences where occurrence.span.file == file && occurrence.span.touches(offset) {
      if occurrence.span.contains(offset) { return occurrence }
      if touching == nil { touching = occurrence }
    }
    return touching
  }

  /// Every place a symbol is written, definitions included, in file and text order, each place once.
  public func occurrences(of symbol: Symbol) -> [SymbolOccurrence] {
    var seen: Set<Span> = []
    var result: [SymbolOccurrence] = []
    for occurrence in occurrences where occurrence.symbol == symbol {
      if seen.insert(occurrence.span).inserted {
        result.append(occurrence)
      } else if occurrence.isDefinition, let index = result.firstIndex(where: { $0.span == occurrence.span }) {
        result[index] = occurrence
      }
    }
    return result.sorted { ($0.span.file, $0.span.start) < ($1.span.file, $1.span.start) }
  }

  /// The occurrences in one file, in text order.
  public func occurrences(in file: FileID) -> [SymbolOccurrence] {
    occurrences.filter { $0.span.file == file }.sorted { $0.span.start < $1.span.start }
  }
}
