extension Checker {
  func edge(from scope: Scope, to node: GlobalNode) {
    switch scope.owner {
    case .formula(let index):
      guard index < formulaEdges.count else { return }
      let count = formulaEdges[index].count
      if count == 0 {
        // Room for a few at once: a body usually depends on two or three declarations.
        formulaEdges[index].reserveCapacity(4)
      } else if formulaEdges[index][count - 1] == node {
        // The last one compared in place: `last != node` copied it out as an optional first.
        return
      }
      formulaEdges[index].append(node)
    case .constant(let index):
      if index < constantEdges.count, constantEdges[index].last != node { constantEdges[index].append(node) }
    case .parameter(let jurisdiction, let name):
      parameterEdges[.parameter(jurisdiction: jurisdiction, name: name), default: []].append(node)
    case nil: break
    }
  }

  /// The checked node of an operation, a member, a conditional or a local's read: built only when bodies are kept. A check for
  /// diagnostics alone (`keepsBodies` off) drops each body once checked and reads only the types of these nodes, so
  /// there such a node is `.invalid` with its type: no box to make and then free.
  @inline(__always)
  func node(_ kind: @autoclosure () -> TypedKind, _ type: TaxType, _ span: Span) -> TypedExpression {
    TypedExpression(keepsBodies ? kind() : .invalid, type, span)
  }

  /// A literal's node: without bodies kept, `.invalid` with its type too, but for a bracket table's threshold
  /// (`keepsLiterals`).
  func literal(_ value: Value, _ span: Span) -> TypedExpression {
    TypedExpression(keepsBodies || keepsLiterals ? .literal(value) : .invalid, value.type, span)
  }

  func check(_ expression: Expression, in scope: inout Scope) -> TypedExpression {
    let span = expression.span
    switch expression.kind {
    case .number(let value): return literal(.number(value), span)
    case .money(let value): return literal(.money(value), span)
    case .rate(let value): return literal(.rate(value), span)
    case .text(let value): return literal(.text(value), span)
    case .bool(let value): return literal(.bool(value), span)
    case .missing: return .invalid(span)
    case .federal:
      return TypedExpression(.federal, .federal, span)
    case .parenthesized(let inner):
      var typed = check(inner, in: &scope)
      typed.span = span
      return typed
    case .name(let name):
      return checkName(name, span, in: &scope)
    case .unary(let op, let operand, let operatorSpan):
      return checkUnary(op, operand, operatorSpan, span, in: &scope)
    case .binary(let op, let left, let right, let operatorSpan):
      return checkBinary(op, left, right, operatorSpan, span, in: &scope)
    case .call(let callee, let arguments):
      return checkCall(callee, arguments, span, in: &scope)
    case .member(let object, let member):
      return checkMember(object, member, span, in: &scope)
    case .conditional(let condition, let thenBranch, let elseBranch):
      return checkConditional(condition, thenBranch, elseBranch, span, in: &scope)
    case .brackets(let rows):
      return checkBrackets(rows, span, in: &scope)
    }
  }

  // MARK: Names

  func checkName(_ name: String, _ span: Span, in scope: inout Scope) -> TypedExpression {
    if let position = scope.position(of: name) {
      recordUse(span, ofBindingAt: position, name: name, in: scope)
      return node(.local(slot: scope[position].slot, name: name), scope[position].type, span)
    }
    if let value = predefined[name] {
      return literal(value, span)
    }
    if let index = constantIndex[name] {
      record(span, .constant(name))
      edge(from: scope, to: .constant(index))
      let type = constantType(index, usedAt: span)
      return TypedExpression(.constant(index: index), type, span)
    }
    if let declaration = jurisdictionDeclarations[name], declaration.kind == .province {
      record(span, .jurisdiction(name))
      return literal(.province(name), span)
    }
    if formulaIndex[name] != nil || builtinEntries[name] != nil {
      let signature = formulaIndex[name].map { _ in name + "(…)" } ?? (Builtin(rawValue: name)?.declaration.signature ?? name)
      error(
        .formulaNotAValue(name), at: span,
        notes: [DiagnosticNote(.help, "write \(signature)")])
      if let index = formulaIndex[name] { recordFormula(span, index: index, name: name) }
      return .invalid(span)
    }
    if let type = TaxType(name: name) {
      error(.typeNotAValue(name), at: span)
      record(span, .type(type))
      return .invalid(span)
    }
    reportUnknownName(name, span, in: scope)
    return .invalid(span)
  }

