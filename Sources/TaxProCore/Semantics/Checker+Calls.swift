extension Checker {
  func checkCall(_ callee: Identifier, _ arguments: [Argument], _ span: Span, in scope: inout Scope) -> TypedExpression {
    let name = callee.name
    if scope.lookup(name) != nil || predefined[name] != nil || constantIndex[name] != nil {
      _ = arguments.map { check($0.value, in: &scope) }
      error(
        .valueNotCallable(name), at: callee.span,
        notes: [DiagnosticNote(.note, "only formulas and built-in functions can be called")])
      return .invalid(span)
    }
    if let index = formulaIndex[name] {
      recordFormula(callee.span, index: index, name: name)
      return checkFormulaCall(index, callee, arguments, span, in: &scope)
    }
    if let builtin = Builtin(rawValue: name) {
      record(callee.span, .builtin(name))
      return checkBuiltinCall(builtin, callee, arguments, span, in: &scope)
    }
    _ = arguments.map { check($0.value, in: &scope) }
    if let type = TaxType(name: name) {
      error(
        .typeNotCallable(name), at: callee.span,
        notes: type == .money
          ? [DiagnosticNote(.help, "to count a Number in dollars, multiply it by $1: n * $1")] : [])
      return .invalid(span)
    }
    var notes: [DiagnosticNote] = []
    var fixes: [Fix] = []
    let candidates = Array(formulaIndex.keys) + Builtin.allCases.map(\.name)
    if let suggestion = Suggestions.closest(to: name, among: candidates) {
      notes.append(DiagnosticNote(.help, "did you mean '\(suggestion)'?"))
      fixes.append(
        Fix(title: "Change to '\(suggestion)'", replacements: [TextReplacement(span: callee.span, text: suggestion)]))
    }
    error(.unknownFormula(name), at: callee.span, notes: notes, fixes: fixes)
    return .invalid(span)
  }

  func checkFormulaCall(
    _ index: Int, _ callee: Identifier, _ arguments: [Argument], _ span: Span, in scope: inout Scope
  ) -> TypedExpression {
    let declaration = formulaDeclarations[index]
    let parameters = declaration.parameters
    let types = formulaParameterTypes[index]
    var slots: [TypedExpression?] = Array(repeating: nil, count: parameters.count)
    var given: [Span?] = Array(repeating: nil, count: parameters.count)
    var failed = false
    var sawLabel = false
    var positional = 0
    for argument in arguments {
      var target: Int? = nil
      if let label = argument.label {
        sawLabel = true
        if let position = parameters.firstIndex(where: { $0.name.name == label.name }) {
          record(label.span, .formulaParameter(formula: declaration.name.name, name: label.name))
          target = position
        } else {
          var notes: [DiagnosticNote] = []
          var fixes: [Fix] = []
          if let suggestion = Suggestions.closest(to: label.name, among: parameters.map(\.name.name)) {
            notes.append(DiagnosticNote(.help, "did you mean '\(suggestion)'?"))
            fixes.append(
              Fix(title: "Change to '\(suggestion)'", replacements: [TextReplacement(span: label.span, text: suggestion)]))
          }
          notes.append(DiagnosticNote(.note, declarationSignature(index), span: declaration.name.span))
          error(
            .noArgumentNamed(declaration.name.name, label.name), at: label.span,
            notes: notes, fixes: fixes)
          failed = true
        }
      } else {
        if sawLabel {
          error(.positionalAfterNamed, at: argument.value.span)
          failed = true
        } else if positional < parameters.count {
          target = positional
        } else {
          error(
            .argumentCount(
              declaration.name.name, takes: countText(parameters.count, "argument"), given: arguments.count),
            at: argument.value.span,
            notes: [DiagnosticNote(.note, declarationSignature(index), span: declaration.name.span)])
          failed = true
        }
        positional += 1
      }
      guard let target else {
        _ = check(argument.value, in: &scope)
        continue
      }
      if let previous = given[target] {
        error(
          .givenTwice(parameters[target].name.name), at: argument.span,
          notes: [DiagnosticNote(.note, "first given here", span: previous)])
        failed = true
        _ = check(argument.value, in: &scope)
        continue
      }
      given[target] = argument.span
      let typed = check(argument.value, in: &scope)
      let expected = types[target]
      if typed.type != expected && typed.type != .error && expected != .error {
        var notes: [DiagnosticNote] = []
        var fixes: [Fix] = []
        addLiteralHint(argument.value, expected: expected, notes: &notes, fixes: &fixes)
        notes.append(DiagnosticNote(.note, "declared here", span: parameters[target].span))
        error(
          .mustBe("'\(parameters[target].name.name)' of '\(declaration.name.name)'", expected, found: typed.type),
          at: argument.value.span, notes: notes, fixes: fixes)
        failed = true
      } else if typed.type == .error {
        failed = true
      }
      slots[target] = typed
    }
    let missing = parameters.indices.filter { given[$0] == nil && parameters[$0].defaultValue == nil }
    if !missing.isEmpty {
      let names = missing.map { "'\(parameters[$0].name.name)' (\(types[$0]))" }
      error(
        .missingArguments(names, in: declaration.name.name),
        at: span, notes: [DiagnosticNote(.note, declarationSignature(index), span: declaration.name.span)])
      failed = true
    }
    edge(from: scope, to: .formula(index))
    let result = returnType(ofFormula: index, usedAt: span)
    if failed || result == .error { return .invalid(span) }
    return TypedExpression(.call(formula: index, arguments: slots), result, span)
  }

  func countText(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

  func declarationSignature(_ index: Int) -> String {
    let declaration = formulaDeclarations[index]
    let parameters = declaration.parameters.enumerated().map { position, parameter in
      "\(parameter.name.name): \(formulaParameterTypes[index][position])"
    }
    return "formula \(declaration.name.name)(\(parameters.joined(separator: ", ")))"
  }

  func checkBuiltinCall(
    _ builtin: Builtin, _ callee: Identifier, _ arguments: [Argument], _ span: Span, in scope: inout Scope
  ) -> TypedExpression {
    let typed = arguments.map { check($0.value, in: &scope) }
    if let labelled = arguments.first(where: { $0.label != nil }), let label = labelled.label {
      error(.builtinLabels, at: label.span,
        notes: [DiagnosticNote(.note, builtin.signature)])
      return .invalid(span)
    }
    if typed.contains(where: { $0.type == .error }) { return .invalid(span) }
    func arity(_ allowed: ClosedRange<Int>) -> Bool {
      if allowed.contains(typed.count) { return true }
      let expected =
        allowed.lowerBound == allowed.upperBound
        ? countText(allowed.lowerBound, "argument")
        : (allowed.upperBound == Int.max
          ? "at least \(countText(allowed.lowerBound, "argument"))"
          : "\(allowed.lowerBound) or \(countText(allowed.upperBound, "argument"))")
      error(
        .argumentCount(builtin.name, takes: expected, given: typed.count), at: span,
        notes: [DiagnosticNote(.note, builtin.signature)])
      return false
    }
    func requireNumeric(_ position: Int) -> Bool {
      guard typed[position].type.isNumeric else {
        error(
          .builtinNeedsNumber(builtin.name, found: typed[position].type),
          at: arguments[position].value.span)
        return false
      }
      return true
    }
    func requireSame(as first: Int, _ positions: Range<Int>) -> Bool {
      for position in positions where typed[position].type != typed[first].type {
        var notes = [DiagnosticNote(.note, "the first argument is \(typed[first].type)", span: arguments[first].value.span)]
        var fixes: [Fix] = []
        addLiteralHint(arguments[position].value, expected: typed[first].type, notes: &notes, fixes: &fixes)
        error(
          .builtinArgumentsDiffer(builtin.name, first: typed[first].type, found: typed[position].type),
          at: arguments[position].value.span, notes: notes, fixes: fixes)
        return false
      }
      return true
    }
    func require(_ position: Int, _ type: TaxType, _ role: String) -> Bool {
      guard typed[position].type == type else {
        var notes: [DiagnosticNote] = [DiagnosticNote(.note, builtin.signature)]
        var fixes: [Fix] = []
        addLiteralHint(arguments[position].value, expected: type, notes: &notes, fixes: &fixes)
        error(
          .mustBe("\(role) of '\(builtin.name)'", type, found: typed[position].type),
          at: arguments[position].value.span, notes: notes, fixes: fixes)
        return false
      }
      return true
    }
    var result: TaxType
    switch builtin {
    case .min, .max:
      guard arity(1...Int.max), requireNumeric(0), requireSame(as: 0, 1..<typed.count) else { return .invalid(span) }
      result = typed[0].type
    case .abs, .floor, .ceil:
      guard arity(1...1), requireNumeric(0) else { return .invalid(span) }
      result = typed[0].type
    case .round:
      guard arity(1...2), requireNumeric(0) else { return .invalid(span) }
      if typed.count == 2 && !require(1, .number, "the number of places") { return .invalid(span) }
      result = typed[0].type
    case .clamp:
      guard arity(3...3), requireNumeric(0), requireSame(as: 0, 1..<3) else { return .invalid(span) }
      result = typed[0].type
    case .tax, .marginalRate, .averageRate:
      guard arity(2...2), require(0, .brackets, "the first argument"), require(1, .money, "the amount") else {
        return .invalid(span)
      }
      result = builtin == .tax ? .money : .rate
    }
    return TypedExpression(.builtin(builtin, typed), result, span)
  }
}
