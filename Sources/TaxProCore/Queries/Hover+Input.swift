extension Session {
  /// The hover for a name in input that has not run: a notebook cell being written, a line at the prompt.
  ///
  /// What the name means is what it would mean if the input ran now: expressions and `let` values are checked as
  /// `submit` checks them (against the program, with the session's values); formulas and other declarations with
  /// the program's trees, as a file is. A name of the session's (`ans`, a `let` typed earlier) has no declaration to
  /// show, so its hover is its type and value. `offset` is a UTF-8 offset into `text`. Nothing is kept.
  public func hover(inInput text: String, at offset: Int) -> HoverInfo? {
    let source = SourceFile(id: Session.hoverInputFile, name: "<input>", text: text)
    let tree = Parser.parse(source, mode: .interactive)
    var declarationsAtCursor = false
    for declaration in tree.declarations {
      switch declaration {
      case .expression(let expression) where expression.span.touches(offset):
        return hover(in: expression, source: source, at: offset) ?? sessionValueHover(source, at: offset)
      case .constant(let constant) where constant.binding.value.span.touches(offset):
        return hover(in: constant.binding.value, source: source, at: offset) ?? sessionValueHover(source, at: offset)
      case .constant(let constant) where constant.binding.name.span.touches(offset):
        return sessionValueHover(source, at: offset)
      case .formula(let formula) where formula.span.touches(offset):
        declarationsAtCursor = true
      case .test(let test) where test.span.touches(offset):
        declarationsAtCursor = true
      case .jurisdiction(let jurisdiction) where jurisdiction.span.touches(offset):
        declarationsAtCursor = true
      case .interface(let interface) where interface.span.touches(offset):
        declarationsAtCursor = true
      default:
        continue
      }
    }
    guard declarationsAtCursor else { return sessionValueHover(source, at: offset) }
    let program = Checker.check(baseTrees + sessionTrees + [tree], predefined: values)
    return Hover.info(at: offset, in: source.id, program: program, index: SymbolIndex(program), year: year)
      ?? sessionValueHover(source, at: offset)
  }

  /// Input hovered over is numbered apart from everything a program holds (negative: parsed on its own).
  static let hoverInputFile = FileID(-2)

  /// An expression checked as a line typed in would be, with its occurrences recorded, asked for the one at `offset`.
  func hover(in expression: Expression, source: SourceFile, at offset: Int) -> HoverInfo? {
    let checker = Checker(program: program, predefined: values, recordOccurrences: true)
    checker.sources[source.id] = source
    var scope = Scope()
    _ = checker.check(expression, in: &scope)
    let symbols = checker.symbolTable.finish()
    // As in `SymbolIndex`: a name that contains the cursor wins over one that ends at it.
    let stored =
      checker.occurrences.first { $0.span.file == source.id && $0.span.contains(offset) }
      ?? checker.occurrences.first { $0.span.file == source.id && $0.span.touches(offset) }
    guard let stored else { return nil }
    return Hover.info(for: symbols.occurrence(stored), program: program, year: year)
  }

  /// `ans` or a `let` typed earlier, when the cursor is on one: its type and value.
  func sessionValueHover(_ source: SourceFile, at offset: Int) -> HoverInfo? {
    let tokens = Lexer.lex(source).tokens
    let onName =
      tokens.first { $0.kind == .identifier && $0.range.contains(offset) }
      ?? tokens.first { $0.kind == .identifier && $0.range.lowerBound <= offset && offset <= $0.range.upperBound }
    guard let token = onName else { return nil }
    let name = String(decoding: source.bytes[token.range], as: UTF8.self)
    guard let value = values[name] else { return nil }
    return HoverInfo(
      span: Span(file: source.id, start: token.range.lowerBound, end: token.range.upperBound),
      code: "let \(name): \(value.type)", documentation: nil,
      value: HoverValue(caption: name == "ans" ? "ans, the last result" : name, lines: Hover.lines(of: value)),
      notes: [name == "ans" ? "The value of the last expression evaluated." : "Defined in this session."])
  }
}
