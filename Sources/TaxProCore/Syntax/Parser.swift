/// Whether a source is a file of declarations or interactive input, where bare expressions are allowed.
public enum ParseMode: Sendable {
  case file
  case interactive
}

/// A hand-written recursive-descent parser with precedence climbing.
///
/// **Invariant:** parsing never fails. It returns a tree and its diagnostics, recovering at line and declaration
/// boundaries so that one file can show many errors and editors can still work in broken code.
///
/// Line breaks that end statements arrive as `newline` tokens (the lexer decides which, by the rule of
/// `StatementEnds`); all other line breaks are invisible here.
public struct Parser {
  /// Deeper nesting than this is a diagnostic, never a stack overflow.
  public static let maximumDepth = 256
  /// More binary operators than this in one expression is a diagnostic. Operators in a row (`1 + 2 + 3 …`) are not
  /// nesting, but each makes the tree one level deeper, so their number bounds the depth of the tree with the nesting:
  /// at most `maximumDepth + maximumOperators`, which every pass over the tree takes on its large stack (and the
  /// evaluator walks a chain of operators without recursion).
  public static let maximumOperators = 10_000
  /// More diagnostics than this from one source are summarized.
  static let maximumDiagnostics = 500

  let source: SourceFile
  let mode: ParseMode
  let tokens: [Token]
  let comments: [Comment]
  var position = 0
  var diagnostics: [Diagnostic] = []
  var depth = 0
  /// Binary operators in the expression being parsed (see `maximumOperators`).
  var operators = 0
  var reachedEndUnexpectedly = false
  /// After "nested too deeply", errors are silenced until the next top-level declaration.
  var abandoning = false
  var lastErrorPosition = -1
  var tooManyErrors = false
  /// Set when the parser itself reached `maximumDiagnostics`: it stops there.
  var stopped = false
  var lexerStoppedEarly = false
  /// The steps of the top-level loop so far (see `ParseSegment`).
  var segments: [ParseSegment] = []
  /// A re-parse stops its loop at this token (the first one it does not redo); `reachedStop` says whether the loop got
  /// there at the top of a step, as a whole parse would.
  var stopIndex: Int? = nil
  var reachedStop = false
  /// `Vocabulary.binaryOperators`, held here so that the expression loop reads it without a global's lazy check.
  let binaryOperators = Vocabulary.binaryOperators
  /// Whether the last declaration was a formula: an indented line after one is reported as a stray body line. Carried
  /// from step to step, so a re-parse starts with the value the whole parse had there.
  var previousWasFormula = false
  /// The strings of the names read so far (`nameText`).
  var names = NameCache()

  init(source: SourceFile, lexed: LexedSource, mode: ParseMode) {
    self.source = source
    self.mode = mode
    self.tokens = lexed.tokens
    self.comments = lexed.comments
    self.diagnostics = lexed.diagnostics
    // The lexer already said it stopped; the input's end is then no sign of an unfinished line.
    self.tooManyErrors = lexed.stoppedEarly
    self.lexerStoppedEarly = lexed.stoppedEarly
  }

  /// Parses a whole source. One of `pieceThreshold` bytes or more is lexed and parsed a piece at a time
  /// (`parseInPieces`), and one of `parallelThreshold` bytes or more in two parts at once, on two threads
  /// (`parseInTwo`); both give exactly the tree of one parse.
  public static func parse(_ source: SourceFile, mode: ParseMode = .file) -> SyntaxTree {
    parse(source, mode: mode, pieceThreshold: pieceThreshold, pieceLength: pieceLength)
  }

  /// `parse(_:mode:)` with the piece sizes given (tests cut small sources).
  static func parse(_ source: SourceFile, mode: ParseMode, pieceThreshold: Int, pieceLength: Int) -> SyntaxTree {
    if source.bytes.count >= pieceThreshold, let tree = parseInPieces(source, mode: mode, pieceLength: pieceLength) {
      return tree
    }
    if source.bytes.count >= parallelThreshold, let split = split(source.bytes, near: source.bytes.count / 2),
      isBalanced(split, in: source.bytes), let tree = parseInTwo(source, mode: mode, at: split)
    {
      return tree
    }
    return parseSerially(source, mode: mode)
  }

