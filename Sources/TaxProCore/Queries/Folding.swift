/// Folding: the regions of a file an editor can collapse.
public struct FoldingRegion: Sendable, Equatable {
  /// Comments fold apart from code, so an editor can fold "all comments".
  public enum Kind: Sendable, Equatable {
    case code
    case comment
  }
  /// 0-based lines; the region always spans at least two.
  public var startLine: Int
  public var endLine: Int
  public var kind: Kind
}

/// Folding reads only the syntax tree, so it works while the file has errors.
public enum Folding {
  /// Multi-line declarations, year blocks, bracket tables and interfaces, and runs of two or more comment lines.
  public static func regions(_ tree: SyntaxTree) -> [FoldingRegion] {
    let source = tree.source
    var result: [FoldingRegion] = []
    let bytes = source.bytes
    func add(_ span: Span, _ kind: FoldingRegion.Kind = .code) {
      let start = source.lineIndex(of: span.start)
      var end = source.lineIndex(of: max(span.start, span.end - 1))
      // Keep the closing line visible when it starts with a brace (after spaces), as editors do for blocks.
      if kind == .code, end > start, startsWithBrace(source.lineRange(end)) { end -= 1 }
      if end > start { result.append(FoldingRegion(startLine: start, endLine: end, kind: kind)) }
    }
    func startsWithBrace(_ line: Range<Int>) -> Bool {
      guard let first = line.first(where: { bytes[$0] != 32 && bytes[$0] != 9 && bytes[$0] != 13 }) else { return false }
      return bytes[first] == UInt8(ascii: "}")
    }
    // Bracket tables fold; what is inside one does not. A table is written with braces: a declaration without a `{`
    // holds none, and its expressions are not walked (in a document of 10,000 formulas the walk was most of the time).
    func visit(_ expression: Expression) {
      if case .brackets = expression.kind { return add(expression.span) }
      expression.forEachChild(visit)
    }
    func mayHoldTables(_ span: Span) -> Bool {
      let range = max(0, min(span.start, bytes.count))..<max(0, min(span.end, bytes.count))
      return bytes[range].contains(UInt8(ascii: "{"))
    }
    for declaration in tree.declarations {
      add(declaration.span)
      switch declaration {
      case .formula(let formula):
        guard mayHoldTables(declaration.span) else { break }
        for binding in formula.lets { visit(binding.value) }
        visit(formula.result)
      case .constant(let constant):
        if mayHoldTables(declaration.span) { visit(constant.binding.value) }
      case .jurisdiction(let jurisdiction):
        for block in jurisdiction.years {
          add(block.span)
          for definition in block.definitions { visit(definition.value) }
        }
      case .test, .interface, .expression: break
      }
    }
    // Comment runs: consecutive lines holding only a comment.
    var runStart: Int? = nil
    var previousLine = -2
    for comment in tree.comments where comment.ownLine {
      let line = source.lineIndex(of: comment.span.start)
      if line != previousLine + 1 {
        if let start = runStart, previousLine > start {
          result.append(FoldingRegion(startLine: start, endLine: previousLine, kind: .comment))
        }
        runStart = line
      }
      previousLine = line
    }
    if let start = runStart, previousLine > start {
      result.append(FoldingRegion(startLine: start, endLine: previousLine, kind: .comment))
    }
    return result.sorted { ($0.startLine, -$0.endLine) < ($1.startLine, -$1.endLine) }
  }
}
