import Testing

@testable import TaxProCore
import TestSupport

struct ParserTests {
  static func parse(_ text: String, mode: ParseMode = .file) -> SyntaxTree {
    Parser.parse(SourceFile(id: FileID(0), name: "t.tax", text: text), mode: mode)
  }

  static func messages(_ tree: SyntaxTree) -> [String] { tree.diagnostics.map(\.message) }

  @Test func incompleteInputAsksForMore() {
    for text in ["1 +", "(1 + 2", "formula f(x: Money) =", "formula f(x: Money) =\n  let a = x", "if true then 1",
      "test \"t\" {", "max($1,", "province XX \"X\" {\n  year 2025 {"]
    {
      #expect(Self.parse(text, mode: .interactive).isIncomplete, "\(text)")
    }
    for text in ["1 + 2", "formula f(x: Money) = x", "1 +)", "let x = 1"] {
      #expect(!Self.parse(text, mode: .interactive).isIncomplete, "\(text)")
    }
  }

  @Test func newlinesEndStatementsUnlessTheExpressionContinues() {
    let tree = Self.parse(
      """
      formula f(x: Money): Money =
        let a = x
          + $1
        let b = a *
          2
        -b
      """)
    #expect(tree.diagnostics.isEmpty, "\(Self.messages(tree))")
    guard case .formula(let formula) = tree.declarations.first else {
      Issue.record("no formula")
      return
    }
    #expect(formula.lets.map(\.name.name) == ["a", "b"])
    guard case .unary(.negate, _, _) = formula.result.kind else {
      Issue.record("the result should be -b, a new statement at the same indentation")
      return
    }
  }

  @Test func anUnclosedListStopsAtTheNextDeclaration() {
    for broken in ["formula broken( =", "formula broken(x: Money) = max($1,", "formula broken(x: Money,"] {
      let tree = Self.parse(broken + "\nformula ok(x: Money): Money = x\n")
      let names = tree.declarations.compactMap { declaration -> String? in
        if case .formula(let formula) = declaration { return formula.name.name }
        return nil
      }
      #expect(names.contains("ok"), "\(broken): \(Self.messages(tree))")
    }
  }

  @Test func contextualKeywordsAreNamesElsewhere() {
    let tree = Self.parse(
      """
      formula f(province: Province, year: Number, test: Number, parameters: Number): Number = year + test
      test "t" year 2025 { f(ON, 1, 2, 3) == 3 }
      """)
    #expect(tree.diagnostics.isEmpty, "\(Self.messages(tree))")
    #expect(tree.declarations.count == 2)
  }

  @Test func documentationCommentsAttach() {
    let tree = Self.parse(
      """
      ## Tax on income.
      ## More words.
      ## definition: Each bracket's rate applies to the part inside it.
      ## tip: A raise never lowers take-home pay.
      ## topic: Income / Income tax
      ## reference: https://example.com/a
      ## reference: https://example.com/b
      formula f(
        ## The income.
        income: Money
      ): Money = income
      """)
    guard case .formula(let formula) = tree.declarations.first else {
      Issue.record("no formula")
      return
    }
    let documentation = formula.documentation
    #expect(documentation.summary == "Tax on income. More words.")
    #expect(documentation.definition == "Each bracket's rate applies to the part inside it.")
    #expect(documentation.tip == "A raise never lowers take-home pay.")
    #expect(documentation.topic == ["Income", "Income tax"])
    #expect(documentation.references == ["https://example.com/a", "https://example.com/b"])
    #expect(formula.parameters.first?.documentation.summary == "The income.")
  }

