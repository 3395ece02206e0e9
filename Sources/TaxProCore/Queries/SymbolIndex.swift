/// The occurrences of a program, asked the two questions every editor query starts from: what is under the
/// cursor, and where else is the same symbol written.
///
/// The checker leaves a program's occurrences in place order (file, then start), so what is under the cursor is a
/// binary search and a look at the few occurrences that could reach it. Where else a symbol is written is one linear
/// pass, on purpose: hashing a few hundred thousand occurrences after every keystroke would cost more than the
/// re-check itself, while one pass per request takes a millisecond or two.
public struct SymbolIndex: Sendable {
  let list: OccurrenceList
  let symbols: SymbolTable
  /// The longest occurrence, which bounds how far before the cursor one can start and still reach it.
  let longest: Int
  /// Whether the occurrences are in place order (always, from the checker; otherwise lookups are linear).
  let inPlaceOrder: Bool

  /// Keeps a reference to the program's occurrences; their blocks know their longest and their order, so this is a
  /// look at each block, not at each occurrence.
  public init(_ program: Program) {
    self.list = program.storedOccurrences
    self.symbols = program.symbols
    self.longest = list.longest
    self.inPlaceOrder = list.isInPlaceOrder
  }

  /// Every occurrence in place order, where it is.
  var occurrences: [StoredOccurrence] { list.all }

  /// The occurrence under a cursor at `offset`. A cursor just after a name (where editors put it after typing)
  /// counts as on the name, but a name that contains the cursor wins over one that ends there; among several, the
  /// first in the program's order.
  public func occurrence(at offset: Int, in file: FileID) -> SymbolOccurrence? {
    guard inPlaceOrder else { return linearOccurrence(at: offset, in: file) }
    // The first occurrence that starts after the cursor; those that can reach it are just before.
    var place = list.firstPlace(atOrAfter: file, offset + 1)
    var containing: StoredOccurrence? = nil
    var touching: StoredOccurrence? = nil
    while let (previous, occurrence) = list.previous(place) {
      let span = occurrence.span
      guard span.file == file, span.start >= offset - longest else { break }
      if span.contains(offset) {
        containing = occurrence
      } else if span.touches(offset) {
        touching = occurrence
      }
      place = previous
    }
    return (containing ?? touching).map { symbols.occurrence($0) }
  }

  /// `occurrence(at:in:)` by looking at every occurrence.
  func linearOccurrence(at offset: Int, in file: FileID) -> SymbolOccurrence? {
    var touching: StoredOccurrence? = nil
    for block in list.blocks where block.file == file {
      for position in block.items.indices {
        let occurrence = block.item(position)
        guard occurrence.span.file == file, occurrence.span.touches(offset) else { continue }
        if occurrence.span.contains(offset) { return symbols.occurrence(occurrence) }
        if touching == nil { touching = occurrence }
      }
    }
    return touching.map { symbols.occurrence($0) }
  }

  /// Every place a symbol is written, definitions included, in file and text order, each place once.
  public func occurrences(of symbol: Symbol) -> [SymbolOccurrence] {
    guard let key = symbols.key(of: symbol) else { return [] }
    var seen: Set<Span> = []
    var result: [StoredOccurrence] = []
    var matching: [StoredOccurrence] = []
    for block in list.blocks {
      for position in block.items.indices where block.items[position].symbol == key.id {
        let occurrence = block.item(position)
        if occurrence.definition == key.definition { matching.append(occurrence) }
      }
    }
    for occurrence in matching {
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
    var inFile: [StoredOccurrence] = []
    for block in list.blocks where block.file == file { inFile.append(contentsOf: block.moved) }
    return inFile.sorted { $0.span.start < $1.span.start }.map { symbols.occurrence($0) }
  }
}
