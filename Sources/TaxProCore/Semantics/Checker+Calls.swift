extension Checker {
  func checkCall(_ callee: Identifier, _ arguments: [Argument], _ span: Span, in scope: inout Scope) -> TypedExpression {
    let name = callee.name
    // A global name is one thing only (`declareGlobal`; a built-in function cannot be declared), so past the names
    // that hide globals — a parameter or `let`, a host's value — a built-in function or a formula is looked up first:
    // one hash for the usual call rather than three.
    let hidden = scope.contains(name) || predefined[name] != nil
    if !hidden, Checker.mayBeBuiltin(name, builtinShapes), let entry = builtinEntries[name] {
      record(callee.span, .builtin(name))
      return checkBuiltinCall(entry, callee, arguments, span, in: &scope)
    }
    if !hidden, let index = formulaIndex[name] {
      recordFormula(callee.span, index: index, name: name)
      return checkFormulaCall(index, callee, arguments, span, in: &scope)
    }
    if hidden || constantIndex[name] != nil {
      _ = arguments.map { check($0.value, in: &scope) }
      error(
        .valueNotCallable(name), at: callee.span,
        notes: [DiagnosticNote(.note, "only formulas and built-in functions can be called")])
      return .invalid(span)
    }
    _ = arguments.map { check($0.value, in: &scope) }
    if let type = TaxType(name: name) {
      error(
        .typeNotCallable(name), at: callee.span,
        notes: type == .money
          ? [DiagnosticNote(.help, "to count a Number in dollars, multiply it by $1: n * $1")] : [])
      return .invalid(span)
    }
    // The suggestions are indexed on first use: not in a half checked ahead.
    if speculative { return abandonSpeculation(.invalid(span)) }
    var notes: [DiagnosticNote] = []
    var fixes: [Fix] = []
    if let suggestion = Suggestions.closest(to: name, in: calleeSuggestions) {
      notes.append(DiagnosticNote(.help, "did you mean '\(suggestion)'?"))
      fixes.append(
        Fix(title: "Change to '\(suggestion)'", replacements: [TextReplacement(span: callee.span, text: suggestion)]))
    } else if let note = jurisdictionParameterNote(name, called: true) {
      notes.append(note)
    } else {
      let related = Suggestions.related(to: name, in: calleeSuggestions)
      if !related.isEmpty {
        let listed = related.map { "'\($0)'" }.joined(separator: ", ")
        notes.append(DiagnosticNote(.help, related.count == 1 ? "did you mean \(listed)?" : "formulas with '\(name)' in their name: \(listed)"))
      }
    }
    error(.unknownFormula(name), at: callee.span, notes: notes, fixes: fixes)
    return .invalid(span)
  }

  /// For a province's or the federal jurisdiction's parameter named without its jurisdiction (`income_tax`), or
  /// called as if it were a formula (`income_tax(…)`): how it is used.
  func jurisdictionParameterNote(_ name: String, called: Bool) -> DiagnosticNote? {
    var holders: [String] = []
    var uses: [String] = []
    var type: TaxType?
    for (interface, holder, code) in [("Province", "each province", "ON"), ("Federal", "federal", "federal")] {
      guard let member = interfaces[interface]?.members.first(where: { $0.name == name }) else { continue }
      type = member.type
      holders.append(holder)
      uses.append(member.type == .brackets && called ? "tax(\(code).\(name), $85,000)" : "\(code).\(name)")
    }
    guard let type else { return nil }
    let what = type == .brackets ? "a bracket table" : "a parameter"
    return DiagnosticNote(
      .help,
      "'\(name)' is \(what) of \(holders.joined(separator: " and of "))\(called ? ", not a formula" : ""): "
        + uses.joined(separator: " or "))
  }

  func checkFormulaCall(
    _ index: Int, _ callee: Identifier, _ arguments: [Argument], _ span: Span, in scope: inout Scope
  ) -> TypedExpression {
    let declaration = formulaDeclarations[index]
    let parameters = declaration.parameters
    let types = formulaParameterTypes[index]
    // The arguments by parameter, made only when the body is kept; which parameters are given is kept apart, in bits.
    // Each argument is appended at its parameter's position, the gaps before it (a label that skips some) left nil:
    // without labels, the usual call, the list is made in order, not made of nils first and filled in.
    var slots: [TypedExpression?] = []
    if keepsBodies { slots.reserveCapacity(parameters.count) }
    var filled = FilledPositions(count: parameters.count)
    // Where a parameter was given is kept only for a call with a label: without one, each argument takes the next
    // parameter and none is given twice.
    let labelled = arguments.contains { !$0.labels.isEmpty }
    var given: [Span?] = labelled ? Array(repeating: nil, count: parameters.count) : []
    var failed = false
    var sawLabel = false
    var positional = 0
    // After `85,000` given where Money is wanted (an error with the hint '$85,000') or after a named argument (an
    // error already), the end of the run: its later groups (`000`) are not arguments of their own, so they take no
    // parameter's place and raise no errors of their own.
    var groupedRunEnd: Int? = nil
    // The arguments are read in place, by position: copied out one by one, each cost a retain and a release.
    for at in arguments.indices {
      let unlabelled = arguments[at].labels.isEmpty
      if unlabelled, let end = groupedRunEnd, arguments[at].value.span.end <= end {
        _ = check(arguments[at].value, in: &scope)
        continue
      }
      var target: Int? = nil
      if let label = arguments[at].label {
        sawLabel = true
        if let position = parameters.firstIndex(where: { $0.name.name == label.name }) {
          recordParameter(label.span, formula: index, position: position, definition: false)
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
          error(.positionalAfterNamed, at: arguments[at].value.span)
          groupedRunEnd = groupedDigitsRunEnd(arguments[at].value)
          failed = true
        } else if positional < parameters.count {
          target = positional
        } else {
          error(
            .argumentCount(
              declaration.name.name, takes: countText(parameters.count, "argument"), given: arguments.count),
            at: arguments[at].value.span,
            notes: [DiagnosticNote(.note, declarationSignature(index), span: declaration.name.span)])
          failed = true
        }
        positional += 1
      }
      guard let target else {
        _ = check(arguments[at].value, in: &scope)
        continue
      }
      if labelled, let previous = given[target] {
        error(
          .givenTwice(parameters[target].name.name), at: arguments[at].span,
          notes: [DiagnosticNote(.note, "first given here", span: previous)])
        failed = true
        _ = check(arguments[at].value, in: &scope)
        continue
      }
      if labelled { given[target] = arguments[at].span }
      let typed = check(arguments[at].value, in: &scope)
      let expected = types[target]
      if typed.type != expected && typed.type != .error && expected != .error {
        var notes: [DiagnosticNote] = []
        var fixes: [Fix] = []
        addLiteralHint(arguments[at].value, expected: expected, notes: &notes, fixes: &fixes)
        if unlabelled, expected == .money { groupedRunEnd = groupedDigitsRunEnd(arguments[at].value) }
        notes.append(DiagnosticNote(.note, "declared here", span: parameters[target].span))
        error(
          .mustBe("'\(parameters[target].name.name)' of '\(declaration.name.name)'", expected, found: typed.type),
          at: arguments[at].value.span, notes: notes, fixes: fixes)
        failed = true
      } else if typed.type == .error {
        failed = true
      }
      filled.insert(target)
      if keepsBodies {
        while slots.count < target { slots.append(nil) }
        if target < slots.count { slots[target] = typed } else { slots.append(typed) }
      }
    }
    let missing = parameters.indices.filter { !filled.contains($0) && parameters[$0].defaultValue == nil }
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
    if keepsBodies { while slots.count < parameters.count { slots.append(nil) } }
    return node(.call(formula: index, arguments: slots), result, span)
  }

  /// The parameters of a call that an argument has filled: a bit each for the first 64, a list beyond.
  struct FilledPositions {
    private var bits: UInt64 = 0
    private var more: [Bool]

    init(count: Int) { more = count > 64 ? Array(repeating: false, count: count - 64) : [] }

    func contains(_ position: Int) -> Bool {
      position < 64 ? bits & (1 << UInt64(position)) != 0 : more[position - 64]
    }

    mutating func insert(_ position: Int) {
      if position < 64 { bits |= 1 << UInt64(position) } else { more[position - 64] = true }
    }
  }

  func countText(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

  func declarationSignature(_ index: Int) -> String {
    let declaration = formulaDeclarations[index]
    let parameters = declaration.parameters.enumerated().map { position, parameter in
      "\(parameter.name.name): \(formulaParameterTypes[index][position])"
    }
    return "formula \(declaration.name.name)(\(parameters.joined(separator: ", ")))"
  }

  /// A built-in function with what a call's check reads of its declaration at every argument, found by name with one
  /// hash (`Checker.builtinEntries`): the declaration itself is a struct of strings and arrays, and copying it and a
  /// parameter of it for every argument cost more than the rest of checking the call.
  final class BuiltinEntry: Sendable {
    let builtin: Builtin
    let declaration: BuiltinDeclaration
    /// The type of each parameter; the last repeats when the function is variadic.
    let types: [BuiltinDeclaration.ValueType]
    let isVariadic: Bool
    let arity: ClosedRange<Int>

    init(_ builtin: Builtin) {
      self.builtin = builtin
      declaration = builtin.declaration
      types = declaration.parameters.map(\.type)
      isVariadic = declaration.isVariadic
      arity = declaration.arity
    }

    /// The type of the parameter an argument at `position` is given for (`BuiltinDeclaration.parameter(at:)`).
    @inline(__always) func type(at position: Int) -> BuiltinDeclaration.ValueType? {
      position < types.count ? types[position] : (isVariadic ? types.last : nil)
    }
  }

  /// Every built-in function's entry by name: one hash rather than `Builtin(rawValue:)`'s comparison with every name,
  /// asked for every declaration, call and name read. A checker reads its own reference to it (`builtinEntries`): a
  /// static's every read asks whether it is made yet.
  static let builtinEntries = Dictionary(uniqueKeysWithValues: Builtin.allCases.map { ($0.rawValue, BuiltinEntry($0)) })

  /// For each first byte, the lengths in bytes of the built-in functions' names that begin with it, as bits (every
  /// name is shorter than 64): a name that is not of one of those shapes is no built-in's, which a formula's call
  /// then learns without hashing its name for `builtinEntries` as well as for `formulaIndex`.
  static let builtinShapeTable: [UInt64] = {
    var shapes = [UInt64](repeating: 0, count: 256)
    for builtin in Builtin.allCases {
      let length = builtin.rawValue.utf8.count
      guard let first = builtin.rawValue.utf8.first else { continue }
      // A longer name (none is) gets every length of its first byte: it is then never ruled out.
      shapes[Int(first)] |= length < 64 ? 1 << UInt64(length) : UInt64.max
    }
    return shapes
  }()

  /// Whether `name` may be a built-in function's: false when its first byte and length are no built-in name's.
  @inline(__always)
  static func mayBeBuiltin(_ name: String, _ shapes: [UInt64]) -> Bool {
    guard let first = name.utf8.first else { return false }
    let length = name.utf8.count
    return length >= 64 || shapes[Int(first)] & (1 << UInt64(length)) != 0
  }

  /// A built-in's call against its declaration: how many arguments, each of its type, every `T` one numeric type.
  func checkBuiltinCall(
    _ entry: BuiltinEntry, _ callee: Identifier, _ arguments: [Argument], _ span: Span, in scope: inout Scope
  ) -> TypedExpression {
    let builtin = entry.builtin
    var arguments = arguments
    // The arguments are read in place, by position: copied out one by one (as `map` did), each cost a retain and a
    // release.
    var typed: [TypedExpression] = []
    typed.reserveCapacity(arguments.count)
    for at in arguments.indices { typed.append(check(arguments[at].value, in: &scope)) }
    // `tax(ON.income_tax, 85,000)`: the run is one amount meant, given where Money is wanted, so it is counted as
    // one argument and gets the '$85,000' hint, not a wrong count.
    if let (kept, head) = groupedDigitsRunArguments(arguments), case .exactly(.money)? = entry.type(at: head) {
      arguments = kept.map { arguments[$0] }
      typed = kept.map { typed[$0] }
    }
    for at in arguments.indices where !arguments[at].labels.isEmpty {
      guard let label = arguments[at].label else { continue }
      error(.builtinLabels, at: label.span, notes: [DiagnosticNote(.note, entry.declaration.signature)])
      return .invalid(span)
    }
    for argument in typed where argument.type == .error { return .invalid(span) }
    let allowed = entry.arity
    guard allowed.contains(typed.count) else {
      let declaration = entry.declaration
      let expected =
        allowed.lowerBound == allowed.upperBound
        ? countText(allowed.lowerBound, "argument")
        : (allowed.upperBound == Int.max
          ? "at least \(countText(allowed.lowerBound, "argument"))"
          : "\(allowed.lowerBound) or \(countText(allowed.upperBound, "argument"))")
      error(
        .argumentCount(builtin.name, takes: expected, given: typed.count), at: span,
        notes: [DiagnosticNote(.note, declaration.signature)])
      return .invalid(span)
    }
    // The first `T` argument decides what `T` is; the others must be the same.
    var numeric: Int? = nil
    for position in typed.indices {
      guard let parameterType = entry.type(at: position) else { break }
      let argumentType = typed[position].type
      switch parameterType {
      case .numeric:
        if let first = numeric {
          guard argumentType == typed[first].type else {
            let syntax = arguments[position].value
            let argument = typed[position]
            var notes = [DiagnosticNote(.note, "the first argument is \(typed[first].type)", span: arguments[first].value.span)]
            var fixes: [Fix] = []
            addLiteralHint(syntax, expected: typed[first].type, notes: &notes, fixes: &fixes)
            error(
              .builtinArgumentsDiffer(builtin.name, first: typed[first].type, found: argument.type), at: syntax.span,
              notes: notes, fixes: fixes)
            return .invalid(span)
          }
        } else {
          guard argumentType.isNumeric else {
            error(.builtinNeedsNumber(builtin.name, found: argumentType), at: arguments[position].value.span)
            return .invalid(span)
          }
          numeric = position
        }
      case .exactly(let type):
        guard argumentType == type else {
          let syntax = arguments[position].value
          let argument = typed[position]
          guard let parameter = entry.declaration.parameter(at: position) else { return .invalid(span) }
          var notes: [DiagnosticNote] = [DiagnosticNote(.note, entry.declaration.signature)]
          var fixes: [Fix] = []
          addLiteralHint(syntax, expected: type, notes: &notes, fixes: &fixes)
          error(
            .mustBe("\(parameter.role) of '\(builtin.name)'", type, found: argument.type), at: syntax.span,
            notes: notes, fixes: fixes)
          return .invalid(span)
        }
      }
    }
    let result: TaxType
    switch entry.declaration.result {
    case .numeric: result = numeric.map { typed[$0].type } ?? .error
    case .exactly(let type): result = type
    }
    return node(.builtin(builtin, typed), result, span)
  }

  /// The end of the digits grouped by commas that begin at `syntax` (`85` of `85,000`), when it is a number literal.
  func groupedDigitsRunEnd(_ syntax: Expression) -> Int? {
    guard case .number = syntax.kind else { return nil }
    return groupedDigitsEnd(after: syntax.span)
  }

  /// For a call whose unlabelled arguments include a run of digits grouped by commas (`85,000` read as `85` and
  /// `000`): the indices of the arguments with each run's later groups left out, and the position, among those kept,
  /// of the first run's head.
  func groupedDigitsRunArguments(_ arguments: [Argument]) -> (kept: [Int], head: Int)? {
    // A run needs an unlabelled number before another argument: the usual call has none and makes no list.
    guard arguments.dropLast().contains(where: { argument in
      if argument.labels.isEmpty, case .number = argument.value.kind { return true }
      return false
    }) else { return nil }
    var kept: [Int] = []
    var head: Int? = nil
    var runEnd: Int? = nil
    for (index, argument) in arguments.enumerated() {
      if argument.label == nil, let end = runEnd, argument.value.span.end <= end { continue }
      runEnd = nil
      if argument.label == nil, let end = groupedDigitsRunEnd(argument.value) {
        runEnd = end
        if head == nil { head = kept.count }
      }
      kept.append(index)
    }
    guard let head, kept.count < arguments.count else { return nil }
    return (kept, head)
  }
}
