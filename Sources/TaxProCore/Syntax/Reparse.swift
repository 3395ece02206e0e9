/// The difference between two versions of a text as one replaced range: the bytes before `start` and from `oldEnd`
/// on (in the old text) are unchanged, the second now starting at `newEnd`. Any sequence of edits reduces to this.
public struct SourceEdit: Sendable, Equatable {
  public var start: Int
  public var oldEnd: Int
  public var newEnd: Int

  public var delta: Int { newEnd - oldEnd }

  /// The edit between two texts: their common beginning and their common end (which never overlap).
  public init(from old: [UInt8], to new: [UInt8]) {
    let shorter = min(old.count, new.count)
    let (prefix, suffix) = old.withUnsafeBytes { old in
      new.withUnsafeBytes { new in
        // Eight bytes at a time, then byte by byte: a large document differs in only a few bytes.
        var prefix = 0
        while prefix + 8 <= shorter,
          old.loadUnaligned(fromByteOffset: prefix, as: UInt64.self)
            == new.loadUnaligned(fromByteOffset: prefix, as: UInt64.self)
        {
          prefix += 8
        }
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix + 8 <= shorter - prefix,
          old.loadUnaligned(fromByteOffset: old.count - suffix - 8, as: UInt64.self)
            == new.loadUnaligned(fromByteOffset: new.count - suffix - 8, as: UInt64.self)
        {
          suffix += 8
        }
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        return (prefix, suffix)
      }
    }
    start = prefix
    oldEnd = old.count - suffix
    newEnd = new.count - suffix
  }

  public init(start: Int, oldEnd: Int, newEnd: Int) {
    self.start = start
    self.oldEnd = oldEnd
    self.newEnd = newEnd
  }

  /// No change at all.
  public var isEmpty: Bool { start == oldEnd && start == newEnd }

  /// This edit followed by `next` (an edit of this one's result), as one replaced range: from the first byte either
  /// replaced to the last, in the text before both and after both.
  public func then(_ next: SourceEdit) -> SourceEdit {
    // The end of both changes in the text between them, where neither changed what follows.
    let middleEnd = max(newEnd, next.oldEnd)
    return SourceEdit(
      start: min(start, next.start), oldEnd: middleEnd - delta, newEnd: middleEnd + next.delta)
  }

  /// Whether this edit can describe going from `old` to `new`: the bytes before `start` and from `oldEnd` on are the
  /// same in both (it need not be the smallest such range).
  public func describes(_ old: [UInt8], _ new: [UInt8]) -> Bool {
    guard 0 <= start, start <= oldEnd, start <= newEnd, oldEnd <= old.count, newEnd <= new.count,
      old.count - oldEnd == new.count - newEnd
    else { return false }
    return old[..<start].elementsEqual(new[..<start]) && old[oldEnd...].elementsEqual(new[newEnd...])
  }

  /// Where an old offset is now; nil inside the replaced bytes (where the old text no longer is). The end of the
  /// replaced range maps to the end of its replacement, and its start (when something was replaced) stays.
  public func map(_ offset: Int) -> Int? {
    if offset < start || (offset == start && start == oldEnd && start == newEnd) { return offset }
    if offset >= oldEnd { return offset + delta }
    return nil
  }

  /// Where an old span of `file` is now, if none of its text was replaced (a span that only touches the replaced
  /// range keeps its place).
  public func map(_ span: Span) -> Span? {
    if span.end <= start { return span }
    if span.start >= oldEnd { return span.shifted(by: delta) }
    return nil
  }
}

/// A re-parsed tree and how its declarations relate to the old tree's.
public struct Reparse: Sendable {
  public var tree: SyntaxTree
  public var edit: SourceEdit
  /// For each declaration of the new tree, the index of the old declaration it is (moved by `edit.delta` when it lies
  /// after the edit), or nil when it was parsed again.
  public var origins: [Int?]
}

