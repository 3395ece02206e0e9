/// Syntax moved by an edit earlier in its file: the same nodes with every span `delta` bytes later (or earlier).
/// A re-parse keeps the declarations after an edit this way instead of parsing them again; a formula (the common
/// declaration, and the large one) is moved lazily, in O(1), by `CopyOnWrite`.

extension Span: Shiftable {
  public func shifted(by delta: Int) -> Span {
    var span = self
    span.storedStart = Int32(truncatingIfNeeded: Int(storedStart) + delta)
    span.storedEnd = Int32(truncatingIfNeeded: Int(storedEnd) + delta)
    return span
  }
}

extension Identifier: Shiftable {
  public func shifted(by delta: Int) -> Identifier { Identifier(name, span: span.shifted(by: delta)) }
}

extension Documentation: Shiftable {
  public func shifted(by delta: Int) -> Documentation {
    switch storage {
    case .read(let read):
      guard var fields = read.first, let span = fields.span else { return self }
      fields.span = span.shifted(by: delta)
      return Documentation(fields)
    case .unread(let unread):
      // What was read already moves as read fields; otherwise the lines, to be read where they now are.
      if let fields = unread.readFields { return Documentation(fields).shifted(by: delta) }
      guard let span = unread.span else { return self }
      return .unread(lines: unread.lines, span: span.shifted(by: delta))
    }
  }
}

extension Expression: Shiftable {
  public func shifted(by delta: Int) -> Expression {
    let kind: ExpressionKind
    switch self.kind {
    case .number, .money, .rate, .text, .bool, .name, .federal, .missing: kind = self.kind
    case .unary(let op, let operand, let operatorSpan):
      kind = .unary(op, operand.shifted(by: delta), operatorSpan: operatorSpan.shifted(by: delta))
    case .binary(let op, let left, let right, let operatorSpan):
      kind = .binary(
        op, left.shifted(by: delta), right.shifted(by: delta), operatorSpan: operatorSpan.shifted(by: delta))
    case .call(let callee, let arguments):
      kind = .call(callee.shifted(by: delta), arguments.map { $0.shifted(by: delta) })
    case .member(let object, let member): kind = .member(object.shifted(by: delta), member.shifted(by: delta))
    case .conditional(let condition, let thenBranch, let elseBranch):
      kind = .conditional(condition.shifted(by: delta), thenBranch.shifted(by: delta), elseBranch.shifted(by: delta))
    case .parenthesized(let inner): kind = .parenthesized(inner.shifted(by: delta))
    case .brackets(let rows): kind = .brackets(rows.map { $0.shifted(by: delta) })
    }
    return Expression(kind, span.shifted(by: delta))
  }
}

extension Argument {
  func shifted(by delta: Int) -> Argument {
    Argument(label: label?.shifted(by: delta), value: value.shifted(by: delta))
  }
}

extension BracketRow {
  func shifted(by delta: Int) -> BracketRow {
    BracketRow(threshold: threshold.shifted(by: delta), rate: rate.shifted(by: delta))
  }
}

extension TypeAnnotation: Shiftable {
  public func shifted(by delta: Int) -> TypeAnnotation { TypeAnnotation(name: name, span: span.shifted(by: delta)) }
}

extension RangeConstraint: Shiftable {
  public func shifted(by delta: Int) -> RangeConstraint {
    RangeConstraint(lower: lower.shifted(by: delta), upper: upper.shifted(by: delta), span: span.shifted(by: delta))
  }
}

extension Parameter: Shiftable {
  public func shifted(by delta: Int) -> Parameter {
    Parameter(
      documentation: documentation.shifted(by: delta), name: name.shifted(by: delta), type: type.shifted(by: delta),
      range: range?.shifted(by: delta), defaultValue: defaultValue?.shifted(by: delta), span: span.shifted(by: delta))
  }
}

