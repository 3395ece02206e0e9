import Testing

@testable import TaxProCore

struct QueriesPresentationTests {
  static let source = Marked(
    """
    # A comment
    # on two lines
    formula 1️⃣scaled(amount: Money, factor: Number = 2): Money =
      let result = amount * factor
      result

    let limit = scaled($10)

    test "scaled" {
      scaled($1) == $2
      scaled($1) == $2️⃣3
    }
    """)

  let program = QueryWorld.program(Self.source.text)

  @Test func signatureHelpFindsTheCallAndTheArgument() throws {
    func help(_ text: String) -> SignatureInfo? {
      SignatureHelp.info(text: text, offset: text.utf8.count, program: program)
    }
    let first = try #require(help("let a = provincial("))
    #expect(first.label == "provincial(income: Money, province: Province = ON): Money")
    #expect(first.activeParameter == 0)
    let slice = Array(first.label.utf8)[first.parameters[1].labelRange]
    #expect(String(decoding: slice, as: UTF8.self) == "province: Province = ON")
    #expect(help("let a = provincial($1, ")?.activeParameter == 1)
    #expect(help("let a = provincial(province: ")?.activeParameter == 1)
    // Nested calls and parentheses: the innermost unclosed call counts.
    #expect(help("let a = provincial(max($1, (2 + ")?.label.hasPrefix("max(") == true)
    #expect(help("let a = provincial(max($1, $2), ")?.activeParameter == 1)
    #expect(help("let a = max($1, $2, $3, ")?.activeParameter == 1)
    #expect(help("let a = round(1.5, ")?.parameters.count == 2)
    // A formula's own parameter list is not a call; nor is anything after the call closed.
    #expect(help("formula provincial(") == nil)
    #expect(help("let a = provincial($1) + ") == nil)
    #expect(help("let a = unknown(") == nil)
  }

  @Test func outlineAndWorkspaceSearch() {
    let tree = program.trees[1]
    let outline = Symbols.outline(tree)
    #expect(outline.map(\.name) == ["scaled", "limit", "scaled"])
    #expect(outline.map(\.kind) == [.formula, .constant, .test])
    #expect(outline[0].children.map(\.name) == ["amount", "factor", "result"])
    #expect(outline[0].detail == "(amount: Money, factor: Number): Money")
    let library = Symbols.outline(program.trees[0])
    #expect(library[1].children.map(\.name) == ["2025", "2026"])
    #expect(library[1].children[1].children.map(\.name) == ["income_tax", "credit_rate", "surtax"])

    let found = Symbols.search("inc", in: program.trees).map { ($0.symbol.name, $0.container) }
    #expect(found.first?.0 == "income_tax")
    #expect(found.contains { $0 == ("income_tax", "ON 2026") })
    #expect(Symbols.search("scld", in: program.trees).map(\.symbol.name) == ["scaled", "scaled"])
    #expect(Symbols.search("zzz", in: program.trees).isEmpty)
  }

  @Test func semanticTokensClassifyNames() {
    let tree = program.trees[1]
    let tokens = SemanticTokens.tokens(
      source: tree.source, comments: tree.comments, index: SymbolIndex(program), program: program,
      libraryFiles: [FileID(0)])
    func kinds(_ text: String) -> [(SemanticTokenKind, Int)] {
      tokens.filter { tree.source.text(of: $0.span) == text }.map { ($0.kind, $0.modifiers) }
    }
    #expect(kinds("scaled").first! == (.function, SemanticTokenModifier.declaration.bit))
    #expect(kinds("amount").first! == (.parameter, SemanticTokenModifier.declaration.bit))
    #expect(kinds("limit").first! == (.variable, SemanticTokenModifier.declaration.bit | SemanticTokenModifier.readonly.bit))
    #expect(kinds("Money").first! == (.type, 0))
    #expect(kinds("formula").first! == (.keyword, 0))
    #expect(kinds("test").first! == (.keyword, 0))
    #expect(kinds("$10").first! == (.number, 0))
    #expect(kinds("# A comment").first! == (.comment, 0))
    // Sorted, and never overlapping.
    #expect(zip(tokens, tokens.dropFirst()).allSatisfy { $0.span.end <= $1.span.start })
  }

