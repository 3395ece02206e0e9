import Testing

@testable import TaxProCore
import TestSupport

/// What people used to other languages type — `&&`, `**`, `//`, `%` between operands, `:=` — is one error each,
/// saying what TaxPro writes instead, with a fix where the replacement is certain; the line the fix makes parses.
@Suite struct OtherLanguagesTests {
  static func parse(_ text: String, mode: ParseMode = .interactive) -> SyntaxTree {
    Parser.parse(SourceFile(id: FileID(0), name: "input", text: text), mode: mode)
  }

  /// The text with the replacements of the first diagnostic's first fix made.
  static func fixed(_ text: String, by diagnostic: Diagnostic) -> String? {
    guard let fix = diagnostic.fixes.first else { return nil }
    var bytes = Array(text.utf8)
    for replacement in fix.replacements.sorted(by: { $0.span.start > $1.span.start }) {
      bytes.replaceSubrange(replacement.span.start..<replacement.span.end, with: Array(replacement.text.utf8))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// (typed, message, help, the text the fix makes)
  static let fixable: [(String, String, String, String)] = [
    ("true && false", "unexpected '&&'", "write 'and'", "true and false"),
    ("true || false", "unexpected '||'", "write 'or'", "true or false"),
    ("true&&false", "unexpected '&&'", "write 'and'", "true and false"),
    ("1 < 2 & 2 < 3", "unexpected '&'", "write 'and'", "1 < 2 and 2 < 3"),
    ("2 ** 10", "'**' is not an operator", "a power is written with '^', like 2 ^ 10", "2 ^ 10"),
    ("$100 * 1.05 ** 3", "'**' is not an operator", "a power is written with '^', like 2 ^ 10", "$100 * 1.05 ^ 3"),
  ]

  @Test(arguments: fixable)
  func aHabitFromAnotherLanguageIsOneErrorWithItsFix(_ example: (String, String, String, String)) throws {
    let (typed, message, help, expected) = example
    let tree = Self.parse(typed)
    #expect(tree.diagnostics.count == 1, "\(tree.diagnostics.map(\.message))")
    let diagnostic = try #require(tree.diagnostics.first)
    #expect(diagnostic.message == message)
    #expect(diagnostic.notes.map(\.message) == [help])
    #expect(Self.fixed(typed, by: diagnostic) == expected)
    #expect(Self.parse(expected).diagnostics.isEmpty)
  }

  /// A formula's header written as another language writes it: one error with `message`, `help` and the fix to
  /// `expected`, and the formula read whole all the same.
  static func expectOneErrorReadAsFormula(_ typed: String, _ message: String, _ help: String, fixedTo expected: String)
    throws
  {
    let tree = Self.parse(typed, mode: .file)
    #expect(tree.diagnostics.map(\.message) == [message], "\(typed)")
    let diagnostic = try #require(tree.diagnostics.first)
    #expect(diagnostic.notes.map(\.message) == [help])
    guard case .formula(let formula)? = tree.declarations.first else {
      Issue.record("no formula read from \(typed)")
      return
    }
    #expect(formula.returnType?.name == "Money")
    #expect(formula.result.kind.isMissing == false)
    #expect(Self.fixed(typed, by: diagnostic) == expected)
    #expect(Self.parse(expected, mode: .file).diagnostics.isEmpty)
  }

  @Test func anArrowBeforeAResultTypeIsOneErrorWithTheFixToAColon() throws {
    for (typed, expected) in [
      ("formula f(a: Money) -> Money = a * 2\n", "formula f(a: Money): Money = a * 2\n"),
      ("formula f(a: Money)->Money =\n  a * 2\n", "formula f(a: Money):Money =\n  a * 2\n"),
    ] {
      try Self.expectOneErrorReadAsFormula(
        typed, "'->' does not start a result type",
        "a formula's result type follows ':', like formula half(x: Money): Money = x / 2", fixedTo: expected)
    }
    // With no type after it, the type's own error follows; nothing is read twice.
    let bare = Self.parse("formula f(a: Money) -> = a\n", mode: .file)
    #expect(bare.diagnostics.first?.message == "'->' does not start a result type")
    #expect(bare.diagnostics.count == 2)
  }

  @Test func aFunctionDeclaredAsElsewhereIsOneErrorWithTheFixToFormula() throws {
    for word in ["def", "fn", "fun", "func", "function"] {
      try Self.expectOneErrorReadAsFormula(
        "\(word) half(x: Money): Money = x / 2\n", "'\(word)' does not declare a formula",
        "a formula is declared with 'formula', like formula half(x: Money): Money = x / 2",
        fixedTo: "formula half(x: Money): Money = x / 2\n")
    }
    // Both habits at once are two errors, each with its fix; the formula is still read.
    let both = Self.parse("def half(x: Money) -> Money = x / 2\n", mode: .file)
    #expect(both.diagnostics.map(\.message) == [
      "'def' does not declare a formula", "'->' does not start a result type",
    ])
    // A name called is not a declaration: `def(5)` and `def` alone are unknown names, as before.
    #expect(Self.parse("def(5)").diagnostics.isEmpty)
    #expect(Self.parse("fn").diagnostics.isEmpty)
  }