  /// The lexer writes its tokens into the storage of the array they end in, sized for a token every three bytes; a
  /// source with more (a token a byte) moves them to a buffer of its own, and gives the same tokens either way.
  @Test func tokensDenserThanTheEstimateAreAllKept() {
    for count in [1, 5, 40, 3_000] {
      let text = "(" + String(repeating: "a+", count: count) + "b)"
      let tokens = Lexer.lex(SourceFile(id: FileID(0), name: "t.tax", text: text)).tokens
      #expect(tokens.count == 2 * count + 4)
      #expect(tokens.first?.kind == .leftParen && tokens.last?.kind == .endOfFile)
      let middle = tokens.dropFirst().prefix(2 * count)
      #expect(middle.enumerated().allSatisfy { index, token in
        token.kind == (index % 2 == 0 ? .identifier : .plus) && Int(token.start) == 1 + index
          && token.end == token.start + 1
      })
      #expect(tokens[2 * count + 1].kind == .identifier && tokens[2 * count + 2].kind == .rightParen)
    }
  }

  /// A block's lines are found by reading back from each comment to its line's start (`startOfLine`): whatever the
  /// line breaks, the blanks before the `##`, a byte-order mark before the first one, and a line in between that is
  /// not the block's.
  @Test func documentationLinesAreFoundWhateverTheLineBreaks() {
    for lineBreak in ["\n", "\r\n", "\r"] {
      for indent in ["", "  ", "\t", " \u{0C} "] {
        for prefix in ["", "\u{FEFF}", "let k = 1" + lineBreak] {
          let text = prefix + indent + "## First." + lineBreak + indent + "## Second." + lineBreak
            + "formula f(" + lineBreak + indent + "## The income." + lineBreak + indent + "income: Money" + lineBreak
            + "): Money = income" + lineBreak
          let tree = Self.parse(text)
          let formula = tree.declarations.compactMap { declaration -> FormulaDeclaration? in
            if case .formula(let formula) = declaration { return formula }
            return nil
          }.first
          let shown = text.debugDescription
          #expect(formula?.documentation.summary == "First. Second.", "\(shown)")
          #expect(formula?.parameters.first?.documentation.summary == "The income.", "\(shown)")
        }
      }
    }
    // Code on the line between ends the block: only the comment after it documents the formula.
    let tree = Self.parse("## Not this.\nlet k = 1 ## nor this\n## This.\nformula f(x: Money): Money = x\n")
    guard case .formula(let formula) = tree.declarations.last else {
      Issue.record("no formula")
      return
    }
    #expect(formula.documentation.summary == "This.")
  }

  @Test func manyErrorsInOneFile() {
    let tree = Self.parse(
      """
      formula a(x: Money): Money = x +
      formula b(x Money): Money = x
      let c = (1 +
      let d = 2
      formula e(: Money = 1
      """)
    #expect(tree.diagnostics.count >= 3, "\(Self.messages(tree))")
    // Recovery keeps the later good declarations.
    let names = tree.declarations.compactMap { declaration -> String? in
      if case .constant(let constant) = declaration { return constant.binding.name.name }
      return nil
    }
    #expect(names.contains("d"))
  }

  @Test func spansCoverTheirText() {
    let text = "let total = tax(ON.income_tax, $85,000) + 5%"
    let tree = Self.parse(text)
    guard case .constant(let constant) = tree.declarations.first,
      case .binary(.add, let left, let right, let operatorSpan) = constant.binding.value.kind
    else {
      Issue.record("unexpected tree")
      return
    }
    let source = tree.source
    #expect(source.text(of: left.span) == "tax(ON.income_tax, $85,000)")
    #expect(source.text(of: right.span) == "5%")
    #expect(source.text(of: operatorSpan) == "+")
    #expect(source.text(of: constant.binding.value.span) == "tax(ON.income_tax, $85,000) + 5%")
  }

  @Test func hostileInputNeverCrashes() {
    var generator = SeededGenerator(seed: 99)
    let pieces = [
      "(", ")", "{", "}", "$", "$1,2", "%", "formula", "let", "=", "if", "then", "else", "\"", "##", "#", "\n", " ",
      "brackets", "->", "..", ".", ",", ":", "1", "x", "ON", "province", "year", "test", "\u{FFFD}", "\u{0}", "é",
    ]
    for _ in 0..<300 {
      let text = (0..<Int.random(in: 1...60, using: &generator)).map { _ in
        pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }.joined()
      let tree = Self.parse(text)
      _ = Checker.check([tree])
    }
    // Invalid UTF-8 bytes.
    let bytes: [UInt8] = [0xFF, 0xFE, 0x28, 0xC3, 0x28, 0xE2, 0x82]
    _ = Self.parse(String(decoding: bytes, as: UTF8.self))
  }
}

struct ParserRecoveryAfterDepthTests {
  @Test func aTooDeepExpressionInABlockDoesNotSwallowTheRestOfTheFile() {
    for block in ["test \"t\" { " + String(repeating: "not ", count: 300) + "true }",
      "test \"t\" {\n  " + String(repeating: "-", count: 300) + "1 == 1\n}",
      "province XX \"X\" {\n  year 2025 { a = " + String(repeating: "(", count: 300) + "1" + String(repeating: ")", count: 300) + " }\n}"]
    {
      let tree = ParserTests.parse(block + "\nformula g(y: Money): Money = y + 1\n")
      let names = tree.declarations.compactMap { declaration -> String? in
        if case .formula(let formula) = declaration { return formula.name.name }
        return nil
      }
      #expect(names == ["g"], "\(block.prefix(30))")
      #expect(tree.diagnostics.map(\.code) == [.tooDeep], "\(block.prefix(30))")
    }
  }
}
