extension Checker {
  func resolveSignature(_ index: Int) {
    let declaration = formulaDeclarations[index]
    // The parameters' types are read in place, by position, into a list made once (a `map` over the parameters
    // copied each one whole).
    let parameters = declaration.parameters
    var types: [TaxType] = []
    types.reserveCapacity(parameters.count)
    // The types' occurrences are recorded by `ensureFormula`, with the rest of the formula in text order.
    for at in parameters.indices { types.append(resolveType(parameters[at].type, recording: false)) }
    formulaParameterTypes[index] = types
    formulaDeclaredReturn[index] = declaration.returnType.map { resolveType($0, recording: false) }
  }

  /// The return type of a formula, checking its body first if the type is not written.
  func returnType(ofFormula index: Int, usedAt span: Span) -> TaxType {
    if let declared = formulaDeclaredReturn[index] { return declared }
    // A body checked ahead in a half (`precheckFormulas`) must not depend on another body: the serial check does it.
    if speculative { return abandonSpeculation(.error) }
    switch formulaState(index) {
    case .done: return formula(at: index)?.returnType ?? .error
    case .inProgress:
      // A cycle; reported by the cycle check. Inference cannot go through it.
      return .error
    case .pending:
      if inferenceDepth >= Checker.maximumInferenceDepth {
        error(
          .resultNotInferred(formulaDeclarations[index].name.name),
          at: span, notes: [DiagnosticNote(.help, "write the result type: formula name(…): Money = …")])
        return .error
      }
      ensureFormula(index)
      return formula(at: index)?.returnType ?? .error
    }
  }