  @Test func aWholeDivisionSaysHowToWriteItsPartsWithoutAFix() throws {
    let tree = Self.parse("10 // 3")
    #expect(tree.diagnostics.count == 1)
    let diagnostic = try #require(tree.diagnostics.first)
    #expect(diagnostic.message == "'//' is not an operator")
    #expect(diagnostic.span.start == 3 && diagnostic.span.end == 5)
    #expect(
      diagnostic.notes.map(\.message) == [
        "a division's whole part is written floor(a / b), and its remainder a mod b"
      ])
    #expect(diagnostic.fixes.isEmpty)
  }

  @Test func aPercentSignBetweenOperandsMentionsModBesidesRates() throws {
    let between = try #require(Self.parse("10 % 3").diagnostics.first)
    #expect(
      between.notes.map(\.message) == [
        "the remainder of a division is written with 'mod', like 10 mod 3",
        "a rate is written with its number, like 13%",
      ])
    // With nothing after it, it is a rate written apart from its number: no word of 'mod'.
    let after = try #require(Self.parse("5 %").diagnostics.first)
    #expect(after.notes.map(\.message) == ["a rate is written with its number, like 13%"])
  }

  @Test func aSlashCommentIsOneErrorAndReadAsTheCommentItWasMeantToBe() throws {
    let text = "// halves it\nformula half(x: Money): Money =\n  // the half\n  x / 2\n"
    let tree = Self.parse(text, mode: .file)
    #expect(tree.diagnostics.map(\.message) == ["'//' does not start a comment", "'//' does not start a comment"])
    #expect(tree.declarations.count == 1)
    #expect(tree.comments.map(\.text) == ["halves it", "the half"])
    let first = try #require(tree.diagnostics.first)
    #expect(first.notes.map(\.message) == ["a comment starts with '#'"])
    let once = try #require(Self.fixed(text, by: first))
    #expect(once.hasPrefix("# halves it\n"))
    // A `//` that is not first on its line is a whole division's mistake, not a comment's.
    #expect(Self.parse("formula f(x: Money): Money = x // 2\n", mode: .file).diagnostics.first?.message
      == "'//' is not an operator")
  }

  @Test func aColonEqualsSuggestsLet() throws {
    let diagnostic = try #require(Self.parse("income := $5").diagnostics.first)
    #expect(diagnostic.notes.map(\.message) == ["did you mean 'let income = $5'? A name is given a value with 'let'"])
    // Nothing to suggest without a value.
    #expect(Self.parse("income :=").diagnostics.first?.notes.isEmpty == true)
  }

  @Test func aTableOfBracketsCalledSaysHowToApplyIt() throws {
    let called = try #require(Self.parse("ON.income_tax($85,000)").diagnostics.first)
    #expect(called.message == "only formulas and built-in functions can be called")
    #expect(called.notes.map(\.message) == ["a table of brackets is applied with tax: tax(ON.income_tax, $85,000)"])
    // With other than one argument it is not that.
    let other = try #require(Self.parse("ON.income_tax($85,000, 2)").diagnostics.first)
    #expect(other.notes.map(\.message) == ["call a formula by its name: name(arguments)"])
  }

  @Test func doubledOperatorsInARowStayBounded() {
    // Thousands of `**` are an error each, without a nested parse per pair.
    let tree = onLargeStack { Self.parse("2" + String(repeating: " ** 2", count: 20_000)) }
    #expect(tree.diagnostics.hasErrors)
    let stars = onLargeStack { Self.parse("2 " + String(repeating: "*", count: 100_000) + " 2") }
    #expect(stars.diagnostics.hasErrors)
  }
}
