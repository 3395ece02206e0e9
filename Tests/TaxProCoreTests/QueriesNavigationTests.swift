import Testing

@testable import TaxProCore

struct QueriesNavigationTests {
  static let source = Marked(
    """
    ## Doubles an amount.
    formula 1️⃣double(amount: Money): Money =
      let 2️⃣twice = 3️⃣amount * 2
      4️⃣twice

    let 5️⃣limit = d6️⃣ouble($10)

    test "double" {
      double($1) == $2
      tax(7️⃣ON.8️⃣income_tax, $1) >= $0
      marginal_rate(ON.income_tax, $1) > 0%
      provincial($100, 9️⃣province: QC) > $0
    }
    """)

  let program = QueryWorld.program(Self.source.text)
  var index: SymbolIndex { SymbolIndex(program) }

  @Test func theProgramChecks() {
    #expect(program.diagnostics.isEmpty, "\(program.diagnostics.map(\.message))")
  }

  @Test func occurrenceUnderTheCursorIncludingJustAfterAName() {
    let index = self.index
    #expect(index.occurrence(at: Self.source["1"], in: QueryWorld.user)?.symbol == .formula("double"))
    #expect(index.occurrence(at: Self.source["6"], in: QueryWorld.user)?.symbol == .formula("double"))
    // Just after `twice` on the result line (offset of 4️⃣ + 5).
    #expect(index.occurrence(at: Self.source["4"] + 5, in: QueryWorld.user)?.symbol.isLocal == true)
    #expect(index.occurrence(at: 0, in: QueryWorld.user) == nil)
  }

  @Test func definitionOfAFormulaALocalAndAParameter() {
    let index = self.index
    let formula = Definition.locations(at: Self.source["6"], in: QueryWorld.user, program: program, index: index, year: nil)
    #expect(formula == [Span(file: QueryWorld.user, start: Self.source["1"], end: Self.source["1"] + 6)])
    let local = Definition.locations(at: Self.source["4"], in: QueryWorld.user, program: program, index: index, year: nil)
    #expect(local == [Span(file: QueryWorld.user, start: Self.source["2"], end: Self.source["2"] + 5)])
    let parameter = Definition.locations(at: Self.source["3"], in: QueryWorld.user, program: program, index: index, year: nil)
    #expect(parameter.first?.start == Self.source["1"] + 7)
  }

  @Test func definitionOfAProvinceParameterPrefersTheSelectedYear() {
    let index = self.index
    let library = program.sources[FileID(0)]!
    let for2025 = Definition.locations(at: Self.source["8"], in: QueryWorld.user, program: program, index: index, year: 2025)
    #expect(library.lineColumn(of: for2025[0].start).line == 11)
    let latest = Definition.locations(at: Self.source["8"], in: QueryWorld.user, program: program, index: index, year: nil)
    #expect(library.lineColumn(of: latest[0].start).line == 15)
    // Then the other year, then the interface member.
    #expect(latest.count == 3)
    #expect(library.lineColumn(of: latest[2].start).line == 4)
  }

  @Test func referencesAcrossFilesAndHighlights() {
    let index = self.index
    let all = References.find(at: Self.source["8"], in: QueryWorld.user, index: index, includeDeclaration: true)
    // The interface member, ON's two years, QC's one, `province.income_tax` in the library, two uses here.
    #expect(all.filter { $0.span.file == FileID(0) }.count == 5)
    #expect(all.filter { $0.span.file == QueryWorld.user }.count == 2)
    let uses = References.find(at: Self.source["8"], in: QueryWorld.user, index: index, includeDeclaration: false)
    #expect(uses.count == 3)
    let highlights = References.highlights(at: Self.source["2"], in: QueryWorld.user, index: index)
    #expect(highlights.map(\.isDefinition) == [true, false])
  }

