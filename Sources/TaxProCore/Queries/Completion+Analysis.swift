/// The cursor's surroundings, worked out once per query: the word being typed, the tokens before it, the declaration
/// it is in and the local names visible there.
///
/// A class so the parse and the scope, which not every position needs, are computed at most once and only on demand.
final class CompletionAnalysis {
  /// Completion sources are never part of a program; an id no loader hands out keeps their spans apart.
  static let fileID = FileID(Int.min)

  let query: CompletionQuery
  let program: Program
  /// Where candidates that depend on the program alone are kept between requests, if the caller keeps them.
  let cache: CompletionCache?
  let source: SourceFile
  let bytes: [UInt8]
  /// Every token but the end-of-file marker and statement ends.
  let tokens: [Token]
  let comments: [Comment]
  let offset: Int
  let wordStart: Int
  let wordEnd: Int
  /// The last token that ends at or before the start of the word.
  let previous: Int?
  private(set) var position: CompletionPosition = .names

  init(query: CompletionQuery, program: Program, cache: CompletionCache? = nil) {
    self.query = query
    self.program = program
    self.cache = cache
    source = SourceFile(id: CompletionAnalysis.fileID, name: "<completion>", text: query.text)
    bytes = source.bytes
    var offset = max(0, min(query.offset, bytes.count))
    // Never split a character: a cursor inside a multi-byte scalar moves to its start.
    while offset > 0, offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset -= 1 }
    self.offset = offset
    let lexed = Lexer.lex(source)
    // Statement ends are worked out from lines and columns here, where the word being typed may not be a token yet.
    tokens = lexed.tokens.filter { $0.kind != .endOfFile && $0.kind != .newline }
    comments = lexed.comments
    var start = offset
    while start > 0, Lexer.isIdentifierPart(bytes[start - 1]) { start -= 1 }
    var end = offset
    while end < bytes.count, Lexer.isIdentifierPart(bytes[end]) { end += 1 }
    wordStart = start
    wordEnd = end
    previous = CompletionAnalysis.lastToken(in: tokens, endingBy: start)
    position = classify()
  }

  var prefix: String { String(decoding: bytes[wordStart..<offset], as: UTF8.self) }

  /// The prefix once, lowered once: `matches` is asked for every name of a large program.
  private lazy var matcher = CompletionEngine.Matcher(prefix)

  /// Whether a candidate with this filter text would survive `CompletionEngine.rank`. The sources of many candidates
  /// (every formula of the program, every parameter of a jurisdiction) ask it before rendering a candidate's
  /// documentation, signature and value, which is most of a completion's work, for names the prefix then drops.
  func matches(_ filterText: String) -> Bool { matcher.match(filterText) != nil }
  var range: Range<Int> { wordStart..<offset }
  var wordRange: Range<Int> { wordStart..<wordEnd }

  static func lastToken(in tokens: [Token], endingBy offset: Int) -> Int? {
    var low = 0
    var high = tokens.count
    // The first token that ends after `offset`; the one before it is the answer.
    while low < high {
      let middle = (low + high) / 2
      if Int(tokens[middle].end) <= offset { low = middle + 1 } else { high = middle }
    }
    return low > 0 ? low - 1 : nil
  }

  func kind(_ index: Int?) -> TokenKind? {
    guard let index, index >= 0, index < tokens.count else { return nil }
    return tokens[index].kind
  }

  func text(_ index: Int) -> String { String(decoding: bytes[tokens[index].range], as: UTF8.self) }

  /// Whether token `index` is the name `word` (for contextual keywords such as `province`, which lex as names).
  func isWord(_ index: Int?, _ word: String) -> Bool {
    guard let index, kind(index) == .identifier else { return false }
    return tokens[index].range.count == word.utf8.count && text(index) == word
  }

  /// Whether token `index` starts a declaration: `formula`, `let` or `federal` anywhere, `province`, `parameters` or
  /// `test` at the start of a line (elsewhere they are ordinary names, such as a `province: Province` parameter).
  func startsDeclaration(_ index: Int) -> Bool {
    switch tokens[index].kind {
    case .kwFormula, .kwLet, .kwFederal: return true
    case .identifier:
      return tokens[index].startsLine && (isWord(index, "province") || isWord(index, "parameters") || isWord(index, "test"))
    default: return false
    }
  }

  // MARK: Where the cursor is

  private func classify() -> CompletionPosition {
    if isInsideComment || isInsideText { return .none }
    if wordStart < wordEnd, Lexer.isDigit(bytes[wordStart]) { return .none }
    guard let previous else { return .names }
    let previousToken = tokens[previous]
    // `$|` or `12abc|`: a broken literal, not a name.
    if previousToken.kind == .invalid, Int(previousToken.end) == wordStart { return .none }
    switch previousToken.kind {
    case .dot:
      let object = previous > 0 ? text(previous - 1) : ""
      return .member(of: object)
    case .colon:
      return isTypePosition(colon: previous) ? .type : .names
    case .kwFormula, .kwLet:
      return .declaration
    case .identifier where startsDeclaration(previous) || (isWord(previous, "year") && previousToken.startsLine):
      // A new jurisdiction's code, an interface's or test's name, a year.
      return .declaration
    case .leftParen, .comma:
      if let open = unmatchedOpen(from: previous), isFormulaHeader(open) { return .declaration }
      return .names
    default:
      if isAtLineStart, case .interface = enclosing { return .declaration }
      return .names
    }
  }

  var isInsideComment: Bool {
    comments.contains { $0.span.start < offset && offset <= $0.span.end }
  }

  var isInsideText: Bool {
    tokens.contains { token in
      guard token.kind == .string, Int(token.start) < offset else { return false }
      if offset < Int(token.end) { return true }
      // At the end of a text that was never closed, the cursor is still inside it.
      return offset == Int(token.end) && !isClosedText(token)
    }
  }

  func isClosedText(_ token: Token) -> Bool {
    let range = token.range
    guard range.count >= 2, bytes[range.upperBound - 1] == UInt8(ascii: "\"") else { return false }
    var backslashes = 0
    var index = range.upperBound - 2
    while index > range.lowerBound, bytes[index] == UInt8(ascii: "\\") {
      backslashes += 1
      index -= 1
    }
    return backslashes % 2 == 0
  }

  /// Whether the word is the first thing on its line.
  var isAtLineStart: Bool {
    let lineStart = source.lineStarts[source.lineIndex(of: wordStart)]
    return bytes[lineStart..<wordStart].allSatisfy { $0 == 32 || $0 == 9 || $0 == 13 }
  }

  var isAtColumnZero: Bool { source.lineStarts[source.lineIndex(of: wordStart)] == wordStart }

  /// Whether the token before the word ends an operand, so that only an operator or a keyword such as `then` can
  /// follow on the same line.
  var followsOperand: Bool {
    switch kind(previous) {
    case .identifier, .number, .money, .rate, .string, .rightParen, .rightBrace, .kwTrue, .kwFalse, .kwFederal: true
    default: false
    }
  }

  /// Whether the word starts a new top-level statement: at column 0, after something complete.
  var startsTopLevelStatement: Bool {
    guard isAtColumnZero else { return false }
    guard let previous else { return true }
    // Inside parentheses a line break does not end anything.
    if let open = unmatchedOpen(from: previous), kind(open) == .leftParen { return false }
    return followsOperand
  }

  /// The innermost `(` or `{` left open at token `index` (inclusive).
  func unmatchedOpen(from index: Int) -> Int? {
    var depth = 0
    var position = index
    while position >= 0 {
      switch tokens[position].kind {
      case .rightParen, .rightBrace: depth += 1
      case .leftParen, .leftBrace:
        if depth == 0 { return position }
        depth -= 1
      default: break
      }
      position -= 1
    }
    return nil
  }

  /// Whether the `(` at `open` starts a formula's parameter list (`formula name(`).
  func isFormulaHeader(_ open: Int) -> Bool {
    kind(open) == .leftParen && kind(open - 1) == .identifier && kind(open - 2) == .kwFormula
  }

  /// Whether a type is written after the `:` at `colon`: a parameter's or member's type, a return type, or an annotated
  /// `let`. Elsewhere a `:` labels a named argument, and a value follows.
  func isTypePosition(colon: Int) -> Bool {
    switch kind(colon - 1) {
    case .identifier:
      if kind(colon - 2) == .kwLet { return true }
      guard let open = unmatchedOpen(from: colon - 1) else { return false }
      if isFormulaHeader(open) { return true }
      return kind(open) == .leftBrace && kind(open - 1) == .identifier && isWord(open - 2, "parameters")
    case .rightParen:
      // The return type: `formula name(…):`.
      var depth = 0
      var position = colon - 1
      while position >= 0 {
        switch tokens[position].kind {
        case .rightParen: depth += 1
        case .leftParen:
          depth -= 1
          if depth == 0 { return isFormulaHeader(position) }
        default: break
        }
        position -= 1
      }
      return false
    default:
      return false
    }
  }

  // MARK: The declaration around the cursor

  enum Enclosing {
    case topLevel
    case formula(FormulaDeclaration)
    case test(TestDeclaration)
    case interface(InterfaceDeclaration)
    case jurisdiction(JurisdictionDeclaration, YearBlock?)
  }

  private var cachedTree: SyntaxTree?
  var tree: SyntaxTree {
    if let cachedTree { return cachedTree }
    let parsed = Parser.parse(source, mode: query.mode)
    cachedTree = parsed
    return parsed
  }

  private var cachedEnclosing: Enclosing?
  var enclosing: Enclosing {
    if let cachedEnclosing { return cachedEnclosing }
    let found = findEnclosing()
    cachedEnclosing = found
    return found
  }

  private func findEnclosing() -> Enclosing {
    if startsTopLevelStatement { return .topLevel }
    guard let declaration = tree.declarations.last(where: { $0.span.start < wordStart }) else { return .topLevel }
    // A declaration keyword at the start of a line after it begins something newer (that did not parse).
    let start = declaration.span.start
    let interrupted = tokens.indices.contains { index in
      let token = tokens[index]
      return token.startsLine && token.column == 0 && Int(token.start) > start && Int(token.start) < wordStart
        && startsDeclaration(index)
    }
    if interrupted { return .topLevel }
    switch declaration {
    case .formula(let formula):
      return .formula(formula)
    case .test(let test):
      return isInsideBlock(test.span) ? .test(test) : .topLevel
    case .interface(let interface):
      return isInsideBlock(interface.span) ? .interface(interface) : .topLevel
    case .jurisdiction(let jurisdiction):
      guard isInsideBlock(jurisdiction.span) else { return .topLevel }
      let block = jurisdiction.years.last { $0.span.start < wordStart && isInsideBlock($0.span) }
      return .jurisdiction(jurisdiction, block)
    case .constant, .expression:
      return .topLevel
    }
  }

  /// Whether the word is inside a `{ … }` that starts before it: before the closing brace, or anywhere after an
  /// opening brace that was never closed.
  func isInsideBlock(_ span: Span) -> Bool {
    let closed = span.end > span.start && bytes[span.end - 1] == UInt8(ascii: "}")
    return closed ? wordStart < span.end : true
  }

  // MARK: Local names

  struct LocalName {
    var name: String
    /// Nil when the type is unknown (not written, or its value does not check).
    var type: TaxType?
    var writtenType: String?
    var documentation: Documentation
    var isParameter: Bool
    var parameter: Parameter?
  }

  private var cachedLocals: [LocalName]?
  /// The formula's parameters and the `let`s above the cursor (or a test's `let`s), in order.
  var locals: [LocalName] {
    if let cachedLocals { return cachedLocals }
    let found = findLocals()
    cachedLocals = found
    return found
  }

  /// The parameters and `let` bindings in scope at the cursor, in order, before their types are inferred.
  private func localDeclarations() -> (parameters: [Parameter], bindings: [LetBinding]) {
    var parameters: [Parameter] = []
    var bindings: [LetBinding] = []
    switch enclosing {
    case .formula(let formula):
      parameters = formula.parameters.filter { $0.span.end < wordStart }
      bindings = formula.lets
    case .test(let test):
      bindings = test.items.compactMap { item in
        if case .binding(let binding) = item { return binding }
        return nil
      }
    default:
      return ([], [])
    }
    let cursorLine = source.lineIndex(of: wordStart)
    bindings = bindings.filter {
      $0.span.end < wordStart && source.lineIndex(of: $0.span.start) < cursorLine
    }
    return (parameters, bindings)
  }

  /// Whether a parameter or `let` in scope at the cursor is called `name`: the names alone, without inferring the
  /// bindings' types (which checks each binding's value), so member completion after `ON.` skips that work when no
  /// local hides the jurisdiction.
  func declaresLocal(named name: String) -> Bool {
    if let cachedLocals { return cachedLocals.contains { $0.name == name } }
    // Nor parsing the text, when no token could declare the name (nearly always, for a jurisdiction's code).
    guard mayDeclare(name) else { return false }
    let (parameters, bindings) = localDeclarations()
    return parameters.contains { $0.name.name == name } || bindings.contains { $0.name.name == name }
  }

  /// Whether some token of the text could declare a local called `name`: the name of a parameter is always followed
  /// by `:` and that of a `let` comes right after `let`, so a text with neither declares none, whatever it parses to.
  func mayDeclare(_ name: String) -> Bool {
    let length = name.utf8.count
    return tokens.indices.contains { index in
      tokens[index].range.count == length && (kind(index + 1) == .colon || kind(index - 1) == .kwLet)
        && text(index) == name
    }
  }

  private func findLocals() -> [LocalName] {
    var result: [LocalName] = []
    let (parameters, bindings) = localDeclarations()
    for parameter in parameters {
      result.append(
        LocalName(
          name: parameter.name.name, type: TaxType(name: parameter.type.name), writtenType: parameter.type.name,
          documentation: parameter.documentation, isParameter: true, parameter: parameter))
    }
    for binding in bindings {
      var type: TaxType? = binding.type.flatMap { TaxType(name: $0.name) }
      if type == nil {
        let known = result.map { (name: $0.name, type: $0.type ?? .error) }
        let (typed, _) = Checker.check(
          binding.value, source: source, against: program, predefined: query.sessionValues, locals: known)
        type = typed.type == .error || typed.type == .federal ? nil : typed.type
      }
      result.append(
        LocalName(
          name: binding.name.name, type: type, writtenType: binding.type?.name, documentation: Documentation(),
          isParameter: false, parameter: nil))
    }
    return result
  }

  /// The type of a name as the checker would see it at the cursor, for member completion after `name.`.
  enum MemberOwner {
    case jurisdiction(JurisdictionInfo)
    case province
    case unknown
  }

  func owner(of object: String) -> MemberOwner {
    if object == "federal", previous.map({ kind($0 - 1) == .kwFederal }) == true {
      return program.jurisdictions["federal"].map { .jurisdiction($0) } ?? .unknown
    }
    if declaresLocal(named: object), let local = locals.last(where: { $0.name == object }) {
      return local.type == .province ? .province : .unknown
    }
    if let value = query.sessionValues[object] {
      return value.type == .province ? .province : .unknown
    }
    if let index = program.constantIndex[object] {
      return program.constants[index].type == .province ? .province : .unknown
    }
    if let jurisdiction = program.jurisdictions[object], jurisdiction.kind == .province {
      return .jurisdiction(jurisdiction)
    }
    return .unknown
  }

  /// When the word starts an argument of a call to a formula (`name(… , |`), that formula's name and the labels
  /// already given.
  func callBeingWritten() -> (formula: String, usedLabels: Set<String>)? {
    guard let previous, kind(previous) == .leftParen || kind(previous) == .comma,
      let open = unmatchedOpen(from: previous), kind(open) == .leftParen, kind(open - 1) == .identifier,
      kind(open - 2) != .kwFormula
    else { return nil }
    var used = Set<String>()
    var depth = 0
    var index = open + 1
    while index <= previous {
      switch tokens[index].kind {
      case .leftParen, .leftBrace: depth += 1
      case .rightParen, .rightBrace: depth -= 1
      case .identifier where depth == 0 && kind(index + 1) == .colon: used.insert(text(index))
      default: break
      }
      index += 1
    }
    return (text(open - 1), used)
  }
}
