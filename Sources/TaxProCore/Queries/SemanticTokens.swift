/// Semantic highlighting: each token of a source classified by what it means, not only by how it looks.
///
/// The lexer says what is a keyword, a literal or a comment; the program's occurrences say what each name is
/// (a formula, a parameter, a province…). Names the checker could not resolve are left to the editor's grammar.
public enum SemanticTokenKind: Int, Sendable, CaseIterable {
  case keyword, comment, string, number, `operator`, function, parameter, variable, property, namespace, interface
  case type, enumMember
}

/// Modifiers as bits, in the order of `SemanticTokenModifier.allCases`.
public enum SemanticTokenModifier: Int, Sendable, CaseIterable {
  case declaration, readonly, defaultLibrary, documentation

  public var bit: Int { 1 << rawValue }
}

/// One classified token; a front end maps kinds and modifiers to its legend.
public struct SemanticToken: Sendable, Equatable {
  /// Never spans a line break.
  public var span: Span
  public var kind: SemanticTokenKind
  /// A bit set of `SemanticTokenModifier.bit`.
  public var modifiers: Int
}

/// The classification of a whole file, names resolved through the program's occurrences.
public enum SemanticTokens {
  /// The tokens of `source` in text order. `index` supplies what names mean; `libraryFiles` marks names declared in
  /// the standard library with `defaultLibrary`.
  public static func tokens(
    source: SourceFile, comments: [Comment], index: SymbolIndex?, program: Program?, libraryFiles: Set<FileID> = []
  ) -> [SemanticToken] {
    let lexed = Lexer.lex(source).tokens
    // In text order: the occurrence a name's token is, the last of those that start where it does, is found by
    // halving rather than through a dictionary of them all (built at every request, it was a third of the request's
    // time in a document of 40,000 lines).
    let occurrences = index?.occurrences(in: source.id) ?? []
    func occurrence(startingAt start: Int) -> SymbolOccurrence? {
      var low = 0
      var high = occurrences.count
      while low < high {
        let middle = (low + high) / 2
        if occurrences[middle].span.start <= start { low = middle + 1 } else { high = middle }
      }
      return low > 0 && occurrences[low - 1].span.start == start ? occurrences[low - 1] : nil
    }
    var result: [SemanticToken] = []
    result.reserveCapacity(lexed.count + comments.count)
    func add(_ start: Int, _ end: Int, _ kind: SemanticTokenKind, _ modifiers: Int = 0) {
      result.append(SemanticToken(span: Span(file: source.id, start: start, end: end), kind: kind, modifiers: modifiers))
    }
    for (position, token) in lexed.enumerated() {
      let start = Int(token.start)
      let end = Int(token.end)
      switch token.kind {
      case .endOfFile, .newline, .invalid:
        continue
      case .number, .money, .rate:
        add(start, end, .number)
      case .string:
        add(start, end, .string)
      case .identifier:
        if Parser.contextualKeyword(at: position, in: lexed, bytes: source.bytes) != nil {
          add(start, end, .keyword)
        } else if let occurrence = occurrence(startingAt: start), occurrence.span.end == end {
          let (kind, modifiers) = classify(occurrence, program: program, libraryFiles: libraryFiles)
          add(start, end, kind, modifiers)
        }
      default:
        if token.kind.isKeyword {
          add(start, end, .keyword)
        } else {
          add(start, end, .operator)
        }
      }
    }
    let tokenCount = result.count
    for comment in comments {
      add(comment.span.start, comment.span.end, .comment, comment.isDocumentation ? SemanticTokenModifier.documentation.bit : 0)
    }
    return inPlaceOrder(result, firstComment: tokenCount)
  }

  /// `tokens` in the order of their starts, the tokens before `firstComment` first where two start together: a merge
  /// of the two runs when each is in order already (as the lexer makes them), else a stable sort.
  static func inPlaceOrder(_ tokens: [SemanticToken], firstComment: Int) -> [SemanticToken] {
    func ordered(_ range: Range<Int>) -> Bool {
      range.count < 2 || !zip(range.dropFirst(), range).contains { tokens[$0].span.start < tokens[$1].span.start }
    }
    guard ordered(0..<firstComment), ordered(firstComment..<tokens.count) else {
      return tokens.sorted { $0.span.start < $1.span.start }
    }
    var merged: [SemanticToken] = []
    merged.reserveCapacity(tokens.count)
    var token = 0
    var comment = firstComment
    while token < firstComment || comment < tokens.count {
      if comment == tokens.count || (token < firstComment && tokens[token].span.start <= tokens[comment].span.start) {
        merged.append(tokens[token])
        token += 1
      } else {
        merged.append(tokens[comment])
        comment += 1
      }
    }
    return merged
  }

  static func classify(
    _ occurrence: SymbolOccurrence, program: Program?, libraryFiles: Set<FileID>
  ) -> (SemanticTokenKind, Int) {
    var modifiers = occurrence.isDefinition ? SemanticTokenModifier.declaration.bit : 0
    let kind: SemanticTokenKind
    switch occurrence.symbol {
    case .formula(let name):
      kind = .function
      if let span = program?.formula(named: name)?.nameSpan, libraryFiles.contains(span.file) {
        modifiers |= SemanticTokenModifier.defaultLibrary.bit
      }
    case .builtin:
      kind = .function
      modifiers |= SemanticTokenModifier.defaultLibrary.bit
    case .formulaParameter:
      kind = .parameter
    case .local:
      kind = .variable
    case .constant:
      kind = .variable
      modifiers |= SemanticTokenModifier.readonly.bit
    case .jurisdiction:
      kind = .enumMember
    case .interface:
      kind = .interface
    case .jurisdictionParameter:
      kind = .property
      modifiers |= SemanticTokenModifier.readonly.bit
    case .type:
      kind = .type
    case .test:
      kind = .string
    }
    return (kind, modifiers)
  }
}
