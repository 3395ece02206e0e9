/// Hover: what the name under the cursor is, its documentation and, for figures, its value.
///
/// The result is structured rather than rendered so that each front end chooses its markup: the language server
/// writes Markdown, a terminal could write plain text.
public struct HoverInfo: Sendable {
  /// The name the hover describes.
  public var span: Span
  /// A declaration line in TaxPro syntax: `formula provincial_tax(income: Money, province: Province): Money`.
  public var code: String
  public var documentation: Documentation?
  /// The value, when the name stands for one: a constant, or a jurisdiction parameter for the selected year.
  public var value: HoverValue?
  /// Short facts in plain text: "defined for 2025, 2026", "parameter of 'rrsp_refund'".
  public var notes: [String]
}

/// A value shown in a hover, with what it is the value of.
public struct HoverValue: Sendable {
  /// "ON.income_tax in 2025".
  public var caption: String
  /// One line per row for a bracket table, else one line.
  public var lines: [String]
}

/// Hover starts from the occurrence under the cursor, so it knows a name's meaning, not only its spelling.
public enum Hover {
  /// The hover for the name at `offset`, or nil where there is none.
  public static func info(
    at offset: Int, in file: FileID, program: Program, index: SymbolIndex, year: Int?
  ) -> HoverInfo? {
    guard let occurrence = index.occurrence(at: offset, in: file) else { return nil }
    return info(for: occurrence, program: program, year: year)
  }

  /// The hover for an occurrence already found (code lenses and tests use it).
  public static func info(for occurrence: SymbolOccurrence, program: Program, year: Int?) -> HoverInfo? {
    let span = occurrence.span
    switch occurrence.symbol {
    case .formula(let name):
      guard let formula = program.formula(named: name) else { return nil }
      // The topic is shown with the rest of the documentation, not again as a note.
      var notes: [String] = []
      if formula.hasErrors { notes.append("This formula has errors and cannot be run.") }
      return HoverInfo(
        span: span, code: "formula " + formula.signature, documentation: formula.documentation, value: nil,
        notes: notes)
    case .formulaParameter(let formulaName, let name):
      guard let formula = program.formula(named: formulaName),
        let parameter = formula.parameters.first(where: { $0.name == name })
      else { return nil }
      var code = "\(parameter.name): \(parameter.type)"
      if let range = parameter.rangeText { code += " in \(range)" }
      if let defaultText = parameter.defaultText { code += " = \(defaultText)" }
      return HoverInfo(
        span: span, code: code, documentation: parameter.documentation, value: nil,
        notes: ["Parameter of '\(formulaName)'."])
    case .local(let name, let definition):
      let type = localType(definition, program: program)
      return HoverInfo(
        span: span, code: "let \(name)" + (type.map { ": \($0)" } ?? ""), documentation: nil, value: nil, notes: [])
    case .constant(let name):
      guard let index = program.constantIndex[name] else { return nil }
      let constant = program.constants[index]
      var value: HoverValue? = nil
      let evaluator = Evaluator(program: program, year: year, limits: EvaluationLimits(steps: 200_000, depth: 400))
      if !constant.value.containsError, let result = try? evaluator.constant(index, at: span) {
        value = HoverValue(caption: "\(name) in \(evaluator.year)", lines: lines(of: result))
      }
      return HoverInfo(
        span: span, code: "let \(name): \(constant.type)", documentation: constant.documentation, value: value,
        notes: [])
    case .jurisdiction(let code):
      guard let jurisdiction = program.jurisdictions[code] else { return nil }
      let years = jurisdiction.sortedYears.map(String.init).joined(separator: ", ")
      return HoverInfo(
        span: span, code: "province \(code) \"\(jurisdiction.fullName)\"", documentation: jurisdiction.documentation,
        value: nil, notes: years.isEmpty ? ["No figures yet."] : ["Figures for \(years)."])
    case .interface(let name):
      guard let interface = program.interfaces[name] else { return nil }
      let members = interface.members.map { "  \($0.name): \($0.type)" }.joined(separator: "\n")
      return HoverInfo(
        span: span, code: "parameters \(name) {\n\(members)\n}", documentation: interface.documentation, value: nil,
        notes: [])
    case .jurisdictionParameter(let kind, let name):
      return parameterInfo(occurrence, kind: kind, name: name, program: program, year: year)
    case .builtin(let name):
      guard let builtin = Builtin(rawValue: name) else { return nil }
      var documentation = Documentation()
      documentation.summary = builtin.declaration.summary
      return HoverInfo(span: span, code: builtin.declaration.signature, documentation: documentation, value: nil, notes: ["Built-in function."])
    case .type(let type):
      var documentation = Documentation()
      documentation.summary = type.summary
      return HoverInfo(span: span, code: type.description, documentation: documentation, value: nil, notes: [])
    case .test(let name):
      let test = program.tests.first { $0.nameSpan == span }
      let year = test?.year.map { " year \($0)" } ?? ""
      return HoverInfo(span: span, code: "test \"\(name)\"\(year)", documentation: nil, value: nil, notes: [])
    }
  }

