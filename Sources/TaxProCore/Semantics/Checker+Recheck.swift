/// Re-checking after an edit confined to declarations that nothing else depends on: formula bodies (with the
/// signature untouched), tests and top-level expressions. Everything else of the previous program is kept, moved by
/// the edit.
///
/// What makes this exact: a formula with a written result type is seen by the rest of the program only through its
/// name, parameters and result type; a test by nothing at all. Checking order shows in a program only through cycles
/// (an unfinished declaration reads as an error) and the inference depth limit, so the re-check refuses programs
/// with a cycle or with enough inferred declarations to reach that limit, and edits that add a dependency closing a
/// cycle; and since a formula's `hasErrors` counts the errors of what was checked on demand inside it, programs where
/// something checked on demand has errors. Diagnostics and occurrences are kept in place order (see `Checker.run`), so those of the re-checked
/// declarations replace the old ones at their place.
extension Checker {
  /// The program `Checker.check` would make of `program`'s trees with `reparse.tree` in place of the tree of its
  /// file, or nil when re-checking the re-parsed declarations alone cannot give it (the caller then checks all).
  ///
  /// `reparse` must come from the tree `program` holds for that file, and every other tree must be unchanged.
  public static func recheck(_ program: Program, after reparse: Reparse) -> Program? {
    let tree = reparse.tree
    let file = tree.source.id
    let edit = reparse.edit
    let tables = program.tables
    guard let position = program.trees.firstIndex(where: { $0.source.id == file }) else { return nil }
    let oldTree = program.trees[position]
    guard reparse.origins.count == tree.declarations.count,
      oldTree.source.bytes.count + edit.delta == tree.source.bytes.count,
      tables.onDemandCount + 1 < Checker.maximumInferenceDepth,
      !tables.checkDiagnostics.contains(where: { $0.code == .cycle || $0.code == .inferenceTooDeep })
    else { return nil }
    // A declaration checked on demand inside another adds its errors to that one's `hasErrors`, so which one that is
    // would show if any of them had errors.
    var onDemandSpans = program.constants.map(\.span) + program.jurisdictions.values.map(\.span)
    for (index, declared) in tables.formulaDeclaredReturn.enumerated() where declared == nil {
      onDemandSpans.append(tables.formulaDeclarations[index].span)
    }
    for diagnostic in tables.checkDiagnostics where diagnostic.severity == .error {
      let place = diagnostic.span
      if onDemandSpans.contains(where: { $0.file == place.file && $0.start <= place.start && place.start <= $0.end }) {
        return nil
      }
    }

    // The declarations parsed again and those they replace, in order, pair by pair.
    var kept = [Bool](repeating: false, count: oldTree.declarations.count)
    var added: [Int] = []
    for (index, origin) in reparse.origins.enumerated() {
      if let origin {
        guard origin >= 0, origin < kept.count else { return nil }
        kept[origin] = true
      } else {
        added.append(index)
      }
    }
    let removed = kept.indices.filter { !kept[$0] }
    guard added.count == removed.count else { return nil }

    enum Change {
      case formula(index: Int, FormulaDeclaration)
      case test(ordinal: Int, TestDeclaration)
    }
    var changes: [Change] = []
    var testsBefore: Int? = nil
    for (old, new) in zip(removed, added) {
      switch (oldTree.declarations[old], tree.declarations[new]) {
      case (.formula(let before), .formula(let after)):
        guard let index = program.formulaIndex[before.name.name], index < tables.formulaDeclarations.count,
          tables.formulaDeclarations[index].span == before.span,
          Checker.sameSignature(before, after, edit: edit)
        else { return nil }
        changes.append(.formula(index: index, after))
      case (.test(let before), .test(let after)):
        if testsBefore == nil {
          var count = 0
          for earlier in program.trees[..<position] {
            for declaration in earlier.declarations { if case .test = declaration { count += 1 } }
          }
          testsBefore = count
        }
        var ordinal = testsBefore ?? 0
        for declaration in oldTree.declarations[..<old] { if case .test = declaration { ordinal += 1 } }
        guard ordinal < program.tests.count, program.tests[ordinal].span == before.span else { return nil }
        changes.append(.test(ordinal: ordinal, after))
      case (.expression, .expression):
        // Not checked: the parser already reported it.
        break
      default:
        return nil
      }
    }

    // The syntax the checker keeps, taken from the new tree: the changed declarations and those the edit moved.
    let shift = SpanShift(file: file, from: edit.oldEnd, delta: edit.delta)
    // Those the edit moved are the old ones moved (`Parser.reparse` kept them so), or they are changed below. Moving
    // a formula's declaration is O(1) (`CopyOnWrite`).
    var formulaDeclarations = tables.formulaDeclarations
    var constantDeclarations = tables.constantDeclarations
    var jurisdictionDeclarations = tables.jurisdictionDeclarations
    if !shift.isIdentity {
      for index in formulaDeclarations.indices where shift.moves(formulaDeclarations[index].span) {
        formulaDeclarations[index] = formulaDeclarations[index].shifted(by: edit.delta)
      }
      for index in constantDeclarations.indices where shift.moves(constantDeclarations[index].span) {
        constantDeclarations[index] = constantDeclarations[index].shifted(by: edit.delta)
      }
      for (code, declaration) in jurisdictionDeclarations where shift.moves(declaration.span) {
        jurisdictionDeclarations[code] = declaration.shifted(by: edit.delta)
      }
    }
    for change in changes {
      if case .formula(let index, let declaration) = change { formulaDeclarations[index] = declaration }
    }

    // Check the changed declarations against the rest, as the whole check would.
    let checker = Checker(program: program, predefined: [:], recordOccurrences: true)
    checker.defersFormulaBodies = tables.defersFormulaBodies
    checker.sources[file] = tree.source
    checker.formulaDeclarations = formulaDeclarations
    checker.constantDeclarations = constantDeclarations
    // The changed formulas are checked again, and what they depend on recorded: these need states and lists.
    checker.formulaStates = Array(repeating: .done, count: formulaDeclarations.count)
    checker.formulaEdges = Array(repeating: [], count: formulaDeclarations.count)
    checker.jurisdictionDeclarations = jurisdictionDeclarations
    // Everything moved first; the changed declarations' results then replace theirs.
    var formulas = shift.isIdentity ? program.formulas : program.formulas.map { shift($0) }
    var tests = shift.isIdentity ? program.tests : program.tests.map { shift($0) }
    var changedFormulas: [Int] = []
    for change in changes {
      switch change {
      case .formula(let index, let declaration):
        checker.formulaStates[index] = .pending
        checker.record(declaration.name.span, .formula(declaration.name.name), definition: true)
        checker.resolveSignature(index)
        checker.ensureFormula(index)
        guard let info = checker.recheckedFormulas[index] else { return nil }
        formulas[index] = info
        changedFormulas.append(index)
      case .test(let ordinal, let declaration):
        let before = checker.tests.count
        checker.checkTest(declaration)
        guard checker.tests.count == before + 1, let info = checker.tests.last else { return nil }
        tests[ordinal] = info
      }
    }

    // A new dependency may close a cycle, which the whole check would report.
    var formulaEdges = tables.formulaEdges
    var newDependency = false
    for index in changedFormulas {
      let edges = checker.formulaEdges[index]
      if !Set(edges).isSubset(of: Set(formulaEdges[index])) { newDependency = true }
      formulaEdges[index] = edges
    }
    if newDependency {
      checker.formulaEdges = formulaEdges
      checker.constantEdges = tables.constantEdges
      checker.parameterEdges = tables.parameterEdges
      let before = checker.diagnostics.count
      checker.findCycles()
      if checker.diagnostics.count != before { return nil }
    }

    // The old results of the replaced declarations are those placed among them; the new ones must be placed so too.
    var oldRegion: ClosedRange<Int>? = nil
    var newRegion: ClosedRange<Int>? = nil
    if let first = removed.first, let last = removed.last, let firstAdded = added.first, let lastAdded = added.last {
      oldRegion = oldTree.declarations[first].span.start...oldTree.declarations[last].span.end
      newRegion = tree.declarations[firstAdded].span.start...tree.declarations[lastAdded].span.end
    }
    func inside(_ span: Span, _ region: ClosedRange<Int>?) -> Bool {
      span.file == file && (region?.contains(span.start) ?? false)
    }
    guard checker.diagnostics.allSatisfy({ inside($0.span, newRegion) }),
      checker.occurrences.allSatisfy({ inside($0.span, newRegion) })
    else { return nil }

    var checkDiagnostics: [Diagnostic] = []
    for diagnostic in tables.checkDiagnostics where !inside(diagnostic.span, oldRegion) {
      checkDiagnostics.append(shift(diagnostic))
    }
    checkDiagnostics = Checker.sortedByPlace(
      (checkDiagnostics + Checker.sortedByPlace(checker.diagnostics[...], by: \.span))[...], by: \.span)
    var trees = program.trees
    trees[position] = tree
    var parseDiagnostics: [Diagnostic] = []
    for tree in trees { parseDiagnostics.append(contentsOf: tree.diagnostics) }
    let diagnostics = Checker.sortedByPlace((parseDiagnostics + checkDiagnostics)[...], by: \.span)

    // Occurrences are in place order: the old ones of the region give way to the new, and those after move (a block
    // of them at a time: `OccurrenceList`).
    let newOccurrences = Checker.sortedByPlace(checker.occurrences[...], by: \.span)
    let lower = oldRegion?.lowerBound ?? edit.start
    guard
      let occurrences = program.storedOccurrences.replacing(
        in: file, from: lower, upTo: oldRegion.map { $0.upperBound + 1 } ?? lower, with: newOccurrences,
        moving: edit.delta, unchangedFrom: edit.oldEnd)
    else { return nil }

    var sources = program.sources
    sources[file] = tree.source
    let constants = shift.isIdentity ? program.constants : program.constants.map { shift($0) }
    let jurisdictions = shift.isIdentity ? program.jurisdictions : program.jurisdictions.mapValues { shift($0) }
    let interfaces = shift.isIdentity ? program.interfaces : program.interfaces.mapValues { shift($0) }
    var newTables = tables
    newTables.formulaDeclarations = formulaDeclarations
    newTables.constantDeclarations = constantDeclarations
    newTables.jurisdictionDeclarations = jurisdictionDeclarations
    newTables.checkDiagnostics = checkDiagnostics
    newTables.formulaEdges = formulaEdges
    return Program(
      sources: sources, trees: trees, formulas: formulas, formulaIndex: program.formulaIndex, constants: constants,
      constantIndex: program.constantIndex, jurisdictions: jurisdictions, provinceCodes: program.provinceCodes,
      interfaces: interfaces, tests: tests, diagnostics: diagnostics, occurrences: occurrences,
      symbols: checker.symbolTable.finish(), tables: newTables)
  }

  /// Whether a re-parsed formula shows the rest of the program what it showed before: the same name, parameters and
  /// written result type, from text the edit did not touch.
  static func sameSignature(_ before: FormulaDeclaration, _ after: FormulaDeclaration, edit: SourceEdit) -> Bool {
    guard let oldResult = before.returnType, let newResult = after.returnType,
      before.name.name == after.name.name, oldResult.name == newResult.name,
      before.parameters.count == after.parameters.count
    else { return false }
    let oldSignature = Span(file: before.span.file, start: before.span.start, end: oldResult.span.end)
    let newSignature = Span(file: after.span.file, start: after.span.start, end: newResult.span.end)
    guard edit.map(oldSignature) == newSignature else { return false }
    for (old, new) in zip(before.parameters, after.parameters) {
      guard old.name.name == new.name.name, old.type.name == new.type.name,
        (old.defaultValue == nil) == (new.defaultValue == nil), (old.range == nil) == (new.range == nil)
      else { return false }
    }
    return true
  }
}