extension LetBinding: Shiftable {
  public func shifted(by delta: Int) -> LetBinding {
    LetBinding(
      name: name.shifted(by: delta), type: type?.shifted(by: delta), value: value.shifted(by: delta),
      span: span.shifted(by: delta))
  }
}

extension FormulaSyntax: Shiftable {
  public func shifted(by delta: Int) -> FormulaSyntax {
    FormulaSyntax(
      documentation: documentation.shifted(by: delta), name: name.shifted(by: delta),
      parameters: parameters.shifted(by: delta), returnType: returnType?.shifted(by: delta),
      lets: lets.shifted(by: delta), result: result.shifted(by: delta), span: span.shifted(by: delta))
  }
}

extension ConstantDeclaration {
  func shifted(by delta: Int) -> ConstantDeclaration {
    ConstantDeclaration(
      documentation: documentation.shifted(by: delta), binding: binding.shifted(by: delta), span: span.shifted(by: delta))
  }
}

extension JurisdictionDeclaration {
  func shifted(by delta: Int) -> JurisdictionDeclaration {
    JurisdictionDeclaration(
      documentation: documentation.shifted(by: delta), kind: kind,
      code: code.shifted(by: delta), fullName: fullName,
      years: years.map { block in
        YearBlock(
          year: block.year, yearSpan: block.yearSpan.shifted(by: delta),
          definitions: block.definitions.map { definition in
            ParameterDefinition(
              documentation: definition.documentation.shifted(by: delta), name: definition.name.shifted(by: delta),
              value: definition.value.shifted(by: delta), span: definition.span.shifted(by: delta))
          }, span: block.span.shifted(by: delta))
      }, span: span.shifted(by: delta))
  }
}

extension Declaration {
  func shifted(by delta: Int) -> Declaration {
    switch self {
    case .formula(let formula):
      // Moved lazily: its fields are moved when read (see `CopyOnWrite`).
      return .formula(formula.shifted(by: delta))
    case .constant(let constant): return .constant(constant.shifted(by: delta))
    case .test(let test):
      return .test(
        TestDeclaration(
          documentation: test.documentation.shifted(by: delta), name: test.name,
          nameSpan: test.nameSpan.shifted(by: delta), year: test.year, yearSpan: test.yearSpan?.shifted(by: delta),
          items: test.items.map { item in
            switch item {
            case .binding(let binding): .binding(binding.shifted(by: delta))
            case .check(let expression): .check(expression.shifted(by: delta))
            }
          }, span: test.span.shifted(by: delta)))
    case .interface(let interface):
      return .interface(
        InterfaceDeclaration(
          documentation: interface.documentation.shifted(by: delta), name: interface.name.shifted(by: delta),
          members: interface.members.map { member in
            InterfaceMember(
              documentation: member.documentation.shifted(by: delta), name: member.name.shifted(by: delta),
              type: member.type.shifted(by: delta), span: member.span.shifted(by: delta))
          }, span: interface.span.shifted(by: delta)))
    case .jurisdiction(let jurisdiction): return .jurisdiction(jurisdiction.shifted(by: delta))
    case .expression(let expression):
      return .expression(expression.shifted(by: delta))
    }
  }
}

extension Comment {
  func shifted(by delta: Int) -> Comment {
    var comment = self
    comment.span = span.shifted(by: delta)
    return comment
  }
}

extension Diagnostic {
  /// The diagnostic with every span in `file` moved (spans in other files stay).
  func shifted(by delta: Int, in file: FileID) -> Diagnostic {
    func move(_ span: Span) -> Span { span.file == file ? span.shifted(by: delta) : span }
    var diagnostic = self
    diagnostic.span = move(span)
    if !notes.isEmpty {
      diagnostic.notes = notes.map { note in
        var note = note
        note.span = note.span.map(move)
        return note
      }
    }
    if !fixes.isEmpty {
      diagnostic.fixes = fixes.map { fix in
        Fix(
          title: fix.title,
          replacements: fix.replacements.map { TextReplacement(span: move($0.span), text: $0.text) })
      }
    }
    return diagnostic
  }
}
