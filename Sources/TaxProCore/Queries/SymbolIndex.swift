/// The occurrences of a program, asked the two questions every editor query starts from: what is under the
/// cursor, and where else is the same symbol written.
///
/// The checker leaves a program's occurrences in place order (file, then start), so what is under the cursor is a
/// binary search and a look at the few occurrences that could reach it. Where else a symbol is written is one linear
/// pass, on purpose: hashing a few hundred thousand occurrences after every keystroke would cost more than the
/// re-check itself, while one pass per request takes a millisecond or two.
public struct SymbolIndex: Sendable {
  let occurrences: [StoredOccurrence]
  let symbols: SymbolTable
  /// The longest occurrence, which bounds how far before the cursor one can start and still reach it.
  let longest: Int
  /// Whether the occurrences are in place order (always, from the checker; otherwise lookups are linear).
  let inPlaceOrder: Bool

  /// Keeps a reference to the program's occurrences; one pass finds their longest and checks their order.
  public init(_ program: Program) {
    self.occurrences = program.storedOccurrences
    self.symbols = program.symbols
    var longest = 0
    var inPlaceOrder = true
    occurrences.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        let span = buffer[index].span
        longest = max(longest, span.length)
        if index > 0, SymbolIndex.before(span, buffer[index - 1].span) { inPlaceOrder = false }
      }
    }
    self.longest = longest
    self.inPlaceOrder = inPlaceOrder
  }

  static func before(_ x: Span, _ y: Span) -> Bool { x.file != y.file ? x.file < y.file : x.start < y.start }

  /// The occurrence under a cursor at `offset`. A cursor just after a name (where editors put it after typing)
  /// counts as on the name, but a name that contains the cursor wins over one that ends there; among several, the
  /// first in the program's order.
  public func occurrence(at offset: Int, in file: FileID) -> SymbolOccurrence? {
    guard inPlaceOrder else { return linearOccurrence(at: offset, in: file) }
    // The first occurrence that starts after the cursor; those that can reach it are just before.
    var low = 0
    var high = occurrences.count
    let cursor = Span(file: file, start: offset, end: offset)
    while low < high {
      let middle = (low + high) / 2
      if SymbolIndex.before(cursor, occurrences[middle].span) { high = middle } else { low = middle + 1 }
    }
    var containing: Int? = nil
    var touching: Int? = nil
    var index = low - 1
    while index >= 0 {
      let span = occurrences[index].span
      guard span.file == file, span.start >= offset - longest else { break }
      if span.contains(offset) {
        containing = index
      } else if span.touches(offset) {
        touching = index
      }
      index -= 1
    }
    return (containing ?? touching).map { symbols.occurrence(occurrences[$0]) }
  }

  /// `occurrence(at:in:)` by looking at every occurrence.
  func linearOccurrence(at offset: Int, in file: FileID) -> SymbolOccurrence? {
    var touching: StoredOccurrence? = nil
    for occurrence in occurrences where occurrence.span.file == file && occurrence.span.touches(offset) {
      if occurrence.span.contains(offset) { return symbols.occurrence(occurrence) }
      if touching == nil { touching = occurrence }
    }
    return touching.map { symbols.occurrence($0) }
  }

  /// Every place a symbol is written, definitions included, in file and text order, each place once.
  public func occurrences(of symbol: Symbol) -> [SymbolOccurrence] {
    guard let key = symbols.key(of: symbol) else { return [] }
    var seen: Set<Span> = []
    var result: [StoredOccurrence] = []
    for occurrence in occurrences where occurrence.symbol == key.id && occurrence.definition == key.definition {
      if seen.insert(occurrence.span).inserted {
        result.append(occurrence)
      } else if occurrence.isDefinition, let index = result.firstIndex(where: { $0.span == occurrence.span }) {
        result[index] = occurrence
      }
    }
    return result.sorted { ($0.span.file, $0.span.start) < ($1.span.file, $1.span.start) }.map { symbols.occurrence($0) }
  }

  /// The occurrences in one file, in text order.
  public func occurrences(in file: FileID) -> [SymbolOccurrence] {
    occurrences.filter { $0.span.file == file }.sorted { $0.span.start < $1.span.start }.map { symbols.occurrence($0) }
  }
}
