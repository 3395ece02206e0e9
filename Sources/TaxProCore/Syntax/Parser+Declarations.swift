extension Parser {
  // MARK: Formulas

  mutating func parseFormula() -> FormulaDeclaration? {
    let keyword = advance()
    let documentation = documentation(before: keyword)
    guard let name = expectIdentifier("the formula's name") else {
      skipToDeclaration()
      return nil
    }
    var parameters: [Parameter] = []
    if let open = expect(.leftParen, "'(' and the formula's parameters") {
      if let length = listLength() { parameters.reserveCapacity(length) }
      while !at(.rightParen) && !at(.endOfFile) && !atNextDeclaration {
        let before = position
        parseParameter(into: &parameters)
        if at(.comma) {
          advance()
        } else if !at(.rightParen) {
          errorAtCurrent(.expected("',' or ')' after a parameter", found: describe(current)))
          // Skip to the next comma or the closing parenthesis.
          while !at(.comma) && !at(.rightParen) && !at(.endOfFile) && !(current.startsLine && current.column == 0) {
            advance()
          }
          if at(.comma) { advance() }
        }
        if position == before { advance() }
      }
      expect(.rightParen, "')'") { [DiagnosticNote(.note, "to close this '('", span: $0.span(open))] }
    }
    var returnType: TypeAnnotation? = nil
    if at(.colon) {
      advance()
      returnType = parseType()
    } else if at(.arrow) {
      returnType = parseArrowResultType()
    }
    var lets: [LetBinding] = []
    var result = Expression(.missing, previousSpan)
    if expect(.equal, "'=' and the formula's body") != nil {
      (lets, result) = parseBody()
    }
    let end = result.kind.isMissing ? previousSpan : result.span
    return FormulaDeclaration(.init(
      documentation: documentation, name: name, parameters: parameters, returnType: returnType, lets: lets,
      result: result, span: span(keyword).to(end)))
  }

  /// `-> Money` after a formula's parameters, as Swift, Rust and Python annotate a result: one error with the fix to
  /// `: Money` (the space before the arrow goes too), and the type read on as the formula's result type.
  mutating func parseArrowResultType() -> TypeAnnotation? {
    let arrow = span(current)
    let replaced = Span(file: arrow.file, start: previousSpan.end, end: arrow.end)
    error(
      .arrowBeforeResultType, at: arrow,
      notes: [DiagnosticNote(.help, "a formula's result type follows ':', like \(Parser.formulaExample)")],
      fixes: [Fix(title: "Write ':'", replacements: [TextReplacement(span: replaced, text: ":")])])
    lastErrorPosition = position
    advance()
    return parseType()
  }

  /// `in LOW..HIGH`, if the next token is `in` (a parameter's range, a named amount's budget line); `between` says
  /// what the `..` separates when it is missing.
  mutating func parseRange(_ between: String) -> RangeConstraint? {
    guard at(.kwIn) else { return nil }
    let keyword = advance()
    let lower = parseExpression()
    guard expect(.dotDot, between) != nil else { return nil }
    let upper = parseExpression()
    return RangeConstraint(lower: lower, upper: upper, span: span(keyword).to(upper.span))
  }

  /// A parameter, appended to `parameters` when it is whole: appended here rather than returned as an optional that the
  /// caller unwraps and appends, which cost about 60 instructions a parameter more (callgrind, `taxpro check`).
  mutating func parseParameter(into parameters: inout [Parameter]) {
    let first = current
    let documentation = documentation(before: first)
    guard let name = expectIdentifier("a parameter name") else { return }
    guard expect(.colon, "':' and the parameter's type", notes: { _ in
      [DiagnosticNote(.help, "every parameter has a type, e.g. '\(name.name): Money'")]
    }) != nil else {
      return
    }
    guard let type = parseType() else { return }
    // Asked here first: most parameters have no range, and the call only to find none cost 60 instructions.
    let range = at(.kwIn) ? parseRange("'..' between the lowest and highest allowed values") : nil
    var defaultValue: Expression? = nil
    if at(.equal) {
      advance()
      defaultValue = parseExpression()
    }
    let span = name.span.to(defaultValue?.span ?? range?.span ?? type.span)
    parameters.append(
      Parameter(
        documentation: consume documentation, name: consume name, type: consume type, range: consume range,
        defaultValue: consume defaultValue, span: span))
  }

  mutating func parseType() -> TypeAnnotation? {
    if at(.identifier) {
      let token = advance()
      return TypeAnnotation(name: nameText(token), span: span(token))
    }
    errorAtCurrent(
      .expected("a type", found: describe(current)),
      notes: [DiagnosticNote(.help, "the types are \(TaxType.writtenList)")])
    return nil
  }

  /// `let` lines, then the result expression.
  mutating func parseBody() -> ([LetBinding], Expression) {
    var lets: [LetBinding] = []
    while at(.kwLet) && !atDeclarationAfterBlock {
      let errorsBefore = diagnostics.count
      if let binding = parseLet() { lets.append(binding) }
      finishStatement("a let", errorsBefore: errorsBefore)
      skipNewlines()
    }
    if at(.endOfFile) {
      errorAtCurrent(
        .missingBody(afterLets: !lets.isEmpty))
      return (lets, Expression(.missing, previousSpan))
    }
    if current.startsLine && current.column == 0 && isDeclarationStart(declarationKind) || at(.rightBrace) {
      error(
        .emptyBody(afterLets: !lets.isEmpty),
        at: previousSpan,
        notes: [DiagnosticNote(.help, "a formula's body ends with the expression it computes")])
      return (lets, Expression(.missing, previousSpan))
    }
    let result = parseExpression()
    return (lets, result)
  }

  mutating func parseLet() -> LetBinding? {
    let keyword = advance()
    guard let name = expectIdentifier("a name after 'let'") else {
      skipRestOfLine()
      return nil
    }
    var type: TypeAnnotation? = nil
    if at(.colon) {
      advance()
      type = parseType()
    }
    guard expect(.equal, "'=' and a value") != nil else {
      skipRestOfLine()
      return nil
    }
    let value = parseExpression()
    return LetBinding(name: name, type: type, value: value, span: span(keyword).to(value.span))
  }

  // MARK: Tests

  mutating func parseTest() -> TestDeclaration? {
    let keyword = advance()
    let documentation = documentation(before: keyword)
    var name = ""
    var nameSpan = span(keyword)
    if at(.string) {
      let token = advance()
      name = unescape(token)
      nameSpan = span(token)
    } else {
      errorAtCurrent(.expected("the test's name in quotes", found: describe(current)))
    }
    var year: Int? = nil
    var yearSpan: Span? = nil
    if declarationKind == .kwYear {
      advance()
      (year, yearSpan) = parseYearNumber()
    }
    var items: [TestItem] = []
    let end = parseBlock("the test's checks") { parser in
      let errorsBefore = parser.diagnostics.count
      if parser.at(.kwLet) {
        if let binding = parser.parseLet() { items.append(.binding(binding)) }
      } else {
        items.append(.check(parser.parseExpression()))
      }
      parser.finishStatement("a check", errorsBefore: errorsBefore)
    }
    return TestDeclaration(
      documentation: documentation, name: name, nameSpan: nameSpan, year: year, yearSpan: yearSpan, items: items,
      span: span(keyword).to(end))
  }

  mutating func parseYearNumber() -> (Int?, Span?) {
    guard at(.number) else {
      errorAtCurrent(.expected("a year such as 2025", found: describe(current)))
      return (nil, nil)
    }
    let token = advance()
    let digits = text(token).filter { $0 != "_" }
    guard let year = Int(digits), year >= 1, year <= 9999 else {
      error(.yearNotWhole, at: span(token))
      return (nil, span(token))
    }
    return (year, span(token))
  }

  /// `{ item… }` where items are separated by newlines; returns the span of the closing brace.
  mutating func parseBlock(_ what: String, item: (inout Parser) -> Void) -> Span {
    guard let open = expect(.leftBrace, "'{' and \(what)") else {
      skipToDeclaration()
      return previousSpan
    }
    skipNewlines()
    // An unclosed block ends at the next declaration rather than take it in (`atDeclarationAfterBlock`).
    while !at(.rightBrace) && !at(.endOfFile) && !atDeclarationAfterBlock {
      let before = position
      item(&self)
      // An expression nested too deeply skipped to the next line at column 0: the block cannot be trusted past it,
      // and what follows belongs to the top level (otherwise the block would swallow the rest of the file).
      if abandoning { break }
      if position == before {
        errorAtCurrent(.unexpected(describe(current), in: what))
        advance()
      }
      skipNewlines()
    }
    var notes = [DiagnosticNote(.note, "to close this '{'", span: span(open))]
    if at(.kwLet) && atDeclarationAfterBlock {
      notes.append(DiagnosticNote(.note, "a 'let' at the left margin below '##' documentation is a constant of its own"))
    }
    if let close = expect(.rightBrace, "'}'", notes: notes) {
      return span(close)
    }
    return previousSpan
  }

  // MARK: Interfaces and jurisdictions

  mutating func parseInterface() -> InterfaceDeclaration? {
    let keyword = advance()
    let documentation = documentation(before: keyword)
    guard let name = expectIdentifier("the interface's name, such as Province") else {
      skipToDeclaration()
      return nil
    }
    var members: [InterfaceMember] = []
    let end = parseBlock("the parameters every jurisdiction must define") { parser in
      let errorsBefore = parser.diagnostics.count
      let first = parser.current
      let documentation = parser.documentation(before: first)
      if let memberName = parser.expectIdentifier("a parameter name") {
        if parser.expect(.colon, "':' and the parameter's type") != nil, let type = parser.parseType() {
          members.append(
            InterfaceMember(
              documentation: documentation, name: memberName, type: type, span: memberName.span.to(type.span)))
        }
      } else if !parser.at(.rightBrace) {
        parser.advance()
      }
      parser.finishStatement("a parameter", errorsBefore: errorsBefore)
    }
    return InterfaceDeclaration(documentation: documentation, name: name, members: members, span: span(keyword).to(end))
  }

  mutating func parseJurisdiction() -> JurisdictionDeclaration? {
    let keyword = advance()
    let documentation = documentation(before: keyword)
    let kind: JurisdictionKind = keyword.kind == .kwFederal ? .federal : .province
    var code = Identifier("federal", span: span(keyword))
    if kind == .province {
      guard let name = expectIdentifier("the province's code, such as ON") else {
        skipToDeclaration()
        return nil
      }
      code = name
    }
    var fullName: String? = nil
    if at(.string) { fullName = unescape(advance()) }
    var years: [YearBlock] = []
    let end = parseBlock("the jurisdiction's years") { parser in
      let errorsBefore = parser.diagnostics.count
      guard parser.declarationKind == .kwYear else {
        parser.errorAtCurrent(
          .expected("'year' and a block of parameters", found: parser.describe(parser.current)),
          notes: [DiagnosticNote(.help, "parameters are grouped by tax year: year 2025 { name = value }")])
        parser.skipRestOfLine()
        if parser.position < parser.tokens.count, parser.at(.leftBrace) { parser.advance() }
        return
      }
      let yearKeyword = parser.advance()
      let (year, yearSpan) = parser.parseYearNumber()
      var definitions: [ParameterDefinition] = []
      let blockEnd = parser.parseBlock("the year's parameters") { parser in
        let errorsBefore = parser.diagnostics.count
        let first = parser.current
        let documentation = parser.documentation(before: first)
        if let name = parser.expectIdentifier("a parameter name") {
          if parser.expect(.equal, "'=' and the parameter's value") != nil {
            let value = parser.parseExpression()
            definitions.append(
              ParameterDefinition(documentation: documentation, name: name, value: value, span: name.span.to(value.span)))
          }
        } else if !parser.at(.rightBrace) {
          parser.advance()
        }
        parser.finishStatement("a parameter", errorsBefore: errorsBefore)
      }
      if let year, let yearSpan {
        years.append(
          YearBlock(year: year, yearSpan: yearSpan, definitions: definitions, span: parser.span(yearKeyword).to(blockEnd)))
      }
      parser.finishStatement("a year", errorsBefore: errorsBefore)
    }
    return JurisdictionDeclaration(
      documentation: documentation, kind: kind, code: code, fullName: fullName, years: years, span: span(keyword).to(end))
  }

  // MARK: Literals

  /// The text of a string token without quotes, with escapes resolved.
  func unescape(_ token: Token) -> String {
    var bytes = Array(source.bytes[token.range])
    if bytes.first == UInt8(ascii: "\"") { bytes.removeFirst() }
    if bytes.last == UInt8(ascii: "\""), !bytes.isEmpty { bytes.removeLast() }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
        let next = bytes[index + 1]
        switch next {
        case UInt8(ascii: "n"): result.append(10)
        case UInt8(ascii: "t"): result.append(9)
        default: result.append(next)
        }
        index += 2
        continue
      }
      result.append(byte)
      index += 1
    }
    return String(decoding: result, as: UTF8.self)
  }
}

extension ExpressionKind {
  var isMissing: Bool {
    if case .missing = self { return true }
    return false
  }
}