  static func parameterInfo(
    _ occurrence: SymbolOccurrence, kind: JurisdictionKind, name: String, program: Program, year: Int?
  ) -> HoverInfo? {
    let interface = program.interface(for: kind)
    let member = interface?.member(name)
    let code = occurrence.jurisdiction ?? (kind == .federal ? "federal" : nil)
    // On a definition inside `year 2026 { … }`, the value shown is that year's.
    var shownYear = year ?? program.latestYear
    var definitionDocumentation: Documentation? = nil
    if occurrence.isDefinition, let owner = code, let jurisdiction = program.jurisdictions[owner] {
      for (candidateYear, definitions) in jurisdiction.years {
        if let definition = definitions[name], definition.nameSpan == occurrence.span {
          shownYear = candidateYear
          definitionDocumentation = definition.documentation
        }
      }
    }
    let type =
      member?.type ?? code.flatMap { program.jurisdictions[$0]?.parameterTypes[name] }
      ?? program.jurisdictions.values.compactMap { $0.parameterTypes[name] }.first
    let owner = code ?? (kind == .federal ? "federal" : "province")
    var documentation = member?.documentation ?? Documentation()
    if let extra = definitionDocumentation ?? code.flatMap({ Hover.definitionDocumentation(program, $0, name, shownYear) }),
      !extra.isEmpty
    {
      documentation = merge(documentation, extra)
    }
    var value: HoverValue? = nil
    var notes: [String] = []
    if let code, let shownYear {
      let evaluator = Evaluator(program: program, year: shownYear, limits: EvaluationLimits(steps: 200_000, depth: 400))
      do throws(RuntimeError) {
        let result = try evaluator.parameter(code, name, at: occurrence.span)
        value = HoverValue(caption: "\(owner).\(name) in \(shownYear)", lines: lines(of: result))
      } catch {
        notes.append(error.diagnostic.message)
      }
    } else if member != nil {
      notes.append("Every \(kind == .federal ? "federal" : "province and territory") must define it ('parameters \(interface?.name ?? "")').")
    }
    return HoverInfo(
      span: occurrence.span, code: "\(owner).\(name)" + (type.map { ": \($0)" } ?? ""),
      documentation: documentation.isEmpty ? nil : documentation, value: value, notes: notes)
  }

  static func definitionDocumentation(_ program: Program, _ code: String, _ name: String, _ year: Int?) -> Documentation? {
    guard let year else { return nil }
    return program.jurisdictions[code]?.years[year]?[name]?.documentation
  }

  /// The interface's documentation with what a jurisdiction's own definition adds (its sources, its notes).
  static func merge(_ base: Documentation, _ extra: Documentation) -> Documentation {
    var result = base
    if result.summary.isEmpty { result.summary = extra.summary } else if !extra.summary.isEmpty {
      result.notes.append(extra.summary)
    }
    result.definition = result.definition ?? extra.definition
    result.instruction = result.instruction ?? extra.instruction
    result.tip = result.tip ?? extra.tip
    result.references += extra.references.filter { !result.references.contains($0) }
    result.notes += extra.notes
    result.examples += extra.examples
    return result
  }

  /// The type of the `let` declared at `definition`.
  static func localType(_ definition: Span, program: Program) -> TaxType? {
    if let step = program.letStep(namedAt: definition) { return step.value.type }
    for test in program.tests where test.span.file == definition.file && test.span.contains(definition.start) {
      for step in test.steps {
        if case .binding(let binding) = step, binding.nameSpan == definition { return binding.value.type }
      }
    }
    return nil
  }

  /// A value as display lines: a bracket table one row per line.
  static func lines(of value: Value) -> [String] {
    if case .brackets(let table) = value {
      let thresholds = table.rows.map { ValueFormatter.money($0.threshold) }
      let width = thresholds.map(\.count).max() ?? 0
      return zip(thresholds, table.rows).map { threshold, row in
        threshold + String(repeating: " ", count: width - threshold.count) + " -> " + ValueFormatter.rate(row.rate)
      }
    }
    return [ValueFormatter.format(value)]
  }
}