  func ensureFormula(_ index: Int) {
    guard formulaState(index) == .pending else { return }
    // Checked ahead: taken in here, where the serial check would have checked it.
    if adoptPrechecked(index) { return }
    formulaStates[index] = .inProgress
    inferenceDepth += 1
    let left = leaveDeferredBody()
    defer {
      inferenceDepth -= 1
      formulaStates[index] = .done
      reenterDeferredBody(left)
    }
    let declaration = formulaDeclarations[index]
    let errorsBefore = diagnostics.count
    let name = declaration.name
    // Occurrences in text order: the name (a whole check; `Checker.recheck` records it itself), each parameter and
    // its type, the result type, then the body. They are then all but sorted already (`sortedByPlace`).
    if index < formulaSymbols.count {
      recordFormula(name.span, index: index, name: name.name, definition: true)
    }
    // The syntax's parameters are read in place, by position, and a plain one's range and default not at all: copied
    // out whole, each cost a retain and a release of its every field.
    let syntaxParameters = declaration.parameters
    let types = formulaParameterTypes[index]
    var scope = Scope(
      owner: .formula(index), formulaName: name.name, capacity: syntaxParameters.count + declaration.lets.count)
    // The field read in place: through the documentation's key-path member it cost a tenth of a small formula's check.
    let documentation = declaration.documentation
    let partsLine = documentation.parts
    // The checked parameters and steps are made only to be kept, or for a `## parts:` line to read.
    let makesParameters = keepsBodies || partsLine != nil
    var parameters: [FormulaParameter] = []
    if makesParameters { parameters.reserveCapacity(syntaxParameters.count) }
    for position in syntaxParameters.indices {
      let parameterName = syntaxParameters[position].name
      let type = types[position]
      // An earlier parameter of the name: the scope holds the parameters so far, and nothing else yet.
      if let previous = scope.position(of: parameterName.name) {
        error(
          .parameterRedeclared(parameterName.name), at: parameterName.span,
          notes: [DiagnosticNote(.note, "first declared here", span: scope[previous].definition)])
      }
      let symbol = recordParameter(parameterName.span, formula: index, position: position, definition: true)
      // `resolveSignature` reported an unknown type; a known one is recorded here (no written name means `.error`).
      if type != .error { record(syntaxParameters[position].type.span, .type(type)) }
      var lower: TypedExpression? = nil
      var upper: TypedExpression? = nil
      var defaultValue: TypedExpression? = nil
      var rangeText: String? = nil
      var defaultText: String? = nil
      if !syntaxParameters[position].extras.isEmpty {
        if let range = syntaxParameters[position].range {
          if !type.isNumeric && type != .error {
            error(
              .rangeNotNumeric(parameterName.name, type),
              at: range.span)
          } else {
            lower = expect(range.lower, type, in: &scope, role: "the lowest value of '\(parameterName.name)'")
            upper = expect(range.upper, type, in: &scope, role: "the highest value of '\(parameterName.name)'")
          }
          if makesParameters { rangeText = text(of: range.lower.span) + ".." + text(of: range.upper.span) }
        }
        if let syntax = syntaxParameters[position].defaultValue {
          defaultValue = expect(syntax, type, in: &scope, role: "the default of '\(parameterName.name)'")
          if makesParameters { defaultText = text(of: syntax.span) }
        }
      }
      _ = scope.declare(parameterName.name, type: type, at: parameterName.span, isParameter: true, symbol: symbol)
      if makesParameters {
        parameters.append(
          FormulaParameter(
            name: parameterName.name, nameSpan: parameterName.span, type: type,
            documentation: syntaxParameters[position].documentation, lower: lower, upper: upper,
            defaultValue: defaultValue, span: syntaxParameters[position].span, rangeText: rangeText,
            defaultText: defaultText))
      }
    }
    if let annotation = declaration.returnType, let declared = formulaDeclaredReturn[index], declared != .error {
      record(annotation.span, .type(declared))
    }
    // A deferred body's steps and result are checked for their types and diagnostics alone (its steps made only for
    // a `## parts:` line).
    let defersBody = defersFormulaBodies && keepsBodies
    if defersBody { enterDeferredBody() }
    let lets = checkLets(
      declaration.lets, in: &scope, keepingSteps: defersBody ? partsLine != nil : makesParameters)
    if let identity = partsLine {
      checkPartsLine(
        identity, formula: name.name, at: documentation.span ?? name.span, parameters: parameters, lets: lets)
    }
    let result = check(declaration.result, in: &scope)
    if defersBody { _ = leaveDeferredBody() }
    let keepsBody = keepsBodies && !defersBody
    var returnType = result.type
    if let declared = formulaDeclaredReturn[index] {
      if declared != .error && result.type != .error && result.type != declared {
        var notes = [DiagnosticNote(.note, "the result type is declared here", span: declaration.returnType?.span)]
        var fixes: [Fix] = []
        addLiteralHint(declaration.result, expected: declared, notes: &notes, fixes: &fixes)
        error(
          .resultMismatch(declaration.name.name, declared: declared, found: result.type),
          at: declaration.result.span, notes: notes, fixes: fixes)
      }
      returnType = declared
    } else if returnType == .federal {
      error(.formulaGivesFederal, at: declaration.result.span)
      returnType = .error
    }
    let hasErrors = diagnostics[errorsBefore...].contains { $0.severity == .error }
    // Without `keepsBodies` the checked parameters, steps and result are freed here, one body at a time.
    setFormula(
      index,
      FormulaInfo(.init(
        name: name.name, nameSpan: name.span, documentation: documentation,
        parameters: keepsBodies ? parameters : [], returnType: returnType,
        returnTypeDeclared: formulaDeclaredReturn[index] != nil, lets: keepsBody ? lets : [],
        result: keepsBody ? result : .invalid(result.span), slotCount: scope.slotCount, span: declaration.span,
        hasErrors: hasErrors, bodyDeferred: defersBody)))
  }

  /// A `## parts:` line (`Breakdown.identityNames`) names Money `let` steps of its formula, and a Money step or input
  /// as the whole: said when the file is checked, rather than first when a chart of a call fails.
  func checkPartsLine(
    _ identity: String, formula: String, at span: Span, parameters: [FormulaParameter], lets: [LetStep]
  ) {
    guard let names = Breakdown.identityNames(identity) else {
      diagnostics.append(Diagnostic(.partsLineForm(formula, code: .partsLine), at: span))
      return
    }
    func isMoney(_ type: TaxType) -> Bool { type == .money || type == .error }
    let steps = Set(lets.filter { isMoney($0.value.type) }.map(\.name))
    let inputs = Set(parameters.filter { isMoney($0.type) }.map(\.name))
    for name in [names.whole] + names.parts where !steps.contains(name) && (name != names.whole || !inputs.contains(name)) {
      diagnostics.append(Diagnostic(.partsLineName(formula, name, code: .partsLine), at: span))
    }
  }