  /// Parses a whole source on the calling thread alone.
  static func parseSerially(_ source: SourceFile, mode: ParseMode = .file) -> SyntaxTree {
    let lexed = Lexer.lex(source)
    var parser = Parser(source: source, lexed: lexed, mode: mode)
    let declarations = parser.parseDeclarations()
    return SyntaxTree(
      source: source, declarations: declarations, comments: lexed.comments, diagnostics: parser.diagnostics,
      isIncomplete: parser.reachedEndUnexpectedly && !parser.lexerStoppedEarly, segments: parser.segments,
      lexerDiagnosticCount: lexed.diagnostics.count)
  }

  // MARK: Token access
  //
  // The small questions below are asked of every token, from `mutating` methods: always inlined, as a call of a
  // non-mutating method from one passes it a copy of the whole parser (192 bytes, a `memcpy` a call: 40 a formula).

  var current: Token { @inline(__always) get { tokens[position] } }
  var kind: TokenKind { @inline(__always) get { tokens[position].kind } }

  @inline(__always) func peekKind(_ offset: Int) -> TokenKind {
    let index = position + offset
    return index < tokens.count ? tokens[index].kind : .endOfFile
  }

  @inline(__always) func at(_ kind: TokenKind) -> Bool { tokens[position].kind == kind }

  /// The current token's kind, with a contextual keyword recognised where it starts its construct: `province XX`,
  /// `parameters Name {`, `test "…"`, `year 2025`.
  var declarationKind: TokenKind { @inline(__always) get { contextualKind(at: position) } }

  @inline(__always) func contextualKind(at index: Int) -> TokenKind {
    let token = tokens[index]
    // `federal.credit_rate * $100` starts an expression; only `federal "Canada" {` declares the jurisdiction.
    if token.kind == .kwFederal, index + 1 < tokens.count, tokens[index + 1].kind == .dot { return .identifier }
    return Parser.contextualKeyword(at: index, in: tokens, bytes: source.bytes) ?? token.kind
  }

  /// The contextual keyword (`Vocabulary.keywords`) the name at `index` is where it starts its construct, by what
  /// follows it; nil for a plain name. Semantic highlighting asks the same question of the same tokens.
  static func contextualKeyword(at index: Int, in tokens: [Token], bytes: [UInt8]) -> TokenKind? {
    let token = tokens[index]
    // The word is looked up by its bytes: this is asked at every line that might start a declaration, and a string
    // for each would cost more than the question.
    guard token.kind == .identifier, index + 1 < tokens.count,
      let keyword = Vocabulary.contextualWords.kind(bytes, Int(token.start), Int(token.end))
    else { return nil }
    let next = tokens[index + 1].kind
    switch keyword {
    case .kwProvince: return next == .identifier ? keyword : nil
    case .kwParameters:
      return next == .identifier && index + 2 < tokens.count && tokens[index + 2].kind == .leftBrace ? keyword : nil
    case .kwTest: return next == .string ? keyword : nil
    case .kwYear: return next == .number ? keyword : nil
    default: return nil
    }
  }

  @discardableResult
  mutating func advance() -> Token {
    let token = tokens[position]
    if token.kind != .endOfFile { position += 1 }
    return token
  }

  @inline(__always) func span(_ token: Token) -> Span {
    Span(file: source.id, start: Int(token.start), end: Int(token.end))
  }

  /// The token's bytes as a string, read through a buffer pointer: names are read this way by the hundred thousand,
  /// and an array slice of each cost a retain and a release more.
  func text(_ token: Token) -> String {
    let start = Int(token.start)
    let end = Int(token.end)
    return source.bytes.withUnsafeBufferPointer { buffer in
      guard start >= 0, start <= end, end <= buffer.count else { return "" }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
    }
  }

  /// The string of a name token (`identifier`), through `names`.
  mutating func nameText(_ token: Token) -> String {
    let start = Int(token.start)
    let end = Int(token.end)
    let bytes = source.bytes
    return bytes.withUnsafeBufferPointer { buffer in names.name(buffer, start, end) }
  }

