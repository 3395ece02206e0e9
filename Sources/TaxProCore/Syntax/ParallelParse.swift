/// Where a source is cut in two to be parsed on two threads: the second part's top-level loop starts at `keyword`, a
/// `formula` or `let` at the start of a line (a boundary, `ParseSegment.isBoundary`), and its lexer at `lexStart`, the
/// start of the comment lines just above the keyword (its documentation, which the second part's parser reads).
struct ParseSplit: Equatable, Sendable {
  var lexStart: Int
  var keyword: Int
}

extension Parser {
  /// Sources at least this long are parsed on two threads: for now none. Measured on the release build (2 cores,
  /// `taxpro check` of 10,000 generated formulas, medians of 5 interleaved runs), the parse in two made the command
  /// slower, 0.43 s against 0.37 s (user 0.38 s and system 0.11 s against 0.30 s and 0.04 s): the command line then
  /// gave every command one malloc arena (`tuneAllocator`, `M_ARENA_MAX` 1; the language server still has one), so the
  /// two threads, which both allocate nodes all the time, took turns at its lock. The tree is the serial one either way (`ParallelParseTests`); lower this
  /// once the allocator lets two threads allocate at once (measure first: 64 KiB was the intended threshold).
  static let parallelThreshold = Int.max

  /// The first place at or after `offset` where the source may be cut in two: a
  /// line starting with `formula` or `let` at the left margin, after a line break; the comment lines just above it go
  /// with it, and the line above those must not be one (so that no documentation reaches across the cut). Nil when
  /// there is none. Whether the parse really passes there, `parseInTwo` finds out.
  static func split(_ bytes: [UInt8], near offset: Int) -> ParseSplit? {
    let newline = UInt8(ascii: "\n")
    let limit = bytes.count
    var position = max(0, offset)
    while position < limit {
      guard let lineBreak = bytes[position..<limit].firstIndex(of: newline) else { return nil }
      let lineStart = lineBreak + 1
      position = lineStart
      if keywordAtLineStart(bytes, lineStart) != nil, let lexStart = commentBlockStart(bytes, above: lineStart) {
        return ParseSplit(lexStart: lexStart, keyword: lineStart)
      }
    }
    return nil
  }

  /// The boundary keyword (`formula` or `let`, followed by a byte that cannot continue a name) at `offset`, if any.
  static func keywordAtLineStart(_ bytes: [UInt8], _ offset: Int) -> TokenKind? {
    for kind in [TokenKind.kwFormula, .kwLet] {
      let spelling = kind.spelling.utf8
      let end = offset + spelling.count
      guard end < bytes.count, bytes[offset..<end].elementsEqual(spelling), !Lexer.isIdentifierPart(bytes[end])
      else { continue }
      return kind
    }
    return nil
  }

  /// The start of the lines of comments alone (after spaces, tabs or form feeds) directly above the line at
  /// `lineStart`, or `lineStart` when there are none; nil when they reach the start of the source, or when a line
  /// break near them is not a plain "\n" or "\r\n" (a lone "\r" is one too, and is left to the serial parse).
  static func commentBlockStart(_ bytes: [UInt8], above lineStart: Int) -> Int? {
    var start = lineStart
    while true {
      // The line that ends just before `start`.
      guard start > 0, bytes[start - 1] == UInt8(ascii: "\n") else { return nil }
      var end = start - 1
      if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      var first = end
      while first > 0, bytes[first - 1] != UInt8(ascii: "\n") {
        if bytes[first - 1] == UInt8(ascii: "\r") { return nil }
        first -= 1
      }
      var text = first
      while text < end, bytes[text] == 32 || bytes[text] == 9 || bytes[text] == 12 { text += 1 }
      guard text < end, bytes[text] == UInt8(ascii: "#") else { return start }
      start = first
    }
  }

  /// What the second thread makes of the source from a split on: its tokens lexed and its steps parsed.
  struct SecondPart: Sendable {
    var declarations: [Declaration] = []
    var comments: [Comment] = []
    var lexerDiagnostics: [Diagnostic] = []
    var parserDiagnostics: [Diagnostic] = []
    var segments: [ParseSegment] = []
    var reachedEndUnexpectedly = false
    /// Whether the part is usable: it started with the boundary's keyword, and neither its lexer nor its parser
    /// stopped at the diagnostics cap.
    var isUsable = false
  }

