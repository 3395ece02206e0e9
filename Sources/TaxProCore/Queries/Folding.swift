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
    func add(_ span: Span, _ kind: FoldingRegion.Kind = .code) {
      let start = source.lineIndex(of: span.start)
      var end = source.lineIndex(of: max(span.start, span.end - 1))
      // Keep the closing line visible when it holds only a brace, as editors do for blocks.
      if kind == .code, end > start, source.lineText(end).trimmingSpaces.hasPrefix("}") { end -= 1 }
      if end > start { result.append(FoldingRegion(startLine: start, endLine: end, kind: kind)) }
    }
    // Bracket tables fold; what is inside one does not.
    func visit(_ expression: Expression) {
      if case .brackets = expression.kind { return add(expression.span) }
      expression.forEachChild(visit)
    }
    for declaration in tree.declarations {
      add(declaration.span)
      switch declaration {
      case .formula(let formula):
        for binding in formula.lets { visit(binding.value) }
        visit(formula.result)
      case .constant(let constant): visit(constant.binding.value)
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