  /// The span of the previous token (the end of what was just parsed).
  var previousSpan: Span {
    @inline(__always) get { position > 0 ? span(tokens[position - 1]) : span(tokens[0]) }
  }

  func describe(_ token: Token) -> String {
    switch token.kind {
    case .identifier, .number, .money, .rate: "'\(text(token))'"
    case .string: "text \(text(token))"
    default: token.kind.displayName
    }
  }

  // MARK: Diagnostics

  mutating func error(
    _ message: DiagnosticMessage, at span: Span, notes: [DiagnosticNote] = [], fixes: [Fix] = []
  ) {
    if abandoning || tooManyErrors { return }
    if diagnostics.count >= Parser.maximumDiagnostics {
      tooManyErrors = true
      stopped = true
      diagnostics.append(.error(.tooManyErrorsReporting, at: span))
      return
    }
    diagnostics.append(.error(message, at: span, notes: notes, fixes: fixes))
  }

  /// Reports an error at the current token, once per token.
  mutating func errorAtCurrent(_ message: DiagnosticMessage, notes: [DiagnosticNote] = []) {
    if current.kind == .endOfFile { reachedEndUnexpectedly = true }
    if lastErrorPosition == position { return }
    lastErrorPosition = position
    if current.kind == .invalid { return }  // the lexer already said what is wrong here
    error(message, at: span(current), notes: notes)
  }

  /// Consumes a token of `kind` or reports what was expected.
  @discardableResult
  mutating func expect(_ kind: TokenKind, _ what: String? = nil, notes: [DiagnosticNote] = []) -> Token? {
    if at(kind) { return advance() }
    errorAtCurrent(.expected(what ?? kind.displayName, found: describe(current)), notes: notes)
    return nil
  }

  /// `expect` with notes made only for the error: almost every call finds its token, and building the notes of each
  /// parameter's `:` and each call's `)` (an array, and a string for some) was measurable in `taxpro check`.
  @discardableResult
  mutating func expect(
    _ kind: TokenKind, _ what: String? = nil, notes: (Parser) -> [DiagnosticNote]
  ) -> Token? {
    if at(kind) { return advance() }
    return expect(kind, what, notes: notes(self))
  }

  mutating func expectIdentifier(_ what: String) -> Identifier? {
    if at(.identifier) {
      let token = advance()
      return Identifier(nameText(token), span: span(token))
    }
    if current.kind.isKeyword {
      errorAtCurrent(
        .expectedName(what, foundKeyword: describe(current)),
        notes: [DiagnosticNote(.note, "'\(text(current))' is a reserved word and cannot be used as a name")])
      return nil
    }
    errorAtCurrent(.expected(what, found: describe(current)))
    return nil
  }

  /// How many items the list that starts at the current token holds (one more than its commas outside nested brackets),
  /// when its `)` comes within a few tokens; nil otherwise. Arguments and parameters are gathered in arrays of that
  /// capacity: growing each from one element to four cost more than parsing a short call.
  @inline(__always) func listLength() -> Int? { Parser.listLength(in: tokens, from: position) }

  /// `listLength` of the list from `position` in `tokens`: static, so that the parser is not copied to ask it.
  static func listLength(in tokens: [Token], from position: Int) -> Int? {
    var index = position
    var depth = 0
    var commas = 0
    let end = min(tokens.count, position + 64)
    while index < end {
      switch tokens[index].kind {
      case .leftParen, .leftBrace: depth += 1
      case .rightParen, .rightBrace:
        if depth == 0 { return index == position ? 0 : commas + 1 }
        depth -= 1
      case .comma: if depth == 0 { commas += 1 }
      case .endOfFile: return nil
      default: break
      }
      index += 1
    }
    return nil
  }

  /// True at the end of a line, a block or the input: a statement may end here.
  var atStatementBoundary: Bool {
    @inline(__always) get { at(.newline) || at(.rightBrace) || at(.endOfFile) }
  }

  mutating func skipNewlines() {
    while at(.newline) { advance() }
  }