  /// Lexes and parses the source from `split` on, as a whole parse would go on from the boundary, assuming the
  /// declaration before it was not a formula and no error was reported at its keyword (`parseInTwo` checks both).
  static func parseSecondPart(_ source: SourceFile, mode: ParseMode, split: ParseSplit) -> SecondPart {
    var part = SecondPart()
    var lexed = Lexer.lex(source, lines: split.lexStart..<source.bytes.count)
    guard let first = lexed.tokens.first, first.kind == .kwFormula || first.kind == .kwLet,
      Int(first.start) == split.keyword, first.column == 0, !lexed.stoppedEarly
    else { return part }
    part.lexerDiagnostics = lexed.diagnostics
    part.comments = lexed.comments
    lexed.diagnostics = []
    var parser = Parser(source: source, lexed: lexed, mode: mode)
    part.declarations = parser.parseDeclarations()
    part.parserDiagnostics = parser.diagnostics
    part.segments = parser.segments
    part.reachedEndUnexpectedly = parser.reachedEndUnexpectedly
    part.isUsable = !parser.stopped && !parser.segments.isEmpty
    return part
  }

  /// Whether the parts of a split share the work well enough for two threads to be worth it: the second starts before
  /// the last quarter of the source.
  static func isBalanced(_ split: ParseSplit, in bytes: [UInt8]) -> Bool {
    split.keyword < bytes.count - bytes.count / 4
  }

  /// Parses `source` in two parts at once, cut at `split` (`split(_:near:)`): the part
  /// from the split on on a second thread, the part before it on this one, which stops at the split as a re-parse
  /// stops at its window's end (`stopIndex`, `reachedStop`). The two are joined into exactly the tree one parse
  /// gives, or nil when that is not certain: when the first part's parse does not reach the split at the top of its
  /// loop, or reaches it in a state the second part did not start from, or when the diagnostics reach a cap (the lexer's
  /// or the parser's, which depend on the count from the start of the source).
  static func parseInTwo(_ source: SourceFile, mode: ParseMode, at split: ParseSplit) -> SyntaxTree? {
    let bytes = source.bytes
    // Token offsets are 32-bit; a source near that is left whole, with the lexer's own handling of its end.
    guard bytes.count < Int(Int32.max) / 2, 0 < split.lexStart, split.lexStart <= split.keyword,
      split.keyword < bytes.count, let boundary = keywordAtLineStart(bytes, split.keyword),
      let second = SecondThread.start({ parseSecondPart(source, mode: mode, split: split) })
    else { return nil }

    // The first part: lexed up to the end of the boundary's keyword, which must come after a `newline` token (the
    // lexer's state after the keyword is then the same whatever came before it), and parsed up to it.
    var lexed = Lexer.lex(source, lines: 0..<(split.keyword + boundary.spelling.utf8.count))
    let firstLexerDiagnostics = lexed.diagnostics
    let stop = lexed.stopIndex(atCut: split.keyword, boundary: boundary)
    var firstPart: Parser?
    if !lexed.stoppedEarly, let stop {
      lexed.comments.removeAll { $0.span.start >= split.lexStart }
      var parser = Parser(source: source, lexed: lexed, mode: mode)
      parser.stopIndex = stop
      firstPart = parser
    }
    let firstDeclarations = firstPart?.parseDeclarations() ?? []
    var part = second.join()
    guard let first = firstPart, part.isUsable, first.reachedStop, !first.stopped, !first.reachedEndUnexpectedly,
      first.depth == 0, first.lastErrorPosition != stop
    else { return nil }
    // The second part assumed that the declaration before the split was not a formula. If it was, only the first
    // step's record says so, provided that step made a declaration (which replaces the assumption); otherwise the
    // step may have gone differently.
    if first.previousWasFormula {
      guard part.segments[0].declarationCount > 0 else { return nil }
      part.segments[0].followsFormula = true
    }
    let lexerDiagnosticCount = firstLexerDiagnostics.count + part.lexerDiagnostics.count
    let parserDiagnostics = first.diagnostics[firstLexerDiagnostics.count...]
    // Below both caps, every diagnostic was made as a whole parse makes it (see `Parser.error`, `Lexer.error`).
    guard lexerDiagnosticCount <= Lexer.maximumErrors,
      lexerDiagnosticCount + parserDiagnostics.count + part.parserDiagnostics.count <= maximumDiagnostics
    else { return nil }

    var declarations = firstDeclarations
    declarations.append(contentsOf: part.declarations)
    var comments = first.comments
    comments.append(contentsOf: part.comments)
    var diagnostics = firstLexerDiagnostics
    diagnostics.append(contentsOf: part.lexerDiagnostics)
    diagnostics.append(contentsOf: parserDiagnostics)
    diagnostics.append(contentsOf: part.parserDiagnostics)
    var segments = first.segments
    segments.append(contentsOf: part.segments)
    return SyntaxTree(
      source: source, declarations: declarations, comments: comments, diagnostics: diagnostics,
      isIncomplete: part.reachedEndUnexpectedly, segments: segments, lexerDiagnosticCount: lexerDiagnosticCount)
  }
}
