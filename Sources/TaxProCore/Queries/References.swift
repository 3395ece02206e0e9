/// Find references and document highlight: every place the symbol under the cursor is written.
public enum References {
  /// All occurrences of the symbol at `offset` across the program, in file and text order.
  public static func find(
    at offset: Int, in file: FileID, index: SymbolIndex, includeDeclaration: Bool
  ) -> [SymbolOccurrence] {
    guard let occurrence = index.occurrence(at: offset, in: file) else { return [] }
    return index.occurrences(of: occurrence.symbol).filter { includeDeclaration || !$0.isDefinition }
  }

  /// One highlighted place in the current file; definitions are "writes" so editors can tell them apart.
  public struct Highlight: Sendable, Equatable {
    public var span: Span
    public var isDefinition: Bool
  }

  /// The occurrences of the symbol at `offset` within the same file.
  public static func highlights(at offset: Int, in file: FileID, index: SymbolIndex) -> [Highlight] {
    guard let occurrence = index.occurrence(at: offset, in: file) else { return [] }
    return index.occurrences(of: occurrence.symbol).filter { $0.span.file == file }.map {
      Highlight(span: $0.span, isDefinition: $0.isDefinition)
    }
  }
}