  func reportUnknownName(_ name: String, _ span: Span, in scope: Scope) {
    // The suggestions are indexed on first use: not in a half checked ahead.
    if speculative { return abandonSpeculation(()) }
    var notes: [DiagnosticNote] = []
    var fixes: [Fix] = []
    if let suggestion = Suggestions.closest(to: name, in: globalSuggestions, and: scope.names) {
      notes.append(DiagnosticNote(.help, "did you mean '\(suggestion)'?"))
      fixes.append(Fix(title: "Change to '\(suggestion)'", replacements: [TextReplacement(span: span, text: suggestion)]))
    } else if let note = jurisdictionParameterNote(name, called: false) {
      notes.append(note)
    } else if let code = provinceCode(named: name) {
      notes.append(DiagnosticNote(.help, "did you mean '\(code)'? A province is written by its code"))
      fixes.append(Fix(title: "Change to '\(code)'", replacements: [TextReplacement(span: span, text: code)]))
    } else if name.count == 2, name == name.uppercased(), !provinceCodes.isEmpty {
      notes.append(DiagnosticNote(.note, "the provinces and territories are \(provinceCodes.sorted().joined(separator: " "))"))
    }
    error(.unknownName(name), at: span, notes: notes, fixes: fixes)
  }

  /// The code of the province or territory whose full name this is, in any case, with `_` for spaces
  /// (`Ontario`, `british_columbia`).
  func provinceCode(named name: String) -> String? {
    let wanted = String(name.lowercased().map { $0 == "_" ? " " : $0 })
    guard !wanted.isEmpty else { return nil }
    return jurisdictionDeclarations.values.filter { declaration in
      declaration.kind == .province && declaration.fullName?.lowercased() == wanted
    }.map(\.code.name).min()
  }

  // MARK: Operators

  func checkUnary(
    _ op: UnaryOperator, _ operand: Expression, _ operatorSpan: Span, _ span: Span, in scope: inout Scope
  ) -> TypedExpression {
    let typed = check(operand, in: &scope)
    switch op {
    case .negate:
      if typed.type == .error { return .invalid(span) }
      guard typed.type.isNumeric else {
        error(
          .cannotNegate(typed.type), at: span,
          notes: [DiagnosticNote(.note, "'-' works on Money, Rate and Number")])
        return .invalid(span)
      }
      return node(.negate(typed), typed.type, span)
    case .not:
      if typed.type == .error { return .invalid(span) }
      guard typed.type == .bool else {
        error(.notNeedsBool(typed.type), at: operand.span)
        return .invalid(span)
      }
      return node(.not(typed), .bool, span)
    }
  }

  /// The operation and result type of `left op right`, or nil when the types do not combine.
  static func arithmetic(_ op: BinaryOperator, _ left: TaxType, _ right: TaxType) -> (ArithmeticOperation, TaxType)? {
    switch op {
    case .add, .subtract:
      if left == right && left.isNumeric { return (op == .add ? .add : .subtract, left) }
      if (left == .money || left == .number) && right == .rate {
        return (op == .add ? .addPercentage : .subtractPercentage, left)
      }
      return nil
    case .multiply:
      switch (left, right) {
      case (.money, .number), (.money, .rate), (.number, .money), (.rate, .money): return (.multiply, .money)
      // Scaling a rate keeps it a rate: `13% * 2` is 26%. A rate *of* a number is written with `of`.
      case (.rate, .rate), (.rate, .number), (.number, .rate): return (.multiply, .rate)
      case (.number, .number): return (.multiply, .number)
      default: return nil
      }
    case .of:
      // `10% of $200` is `$200 * 10%`, and `15% of 200` is 30: a rate of something is of that thing's type.
      guard left == .rate, right.isNumeric else { return nil }
      return (.multiply, right)
    case .power:
      // An amount to a power has no unit; a growth factor (Number) or a Rate may be raised to a Number.
      guard right == .number, left == .number || left == .rate else { return nil }
      return (.power, left)
    case .modulo:
      if left == right && left.isNumeric { return (.modulo, left) }
      if left == .money && right == .number { return (.modulo, .money) }
      return nil
    case .divide:
      switch (left, right) {
      case (.money, .number), (.money, .rate): return (.divide, .money)
      case (.money, .money): return (.divide, .rate)
      case (.rate, .rate): return (.divide, .number)
      case (.rate, .number): return (.divide, .rate)
      case (.number, .rate), (.number, .number): return (.divide, .number)
      default: return nil
      }
    default:
      return nil
    }
  }