extension Parser {
  /// Parses `source`, a new version of `old.source`'s text, reusing the declarations of `old` that the change did
  /// not touch. The result is exactly `Parser.parse(source)`: only the steps of the top-level loop between two
  /// boundaries around the change (see `ParseSegment.isBoundary`) are redone, and only if the redone part ends at a
  /// boundary as a whole parse would; otherwise the part grows to the next boundary, or to the end.
  ///
  /// `edit`, when the caller knows it (the language server, from the edits the editor sent), is what changed from
  /// `old`'s text to `source`'s; it must describe the change (`SourceEdit.describes`) but need not be the smallest
  /// range that does. Without it the two texts are compared, which reads both whole.
  public static func reparse(_ old: SyntaxTree, as source: SourceFile, edit knownEdit: SourceEdit? = nil) -> Reparse {
    assert(knownEdit.map { $0.describes(old.source.bytes, source.bytes) } ?? true, "the edit does not describe the change")
    let edit = knownEdit ?? SourceEdit(from: old.source.bytes, to: source.bytes)
    func whole() -> Reparse {
      let tree = parse(source)
      return Reparse(tree: tree, edit: edit, origins: Array(repeating: nil, count: tree.declarations.count))
    }
    // Diagnostic limits make the parse depend on counts from elsewhere in the file: only far below them is a part
    // of the file parsed the same alone.
    let safeDiagnostics = 400
    guard old.source.id == source.id, old.segments.count > 0 || old.declarations.isEmpty,
      old.diagnostics.count < safeDiagnostics, source.bytes.count < Int(Int32.max) / 2
    else { return whole() }
    if edit.isEmpty {
      var tree = old
      tree.source = source
      return Reparse(tree: tree, edit: edit, origins: Array(old.declarations.indices))
    }
    let segments = old.segments
    // The last boundary whose keyword ends before the change: everything before it is kept.
    var first = 0
    var index = segments.count - 1
    while index > 0 {
      let segment = segments[index]
      if segment.isBoundary && Int(segment.start) + keywordLength(old, at: Int(segment.start)) < edit.start {
        first = index
        break
      }
      index -= 1
    }
    let windowStart = first == 0 ? 0 : Int(segments[first].start)
    // Candidate ends: boundaries wholly after the change, nearest first; nil is the end of the input.
    var candidates: [Int?] = []
    for position in (first + 1)..<max(first + 1, segments.count)
    where segments[position].isBoundary && Int(segments[position].start) >= edit.oldEnd {
      candidates.append(position)
      if candidates.count == 2 { break }
    }
    candidates.append(nil)
    for candidate in candidates {
      if let result = reparse(old, as: source, edit: edit, first: first, windowStart: windowStart, end: candidate) {
        return result
      }
    }
    return whole()
  }

  /// The length of the `formula` or `let` keyword at `offset` of `tree`'s source.
  static func keywordLength(_ tree: SyntaxTree, at offset: Int) -> Int {
    boundaryKeyword(tree, at: offset).spelling.utf8.count
  }

  /// The keyword a boundary starts with: `formula` or `let` (told apart by their first letter).
  static func boundaryKeyword(_ tree: SyntaxTree, at offset: Int) -> TokenKind {
    let formula = TokenKind.kwFormula.spelling.utf8
    return offset < tree.source.bytes.count && tree.source.bytes[offset] == formula.first ? .kwFormula : .kwLet
  }

