/// One entry of a list of named amounts, `rent: $2,100` or `"Food and drink": groceries() in $0..$800`: what
/// `taxpro chart` and `:chart` draw when no formula's steps are wanted.
public struct NamedAmount: Sendable {
  /// The label as written: a name (`rent`) or the text of a quoted label.
  public var label: String
  public var labelSpan: Span
  /// Whether the label was quoted text (shown as written) rather than a name (shown in words).
  public var isText: Bool
  public var value: Expression
  /// `in LOW..HIGH` after the amount: a budget line; spending above HIGH is over budget.
  public var range: RangeConstraint?
  public var span: Span { labelSpan.to(range?.span ?? value.span) }
}

extension Parser {
  /// Whether `source` starts as a list of named amounts — a name or quoted text followed by `:` — rather than as one
  /// expression. A named argument looks the same, but only inside a call's parentheses.
  public static func startsNamedAmounts(_ source: SourceFile) -> Bool {
    let tokens = Lexer.lex(source).tokens.filter { $0.kind != .newline }
    guard tokens.count >= 2 else { return false }
    return (tokens[0].kind == .identifier || tokens[0].kind == .string) && tokens[1].kind == .colon
  }

  /// Parses `label: amount [in LOW..HIGH], …` (a trailing comma allowed). Like every parse it never fails: problems
  /// are diagnostics, and the entries read so far are returned with them.
  public static func parseNamedAmounts(_ source: SourceFile) -> (amounts: [NamedAmount], diagnostics: [Diagnostic]) {
    let lexed = Lexer.lex(source)
    var parser = Parser(source: source, lexed: lexed, mode: .interactive)
    let amounts = parser.parseNamedAmountList()
    return (amounts, parser.diagnostics)
  }

  mutating func parseNamedAmountList() -> [NamedAmount] {
    var amounts: [NamedAmount] = []
    skipNewlines()
    while !at(.endOfFile) && !stopped {
      let label = current
      guard label.kind == .identifier || label.kind == .string else {
        errorAtCurrent(.expected("a name or quoted text, then ':' and an amount", found: describe(current)))
        break
      }
      advance()
      guard expect(.colon, "':' and the amount after the label") != nil else { break }
      let value = parseExpression()
      let range = parseRange("'..' between the budget line's lowest and highest amounts")
      let isText = label.kind == .string
      amounts.append(
        NamedAmount(
          label: isText ? unescape(label) : text(label), labelSpan: span(label), isText: isText, value: value,
          range: range))
      skipNewlines()
      if at(.comma) {
        advance()
        skipNewlines()
      } else if !at(.endOfFile) {
        errorAtCurrent(.expected("',' between named amounts", found: describe(current)))
        break
      }
    }
    return amounts
  }
}
