/// The occurrences of a program arranged for the editor queries: by file and position (what is under the cursor?)
/// and by symbol (where else is it written?).
///
/// A program records occurrences in checking order, which follows dependencies rather than the text; every query
/// that starts from a cursor needs them sorted by place, and every query that fans out needs them grouped by symbol.
/// Building both once per program keeps each request proportional to its answer instead of to the workspace.
public struct SymbolIndex: Sendable {
  /// Per file, sorted by start offset.
  let byFile: [FileID: [SymbolOccurrence]]
  let bySymbol: [Symbol: [SymbolOccurrence]]

  public init(_ program: Program) {
    var byFile: [FileID: [SymbolOccurrence]] = [:]
    var bySymbol: [Symbol: [SymbolOccurrence]] = [:]
    var seen: Set<SpanKey> = []
    for occurrence in program.occurrences {
      // A name can be recorded twice (a member access checked for its type, then again in place); keep one.
      guard seen.insert(SpanKey(span: occurrence.span, symbol: occurrence.symbol)).inserted else { continue }
      byFile[occurrence.span.file, default: []].append(occurrence)
      bySymbol[occurrence.symbol, default: []].append(occurrence)
    }
    for (file, list) in byFile {
      byFile[file] = list.sorted { ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end) }
    }
    self.byFile = byFile
    self.bySymbol = bySymbol
  }

  private struct SpanKey: Hashable {
    var span: Span
    var symbol: Symbol
  }

  /// The occurrence under a cursor at `offset`. A cursor just after a name (where editors put it after typing)
  /// counts as on the name, but a name that starts at the cursor wins over one that ends there.
  public func occurrence(at offset: Int, in file: FileID) -> SymbolOccurrence? {
    guard let list = byFile[file], !list.isEmpty else { return nil }
    // The first occurrence starting after `offset`; candidates lie before it.
    var low = 0
    var high = list.count
    while low < high {
      let middle = (low + high) / 2
      if list[middle].span.start <= offset { low = middle + 1 } else { high = middle }
    }
    var best: SymbolOccurrence? = nil
    var index = low - 1
    while index >= 0, index >= low - 8 {
      let candidate = list[index]
      if candidate.span.contains(offset) { return candidate }
      if best == nil, candidate.span.touches(offset) { best = candidate }
      index -= 1
    }
    return best
  }

  /// Every place a symbol is written, definitions included, in file and text order.
  public func occurrences(of symbol: Symbol) -> [SymbolOccurrence] {
    (bySymbol[symbol] ?? []).sorted { ($0.span.file, $0.span.start) < ($1.span.file, $1.span.start) }
  }

  /// The occurrences in one file, in text order.
  public func occurrences(in file: FileID) -> [SymbolOccurrence] { byFile[file] ?? [] }
}
