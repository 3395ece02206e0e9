extension Parser {
  mutating func parseExpression() -> Expression {
    if depth == 0 { operators = 0 }
    guard enter() else { return Expression(.missing, span(current)) }
    defer { depth -= 1 }
    return parseBinary(minimumPrecedence: 1)
  }

  /// Counts nesting; past the limit reports once and abandons the declaration.
  mutating func enter() -> Bool {
    depth += 1
    if depth <= Parser.maximumDepth { return true }
    depth -= 1
    tooDeep()
    return false
  }

  /// More operators in one expression than `maximumOperators`: reported once, and the declaration is abandoned.
  mutating func tooLong() {
    if !abandoning {
      error(.tooManyOperators, at: span(current), notes: [DiagnosticNote(.help, "name parts of it with 'let' lines")])
      abandoning = true
    }
    while !at(.endOfFile) && !(current.startsLine && current.column == 0) { advance() }
  }

  mutating func tooDeep() {
    if !abandoning {
      error(
        .tooDeep,
        at: span(current), notes: [DiagnosticNote(.help, "name parts of it with 'let' lines")])
      abandoning = true
    }
    // Skip the rest of the declaration: nothing in it can be trusted now.
    while !at(.endOfFile) && !(current.startsLine && current.column == 0) { advance() }
  }

  func binaryOperator(_ kind: TokenKind) -> BinaryOperator? { binaryOperators[Int(kind.rawValue)] }

  /// `not` binds looser than comparisons and tighter than `and`: `not a == b` is `not (a == b)`.
  static let notPrecedence = 3

  mutating func parseBinary(minimumPrecedence: Int) -> Expression {
    continueBinary(parseOperand(minimumPrecedence: minimumPrecedence), minimumPrecedence: minimumPrecedence)
  }

  /// The operand a binary expression of operators binding at least `minimumPrecedence` starts with: a plain name or
  /// literal directly (most operands are one, and the chain `parseUnary` → `parsePower` → `parsePostfix` →
  /// `parsePrimary` returned each through four calls), anything else through that chain.
  @inline(__always) mutating func parseOperand(minimumPrecedence: Int) -> Expression {
    if let leaf = parseLeaf() { return leaf }
    return minimumPrecedence <= Parser.notPrecedence && at(.kwNot) ? parseNot() : parseUnary()
  }

  /// The operators after `left` that bind at least `minimumPrecedence`, applied to it (precedence climbing).
  mutating func continueBinary(_ left: consuming Expression, minimumPrecedence: Int) -> Expression {
    var lastComparison: Span? = nil
    while let op = binaryOperator(kind), op.precedence >= minimumPrecedence {
      if abandoning { break }
      let operatorToken = advance()
      // Operators in a row are not nesting (`1 + 2 + … + 257` is flat): they are counted apart.
      operators += 1
      if operators > Parser.maximumOperators {
        tooLong()
        break
      }
      if op.isComparison {
        if let previous = lastComparison {
          error(
            .chainedComparison, at: span(operatorToken),
            notes: [
              DiagnosticNote(.note, "after this comparison", span: previous),
              DiagnosticNote(.help, "write 'a < b and b < c'"),
            ])
        }
        lastComparison = span(operatorToken)
      }
      // The right operand, and the operators after it that bind tighter than `op`: when the next operator binds no
      // tighter (`a * b + c` at `b`), the operand is the whole right side, without another call.
      var right = parseOperand(minimumPrecedence: op.precedence + 1)
      if let next = binaryOperator(kind), next.precedence > op.precedence, !abandoning {
        right = continueBinary(right, minimumPrecedence: op.precedence + 1)
      }
      let whole = left.span.to(right.span)
      left = Expression(.binary(op, consume left, consume right, operatorSpan: span(operatorToken)), whole)
    }
    return left
  }

  /// A name or a literal that is a whole operand (no `.`, call or `^` after it), as `parsePrimary` makes it; nil for
  /// anything else, and for a token at the left margin, where a declaration may start (`atNextDeclaration`).
  @inline(__always) mutating func parseLeaf() -> Expression? {
    let token = tokens[position]
    guard token.kind.rawValue <= TokenKind.rate.rawValue, !(token.startsLine && token.column == 0),
      position + 1 < tokens.count
    else { return nil }
    let next = tokens[position + 1].kind
    guard next != .dot && next != .leftParen && next != .caret else { return nil }
    switch token.kind {
    case .identifier:
      position += 1
      return Expression(.name(nameText(token)), span(token))
    case .number, .money, .rate:
      position += 1
      return literal(token)
    default:
      return nil
    }
  }

  /// The expression of a number, money or rate token just read (by `parsePrimary`, or `parseLeaf` for a whole
  /// operand): money rounded to cents, a rate as the fraction its percentage is.
  @inline(__always) mutating func literal(_ token: Token) -> Expression {
    switch token.kind {
    case .money:
      let value = literalValue(token, dropping: 1).rounded(places: 2, .halfAwayFromZero)
      return Expression(.money(value), span(token))
    case .rate:
      let value = literalValue(token, dropping: 0)
      let fraction = (try? value.scaled(byPowerOfTen: -2)) ?? .zero
      return Expression(.rate(fraction), span(token))
    default:
      return Expression(.number(literalValue(token, dropping: 0)), span(token))
    }
  }

  mutating func parseUnary() -> Expression {
    switch kind {
    case .minus:
      let token = advance()
      guard enter() else { return Expression(.missing, span(token)) }
      defer { depth -= 1 }
      let operand = parseUnary()
      return Expression(.unary(.negate, operand, operatorSpan: span(token)), span(token).to(operand.span))
    case .plus:
      errorAtCurrent(.unexpected("'+'"), notes: [DiagnosticNote(.help, "write the value without a '+'")])
      advance()
      return parseUnary()
    default:
      return parsePower()
    }
  }

  /// `base ^ exponent`: tighter than unary minus on its left (`-2^2` is `-(2^2)`), and the exponent may have its own
  /// sign and power (`2^-2`, `2^3^2` is `2^(3^2)`).
  mutating func parsePower() -> Expression {
    let base = parsePostfix()
    guard at(.caret) else { return base }
    let token = advance()
    guard enter() else { return base }
    defer { depth -= 1 }
    let exponent = parseUnary()
    return Expression(.binary(.power, base, exponent, operatorSpan: span(token)), base.span.to(exponent.span))
  }

  mutating func parseNot() -> Expression {
    let token = advance()
    guard enter() else { return Expression(.missing, span(token)) }
    defer { depth -= 1 }
    let operand = at(.kwNot) ? parseNot() : parseBinary(minimumPrecedence: BinaryOperator.equal.precedence)
    return Expression(.unary(.not, operand, operatorSpan: span(token)), span(token).to(operand.span))
  }

  mutating func parsePostfix() -> Expression {
    var expression = parsePrimary()
    var chain = 0
    while true {
      if at(.dot) || at(.leftParen) {
        // Each access nests the tree one level deeper: `a.b.c…` a hundred thousand times long is too deep.
        chain += 1
        if depth + chain > Parser.maximumDepth {
          tooDeep()
          break
        }
      }
      if at(.dot) {
        advance()
        guard let member = expectIdentifier("a parameter name after '.'") else { break }
        expression = Expression(.member(expression, member), expression.span.to(member.span))
      } else if at(.leftParen) {
        guard case .name(let name) = expression.kind else {
          let reported = diagnostics.count
          errorAtCurrent(
            .onlyNamesAreCalled, notes: [DiagnosticNote(.help, "call a formula by its name: name(arguments)")])
          let (arguments, _) = parseArguments()
          // `ON.income_tax($85,000)`: a jurisdiction's member called is, most likely, a table of brackets applied.
          if case .member = expression.kind, diagnostics.count == reported + 1, arguments.count == 1,
            arguments[0].labels.isEmpty
          {
            let table = source.text(of: expression.span)
            let amount = source.text(of: arguments[0].value.span)
            diagnostics[reported].notes = [
              DiagnosticNote(.help, "a table of brackets is applied with tax: tax(\(table), \(amount))")
            ]
          }
          break
        }
        let callee = Identifier(name, span: expression.span)
        let (arguments, end) = parseArguments()
        expression = Expression(.call(callee, arguments), expression.span.to(end))
      } else {
        break
      }
    }
    return expression
  }

  /// `( arguments )`; returns them and the span of the closing parenthesis.
  mutating func parseArguments() -> ([Argument], Span) {
    let open = advance()
    var arguments: [Argument] = []
    if let length = listLength() { arguments.reserveCapacity(length) }
    while !at(.rightParen) && !at(.endOfFile) && !abandoning && !atNextDeclaration {
      let before = position
      var label: Identifier? = nil
      if at(.identifier) && peekKind(1) == .colon {
        let token = advance()
        label = Identifier(nameText(token), span: span(token))
        advance()
      }
      arguments.append(Argument(label: label, value: parseArgumentValue()))
      if at(.comma) {
        advance()
      } else if !at(.rightParen) {
        errorAtCurrent(.expected("',' or ')' in the arguments", found: describe(current)))
        while !at(.comma) && !at(.rightParen) && !at(.endOfFile) && !(current.startsLine && current.column == 0) {
          advance()
        }
        if at(.comma) { advance() }
      }
      if position == before { advance() }
    }
    let close = expect(.rightParen, "')'") { [DiagnosticNote(.note, "to close this '('", span: $0.span(open))] }
    if let close {
      return (arguments, span(close))
    }
    return (arguments, previousSpan)
  }

  /// An argument's value: `parseExpression`, with the usual argument, a name or literal alone before `,` or `)`, taken
  /// without the calls through `parseExpression` and `continueBinary` that find nothing after it. Inside an expression
  /// (`depth` above 0) and below the depth limit, where `parseExpression` neither resets the operator count nor
  /// stops at the limit, so the tree, the diagnostics and the position after are the same.
  @inline(__always) mutating func parseArgumentValue() -> Expression {
    guard depth > 0, depth < Parser.maximumDepth, let leaf = parseLeaf() else { return parseExpression() }
    if at(.comma) || at(.rightParen) { return leaf }
    // What `parseExpression` does after reading the same operand.
    depth += 1
    defer { depth -= 1 }
    return continueBinary(leaf, minimumPrecedence: 1)
  }

  mutating func parsePrimary() -> Expression {
    let token = current
    if atNextDeclaration {
      // `x +` at the end of a line, then `test "…" {` on the next: the expression stops short, the test stays whole.
      // The mistake is the end of the line above, so that is where it is reported.
      if lastErrorPosition != position, position > 0, tokens[position - 1].kind != .newline {
        lastErrorPosition = position
        error(
          .expectedAtLineEnd("an expression", after: describe(tokens[position - 1])), at: previousSpan,
          notes: [
            DiagnosticNote(.note, "the next line starts a declaration ('\(text(token))'), which cannot be part of it",
              span: span(token))
          ])
      } else {
        errorAtCurrent(.expected("an expression", found: describe(token)))
      }
      return Expression(.missing, span(token))
    }
    switch token.kind {
    case .number, .rate, .money:
      advance()
      return literal(token)
    case .string:
      advance()
      return Expression(.text(unescape(token)), span(token))
    case .kwTrue, .kwFalse:
      advance()
      return Expression(.bool(token.kind == .kwTrue), span(token))
    case .identifier:
      advance()
      return Expression(.name(nameText(token)), span(token))
    case .kwFederal:
      advance()
      return Expression(.federal, span(token))
    case .leftParen:
      advance()
      let inner = parseExpression()
      let close = expect(.rightParen, "')'") { [DiagnosticNote(.note, "to close this '('", span: $0.span(token))] }
      let end = close.map { span($0) } ?? inner.span
      return Expression(.parenthesized(inner), span(token).to(end))
    case .kwIf:
      return parseConditional()
    case .kwBrackets:
      return parseBracketTable()
    case .invalid:
      advance()
      return Expression(.missing, span(token))
    default:
      var notes: [DiagnosticNote] = []
      if token.kind == .kwFormula || token.kind == .kwLet {
        notes.append(DiagnosticNote(.note, "'\(text(token))' starts a declaration, which cannot appear here"))
      }
      if token.kind == .kwNot {
        notes.append(DiagnosticNote(.help, "'not' binds loosely: put it in parentheses here, like (not x)"))
      }
      if let doubled = doubledOperator(token) { return doubled }
      // `.5`: a number starts with a digit. Both tokens are taken, so the digits are not read as a member name.
      if token.kind == .dot, position + 1 < tokens.count, tokens[position + 1].start == token.end,
        tokens[position + 1].kind == .number || tokens[position + 1].kind == .rate
      {
        let digits = tokens[position + 1]
        errorAtCurrent(
          .expected("an expression", found: describe(token)),
          notes: [DiagnosticNote(.help, "a number starts with a digit: 0\(text(token))\(text(digits))")])
        advance()
        advance()
        return Expression(.missing, span(token).to(span(digits)))
      }
      errorAtCurrent(.expected("an expression", found: describe(token)), notes: notes)
      return Expression(.missing, span(token))
    }
  }

  /// `2 ** 10` and `10 // 3` as other languages write a power and a whole division, at `token`, the second `*` or `/`
  /// of the two: reported with what TaxPro writes instead, and the operand after it read on as the right side. Nil
  /// otherwise. (`// note` at the start of a line is the lexer's: `Lexer.lexSlashComment`.)
  mutating func doubledOperator(_ token: Token) -> Expression? {
    guard token.kind == .star || token.kind == .slash, position > 0, tokens[position - 1].kind == token.kind,
      tokens[position - 1].end == token.start
    else { return nil }
    let both = span(tokens[position - 1]).to(span(token))
    if token.kind == .star {
      error(
        .notAnOperator("**"), at: both, notes: [DiagnosticNote(.help, "a power is written with '^', like 2 ^ 10")],
        fixes: [Fix(title: "Write '^'", replacements: [TextReplacement(span: both, text: "^")])])
    } else {
      error(
        .notAnOperator("//"), at: both,
        notes: [DiagnosticNote(.help, "a division's whole part is written floor(a / b), and its remainder a mod b")])
    }
    lastErrorPosition = position
    advance()
    // A third `*` or `/` is left to the statement's end; the recursion is counted, as every nested operand's is.
    if at(.star) || at(.slash) || !enter() { return Expression(.missing, both) }
    defer { depth -= 1 }
    return parseUnary()
  }

  mutating func parseConditional() -> Expression {
    let keyword = advance()
    guard enter() else { return Expression(.missing, span(keyword)) }
    defer { depth -= 1 }
    let condition = parseExpression()
    guard
      expect(.kwThen, "'then'", notes: { _ in [DiagnosticNote(.help, "write: if condition then value else other")] })
        != nil
    else {
      return Expression(.conditional(condition, Expression(.missing, previousSpan), Expression(.missing, previousSpan)),
        span(keyword).to(condition.span))
    }
    let thenBranch = parseExpression()
    guard
      expect(.kwElse, "'else'", notes: {
        [DiagnosticNote(.note, "every 'if' needs an 'else': an expression always has a value", span: $0.span(keyword))]
      }) != nil
    else {
      return Expression(.conditional(condition, thenBranch, Expression(.missing, previousSpan)),
        span(keyword).to(thenBranch.span))
    }
    let elseBranch = parseExpression()
    return Expression(.conditional(condition, thenBranch, elseBranch), span(keyword).to(elseBranch.span))
  }

  mutating func parseBracketTable() -> Expression {
    let keyword = advance()
    var rows: [BracketRow] = []
    let end = parseBlock("the bracket rows (threshold -> rate)") { parser in
      let errorsBefore = parser.diagnostics.count
      let threshold = parser.parseExpression()
      if parser.expect(.arrow, "'->' and the rate of the bracket") != nil {
        let rate = parser.parseExpression()
        rows.append(BracketRow(threshold: threshold, rate: rate))
      }
      // Rows are separated by line breaks or commas.
      if parser.at(.comma) {
        parser.advance()
        parser.skipNewlines()
      } else {
        parser.finishStatement("a bracket row (separate rows with a new line or ',')", errorsBefore: errorsBefore)
      }
    }
    return Expression(.brackets(rows), span(keyword).to(end))
  }

  /// The value of a literal's bytes of at most 18 digits (with `_`, `,`, `.` and `%`, but no exponent) — almost every
  /// literal —, read in 64 bits: what `ExactDecimal.parse(scientific:)` gives for them, which keeps every such digit
  /// (`normalized` drops none below 34 digits, and zero is `ExactDecimal.zero`), exactly. Nil for any other bytes.
  static func shortLiteral(_ bytes: UnsafeBufferPointer<UInt8>) -> ExactDecimal? {
    var magnitude: UInt64 = 0
    var digits = 0
    var fraction = 0
    var seenPoint = false
    for byte in bytes {
      if byte &- 48 < 10 {
        digits += 1
        if digits > 18 { return nil }
        magnitude = magnitude &* 10 &+ UInt64(byte &- 48)
        if seenPoint { fraction += 1 }
      } else if byte == UInt8(ascii: ".") {
        seenPoint = true
      } else if byte != 95 && byte != UInt8(ascii: ",") && byte != UInt8(ascii: "%") {
        return nil
      }
    }
    if magnitude == 0 { return .zero }
    return ExactDecimal(negative: false, magnitude: UInt128(magnitude), exponent: -fraction)
  }

  /// The decimal value of a number, money or rate token, ignoring separators, `$` and `%`.
  mutating func literalValue(_ token: Token, dropping prefix: Int) -> ExactDecimal {
    let start = Int(token.start) + prefix
    let end = Int(token.end)
    // Read through a buffer pointer rather than an array slice: the parse is then specialized for it.
    let parsed: (value: ExactDecimal, isExact: Bool)? = source.bytes.withUnsafeBufferPointer { buffer in
      guard start >= 0, start <= end, end <= buffer.count else { return nil }
      let bytes = UnsafeBufferPointer(rebasing: buffer[start..<end])
      if let value = Parser.shortLiteral(bytes) { return (value, true) }
      return try? ExactDecimal.parse(scientific: bytes)
    }
    guard let parsed else {
      self.error(.numberTooLarge, at: span(token))
      return .zero
    }
    let (value, isExact) = parsed
    if !isExact && !tooManyErrors && diagnostics.count < Parser.maximumDiagnostics {
      diagnostics.append(Diagnostic(.inexactLiteral, at: span(token)))
    }
    return value
  }
}
