import Testing

@testable import TaxProCore

/// After any error, the declarations that follow at the left margin are parsed exactly as they are alone: recovery
/// resynchronises at every line that starts a declaration (`formula`, `test "…"`, a documented `let`, `parameters`,
/// `province`, `federal`), so an editor keeps every feature after a mistake higher up.
@Suite struct ParserRecoveryTests {
  /// Mistakes that leave something open at the end: an incomplete line, an unclosed brace, parenthesis or list.
  static let broken = [
    "tax(ON.income_tax, $85,000 == $1 +",
    "tax(ON.income_tax, $85,000 == … +",
    "test \"open\" {\n  $1 == $1",
    "test \"open\" year 2025 {\n  max($1, $2 == $2",
    "test \"open\" {\n  let a = $1 *",
    "formula f(x: Money): Money =\n  let a = x *",
    "formula f(x: Money): Money =\n  let a = x",
    "formula f(x: Money, y: Money",
    "formula f(x: Money): Money = if x > $0 then",
    "let x = (1 +",
    "let y = brackets {\n  $0 -> 5%",
    "parameters P {\n  a: Money",
    "province ON \"Ontario\" {\n  year 2025 {\n    income_tax = brackets {\n      $0 -> 5%",
    "federal {\n  year 2025 {\n    rate = (5% +",
    "## Documentation of nothing.\nx == ",
  ]

  /// Declarations of every kind, each preceded by a blank line (as a file has them).
  static let following = [
    "## Doubles an amount.\nformula double(x: Money): Money = x * 2",
    "test \"after\" year 2025 {\n  double($1) == $2\n  let three = double($1.50)\n  three == $3\n}",
    "## A documented constant.\nlet rate = 5%",
    "parameters Extra {\n  amount: Money\n}",
    "province ON \"Ontario\" {\n  year 2025 {\n    amount = $1\n  }\n}",
    "federal \"Canada\" {\n  year 2025 {\n    amount = $1\n  }\n}",
    "federal {\n  year 2025 {\n    amount = $1\n  }\n}",
    "formula triple(x: Money): Money =\n  let y = x * 3\n  y",
  ]

  static func parse(_ text: String) -> SyntaxTree {
    Parser.parse(SourceFile(id: FileID(0), name: "t.tax", text: text))
  }

  static func text(_ declaration: Declaration) -> String {
    var output = ""
    dump(declaration, to: &output)
    return output
  }

  @Test(arguments: following)
  func aDeclarationAfterAMistakeIsParsedAsAlone(_ declaration: String) {
    let alone = Self.parse(declaration + "\n")
    #expect(alone.diagnostics.isEmpty, "\(alone.diagnostics.map(\.message))")
    for mistake in Self.broken {
      let prefix = mistake + "\n\n"
      let offset = prefix.utf8.count
      let tree = Self.parse(prefix + declaration + "\n")
      #expect(tree.diagnostics.contains { $0.severity == .error }, "no error for \(mistake.debugDescription)")
      // Errors are reported in the mistake, or at the first token of what follows it ("expected '}'").
      let firstToken = offset + (alone.declarations.first?.span.start ?? 0)
      #expect(
        tree.diagnostics.allSatisfy { $0.span.start <= firstToken }, "\(mistake.debugDescription): \(tree.diagnostics)")
      let after = tree.declarations.filter { $0.span.start >= offset }
      #expect(after.count == alone.declarations.count, "\(mistake.debugDescription) then \(declaration.debugDescription)")
      for (found, expected) in zip(after, alone.declarations) {
        #expect(Self.text(found.shifted(by: -offset)) == Self.text(expected), "\(mistake.debugDescription)")
      }
    }
  }

  @Test func aTestItsOwnLetAtTheLeftMarginStaysInTheTest() {
    let tree = Self.parse("test \"t\" {\nlet a = 1\na == 1\n}\nformula f(x: Money): Money =\nlet b = x\nb\n")
    #expect(tree.diagnostics.isEmpty, "\(tree.diagnostics.map(\.message))")
    #expect(tree.declarations.count == 2)
  }

  @Test func aDocumentedLetAtTheLeftMarginIsAConstant() {
    let tree = Self.parse("test \"t\" {\n  $1 == $1\n## A rate.\nlet rate = 5%\n")
    #expect(tree.declarations.count == 2)
    guard case .constant(let constant) = tree.declarations.last else {
      Issue.record("the documented let is not a constant")
      return
    }
    #expect(constant.documentation.summary == "A rate.")
    #expect(tree.diagnostics.map(\.message) == ["expected '}', found 'let'"])
    // Indented, the same lines are the test's own.
    let indented = Self.parse("test \"t\" {\n  $1 == $1\n  ## A rate.\n  let rate = 5%\n}\n")
    #expect(indented.diagnostics.isEmpty)
    #expect(indented.declarations.count == 1)
  }

  @Test func theMistakeIsReportedAtTheEndOfTheIncompleteLine() {
    let text = "tax(ON.income_tax, $85,000 == $1 +\n\ntest \"t\" {\n  $1 == $1\n}\n"
    let tree = Self.parse(text)
    let plus = text.utf8.firstIndex(of: UInt8(ascii: "+")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
    let syntax = tree.diagnostics.filter { $0.code == .syntax }
    #expect(syntax.count == 1)
    #expect(syntax.first?.span.start == plus)
    #expect(syntax.first?.message == "expected an expression after '+' at the end of the line")
  }

  @Test func aLoneCarriageReturnEndsALineAsANewlineDoes() {
    for ending in ["\n", "\r\n", "\r"] {
      let text = ["## Doubles.", "formula double(x: Money): Money =", "  let y = x * 2 # twice", "  y",
        "let s = \"text\"", "-s"].joined(separator: ending) + ending
      let tree = Self.parse(text)
      let source = tree.source
      #expect(source.lineStarts.count == 7, "\(ending.debugDescription)")
      #expect(tree.declarations.count == 3, "\(ending.debugDescription): \(tree.diagnostics.map(\.message))")
      guard case .formula(let formula) = tree.declarations.first else {
        Issue.record("no formula with \(ending.debugDescription)")
        continue
      }
      #expect(formula.documentation.summary == "Doubles.")
      #expect(formula.lets.count == 1)
      // The comment stops at the line break; the lexer's columns are the line table's.
      #expect(tree.comments.map { source.text(of: $0.span) } == ["## Doubles.", "# twice"])
      let result = source.lineColumn(of: formula.result.span.start)
      #expect(result.line == 4 && result.column == 3, "\(ending.debugDescription): \(result)")
      // `-s` at the left margin starts a statement (a top-level expression), as after "\n".
      #expect(tree.diagnostics.map(\.code) == [.topLevelExpression], "\(ending.debugDescription)")
    }
  }

  @Test func aTextLiteralStopsAtALoneCarriageReturn() {
    let tree = Self.parse("let a = \"x\ry\"\r")
    #expect(tree.diagnostics.contains { $0.message == "text is not closed on its line" })
    #expect(tree.source.lineColumn(of: tree.source.bytes.count - 1).line == 2)
  }
}