  func checkBinary(
    _ op: BinaryOperator, _ left: Expression, _ right: Expression, _ operatorSpan: Span, _ span: Span,
    in scope: inout Scope
  ) -> TypedExpression {
    let typedLeft = check(left, in: &scope)
    let typedRight = check(right, in: &scope)
    if typedLeft.type == .error || typedRight.type == .error { return .invalid(span) }
    let l = typedLeft.type
    let r = typedRight.type
    switch op {
    case .and, .or:
      for (typed, syntax) in [(typedLeft, left), (typedRight, right)] where typed.type != .bool {
        error(.logicNeedsBool(op, typed.type), at: syntax.span)
        return .invalid(span)
      }
      return node(op == .and ? .and(typedLeft, typedRight) : .or(typedLeft, typedRight), .bool, span)
    case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
      if l != r {
        var notes: [DiagnosticNote] = []
        var fixes: [Fix] = []
        addLiteralHint(right, expected: l, notes: &notes, fixes: &fixes)
        if notes.isEmpty { addLiteralHint(left, expected: r, notes: &notes, fixes: &fixes) }
        error(.cannotCompare(l, r), at: span, notes: notes, fixes: fixes)
        return .invalid(span)
      }
      if op != .equal && op != .notEqual && !l.isNumeric {
        error(
          .orderNeedsNumbers(op, l), at: operatorSpan)
        return .invalid(span)
      }
      if l == .brackets || l == .federal {
        error(.notComparable(l == .brackets ? "bracket tables" : "'federal'"), at: operatorSpan)
        return .invalid(span)
      }
      return node(.comparison(op, typedLeft, typedRight), .bool, span)
    case .add, .subtract, .multiply, .divide, .power, .modulo, .of:
      if let (operation, type) = Checker.arithmetic(op, l, r) {
        // `X of Y` is evaluated (and explained) as `Y × X`.
        let (first, second) = op == .of ? (typedRight, typedLeft) : (typedLeft, typedRight)
        return node(.arithmetic(operation, first, second), type, span)
      }
      reportArithmetic(op, left, right, l, r, operatorSpan, span)
      return .invalid(span)
    }
  }

  func reportArithmetic(
    _ op: BinaryOperator, _ left: Expression, _ right: Expression, _ l: TaxType, _ r: TaxType, _ operatorSpan: Span,
    _ span: Span
  ) {
    var notes: [DiagnosticNote] = []
    var fixes: [Fix] = []
    let arithmeticTypes: Set<TaxType> = [.money, .rate, .number]
    if !arithmeticTypes.contains(l) || !arithmeticTypes.contains(r) {
      notes.append(DiagnosticNote(.note, "arithmetic works on Money, Rate and Number"))
    } else if op == .add || op == .subtract {
      if l == .rate && r == .number {
        addLiteralHint(right, expected: .rate, notes: &notes, fixes: &fixes)
      }
      if l == .rate && r != .rate && notes.isEmpty {
        notes.append(
          DiagnosticNote(
            .help, "a percentage of an amount is written with the amount first, e.g. '$100 \(op.rawValue) 15%'"))
      } else if (l == .number && r == .money) || (l == .money && r == .number) {
        let numberSide = l == .number ? left : right
        addLiteralHint(numberSide, expected: .money, notes: &notes, fixes: &fixes)
        if notes.isEmpty {
          notes.append(DiagnosticNote(.help, "a Number has no unit; to count it in dollars, multiply it by $1"))
        }
      }
    } else if op == .multiply && l == .money && r == .money {
      notes.append(
        DiagnosticNote(
          .note, "money times money has no meaning; multiply an amount by a Rate (13%) or a Number (2)"))
    } else if op == .power && l == .money {
      notes.append(
        DiagnosticNote(
          .note,
          "an amount of money to a power has no meaning; raise the growth factor instead: $1,000 * (1 + 5%)^30"))
    } else if op == .power {
      notes.append(DiagnosticNote(.note, "a power is a Number or a Rate raised to a Number: 2^10, (1 + 5%)^30"))
    } else if op == .of {
      notes.append(DiagnosticNote(.note, "'of' takes a rate of something: 10% of $200"))
    } else if op == .divide && r == .money {
      notes.append(
        DiagnosticNote(.note, "only an amount can be divided by an amount: $200 / $800 is 25%"))
    }
    error(.arithmetic(op, l, r), at: span, notes: notes, fixes: fixes)
  }