  @Test func renameEditsEveryOccurrence() throws {
    let result = Rename.edits(
      at: Self.source["1"], in: QueryWorld.user, newName: "twofold", program: program, index: index,
      isEditable: QueryWorld.isEditable)
    let replacements = try result.get()
    #expect(replacements.count == 3)
    #expect(replacements.allSatisfy { $0.text == "twofold" })
    let parameter = try Rename.edits(
      at: Self.source["9"], in: QueryWorld.user, newName: "where", program: program, index: index,
      isEditable: { _ in true }
    ).get()
    // The declaration, its use in the body, and the named argument.
    #expect(parameter.count == 3)
  }

  @Test func renameRefusesWithAReason() {
    func refusal(_ marker: String, _ name: String, editable: @escaping (FileID) -> Bool = QueryWorld.isEditable) -> String? {
      switch Rename.edits(
        at: Self.source[marker], in: QueryWorld.user, newName: name, program: program, index: index,
        isEditable: editable)
      {
      case .success: nil
      case .failure(let refusal): refusal.message
      }
    }
    #expect(refusal("8", "brackets_2")?.contains("read-only") == true)
    #expect(refusal("1", "limit") == "'limit' is already defined")
    #expect(refusal("1", "2x")?.contains("is not a name") == true)
    #expect(refusal("1", "if") == "'if' is a keyword")
    #expect(refusal("1", "max") == "'max' is a built-in function")
    #expect(refusal("2", "amount") == "'amount' is already defined in this body")
    #expect(refusal("8", "credit_rate", editable: { _ in true }) == "'credit_rate' is already a parameter")
    #expect(refusal("7", "QC", editable: { _ in true }) == "'QC' is already defined")
  }

  @Test func hoverShowsSignatureDocumentationAndValues() throws {
    let index = self.index
    let formula = try #require(Hover.info(at: Self.source["6"], in: QueryWorld.user, program: program, index: index, year: nil))
    #expect(formula.code == "formula double(amount: Money): Money")
    #expect(formula.documentation?.summary == "Doubles an amount.")
    let constant = try #require(Hover.info(at: Self.source["5"], in: QueryWorld.user, program: program, index: index, year: nil))
    #expect(constant.code == "let limit: Money")
    #expect(constant.value?.lines == ["$20.00"])
    let parameter = try #require(Hover.info(at: Self.source["8"], in: QueryWorld.user, program: program, index: index, year: 2025))
    #expect(parameter.code == "ON.income_tax: Brackets")
    #expect(parameter.documentation?.summary == "The bracket table.")
    #expect(parameter.value?.caption == "ON.income_tax in 2025")
    #expect(parameter.value?.lines == ["$0.00      -> 5%", "$50,000.00 -> 10%"])
    let local = try #require(Hover.info(at: Self.source["4"], in: QueryWorld.user, program: program, index: index, year: nil))
    #expect(local.code == "let twice: Money")
    let province = try #require(Hover.info(at: Self.source["7"], in: QueryWorld.user, program: program, index: index, year: nil))
    #expect(province.code == "province ON \"Ontario\"")
    #expect(province.notes == ["Figures for 2025, 2026."])
  }

  /// A formula's documentation of several lines, read when the hover asks for it, with its topic shown once.
  @Test func hoverShowsAFormulasWholeDocumentationAndItsTopicOnce() throws {
    let source = Marked(
      """
      ## Halves an amount.
      ## tip: Round afterwards.
      ## topic: Income / Splitting
      formula 1️⃣half(amount: Money): Money = amount / 2
      """)
    let program = QueryWorld.program(source.text)
    let hover = try #require(
      Hover.info(at: source["1"], in: QueryWorld.user, program: program, index: SymbolIndex(program), year: nil))
    #expect(hover.documentation?.tip == "Round afterwards.")
    for text in [hover.markdown, hover.plainText] {
      #expect(text.components(separatedBy: "Topic: Income / Splitting").count == 2, "\(text)")
      #expect(text.contains("Round afterwards."), "\(text)")
    }
  }
}

extension Symbol {
  var isLocal: Bool {
    if case .local = self { return true }
    return false
  }
}
