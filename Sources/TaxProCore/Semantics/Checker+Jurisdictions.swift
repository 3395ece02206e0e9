extension Checker {
  func definitionKey(_ code: String, _ year: Int, _ name: String) -> String { "\(code)|\(year)|\(name)" }

  /// The syntax of each parameter definition: code → year → name.
  func definitionSyntax(_ code: String) -> [Int: [String: ParameterDefinition]] {
    if speculative { return abandonSpeculation([:]) }
    if let cached = definitionSyntaxCache[code] { return cached }
    var result: [Int: [String: ParameterDefinition]] = [:]
    guard let declaration = jurisdictionDeclarations[code] else { return result }
    for block in declaration.years {
      var definitions = result[block.year] ?? [:]
      for definition in block.definitions where definitions[definition.name.name] == nil {
        definitions[definition.name.name] = definition
      }
      result[block.year] = definitions
    }
    definitionSyntaxCache[code] = result
    return result
  }

  /// The type of `code.name`, the jurisdiction declared and of `kind`, or nil when no year of it defines the name.
  func parameterType(_ code: String, kind: JurisdictionKind, _ name: String, usedAt span: Span) -> TaxType? {
    if let type = interfaceMemberType(kind, name) { return type }
    if name == "name" { return .text }
    if speculative { return abandonSpeculation(.error) }
    let syntax = definitionSyntax(code)
    guard let year = syntax.keys.sorted().first(where: { syntax[$0]?[name] != nil }) else { return nil }
    return ensureDefinition(code, year, name, usedAt: span)?.value.type ?? .error
  }

  /// The type of the member `name` of the interface of `kind`. A body names the same parameter over and over
  /// (`ON.income_tax`, `BC.income_tax`), and finding it — the interface hashed and copied out, its members searched —
  /// cost more than the rest of a member's check, so the last one found is kept (`lastInterfaceMember`; the interfaces
  /// are complete before any body is checked, and a change to them forgets it).
  func interfaceMemberType(_ kind: JurisdictionKind, _ name: String) -> TaxType? {
    if let last = lastInterfaceMember, last.kind == kind, last.name == name { return last.type }
    guard let type = interfaces[kind.interfaceName]?.members.first(where: { $0.name == name })?.type else { return nil }
    lastInterfaceMember = (kind, name, type)
    return type
  }

  /// Checks one definition on demand and returns it.
  @discardableResult
  func ensureDefinition(_ code: String, _ year: Int, _ name: String, usedAt span: Span?) -> ParameterDefinitionInfo? {
    let key = definitionKey(code, year, name)
    if let existing = parameterDefinitions[code]?[year]?[name] { return existing }
    guard let syntax = definitionSyntax(code)[year]?[name], let declaration = jurisdictionDeclarations[code] else {
      return nil
    }
    if definitionStates[key] == .inProgress { return nil }
    if inferenceDepth >= Checker.maximumInferenceDepth {
      if let span {
        error(.parameterNotInferred(code, name), at: span)
      }
      return nil
    }
    definitionStates[key] = .inProgress
    inferenceDepth += 1
    let left = leaveDeferredBody()
    defer {
      inferenceDepth -= 1
      definitionStates[key] = .done
      reenterDeferredBody(left)
    }
    var scope = Scope(owner: .parameter(jurisdiction: code, name: name))
    var value = check(syntax.value, in: &scope)
    if let member = interface(for: declaration.kind)?.member(name) {
      value = conform(value, syntax.value, to: member.type, role: "\(code == "federal" ? "federal" : code).\(name)")
    }
    if value.type == .federal {
      error(.parameterIsFederal, at: syntax.value.span)
      value = .invalid(value.span)
    }
    let info = ParameterDefinitionInfo(
      name: name, nameSpan: syntax.name.span, documentation: syntax.documentation, value: value, span: syntax.span)
    parameterDefinitions[code, default: [:]][year, default: [:]][name] = info
    return info
  }

  func checkJurisdictions() {
    let codes = provinceCodes + (jurisdictionDeclarations["federal"] != nil ? ["federal"] : [])
    for code in codes {
      guard let declaration = jurisdictionDeclarations[code] else { continue }
      let interface = interface(for: declaration.kind)
      var seenYears: [Int: Span] = [:]
      var types: [String: (TaxType, Span, Int)] = [:]
      if declaration.years.isEmpty {
        diagnostics.append(Diagnostic(.noYears(displayName(code)), at: declaration.code.span))
      }
      for block in declaration.years {
        if let previous = seenYears[block.year] {
          error(
            .yearRedefined(displayName(code), block.year), at: block.yearSpan,
            notes: [DiagnosticNote(.note, "first given here", span: previous)])
          continue
        }
        seenYears[block.year] = block.yearSpan
        var seenNames: [String: Span] = [:]
        for definition in block.definitions {
          let name = definition.name.name
          record(
            definition.name.span, .jurisdictionParameter(declaration.kind, name), definition: true, jurisdiction: code)
          if let previous = seenNames[name] {
            error(
              .figureRedefined(displayName(code), block.year, name),
              at: definition.name.span, notes: [DiagnosticNote(.note, "first defined here", span: previous)])
            continue
          }
          seenNames[name] = definition.name.span
          if name == "name" {
            error(
              .nameIsFullName, at: definition.name.span)
            continue
          }
          guard let info = ensureDefinition(code, block.year, name, usedAt: nil) else { continue }
          let type = info.value.type
          if interface?.member(name) == nil, type != .error {
            if let (firstType, firstSpan, firstYear) = types[name], firstType != type {
              error(
                .parameterTypeChanges(displayName(code), name, type, in: block.year, was: firstType, in: firstYear),
                at: definition.value.span, notes: [DiagnosticNote(.note, "\(firstYear)'s value", span: firstSpan)])
            } else if types[name] == nil {
              types[name] = (type, definition.value.span, block.year)
            }
          }
        }
        if let interface {
          for member in interface.members where seenNames[member.name] == nil {
            reportMissing(member, in: code, block: block, interface: interface)
          }
        }
      }
      var finalTypes: [String: TaxType] = ["name": .text]
      for (name, entry) in types { finalTypes[name] = entry.0 }
      for member in interface?.members ?? [] { finalTypes[member.name] = member.type }
      parameterTypes[code] = finalTypes
    }
  }

  func displayName(_ code: String) -> String { code == "federal" ? "federal" : code }

  func reportMissing(_ member: InterfaceInfo.Member, in code: String, block: YearBlock, interface: InterfaceInfo) {
    let placeholder: String
    switch member.type {
    case .money: placeholder = "$0"
    case .rate: placeholder = "0%"
    case .number: placeholder = "0"
    case .bool: placeholder = "false"
    case .text: placeholder = "\"\""
    case .brackets: placeholder = "brackets { $0 -> 0% }"
    case .province: placeholder = provinceCodes.first ?? "ON"
    case .federal, .error: placeholder = "0"
    }
    var fixes: [Fix] = []
    if let source = sources[block.span.file] {
      // Insert a line before the year's closing brace, indented like the year's contents.
      let closing = block.span.end - 1
      let line = source.lineIndex(of: closing)
      let lineStart = source.lineStarts[line]
      let braceIndent = source.text(of: Span(file: source.id, start: lineStart, end: closing))
      let indent = braceIndent.allSatisfy({ $0 == " " || $0 == "\t" }) ? braceIndent + "  " : "    "
      let insertion =
        braceIndent.allSatisfy({ $0 == " " || $0 == "\t" })
        ? TextReplacement(
          span: Span(file: source.id, start: lineStart, end: lineStart),
          text: "\(indent)\(member.name) = \(placeholder)\n")
        : TextReplacement(
          span: Span(file: source.id, start: closing, end: closing), text: "\n\(indent)\(member.name) = \(placeholder)\n")
      fixes.append(Fix(title: "Add '\(member.name)' to \(displayName(code)) \(block.year)", replacements: [insertion]))
    }
    let what = code == "federal" ? "federal" : "every province"
    error(
      .missingParameter(displayName(code), block.year, member.name, requiredOf: what),
      at: block.yearSpan,
      notes: [
        DiagnosticNote(.note, "'\(member.name): \(member.type)' is required by 'parameters \(interface.name)'", span: member.span)
      ], fixes: fixes)
  }
}