  /// "did you mean `$1200`?" when a literal of another kind was written where `expected` is needed.
  func addLiteralHint(_ syntax: Expression, expected: TaxType, notes: inout [DiagnosticNote], fixes: inout [Fix]) {
    var literal = syntax
    var negative = false
    if case .unary(.negate, let operand, _) = syntax.kind {
      literal = operand
      negative = true
    }
    var written = text(of: literal.span)
    var replaced = literal.span
    var suggestion: String? = nil
    switch (literal.kind, expected) {
    case (.number, .money):
      // `85,000` read as the arguments 85 and 000 (a `$` forgotten, or eaten by a shell from "$85,000"): the whole
      // amount is meant, not $85.
      if let end = groupedDigitsEnd(after: literal.span) {
        replaced = Span(file: literal.span.file, start: literal.span.start, end: end)
        written = text(of: replaced)
      }
      suggestion = "$" + written
    case (.number, .rate):
      // 0.2 where a rate is wanted most likely means 20%.
      if case .number(let value) = literal.kind, value < .one, !value.isInteger,
        let percent = try? value.scaled(byPowerOfTen: 2)
      {
        suggestion = percent.trimmed.description + "%"
      } else {
        suggestion = written + "%"
      }
    case (.money, .number):
      suggestion = String(written.dropFirst()).replacingOccurrences(",", with: "_")
    case (.rate, .number):
      suggestion = String(written.dropLast())
    case (.text(let value), .province):
      // "ON" or "Ontario" in quotes: a province is a code, not text.
      if let declaration = jurisdictionDeclarations[value.uppercased()], declaration.kind == .province {
        suggestion = declaration.code.name
      } else {
        suggestion = provinceCode(named: value)
      }
    default:
      break
    }
    guard let suggestion else { return }
    let full = (negative ? "-" : "") + suggestion
    notes.append(DiagnosticNote(.help, "did you mean '\(full)'?"))
    fixes.append(Fix(title: "Write '\(full)'", replacements: [TextReplacement(span: replaced, text: suggestion)]))
  }

  /// Where digits grouped by commas end when the number at `span` is their first group (`Lexer.groupedDigitsEnd`).
  func groupedDigitsEnd(after span: Span) -> Int? {
    guard let bytes = sources[span.file]?.bytes else { return nil }
    return Lexer.groupedDigitsEnd(in: bytes, firstGroup: span.start..<span.end)
  }

  // MARK: Conditionals and tables

  func checkConditional(
    _ condition: Expression, _ thenBranch: Expression, _ elseBranch: Expression, _ span: Span, in scope: inout Scope
  ) -> TypedExpression {
    let typedCondition = check(condition, in: &scope)
    let typedThen = check(thenBranch, in: &scope)
    let typedElse = check(elseBranch, in: &scope)
    var failed = false
    if typedCondition.type != .bool && typedCondition.type != .error {
      var notes: [DiagnosticNote] = []
      if typedCondition.type.isNumeric {
        notes.append(DiagnosticNote(.help, "compare it with something, e.g. '\(text(of: condition.span)) > \(zero(typedCondition.type))'"))
      }
      error(
        .conditionNotBool(typedCondition.type),
        at: condition.span, notes: notes)
      failed = true
    }
    let thenType = typedThen.type
    let elseType = typedElse.type
    var type = thenType == .error ? elseType : thenType
    if thenType != .error && elseType != .error && thenType != elseType {
      var notes = [
        DiagnosticNote(.note, "this branch is \(thenType)", span: thenBranch.span),
        DiagnosticNote(.note, "this branch is \(elseType)", span: elseBranch.span),
      ]
      var fixes: [Fix] = []
      addLiteralHint(elseBranch, expected: thenType, notes: &notes, fixes: &fixes)
      if fixes.isEmpty { addLiteralHint(thenBranch, expected: elseType, notes: &notes, fixes: &fixes) }
      error(
        .branchesDiffer(thenType, elseType), at: span,
        notes: notes, fixes: fixes)
      failed = true
      type = .error
    }
    if failed || type == .error { return .invalid(span) }
    return node(.conditional(typedCondition, typedThen, typedElse), type, span)
  }

  func zero(_ type: TaxType) -> String {
    switch type {
    case .money: "$0"
    case .rate: "0%"
    default: "0"
    }
  }