  /// Re-parses the steps from `first` up to segment `end` (nil: to the end of the input) and splices them between
  /// the old tree's others; nil when the redone part does not end at that boundary as a whole parse would.
  static func reparse(
    _ old: SyntaxTree, as source: SourceFile, edit: SourceEdit, first: Int, windowStart: Int, end: Int?
  ) -> Reparse? {
    let segments = old.segments
    let delta = edit.delta
    var windowEnd = source.bytes.count
    var keyword = 0
    var boundary = TokenKind.kwLet
    if let end {
      let oldStart = Int(segments[end].start)
      boundary = boundaryKeyword(old, at: oldStart)
      keyword = boundary.spelling.utf8.count
      windowEnd = oldStart + delta
    }
    var lexed = Lexer.lex(source, lines: windowStart..<(windowEnd + keyword))
    let lexerDiagnostics = lexed.diagnostics
    let windowComments = lexed.comments
    // The documentation of the first declaration is in the comments just above it, before the window.
    let before = old.comments.prefix { $0.span.start < windowStart }
    var leading = before.count
    while leading > 0, before[leading - 1].ownLine, before[leading - 1].isDocumentation { leading -= 1 }
    lexed.comments = Array(before[leading...]) + windowComments
    lexed.diagnostics = []
    var parser = Parser(source: source, lexed: lexed, mode: .file)
    if first < segments.count {
      parser.previousWasFormula = segments[first].followsFormula
      if segments[first].errorAtStart { parser.lastErrorPosition = 0 }
    }
    if end != nil {
      guard let stop = lexed.stopIndex(atCut: windowEnd, boundary: boundary) else { return nil }
      parser.stopIndex = stop
    }
    let declarations = parser.parseDeclarations()
    if let end {
      // The steps kept after the window must start in the state they started in before.
      guard parser.reachedStop, parser.previousWasFormula == segments[end].followsFormula,
        (parser.lastErrorPosition == parser.tokens.count - 2) == segments[end].errorAtStart
      else { return nil }
    }
    var oldDeclarationStart = 0
    var oldDiagnosticStart = old.lexerDiagnosticCount
    for segment in segments[..<first] {
      oldDeclarationStart += Int(segment.declarationCount)
      oldDiagnosticStart += Int(segment.diagnosticCount)
    }
    var oldDeclarationEnd = old.declarations.count
    var oldDiagnosticEnd = old.diagnostics.count
    if let end {
      oldDeclarationEnd = oldDeclarationStart
      oldDiagnosticEnd = oldDiagnosticStart
      for segment in segments[first..<end] {
        oldDeclarationEnd += Int(segment.declarationCount)
        oldDiagnosticEnd += Int(segment.diagnosticCount)
      }
      // The declaration at the end keeps its place only if the comments above it still say the same.
      if segments[end].declarationCount > 0 {
        let documentation: Documentation
        switch old.declarations[oldDeclarationEnd] {
        case .formula(let formula): documentation = formula.documentation
        case .constant(let constant): documentation = constant.documentation
        default: return nil
        }
        if parser.documentation(before: parser.tokens[parser.tokens.count - 2]) != documentation.shifted(by: delta) {
          return nil
        }
      }
    }
    let file = source.id
    var tree = old
    tree.source = source
    // Declarations: the old ones before, the new ones, the old ones after (moved).
    // (Replacing in a copy copies the kept declarations in one go; only those after the window change further.)
    var newDeclarations = old.declarations
    newDeclarations.replaceSubrange(oldDeclarationStart..<oldDeclarationEnd, with: declarations)
    var origins: [Int?] = Array(0..<oldDeclarationStart)
    origins.reserveCapacity(newDeclarations.count)
    origins.append(contentsOf: repeatElement(nil, count: declarations.count))
    for position in oldDeclarationEnd..<old.declarations.count { origins.append(position) }
    if delta != 0 {
      for position in (oldDeclarationStart + declarations.count)..<newDeclarations.count {
        newDeclarations[position] = newDeclarations[position].shifted(by: delta)
      }
    }
    tree.declarations = newDeclarations
    // Comments and the lexer's diagnostics by place; the parser's by step.
    let suffixStart = end.map { Int(segments[$0].start) } ?? Int.max
    var comments = Array(before)
    comments.append(contentsOf: windowComments)
    for comment in old.comments where comment.span.start >= suffixStart {
      comments.append(delta == 0 ? comment : comment.shifted(by: delta))
    }
    tree.comments = comments
    var diagnostics: [Diagnostic] = []
    for diagnostic in old.diagnostics[..<old.lexerDiagnosticCount] where diagnostic.span.start < windowStart {
      diagnostics.append(diagnostic)
    }
    diagnostics.append(contentsOf: lexerDiagnostics)
    for diagnostic in old.diagnostics[..<old.lexerDiagnosticCount] where diagnostic.span.start >= suffixStart {
      diagnostics.append(delta == 0 ? diagnostic : diagnostic.shifted(by: delta, in: file))
    }
    tree.lexerDiagnosticCount = diagnostics.count
    diagnostics.append(contentsOf: old.diagnostics[old.lexerDiagnosticCount..<oldDiagnosticStart])
    diagnostics.append(contentsOf: parser.diagnostics)
    for diagnostic in old.diagnostics[oldDiagnosticEnd...] {
      diagnostics.append(delta == 0 ? diagnostic : diagnostic.shifted(by: delta, in: file))
    }
    if diagnostics.count >= 400 { return nil }
    tree.diagnostics = diagnostics
    var newSegments = Array(segments[..<first])
    for segment in parser.segments { newSegments.append(segment) }
    if let end {
      for segment in segments[end...] {
        var moved = segment
        moved.start = Int32(truncatingIfNeeded: Int(segment.start) + delta)
        newSegments.append(moved)
      }
    }
    tree.segments = newSegments
    // Only the part that reaches the end of the input can have ended unexpectedly.
    if end == nil { tree.isIncomplete = parser.reachedEndUnexpectedly && !parser.lexerStoppedEarly }
    return Reparse(tree: tree, edit: edit, origins: origins)
  }
}

extension LexedSource {
  /// The token a parse stops at to end where a window or a part ends: the `boundary` keyword at `keyword`, the last
  /// token before the end of the input, at the left margin after a statement's end (the lexer's state after it is
  /// then the same whatever came before). Nil when the lexing did not end so.
  func stopIndex(atCut keyword: Int, boundary: TokenKind) -> Int? {
    let stop = tokens.count - 2
    guard stop >= 0, Int(tokens[stop].start) == keyword, tokens[stop].kind == boundary, tokens[stop].column == 0,
      stop == 0 || tokens[stop - 1].kind == .newline
    else { return nil }
    return stop
  }
}