  /// After a statement: anything left on its line is an error, and is skipped.
  mutating func finishStatement(_ what: String, errorsBefore: Int) {
    // After "nested too deeply" the parser already skipped to a line at column 0, where the next declaration starts.
    if atStatementBoundary || abandoning { return }
    if diagnostics.count == errorsBefore {
      var notes: [DiagnosticNote] = []
      if at(.identifier) || at(.number) || at(.money) || at(.rate) {
        notes.append(DiagnosticNote(.help, "is an operator or a ',' missing before \(describe(current))?"))
      }
      notes += calculatorHints()
      errorAtCurrent(.unexpected(describe(current), after: what), notes: notes)
    }
    skipRestOfLine()
  }

  /// What someone used to another calculator meant by a line that stopped here: `x = 5` (a `let`), `1,000` (digits
  /// grouped with commas, which only amounts of money have).
  func calculatorHints() -> [DiagnosticNote] {
    guard position > 0 else { return [] }
    let previous = tokens[position - 1]
    // The line's tokens from `first` on, as written.
    func restOfLine(from first: Int) -> String {
      var end = first
      while end + 1 < tokens.count, tokens[end + 1].kind != .newline, tokens[end + 1].kind != .endOfFile { end += 1 }
      return source.text(of: Span(file: source.id, start: Int(tokens[first].start), end: Int(tokens[end].end)))
    }
    if at(.equal), previous.kind == .identifier, previous.startsLine || position == 1 {
      return [
        DiagnosticNote(
          .help, "did you mean 'let \(restOfLine(from: position - 1))'? A name is given a value with 'let'")
      ]
    }
    // `x := 5`, as some languages give a name a value.
    if at(.colon), previous.kind == .identifier, previous.startsLine || position == 1, position + 2 < tokens.count,
      tokens[position + 1].kind == .equal, tokens[position + 1].start == current.end,
      tokens[position + 2].kind != .newline, tokens[position + 2].kind != .endOfFile
    {
      return [
        DiagnosticNote(
          .help,
          "did you mean 'let \(text(previous)) = \(restOfLine(from: position + 2))'? "
            + "A name is given a value with 'let'")
      ]
    }
    if at(.comma), previous.kind == .number, peekKind(1) == .number {
      var digits = text(previous)
      var grouped = text(previous)
      var index = position
      while index + 1 < tokens.count, tokens[index].kind == .comma, tokens[index + 1].kind == .number,
        tokens[index + 1].start == tokens[index].end
      {
        digits += text(tokens[index + 1])
        grouped += "_" + text(tokens[index + 1])
        index += 2
      }
      return [
        DiagnosticNote(
          .help, "a number is written without commas: \(digits) or \(grouped); commas group the digits of amounts of money only")
      ]
    }
    return []
  }

  /// Skips what is left of a statement that went wrong: to the end of its line, and never into a declaration.
  mutating func skipRestOfLine() {
    while !atStatementBoundary && !atNextDeclaration { advance() }
  }

  /// At the first token of a declaration at the left margin: `formula`, `let`, `test "…"`, `parameters Name {`,
  /// `province XX`, `federal "…"` or `federal {`. No expression, argument list or parameter list goes on at such a
  /// token in a valid file, so each of them stops there rather than take the declaration in (and the lexer forgets
  /// open brackets there, `StatementEnds`): whatever error came before, the declarations after it are parsed
  /// as if it were not there.
  var atNextDeclaration: Bool {
    @inline(__always) get {
      guard current.startsLine && current.column == 0 else { return false }
      switch declarationKind {
      case .kwFormula, .kwLet, .kwTest, .kwParameters, .kwProvince: return true
      case .kwFederal: return peekKind(1) == .string || peekKind(1) == .leftBrace
      default: return false
      }
    }
  }

  /// Where an unclosed `{ … }` block (a test, an interface, a jurisdiction, a year, a bracket table) or a formula's
  /// `let` lines stop: at a declaration at the left margin. A `let` there is one of the test's or formula's own (they
  /// are valid at any column) unless `##` documentation sits right above it at the left margin: only a constant has
  /// documentation, so that one starts the next declaration.
  var atDeclarationAfterBlock: Bool {
    guard atNextDeclaration else { return false }
    return !at(.kwLet) || documentedAtLeftMargin(current)
  }

  /// Skips to the next declaration at the start of a line (or the end of the input).
  mutating func skipToDeclaration() {
    while !at(.endOfFile) && !atNextDeclaration { advance() }
  }

