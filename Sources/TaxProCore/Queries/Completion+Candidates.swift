extension CompletionAnalysis {
  static func keywords(_ placement: Vocabulary.Placement) -> [Vocabulary.Keyword] {
    Vocabulary.keywords.filter { $0.placement == placement }
  }

  /// Every candidate for the position, before matching against the prefix.
  func candidates() -> [CompletionCandidate] {
    switch position {
    case .none, .declaration:
      return []
    case .type:
      return typeCandidates()
    case .member(let object):
      return memberCandidates(object)
    case .names:
      return nameCandidates()
    }
  }

  func candidate(
    _ label: String, _ kind: CompletionKind, detail: String, documentation: String? = nil, insertText: String? = nil,
    value: String? = nil
  ) -> CompletionCandidate {
    CompletionCandidate(
      label: label, kind: kind, detail: detail, documentation: documentation.flatMap { $0.isEmpty ? nil : $0 },
      insertText: insertText ?? label, filterText: label, range: range, match: .prefix, value: value)
  }

  // MARK: Names

  func nameCandidates() -> [CompletionCandidate] {
    let enclosing = self.enclosing
    if case .jurisdiction(let jurisdiction, let block) = enclosing, isAtLineStart {
      guard let block else { return CompletionAnalysis.keywords(.yearBlock).map(keyword) }
      return missingParameters(jurisdiction, block)
    }
    // After a complete operand on the same line only an operator can follow; the keyword ones are offered.
    if followsOperand && !isAtLineStart {
      return CompletionAnalysis.keywords(.infix).map(keyword)
    }
    var result: [CompletionCandidate] = []
    switch enclosing {
    case .topLevel where isAtLineStart:
      result += CompletionAnalysis.keywords(.declaration).map(keyword)
      // A file holds only declarations; the REPL also takes expressions.
      if query.mode == .file { return result }
    case .formula, .test:
      if isAtLineStart, let binding = Vocabulary.keyword(.kwLet) { result.append(keyword(binding)) }
    case .jurisdiction, .interface:
      break
    case .topLevel:
      break
    }
    result += argumentLabels()
    result += localCandidates()
    result += sessionCandidates()
    result += globalCandidates()
    result += CompletionAnalysis.keywords(.expression).map(keyword)
    return result
  }

  func keyword(_ keyword: Vocabulary.Keyword) -> CompletionCandidate {
    candidate(keyword.spelling, .keyword, detail: "keyword", documentation: keyword.help)
  }

  func argumentLabels() -> [CompletionCandidate] {
    guard let (name, used) = callBeingWritten() else { return [] }
    if let formula = program.formula(named: name), !formula.parameters.isEmpty {
      return formula.parameters.filter { !used.contains($0.name) && matches($0.name) }.map { parameter in
        var item = candidate(
          parameter.name + ":", .argumentLabel, detail: parameter.type.description,
          documentation: Self.markdown(parameter), insertText: parameter.name + ": ")
        item.filterText = parameter.name
        return item
      }
    }
    // A formula of the text being edited, which the program may not have yet.
    guard let declaration = declaredFormula(name) else { return [] }
    return declaration.parameters.filter { !used.contains($0.name.name) && matches($0.name.name) }.map { parameter in
      var item = candidate(
        parameter.name.name + ":", .argumentLabel, detail: parameter.type.name,
        documentation: Self.markdown(parameter), insertText: parameter.name.name + ": ")
      item.filterText = parameter.name.name
      return item
    }
  }

  /// A formula declared in the text being edited (which may not be in the program yet).
  func declaredFormula(_ name: String) -> FormulaDeclaration? {
    for declaration in tree.declarations {
      if case .formula(let formula) = declaration, formula.name.name == name { return formula }
    }
    return nil
  }

  func localCandidates() -> [CompletionCandidate] {
    locals.reversed().filter { matches($0.name) }.map { local in
      let detail = local.type?.description ?? local.writtenType ?? ""
      var documentation: String? = nil
      if let parameter = local.parameter {
        documentation = Self.markdown(parameter)
      }
      return candidate(local.name, .local, detail: detail, documentation: documentation)
    }
  }

  static func markdown(_ parameter: Parameter) -> String {
    var lines: [String] = []
    var signature = "\(parameter.name.name): \(parameter.type.name)"
    if parameter.range != nil { signature += " (with a range)" }
    if parameter.defaultValue != nil { signature += " (with a default)" }
    lines.append("`\(signature)`")
    let documentation = parameter.documentation.markdown
    if !documentation.isEmpty { lines.append(documentation) }
    return lines.joined(separator: "\n\n")
  }

  static func markdown(_ parameter: FormulaParameter) -> String {
    var lines = ["`\(parameter.name): \(parameter.type)`"]
    if let range = parameter.rangeText { lines.append("From \(range.replacingOccurrences("..", with: " to ")).") }
    if let defaultText = parameter.defaultText { lines.append("Default: `\(defaultText)`.") }
    let documentation = parameter.documentation.markdown
    if !documentation.isEmpty { lines.append(documentation) }
    return lines.joined(separator: "\n\n")
  }

  func sessionCandidates() -> [CompletionCandidate] {
    query.sessionValues.map { name, value in
      let documentation = name == "ans" ? "The last result." : "A value defined with `let` in this session."
      return candidate(
        name, .sessionValue, detail: value.type.description, documentation: documentation,
        value: ValueFormatter.format(value))
    }
  }

  func globalCandidates() -> [CompletionCandidate] {
    var result: [CompletionCandidate] = []
    // Their detail and documentation are written for the candidates kept (`writeDetails`).
    let constants = program.constants
    for index in constants.indices where matches(constants[index].name) {
      var made = candidate(constants[index].name, .constant, detail: "")
      made.details = .constant(index)
      result.append(made)
    }
    let formulas = program.formulas
    for index in formulas.indices {
      // The name read in place: through the value's key-path member the whole of its fields was copied, a retain and a
      // release of each, for every formula.
      let name = formulas[index].storage[0].name
      guard matches(name) else { continue }
      var made = candidate(name, .formula, detail: "")
      made.details = .formula(index)
      result.append(made)
    }
    // Formulas of the text being edited that the program does not know yet.
    for declaration in tree.declarations {
      guard case .formula(let formula) = declaration, matches(formula.name.name),
        program.formulaIndex[formula.name.name] == nil
      else { continue }
      let parameters = formula.parameters.map { "\($0.name.name): \($0.type.name)" }.joined(separator: ", ")
      let returnType = formula.returnType.map { ": " + $0.name } ?? ""
      result.append(
        candidate(
          formula.name.name, .formula, detail: "\(formula.name.name)(\(parameters))\(returnType)",
          documentation: formula.documentation.markdown))
    }
    for code in program.provinceCodes {
      guard let jurisdiction = program.jurisdictions[code] else { continue }
      result.append(
        candidate(code, .jurisdiction, detail: jurisdiction.fullName, documentation: jurisdiction.markdown))
    }
    if let federal = program.jurisdictions["federal"] {
      result.append(
        candidate("federal", .jurisdiction, detail: federal.fullName, documentation: federal.markdown))
    }
    for builtin in Builtin.allCases {
      result.append(
        candidate(
          builtin.name, .builtin, detail: builtin.declaration.signature, documentation: builtin.declaration.summary))
    }
    return result
  }

  /// Writes the detail and documentation of a candidate made without them (`CompletionCandidate.details`).
  func writeDetails(of made: inout CompletionCandidate) {
    switch made.details {
    case .formula(let index) where program.formulas.indices.contains(index):
      let formula = program.formulas[index]
      made.detail = formula.signature
      made.documentation = formula.markdown
    case .constant(let index) where program.constants.indices.contains(index):
      let constant = program.constants[index]
      made.detail = constant.type.description
      made.documentation = constant.documentation.markdown
    default:
      break
    }
    if made.documentation?.isEmpty == true { made.documentation = nil }
    made.details = nil
  }

  // MARK: Members

  func memberCandidates(_ object: String) -> [CompletionCandidate] {
    switch owner(of: object) {
    case .unknown:
      return []
    case .province:
      let sources = CompletionCache.Sources(jurisdiction: nil, interface: program.interfaces["Province"])
      return kept(.province, sources) { provinceMembers(matching: $0) }
    case .jurisdiction(let jurisdiction):
      let interface = program.interface(for: jurisdiction.kind)
      let sources = CompletionCache.Sources(jurisdiction: jurisdiction, interface: interface)
      return kept(.jurisdiction(jurisdiction.code), sources) { jurisdictionParameters(jurisdiction, matching: $0) }
    }
  }

  /// Member candidates from `make`: without a cache only those that match the prefix; with one, all of them, made once
  /// from `sources` (everything `make` reads of the program, but for values of the year) and kept, then the ones that
  /// match.
  func kept(
    _ owner: CompletionCache.Owner, _ sources: CompletionCache.Sources,
    _ make: ((String) -> Bool) -> [CompletionCandidate]
  ) -> [CompletionCandidate] {
    guard let cache else { return make(matches) }
    let all = cache.members(of: owner, program: program, year: query.year, sources: sources) { make { _ in true } }
    return all.filter { matches($0.filterText) }
  }

  /// What a value of type `Province` has: its name and the `Province` interface's members.
  func provinceMembers(matching matches: (String) -> Bool) -> [CompletionCandidate] {
    var result = [nameMember(for: nil)]
    for member in program.interfaces["Province"]?.members ?? [] where matches(member.name) {
      result.append(
        candidate(
          member.name, .jurisdictionParameter, detail: member.type.description,
          documentation: member.documentation.markdown))
    }
    return result
  }

  func nameMember(for jurisdiction: JurisdictionInfo?) -> CompletionCandidate {
    candidate(
      "name", .jurisdictionParameter, detail: TaxType.text.description,
      documentation: "The jurisdiction's full name.", value: jurisdiction.map { "\"\($0.fullName)\"" })
  }

  /// A jurisdiction's name and the parameters it defines in any year whose names `matches` accepts, sorted by name.
  func jurisdictionParameters(
    _ jurisdiction: JurisdictionInfo, matching matches: (String) -> Bool
  ) -> [CompletionCandidate] {
    let interface = program.interface(for: jurisdiction.kind)
    let evaluator = query.year.map { Evaluator(program: program, year: $0) }
    let span = Span(file: CompletionAnalysis.fileID, start: wordStart, end: wordStart)
    var result = [nameMember(for: jurisdiction)]
    for (name, type) in jurisdiction.parameterTypes.sorted(by: { $0.key < $1.key }) where matches(name) {
      let years = jurisdiction.sortedYears.filter { jurisdiction.years[$0]?[name] != nil }
      var parts: [String] = []
      let member = interface?.member(name)
      if let member, !member.documentation.isEmpty {
        parts.append(member.documentation.markdown)
      }
      // The figure's own comments (sources, caveats) for the requested year, or the latest year that has it.
      let shownYear = query.year.flatMap { years.contains($0) ? $0 : nil } ?? years.last
      if let shownYear, let definition = jurisdiction.years[shownYear]?[name], !definition.documentation.isEmpty {
        parts.append(definition.documentation.markdown)
      }
      if member == nil, !years.isEmpty {
        parts.append("Defined by \(jurisdiction.code) for \(years.map(String.init).joined(separator: ", ")).")
      }
      var value: String? = nil
      if let evaluator, let year = query.year, years.contains(year),
        let found = try? evaluator.parameter(jurisdiction.code, name, at: span)
      {
        value = ValueFormatter.format(found)
        parts.append("**\(year):** " + Self.markdownValue(found))
      }
      result.append(
        candidate(
          name, .jurisdictionParameter, detail: type.description, documentation: parts.joined(separator: "\n\n"),
          value: value))
    }
    return result
  }

  /// A value as Markdown: a bracket table as a table, anything else as code.
  static func markdownValue(_ value: Value) -> String {
    guard case .brackets(let table) = value else { return "`\(ValueFormatter.format(value))`" }
    var lines = ["", "| from | rate |", "|---:|---:|"]
    for row in table.rows {
      lines.append("| \(ValueFormatter.money(row.threshold)) | \(ValueFormatter.rate(row.rate)) |")
    }
    return lines.joined(separator: "\n")
  }

  /// At the start of a line in a `year` block: the interface's parameters that the block does not define yet.
  func missingParameters(_ jurisdiction: JurisdictionDeclaration, _ block: YearBlock) -> [CompletionCandidate] {
    let interface = program.interface(for: jurisdiction.kind)
    let defined = Set(block.definitions.filter { $0.name.span.end <= wordStart || $0.name.span.start > wordEnd }.map(\.name.name))
    return (interface?.members ?? []).filter { !defined.contains($0.name) }.map { member in
      candidate(
        member.name, .jurisdictionParameter, detail: member.type.description,
        documentation: member.documentation.markdown)
    }
  }

  // MARK: Types

  func typeCandidates() -> [CompletionCandidate] {
    TaxType.writable.map { type in
      candidate(type.description, .type, detail: "type", documentation: type.summary)
    }
  }
}