  @Test func foldingRegions() {
    let regions = Folding.regions(program.trees[1])
    #expect(regions.contains(FoldingRegion(startLine: 0, endLine: 1, kind: .comment)))
    #expect(regions.contains(FoldingRegion(startLine: 2, endLine: 4, kind: .code)))
    #expect(regions.contains(FoldingRegion(startLine: 8, endLine: 10, kind: .code)))
    let library = Folding.regions(program.trees[0])
    #expect(library.contains { $0.startLine == 9 && $0.endLine == 11 })  // ON's year 2025 block
  }

  @Test func selectionRangesGrowOutwards() {
    let tree = program.trees[1]
    let offset = Self.source["2"]
    let chain = SelectionRanges.ranges(at: offset, in: tree)
    #expect(tree.source.text(of: chain[0]) == "$3")
    #expect(tree.source.text(of: chain[1]) == "scaled($1) == $3")
    #expect(chain.last == Span(file: QueryWorld.user, start: 0, end: tree.source.bytes.count))
    for (inner, outer) in zip(chain, chain.dropFirst()) {
      #expect(outer.start <= inner.start && inner.end <= outer.end)
    }
  }

  @Test func inlayHintsShowValuesAndBothSidesOfAFailure() {
    let hints = InlayHints.hints(file: QueryWorld.user, program: program, year: nil)
    #expect(hints.map(\.label) == ["= $20.00", "= true", "= false (left $2.00, right $3.00)"])
    #expect(hints.map(\.isProblem) == [false, false, true])
    let line = Array(Self.source.text.utf8)[..<hints[2].offset]
    #expect(String(decoding: line, as: UTF8.self).hasSuffix("scaled($1) == $3"))
    // Limited to a range.
    let early = InlayHints.hints(file: QueryWorld.user, program: program, year: nil, range: 0..<10)
    #expect(early.isEmpty)
  }

  @Test func codeActionsCarryTheDiagnosticsFixes() throws {
    let broken = Marked("formula f(income: Money): Money = 1️⃣incme\nlet x = 2️⃣1200 + $5\n")
    let program = QueryWorld.program(broken.text)
    let near = CodeActions.fixes(for: program.diagnostics, in: QueryWorld.user, range: broken["1"]..<broken["1"])
    #expect(near.map(\.title) == ["Change to 'income'"])
    #expect(near[0].isPreferred)
    let other = CodeActions.fixes(for: program.diagnostics, in: QueryWorld.user, range: broken["2"]..<broken["2"])
    #expect(other.map(\.title) == ["Write '$1200'"])
    #expect(other[0].replacements == [TextReplacement(span: Span(file: QueryWorld.user, start: broken["2"], end: broken["2"] + 4), text: "$1200")])
  }

  @Test func codeLensesAndTheirCommands() throws {
    let lenses = CodeLenses.lenses(file: QueryWorld.user, program: program)
    #expect(lenses.map(\.action) == [.explain(expression: "scaled(amount: $50,000)"), .runTest(name: "scaled")])
    let report = try #require(CodeLenses.runTest(named: "scaled", in: QueryWorld.user, program: program, year: nil))
    #expect(!report.passed)
    #expect(report.text.contains("right side: $3.00"))
    let explanation = try CodeLenses.explain("scaled(amount: $50,000)", program: program, year: nil).get()
    #expect(explanation.hasPrefix("scaled(amount: $50,000) = $100,000.00"))
    if case .success = CodeLenses.explain("scaled(", program: program, year: nil) {
      Issue.record("an unfinished expression cannot be explained")
    }
    // A sample input respects the parameter's range.
    let ranged = QueryWorld.program("formula small(x: Money in $0..$100): Money = x")
    let lens = CodeLenses.lenses(file: QueryWorld.user, program: ranged)
    #expect(lens.first?.action == .explain(expression: "small(x: $100.00)"))
  }
}