  func isDeclarationStart(_ kind: TokenKind) -> Bool {
    switch kind {
    case .kwFormula, .kwLet, .kwTest, .kwParameters, .kwProvince, .kwFederal: true
    default: false
    }
  }

  // MARK: Documentation

  /// The `##` block directly above the line of `token`, when the token starts its line: the documentation comments
  /// alone on the lines just above it, each on the line above the next.
  func documentation(before token: Token) -> Documentation {
    guard token.startsLine else { return Documentation() }
    let lineStart = Int(token.start) - Int(token.column)
    // The last comment starting before the token's line; a comment on the line above is the last thing on it.
    let last = firstComment(atOrAfter: lineStart) - 1
    var index = last
    var nextLineStart = lineStart
    while index >= 0, comments[index].isDocumentation, comments[index].ownLine,
      endsLine(comments[index], before: nextLineStart)
    {
      nextLineStart = startOfLine(ofCommentAlone: comments[index])
      index -= 1
    }
    // The block is the comments after `index` up to `last`, one a line.
    let first = index + 1
    guard first <= last else { return Documentation() }
    if first == last { return Documentation.parse(line: comments[first].text, span: comments[first].span) }
    let lines = comments[first...last].map(\.text)
    return Documentation.unread(lines: lines, span: comments[first].span.to(comments[last].span))
  }

  /// Whether a `##` comment at the left margin is alone on the line just above `token`'s line.
  func documentedAtLeftMargin(_ token: Token) -> Bool {
    let lineStart = Int(token.start) - Int(token.column)
    let next = firstComment(atOrAfter: lineStart)
    guard next > 0 else { return false }
    let comment = comments[next - 1]
    return comment.isDocumentation && comment.ownLine && endsLine(comment, before: lineStart)
      && startOfLine(ofCommentAlone: comment) == comment.span.start
  }

  /// Where the line of `comment`, alone on its line (`ownLine`), starts: read back over the blanks before it (none or
  /// a few), rather than searched for among the source's line starts (a binary search over every line, once for each
  /// documented formula). Anything else before it (a byte-order mark) is left to the search.
  func startOfLine(ofCommentAlone comment: Comment) -> Int {
    let offset = comment.span.start
    let found: Int? = source.bytes.withUnsafeBufferPointer { bytes in
      guard offset <= bytes.count else { return nil }
      var start = offset
      while start > 0 {
        let byte = bytes[start - 1]
        if byte == 10 || byte == 13 { return start }
        guard byte == 32 || byte == 9 || byte == 12 else { return nil }
        start -= 1
      }
      return 0
    }
    return found ?? source.lineStarts[source.lineIndex(of: offset)]
  }

