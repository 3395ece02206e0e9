/// Expand selection: from the word at the cursor out through the expressions, statement and declaration around it.
public enum SelectionRanges {
  /// Spans containing `offset`, innermost first, each containing the one before; the last is the whole file.
  public static func ranges(at offset: Int, in tree: SyntaxTree) -> [Span] {
    let file = tree.source.id
    var chain: [Span] = []
    func push(_ span: Span) {
      guard span.touches(offset) else { return }
      if let last = chain.last, last == span { return }
      chain.append(span)
    }
    // Collected outermost first, then reversed.
    func visit(_ expression: Expression) {
      guard expression.span.touches(offset) else { return }
      push(expression.span)
      // Calls, members and bracket rows have parts that are not expressions (a callee, a label, a member's name, a
      // row) to select on the way in; the rest is the tree's shape.
      switch expression.kind {
      case .call(let callee, let arguments):
        push(callee.span)
        for argument in arguments where argument.span.touches(offset) {
          push(argument.span)
          if let label = argument.label { push(label.span) }
          visit(argument.value)
        }
      case .member(let object, let member):
        visit(object)
        push(member.span)
      case .brackets(let rows):
        for row in rows where row.span.touches(offset) {
          push(row.span)
          visit(row.threshold)
          visit(row.rate)
        }
      default: expression.forEachChild(visit)
      }
    }
    func visit(_ binding: LetBinding) {
      guard binding.span.touches(offset) else { return }
      push(binding.span)
      push(binding.name.span)
      if let type = binding.type { push(type.span) }
      visit(binding.value)
    }
    push(Span(file: file, start: 0, end: tree.source.bytes.count))
    for declaration in tree.declarations where declaration.span.touches(offset) {
      push(declaration.span)
      switch declaration {
      case .formula(let formula):
        push(formula.name.span)
        for parameter in formula.parameters where parameter.span.touches(offset) {
          push(parameter.span)
          push(parameter.name.span)
          push(parameter.type.span)
          if let range = parameter.range {
            push(range.span)
            visit(range.lower)
            visit(range.upper)
          }
          if let value = parameter.defaultValue { visit(value) }
        }
        if let type = formula.returnType { push(type.span) }
        for binding in formula.lets { visit(binding) }
        visit(formula.result)
      case .constant(let constant): visit(constant.binding)
      case .test(let test):
        push(test.nameSpan)
        for item in test.items {
          switch item {
          case .binding(let binding): visit(binding)
          case .check(let expression): visit(expression)
          }
        }
      case .interface(let interface):
        push(interface.name.span)
        for member in interface.members where member.span.touches(offset) {
          push(member.span)
          push(member.name.span)
          push(member.type.span)
        }
      case .jurisdiction(let jurisdiction):
        push(jurisdiction.code.span)
        for block in jurisdiction.years where block.span.touches(offset) {
          push(block.span)
          push(block.yearSpan)
          for definition in block.definitions where definition.span.touches(offset) {
            push(definition.span)
            push(definition.name.span)
            visit(definition.value)
          }
        }
      case .expression(let expression): visit(expression)
      }
    }
    // Keep a proper chain: each span inside the next, innermost first.
    var result: [Span] = []
    for span in chain.reversed() {
      if let last = result.last {
        if span == last { continue }
        if !(last.start >= span.start && last.end <= span.end) {
          // Not nested (a sibling that also touches the cursor at its edge): skip it.
          continue
        }
      }
      result.append(span)
    }
    return result
  }
}