  /// Checks the bindings in order, declaring each in `scope`; returns their steps, or none when not `keepingSteps`
  /// (a check for diagnostics alone, whose formula keeps no steps).
  func checkLets(_ bindings: [LetBinding], in scope: inout Scope, keepingSteps: Bool = true) -> [LetStep] {
    var steps: [LetStep] = []
    if keepingSteps { steps.reserveCapacity(bindings.count) }
    // Each binding is read in place, by position: copied out whole, it cost a retain and a release of every field.
    for at in bindings.indices {
      let name = bindings[at].name
      // The name and its type are recorded before the value's names, in text order (`sortedByPlace`).
      let symbol = record(name.span, .local(name: name.name, definition: name.span), definition: true)
      let declared = bindings[at].type.map { resolveType($0) }
      var value = check(bindings[at].value, in: &scope)
      if let declared {
        value = conform(value, bindings[at].value, to: declared, role: "'\(name.name)'")
      }
      if value.type == .federal {
        error(
.federalNeedsParameter, at: bindings[at].value.span)
        value = .invalid(value.span)
      }
      if let previous = scope.position(of: name.name) {
        error(
          .letRedefined(name.name), at: name.span,
          notes: [DiagnosticNote(.note, "defined here", span: scope[previous].definition)])
      }
      let slot = scope.declare(name.name, type: value.type, at: name.span, isParameter: false, symbol: symbol)
      if keepingSteps { steps.append(LetStep(slot: slot, name: name.name, nameSpan: name.span, value: value)) }
    }
    return steps
  }

  /// The type of a constant, checking it first if needed.
  func constantType(_ index: Int, usedAt span: Span) -> TaxType {
    if speculative { return abandonSpeculation(.error) }
    switch constantState(index) {
    case .done: return constants[index]?.type ?? .error
    case .inProgress: return .error
    case .pending:
      if inferenceDepth >= Checker.maximumInferenceDepth {
        error(.constantNotInferred, at: span)
        return .error
      }
      ensureConstant(index)
      return constants[index]?.type ?? .error
    }
  }

  func ensureConstant(_ index: Int) {
    guard constantState(index) == .pending else { return }
    constantStates[index] = .inProgress
    inferenceDepth += 1
    let left = leaveDeferredBody()
    defer {
      inferenceDepth -= 1
      constantStates[index] = .done
      reenterDeferredBody(left)
    }
    let declaration = constantDeclarations[index]
    var scope = Scope(owner: .constant(index))
    var value = check(declaration.binding.value, in: &scope)
    if let annotation = declaration.binding.type {
      value = conform(value, declaration.binding.value, to: resolveType(annotation), role: "'\(declaration.binding.name.name)'")
    }
    if value.type == .federal {
      error(
.federalNeedsParameter, at: declaration.binding.value.span)
      value = .invalid(value.span)
    }
    constants[index] = ConstantInfo(
      name: declaration.binding.name.name, nameSpan: declaration.binding.name.span,
      documentation: declaration.documentation, type: value.type,
      value: keepsBodies ? value : TypedExpression(.invalid, value.type, value.span), span: declaration.span)
  }

  func checkTest(_ test: TestDeclaration) {
    let left = leaveDeferredBody()
    defer { reenterDeferredBody(left) }
    let errorsBefore = diagnostics.count
    record(test.nameSpan, .test(test.name), definition: true)
    var scope = Scope()
    var steps: [TestStep] = []
    for item in test.items {
      switch item {
      case .binding(let binding):
        steps.append(contentsOf: checkLets([binding], in: &scope).map { .binding($0) })
      case .check(let expression):
        let typed = check(expression, in: &scope)
        if typed.type != .bool && typed.type != .error {
          error(
            .testCheckNotBool(typed.type), at: expression.span,
            notes: [DiagnosticNote(.help, "compare it with the value you expect: expression == $5,609.17")])
        }
        steps.append(.check(typed))
      }
    }
    let hasErrors = diagnostics[errorsBefore...].contains { $0.severity == .error }
    tests.append(
      TestInfo(
        name: test.name, nameSpan: test.nameSpan, year: test.year, steps: keepsBodies ? steps : [],
        slotCount: scope.slotCount,
        span: test.span, hasErrors: hasErrors))
  }

  /// Checks `syntax` and requires the given type.
  func expect(_ syntax: Expression, _ type: TaxType, in scope: inout Scope, role: String) -> TypedExpression {
    let typed = check(syntax, in: &scope)
    return conform(typed, syntax, to: type, role: role)
  }

  /// Reports a mismatch between a checked expression and the type it must have.
  func conform(_ typed: TypedExpression, _ syntax: Expression, to type: TaxType, role: String) -> TypedExpression {
    if typed.type == type || typed.type == .error || type == .error { return typed }
    var notes: [DiagnosticNote] = []
    var fixes: [Fix] = []
    addLiteralHint(syntax, expected: type, notes: &notes, fixes: &fixes)
    error(
      .mustBe(role, type, found: typed.type), at: syntax.span, notes: notes, fixes: fixes)
    return .invalid(typed.span)
  }
}
