/// Checked structures moved by an edit earlier in their file, for `Checker.recheck`: what it keeps of the previous
/// program after the edit must say where it now is.

/// Moves the spans of one file that start at or after `from` by `delta` bytes; every other span stays.
struct SpanShift {
  var file: FileID
  var from: Int
  var delta: Int

  /// Whether anything moves at all.
  var isIdentity: Bool { delta == 0 }

  func moves(_ span: Span) -> Bool { delta != 0 && span.file == file && span.start >= from }

  func callAsFunction(_ span: Span) -> Span { moves(span) ? span.shifted(by: delta) : span }

  func callAsFunction(_ span: Span?) -> Span? { span.map { self($0) } }

  func callAsFunction(_ documentation: Documentation) -> Documentation {
    guard let span = documentation.span, moves(span) else { return documentation }
    return documentation.shifted(by: delta)
  }

  func callAsFunction(_ expression: TypedExpression) -> TypedExpression {
    guard moves(expression.span) else { return expression }
    return expression.shifted(by: delta)
  }

  func callAsFunction(_ diagnostic: Diagnostic) -> Diagnostic {
    let touched =
      moves(diagnostic.span) || diagnostic.notes.contains { $0.span.map(moves) ?? false }
      || diagnostic.fixes.contains { $0.replacements.contains { moves($0.span) } }
    guard touched else { return diagnostic }
    var moved = diagnostic
    moved.span = self(diagnostic.span)
    if !diagnostic.notes.isEmpty {
      moved.notes = diagnostic.notes.map { note in
        var note = note
        note.span = self(note.span)
        return note
      }
    }
    if !diagnostic.fixes.isEmpty {
      moved.fixes = diagnostic.fixes.map { fix in
        Fix(title: fix.title, replacements: fix.replacements.map { TextReplacement(span: self($0.span), text: $0.text) })
      }
    }
    return moved
  }

  func callAsFunction(_ occurrence: StoredOccurrence) -> StoredOccurrence {
    guard moves(occurrence.span) else { return occurrence }
    var moved = occurrence
    moved.span = occurrence.span.shifted(by: delta)
    moved.definition = self(occurrence.definition)
    return moved
  }

  func callAsFunction(_ formula: FormulaInfo) -> FormulaInfo {
    // Moved lazily (see `CopyOnWrite`): all of a formula's spans are in its file, after its start.
    guard moves(formula.span) else { return formula }
    return formula.shifted(by: delta)
  }

  func callAsFunction(_ step: LetStep) -> LetStep {
    var moved = step
    moved.nameSpan = self(step.nameSpan)
    moved.value = self(step.value)
    return moved
  }

  func callAsFunction(_ constant: ConstantInfo) -> ConstantInfo {
    guard moves(constant.span) else { return constant }
    var moved = constant
    moved.nameSpan = self(constant.nameSpan)
    moved.documentation = self(constant.documentation)
    moved.value = self(constant.value)
    moved.span = self(constant.span)
    return moved
  }

  func callAsFunction(_ test: TestInfo) -> TestInfo {
    guard moves(test.span) else { return test }
    var moved = test
    moved.nameSpan = self(test.nameSpan)
    moved.steps = test.steps.map { step in
      switch step {
      case .binding(let binding): .binding(self(binding))
      case .check(let expression): .check(self(expression))
      }
    }
    moved.span = self(test.span)
    return moved
  }

  func callAsFunction(_ jurisdiction: JurisdictionInfo) -> JurisdictionInfo {
    guard moves(jurisdiction.span) else { return jurisdiction }
    var moved = jurisdiction
    moved.documentation = self(jurisdiction.documentation)
    moved.codeSpan = self(jurisdiction.codeSpan)
    moved.span = self(jurisdiction.span)
    moved.years = jurisdiction.years.mapValues { definitions in
      definitions.mapValues { definition in
        var definition = definition
        definition.nameSpan = self(definition.nameSpan)
        definition.documentation = self(definition.documentation)
        definition.value = self(definition.value)
        definition.span = self(definition.span)
        return definition
      }
    }
    moved.yearSpans = jurisdiction.yearSpans.mapValues { self($0) }
    return moved
  }

  func callAsFunction(_ interface: InterfaceInfo) -> InterfaceInfo {
    guard moves(interface.span) else { return interface }
    var moved = interface
    moved.nameSpan = self(interface.nameSpan)
    moved.documentation = self(interface.documentation)
    moved.members = interface.members.map { member in
      var member = member
      member.documentation = self(member.documentation)
      member.span = self(member.span)
      return member
    }
    moved.span = self(interface.span)
    return moved
  }
}

extension TypedExpression: Shiftable {
  /// The same checked tree with every span `delta` bytes later (all of a declaration's spans are in its file).
  public func shifted(by delta: Int) -> TypedExpression {
    var moved = mapChildren { $0.shifted(by: delta) }
    moved.span = span.shifted(by: delta)
    return moved
  }
}

extension FormulaParameter: Shiftable {
  public func shifted(by delta: Int) -> FormulaParameter {
    var moved = self
    moved.nameSpan = nameSpan.shifted(by: delta)
    moved.documentation = documentation.shifted(by: delta)
    moved.span = span.shifted(by: delta)
    if !extras.isEmpty {
      moved.extras.update { extras in
        extras.lower = extras.lower?.shifted(by: delta)
        extras.upper = extras.upper?.shifted(by: delta)
        extras.defaultValue = extras.defaultValue?.shifted(by: delta)
      }
    }
    return moved
  }
}

extension LetStep: Shiftable {
  public func shifted(by delta: Int) -> LetStep {
    var moved = self
    moved.nameSpan = nameSpan.shifted(by: delta)
    moved.value = value.shifted(by: delta)
    return moved
  }
}

extension FormulaFields: Shiftable {
  public func shifted(by delta: Int) -> FormulaFields {
    var moved = self
    moved.nameSpan = nameSpan.shifted(by: delta)
    moved.documentation = documentation.shifted(by: delta)
    moved.parameters = parameters.shifted(by: delta)
    moved.lets = lets.shifted(by: delta)
    moved.result = result.shifted(by: delta)
    moved.span = span.shifted(by: delta)
    return moved
  }
}