  func checkBrackets(_ rows: [BracketRow], _ span: Span, in scope: inout Scope) -> TypedExpression {
    var typedRows: [TypedBracketRow] = []
    var failed = false
    var previous: (ExactDecimal, Span)? = nil
    if rows.isEmpty {
      error(.emptyBrackets, at: span)
      return .invalid(span)
    }
    for row in rows {
      // A literal threshold is compared with the row before's: built even when bodies are not kept.
      let keptLiterals = keepsLiterals
      keepsLiterals = true
      let threshold = expect(row.threshold, .money, in: &scope, role: "a bracket's threshold")
      keepsLiterals = keptLiterals
      let rate = expect(row.rate, .rate, in: &scope, role: "a bracket's rate")
      if threshold.type == .error || rate.type == .error { failed = true }
      if case .literal(.money(let amount)) = threshold.kind {
        if let (before, beforeSpan) = previous, amount <= before {
          error(
            .unorderedBrackets(amount, after: before),
            at: row.threshold.span, notes: [DiagnosticNote(.note, "the row before", span: beforeSpan)])
          failed = true
        }
        previous = (amount, row.threshold.span)
      } else {
        previous = nil
      }
      typedRows.append(TypedBracketRow(threshold: threshold, rate: rate))
    }
    if failed { return .invalid(span) }
    return TypedExpression(.brackets(typedRows), .brackets, span)
  }

  // MARK: Member access

  func checkMember(_ object: Expression, _ member: Identifier, _ span: Span, in scope: inout Scope) -> TypedExpression {
    // The jurisdiction named, and its kind: its declaration is looked up once.
    var code: String? = nil
    var kind = JurisdictionKind.province
    if case .federal = object.kind {
      guard let federal = jurisdictionDeclarations["federal"]?.kind else {
        error(.noFederal, at: object.span)
        return .invalid(span)
      }
      code = "federal"
      kind = federal
    } else if case .name(let name) = object.kind, !scope.contains(name), predefined[name] == nil,
      jurisdictionDeclarations[name]?.kind == .province
    {
      record(object.span, .jurisdiction(name))
      code = name
    }
    if let code {
      if member.name == "name" {
        return node(
          .jurisdictionName(
            TypedExpression(
              code == "federal" ? .federal : .literal(.province(code)), code == "federal" ? .federal : .province,
              object.span)), .text, span)
      }
      guard let type = parameterType(code, kind: kind, member.name, usedAt: member.span) else {
        let candidates = Set(definitionSyntax(code).values.flatMap { $0.keys })
          .union(interface(for: kind)?.members.map(\.name) ?? [])
        reportUnknownMember(member, of: displayName(code), candidates: candidates)
        return .invalid(span)
      }
      record(member.span, .jurisdictionParameter(kind, member.name), jurisdiction: code)
      edge(from: scope, to: .parameter(jurisdiction: code, name: member.name))
      return node(.parameter(jurisdiction: code, name: member.name), type, span)
    }
    let typedObject = check(object, in: &scope)
    switch typedObject.type {
    case .error:
      return .invalid(span)
    case .province:
      if member.name == "name" { return node(.jurisdictionName(typedObject), .text, span) }
      guard let interface = interfaces["Province"] else {
        error(
          .noProvinceInterface,
          at: member.span)
        return .invalid(span)
      }
      guard let info = interface.member(member.name) else {
        var candidates = Set(interface.members.map(\.name))
        candidates.insert("name")
        reportUnknownMember(
          member, of: "Province", candidates: candidates,
          extra: DiagnosticNote(
            .note, "a Province value has the parameters every province must define ('parameters Province')",
            span: interface.nameSpan))
        return .invalid(span)
      }
      record(member.span, .jurisdictionParameter(.province, member.name))
      return node(.provinceParameter(typedObject, name: member.name), info.type, span)
    default:
      error(
        .hasNoParameters(typedObject.type), at: member.span)
      return .invalid(span)
    }
  }

  func reportUnknownMember(_ member: Identifier, of owner: String, candidates: Set<String>, extra: DiagnosticNote? = nil) {
    var notes: [DiagnosticNote] = []
    var fixes: [Fix] = []
    if let suggestion = Suggestions.closest(to: member.name, among: candidates.sorted()) {
      notes.append(DiagnosticNote(.help, "did you mean '\(suggestion)'?"))
      fixes.append(
        Fix(title: "Change to '\(suggestion)'", replacements: [TextReplacement(span: member.span, text: suggestion)]))
    }
    if let extra { notes.append(extra) }
    error(.noParameter(owner, member.name), at: member.span, notes: notes, fixes: fixes)
  }
}