  /// The position of the first comment that starts at or after `offset` (comments are in source order): the one
  /// before it is the last comment above a line that starts at `offset`.
  func firstComment(atOrAfter offset: Int) -> Int {
    var low = 0
    var high = comments.count
    while low < high {
      let middle = (low + high) / 2
      if comments[middle].span.start < offset { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Whether the line break that ends `comment`'s line is the one just before `lineStart` (the comment's text stops
  /// before a `\r` of a `\r\n`).
  func endsLine(_ comment: Comment, before lineStart: Int) -> Bool {
    let end = comment.span.end
    if end == lineStart - 1 { return true }
    return end == lineStart - 2 && source.bytes[end] == 13
  }

  // MARK: Top level

  mutating func parseDeclarations() -> [Declaration] {
    var declarations: [Declaration] = []
    var diagnosticsBefore = diagnostics.count
    var declarationsBefore = 0
    while true {
      skipNewlines()
      if !segments.isEmpty {
        segments[segments.count - 1].declarationCount = Int32(declarations.count - declarationsBefore)
        segments[segments.count - 1].diagnosticCount = Int32(diagnostics.count - diagnosticsBefore)
      }
      declarationsBefore = declarations.count
      diagnosticsBefore = diagnostics.count
      if let stopIndex, position >= stopIndex {
        reachedStop = position == stopIndex
        break
      }
      if at(.endOfFile) { break }
      // After too many errors nothing more is reported, so nothing more is built either (a file of 50 million
      // stray tokens must not become 50 million declarations).
      if stopped { break }
      segments.append(
        ParseSegment(
          start: current.start, declarationCount: 0, diagnosticCount: 0,
          isBoundary: (current.kind == .kwFormula || current.kind == .kwLet) && current.startsLine
            && current.column == 0 && (position == 0 || tokens[position - 1].kind == .newline),
          followsFormula: previousWasFormula, errorAtStart: lastErrorPosition == position))
      abandoning = false
      let start = position
      let errorsBefore = diagnostics.count
      if mode == .file, !isDeclarationStart(declarationKind), current.column > 0, previousWasFormula, !at(.rightBrace) {
        let line = current
        let expression = parseExpression()
        error(
          .lineAfterFormulaResult,
          at: span(line).to(expression.span),
          notes: [
            DiagnosticNote(.help, "name intermediate steps with 'let name = …' lines before the result"),
            DiagnosticNote(.help, "to continue an expression on the next line, end the line with an operator"),
          ])
        skipToDeclaration()
        continue
      }
      if let declaration = parseDeclaration() {
        declarations.append(declaration)
        if case .formula = declaration { previousWasFormula = true } else { previousWasFormula = false }
      }
      if position == start {
        errorAtCurrent(.unexpected(describe(current)))
        advance()
      }
      if diagnostics.count > errorsBefore && !atStatementBoundary {
        skipToDeclaration()
      } else if !atStatementBoundary {
        // At the REPL's prompt and in `taxpro eval` the line is usually an expression: say so rather than call `1`
        // in `1,000 + 1` a declaration.
        var isExpression = false
        if declarations.count > declarationsBefore, case .expression = declarations[declarations.count - 1] {
          isExpression = true
        }
        finishStatement(isExpression ? "an expression" : "a declaration", errorsBefore: errorsBefore)
      }
    }
    return declarations
  }

  /// A whole formula, for the help of a header written as another language writes it.
  static let formulaExample = "formula half(x: Money): Money = x / 2"

  /// The word, when a statement starts as other languages declare a function — `def`, `fn`, `fun`, `func` or
  /// `function`, then a name and `(` — and nil otherwise.
  func foreignFormulaWord() -> String? {
    guard current.kind == .identifier, position + 2 < tokens.count, tokens[position + 1].kind == .identifier,
      tokens[position + 2].kind == .leftParen
    else { return nil }
    let word = text(current)
    return ["def", "fn", "fun", "func", "function"].contains(word) ? word : nil
  }

  mutating func parseDeclaration() -> Declaration? {
    switch declarationKind {
    case .kwFormula: return parseFormula().map { .formula($0) }
    case .kwLet:
      let documentation = documentation(before: current)
      let binding = parseLet()
      return binding.map { .constant(ConstantDeclaration(documentation: documentation, binding: $0, span: $0.span)) }
    case .kwTest: return parseTest().map { .test($0) }
    case .kwParameters: return parseInterface().map { .interface($0) }
    case .kwProvince, .kwFederal: return parseJurisdiction().map { .jurisdiction($0) }
    case .rightBrace, .rightParen, .kwThen, .kwElse, .arrow, .comma, .dotDot, .equal, .colon, .kwIn:
      errorAtCurrent(.unexpected(describe(current)))
      advance()
      return nil
    default:
      if let word = foreignFormulaWord() {
        // `def half(x)`, as another language declares a function: one error with the fix to `formula`, and read on
        // as the formula it was meant to be.
        let wordSpan = span(current)
        error(
          .foreignFormulaWord(word), at: wordSpan,
          notes: [DiagnosticNote(.help, "a formula is declared with 'formula', like \(Parser.formulaExample)")],
          fixes: [Fix(title: "Write 'formula'", replacements: [TextReplacement(span: wordSpan, text: "formula")])])
        return parseFormula().map { .formula($0) }
      }
      let expression = parseExpression()
      if mode == .file {
        error(
          .topLevelExpression, at: expression.span,
          notes: [
            DiagnosticNote(.help, "check it in a test (test \"name\" { … }) or name it with 'let name = …'")
          ])
      }
      return .expression(expression)
    }
  }
}
