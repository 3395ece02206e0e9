extension Parser {
  /// Sources at least this long are parsed a piece at a time (`parseInPieces`).
  ///
  /// The lexer makes every token of what it lexes before the parser starts, 20 bytes each: about five times the
  /// source, and the largest part of `taxpro check`'s peak memory on a large file (140 MB of 544 MB at 100,000
  /// generated formulas). Lexing and parsing a piece of about `pieceLength` bytes at a time keeps only one piece's
  /// tokens alive.
  static let pieceThreshold = 2 << 20
  /// The length of a piece, in bytes, before it is extended to the next place the source may be cut.
  static let pieceLength = 1 << 20

  /// Parses `source` one piece at a time on this thread, cutting it where a parse in two may be cut
  /// (`split(_:near:)`: a `formula` or `let` at the start of a line, with its documentation), about every
  /// `pieceLength` bytes. Each piece is lexed on its own and parsed from the state the piece before left: whether its
  /// last declaration was a formula, and whether an error was reported at the cut's keyword.
  ///
  /// Gives exactly the tree of one parse, or nil when that is not certain (the source is then parsed whole): when a
  /// piece's parse does not reach the next cut at the top of its loop, when a piece's lexing does not start or end at
  /// the cut as a whole lexing passes it, or when the diagnostics reach a cap (the lexer's or the parser's, which
  /// count from the start of the source). Nil too when there is no cut to make.
  static func parseInPieces(_ source: SourceFile, mode: ParseMode, pieceLength: Int) -> SyntaxTree? {
    var declarations: [Declaration] = []
    guard
      let parsed = forEachPiece(source, mode: mode, pieceLength: pieceLength, { declarations += $0; return true })
    else { return nil }
    return SyntaxTree(
      source: source, declarations: declarations, comments: parsed.comments,
      diagnostics: parsed.lexerDiagnostics + parsed.parserDiagnostics, isIncomplete: parsed.isIncomplete,
      segments: parsed.segments, lexerDiagnosticCount: parsed.lexerDiagnostics.count)
  }

  /// What `forEachPiece` gives besides the declarations: the rest of the tree `parseInPieces` makes.
  struct PiecesParsed: Sendable {
    var comments: [Comment]
    var lexerDiagnostics: [Diagnostic]
    var parserDiagnostics: [Diagnostic]
    var segments: [ParseSegment]
    var isIncomplete: Bool
  }

  /// `parseInPieces`, handing each piece's declarations to `take` as soon as the piece is parsed (and keeping none of
  /// them): what `taxpro check` checks as it goes (`Checker+Stream`). Nil when `parseInPieces` would be nil — perhaps
  /// after some pieces were taken; none is taken when there is no cut to make — and as soon as `take` says false (it
  /// wants no more: the parse stops there).
  static func forEachPiece(
    _ source: SourceFile, mode: ParseMode, pieceLength: Int, _ take: ([Declaration]) -> Bool
  ) -> PiecesParsed? {
    let bytes = source.bytes
    // Token offsets are 32-bit; a source near that is left whole, with the lexer's own handling of its end.
    guard bytes.count < Int(Int32.max) / 2, pieceLength > 0 else { return nil }
    var cuts: [(split: ParseSplit, boundary: TokenKind)] = []
    var offset = pieceLength
    while offset < bytes.count, let split = split(bytes, near: offset),
      let boundary = keywordAtLineStart(bytes, split.keyword)
    {
      cuts.append((split, boundary))
      offset = split.keyword + pieceLength
    }
    guard !cuts.isEmpty else { return nil }

    var comments: [Comment] = []
    var lexerDiagnostics: [Diagnostic] = []
    var parserDiagnostics: [Diagnostic] = []
    var segments: [ParseSegment] = []
    var followsFormula = false
    var errorAtStart = false
    var isIncomplete = false
    for index in 0...cuts.count {
      let start = index == 0 ? 0 : cuts[index - 1].split.lexStart
      let next = index < cuts.count ? cuts[index] : nil
      // A piece is lexed up to the end of the next cut's keyword, which must come after a `newline` token (the
      // lexer's state after the keyword is then the same whatever came before it), and parsed up to that keyword.
      let end = next.map { $0.split.keyword + $0.boundary.spelling.utf8.count } ?? bytes.count
      var lexed = Lexer.lex(source, lines: start..<end)
      guard !lexed.stoppedEarly else { return nil }
      if index > 0 {
        // The piece begins with the cut's keyword, as the piece before stopped at it.
        guard let first = lexed.tokens.first, first.kind == cuts[index - 1].boundary,
          Int(first.start) == cuts[index - 1].split.keyword, first.column == 0
        else { return nil }
      }
      var stop: Int? = nil
      if let next {
        guard let last = lexed.stopIndex(atCut: next.split.keyword, boundary: next.boundary) else { return nil }
        // The comment lines above the next cut's keyword are its documentation: the next piece lexes them.
        lexed.comments.removeAll { $0.span.start >= next.split.lexStart }
        stop = last
      }
      lexerDiagnostics += lexed.diagnostics
      comments += lexed.comments
      lexed.diagnostics = []
      var parser = Parser(source: source, lexed: lexed, mode: mode)
      parser.stopIndex = stop
      parser.previousWasFormula = followsFormula
      if errorAtStart { parser.lastErrorPosition = 0 }
      let declarations = parser.parseDeclarations()
      guard !parser.stopped else { return nil }
      guard take(declarations) else { return nil }
      parserDiagnostics += parser.diagnostics
      segments += parser.segments
      if let stop {
        guard parser.reachedStop, !parser.reachedEndUnexpectedly, parser.depth == 0 else { return nil }
        followsFormula = parser.previousWasFormula
        errorAtStart = parser.lastErrorPosition == stop
      } else {
        isIncomplete = parser.reachedEndUnexpectedly
      }
    }
    // Below both caps, every diagnostic was made as a whole parse makes it (see `Parser.error`, `Lexer.error`).
    guard lexerDiagnostics.count <= Lexer.maximumErrors,
      lexerDiagnostics.count + parserDiagnostics.count <= maximumDiagnostics
    else { return nil }
    return PiecesParsed(
      comments: comments, lexerDiagnostics: lexerDiagnostics, parserDiagnostics: parserDiagnostics,
      segments: segments, isIncomplete: isIncomplete)
  }
}
