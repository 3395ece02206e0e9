import Foundation
import Testing

@testable import TaxProCore

/// Completion at a `1️⃣` marker, against a small program of its own (the core's tests do not load the library).
@Suite struct CompletionTests {
  static let library = """
    ## What every province defines.
    parameters Province {
      ## Taxable-income brackets.
      income_tax: Brackets
      ## Basic personal amount.
      basic_personal_amount: Money
      credit_rate: Rate
    }

    parameters Federal {
      income_tax: Brackets
      ## The most anyone can contribute to an RRSP in the year.
      rrsp_dollar_limit: Money
    }

    province ON "Ontario" {
      year 2025 {
        income_tax = brackets {
          $0 -> 5.05%
          $52,886 -> 9.15%
        }
        basic_personal_amount = $12,747
        credit_rate = 5.05%
        ## The first surtax threshold.
        surtax_threshold_1 = $5,710
      }
    }

    province QC "Quebec" {
      year 2025 {
        income_tax = brackets {
          $0 -> 14%
        }
        basic_personal_amount = $18,571
        credit_rate = 14%
      }
    }

    federal "Canada" {
      year 2025 {
        income_tax = brackets {
          $0 -> 15%
        }
        rrsp_dollar_limit = $32,490
      }
    }

    ## Tax owed to one province on taxable income.
    ## definition: Each bracket's rate applies only to the part of income inside it.
    ## topic: Income / Income tax
    formula provincial_tax(
      ## Taxable income for the year.
      income: Money in $0..$100,000,000,
      province: Province = ON
    ): Money =
      tax(province.income_tax, income)

    formula federal_tax(income: Money): Money = tax(federal.income_tax, income)

    let ontario_credit = 5.05%
    """

  static let program: Program = {
    let source = SourceFile(id: FileID(0), name: "<library>", text: library)
    return Checker.check([Parser.parse(source)])
  }()

  func complete(
    _ marked: String, mode: ParseMode = .file, values: [String: Value] = [:], year: Int? = nil
  ) -> CompletionList {
    let marker = "1️⃣"
    let parts = marked.components(separatedBy: marker)
    precondition(parts.count == 2, "one cursor marker expected")
    let query = CompletionQuery(
      text: parts[0] + parts[1], offset: parts[0].utf8.count, mode: mode, sessionValues: values, year: year)
    return CompletionEngine.complete(query, in: Self.program)
  }

  func labels(_ list: CompletionList) -> [String] { list.candidates.map(\.label) }

  /// At the top level every formula and constant of the program is a candidate; their signatures and documentation
  /// are written only for the ones kept, and must be those of the whole list.
  @Test func aLimitedListIsTheStartOfTheWholeOne() throws {
    let text = (0..<300).map { "## Formula \($0), documented.\nformula f\($0)(x: Money): Money = x * \($0 % 7)\n" }.joined()
      + (0..<40).map { "## Constant \($0).\nlet f_constant\($0) = $\($0)\n" }.joined()
    let program = Checker.check([Parser.parse(SourceFile(id: FileID(0), name: "many.tax", text: text))])
    #expect(program.diagnostics.isEmpty)
    let written = text + "formula g(y: Money): Money = f"
    let query = CompletionQuery(text: written, offset: written.utf8.count)
    let whole = CompletionEngine.complete(query, in: program)
    let declared = whole.candidates.filter { $0.kind == .formula || $0.kind == .constant }
    // Besides them, the builtins and keywords that start with `f`.
    #expect(declared.count == 340 && whole.candidates.count > 340 && !whole.isIncomplete)
    #expect(declared.allSatisfy { $0.details == nil && !$0.detail.isEmpty && $0.documentation != nil })
    let first = try #require(whole.candidates.first { $0.label == "f12" })
    #expect(first.detail == "f12(x: Money): Money" && first.documentation?.contains("Formula 12, documented.") == true)
    let constant = try #require(whole.candidates.first { $0.label == "f_constant3" })
    #expect(constant.detail == "Money" && constant.documentation == "Constant 3.")
    let count = whole.candidates.count
    for limit in [1, 50, count - 1, count, 1_000] {
      let limited = CompletionEngine.complete(query, in: program, limit: limit)
      #expect(limited.candidates == Array(whole.candidates.prefix(limit)), "limit \(limit)")
      #expect(limited.isIncomplete == (limit < count), "limit \(limit)")
    }
  }

  @Test func programHasNoErrors() {
    #expect(Self.program.diagnostics.filter { $0.severity == .error }.isEmpty)
  }

  // MARK: Members

  @Test func jurisdictionParametersAfterCode() {
    let list = complete("tax(ON.1️⃣", mode: .interactive)
    #expect(list.position == .member(of: "ON"))
    #expect(
      Set(labels(list)) == ["income_tax", "basic_personal_amount", "credit_rate", "surtax_threshold_1", "name"])
    #expect(list.candidates.allSatisfy { $0.kind == .jurisdictionParameter })
    let incomeTax = list.candidates.first { $0.label == "income_tax" }
    #expect(incomeTax?.detail == "Brackets")
    #expect(incomeTax?.documentation?.contains("Taxable-income brackets.") == true)
    let surtax = list.candidates.first { $0.label == "surtax_threshold_1" }
    #expect(surtax?.documentation?.contains("The first surtax threshold.") == true)
    #expect(surtax?.documentation?.contains("Defined by ON for 2025.") == true)
  }

  @Test func memberPrefixAndRange() {
    let text = "ON.income_t"
    let list = complete(text + "1️⃣", mode: .interactive)
    #expect(labels(list) == ["income_tax"])
    #expect(list.prefix == "income_t")
    #expect(list.range == 3..<text.utf8.count)
    #expect(list.candidates.first?.range == list.range)
  }

  @Test func wordRangeCoversTheRestOfTheWord() {
    let list = complete("ON.inc1️⃣ome_tax", mode: .interactive)
    #expect(list.range == 3..<6)
    #expect(list.wordRange == 3..<13)
    #expect(labels(list).first == "income_tax")
  }

  @Test func valuesForARequestedYear() {
    let list = complete("ON.1️⃣", mode: .interactive, year: 2025)
    let amount = list.candidates.first { $0.label == "basic_personal_amount" }
    #expect(amount?.value == "$12,747.00")
    #expect(amount?.documentation?.contains("**2025:** `$12,747.00`") == true)
    let brackets = list.candidates.first { $0.label == "income_tax" }
    #expect(brackets?.documentation?.contains("| $52,886.00 | 9.15% |") == true)
    #expect(list.candidates.first { $0.label == "name" }?.value == "\"Ontario\"")
    // Without a year no value is worked out.
    #expect(complete("ON.1️⃣", mode: .interactive).candidates.allSatisfy { $0.label == "name" || $0.value == nil })
  }

  @Test func federalParameters() {
    let list = complete("federal.r1️⃣", mode: .interactive)
    #expect(list.position == .member(of: "federal"))
    #expect(labels(list) == ["rrsp_dollar_limit"])
  }

  @Test func provinceParameterHasInterfaceMembersOnly() {
    let list = complete("formula f(p: Province): Money = tax(p.1️⃣")
    #expect(Set(labels(list)) == ["income_tax", "basic_personal_amount", "credit_rate", "name"])
  }

  @Test func contextualKeywordsAsNames() {
    let list = complete("formula f(province: Province): Rate = province.cr1️⃣")
    #expect(labels(list) == ["credit_rate"])
    #expect(complete("province 1️⃣").position == .declaration)
    #expect(complete("test 1️⃣").position == .declaration)
    #expect(complete("formula f(province: Province): Rate =\n  province1️⃣").position == .names)
  }

  @Test func provinceTypedLetHasInterfaceMembers() {
    let list = complete(
      """
      formula f(p: Province): Rate =
        let other = if p == ON then QC else ON
        other.c1️⃣
      """)
    #expect(labels(list) == ["credit_rate"])
  }

  /// A parameter or `let` named like a jurisdiction hides it (the names are found before any type is inferred).
  @Test func aLocalNamedLikeAJurisdictionHidesIt() {
    #expect(!complete("formula f(x: Money): Money = ON.1️⃣").candidates.isEmpty)
    #expect(complete("formula f(ON: Money): Money = ON.1️⃣").candidates.isEmpty)
    #expect(complete("formula f(x: Money): Money =\n  let ON = x * 2\n  ON.1️⃣").candidates.isEmpty)
    // A Province, so the interface's members, not Ontario's own parameters.
    let list = complete("formula f(x: Money): Rate =\n  let ON = QC\n  ON.1️⃣")
    #expect(Set(labels(list)) == ["income_tax", "basic_personal_amount", "credit_rate", "name"])
    #expect(labels(complete("formula f(x: Money): Rate = ON.1️⃣")).count > 4)
  }

  @Test func sessionValueOfProvinceType() {
    let list = complete("p.b1️⃣", mode: .interactive, values: ["p": .province("QC")])
    #expect(labels(list) == ["basic_personal_amount"])
  }

  @Test func membersOfSomethingElseAreNothing() {
    #expect(complete("formula f(x: Money): Money = x.1️⃣").candidates.isEmpty)
    #expect(complete("XX.1️⃣", mode: .interactive).candidates.isEmpty)
    #expect(complete("12.1️⃣", mode: .interactive).candidates.isEmpty)
  }

  // MARK: Names in scope

  @Test func parametersAndLetsAboveTheCursor() {
    let list = complete(
      """
      formula g(income: Money, rate: Rate): Money =
        let half = income / 2
        1️⃣
        let later = $1
        half
      """)
    let names = labels(list)
    #expect(names.prefix(4) == ["let", "half", "income", "rate"] || names.contains("half"))
    #expect(names.contains("income") && names.contains("rate") && names.contains("half"))
    #expect(!names.contains("later"))
    #expect(names.contains("provincial_tax") && names.contains("ON") && names.contains("max"))
    #expect(list.candidates.first { $0.label == "half" }?.detail == "Money")
    #expect(list.candidates.first { $0.label == "income" }?.kind == .local)
    // Locals come before globals that match as well.
    let localIndex = names.firstIndex(of: "income") ?? .max
    let formulaIndex = names.firstIndex(of: "provincial_tax") ?? .max
    #expect(localIndex < formulaIndex)
  }

  @Test func theLetBeingWrittenIsNotVisible() {
    let list = complete(
      """
      formula g(income: Money): Money =
        let half = ha1️⃣
      """)
    #expect(!labels(list).contains("half"))
  }

  @Test func defaultsSeeEarlierParametersOnly() {
    let list = complete("formula h(income: Money, contribution: Money = 18% * 1️⃣")
    #expect(labels(list).contains("income"))
    #expect(!labels(list).contains("contribution"))
  }

  @Test func testBlockLets() {
    let list = complete(
      """
      test "t" {
        let amount = $5
        amo1️⃣
      }
      """)
    #expect(labels(list).first == "amount")
    #expect(list.candidates.first?.detail == "Money")
  }

  @Test func formulaDeclaredInTheTextButNotInTheProgram() {
    let list = complete(
      """
      formula mine(x: Money): Money = x
      formula other(): Money = mi1️⃣
      """)
    #expect(labels(list).first == "mine")
    #expect(list.candidates.first?.detail == "mine(x: Money): Money")
  }

  @Test func formulaCandidateHasSignatureAndDocumentation() {
    let list = complete("provincial_t1️⃣", mode: .interactive)
    let formula = list.candidates.first
    #expect(formula?.label == "provincial_tax")
    #expect(formula?.kind == .formula)
    #expect(formula?.detail == "provincial_tax(income: Money in $0..$100,000,000, province: Province = ON): Money")
    #expect(formula?.documentation?.contains("**Definition.** Each bracket's rate") == true)
    #expect(formula?.documentation?.contains("`income: Money`, from $0 to $100,000,000 — Taxable income") == true)
  }

  @Test func sessionValues() {
    let list = complete("an1️⃣", mode: .interactive, values: ["ans": .money(ExactDecimal(5))])
    #expect(list.candidates.first?.label == "ans")
    #expect(list.candidates.first?.kind == .sessionValue)
    #expect(list.candidates.first?.value == "$5.00")
    #expect(list.candidates.first?.detail == "Money")
  }

  @Test func argumentLabels() {
    let list = complete("provincial_tax($5, pro1️⃣", mode: .interactive)
    #expect(list.candidates.first?.label == "province:")
    #expect(list.candidates.first?.insertText == "province: ")
    #expect(list.candidates.first?.kind == .argumentLabel)
    #expect(labels(list).contains("provincial_tax"))
    // Labels already given are not offered again.
    let second = complete("provincial_tax(income: $5, 1️⃣", mode: .interactive)
    #expect(labels(second).contains("province:"))
    #expect(!labels(second).contains("income:"))
  }

  // MARK: Ranking

  @Test func exactPrefixThenCaseInsensitiveThenSubstring() {
    let list = complete("on1️⃣", mode: .interactive)
    #expect(labels(list).prefix(2) == ["ontario_credit", "ON"])
    #expect(list.candidates[0].match == .prefix)
    #expect(list.candidates[1].match == .caseInsensitivePrefix)
    let tax = complete("x + tax1️⃣", mode: .interactive)
    #expect(labels(tax).first == "tax")
    #expect(Set(labels(tax).dropFirst()) == ["federal_tax", "provincial_tax"])
    #expect(tax.candidates.dropFirst().allSatisfy { $0.match == .substring })
  }

  /// The sources of candidates leave out names the prefix cannot match before rendering them; what is left must be
  /// exactly what ranking every candidate would keep: the same candidates, in the same order, with the same
  /// documentation, detail and value. The prefixes cover each kind of match and none.
  @Test(arguments: [
    ("tax(ON.", ParseMode.interactive, 2025),
    ("x + ", .interactive, nil),
    ("provincial_tax(income: $5, ", .interactive, nil),
    ("formula g(income: Money, rate: Rate): Money =\n  let base = income * rate\n  ", .file, nil),
    ("formula f(p: Province): Money = tax(p.", .file, nil),
  ] as [(String, ParseMode, Int?)])
  func prefixFilterKeepsWhatRankingKeeps(_ context: String, _ mode: ParseMode, _ year: Int?) {
    let everything = complete(context + "1️⃣", mode: mode, year: year)
    #expect(everything.candidates.count > 3)
    for prefix in ["", "i", "in", "IN", "In", "ta", "TAX", "a", "rate", "x", "zz", "_", "basic"] {
      let list = complete(context + prefix + "1️⃣", mode: mode, year: year)
      let reference = CompletionEngine.rank(everything.candidates, prefix: prefix, range: list.range)
      #expect(list.candidates == reference, "prefix '\(prefix)' after '\(context)'")
    }
  }

  /// The matcher's byte-wise answers for ASCII names are those of the definition: lowercased copies, then a prefix
  /// or (for two letters or more) a substring. Every pair of these labels and prefixes, accented ones included.
  @Test func matcherAgreesWithItsDefinition() {
    let labels = [
      "income_tax", "Income", "INCOME", "provincial_tax", "ON", "on", "ontario_credit", "x", "", "tax", "Tax_Rate",
      "équité", "Équipe", "naïve_tax", "ab", "aB", "_", "__x", "TAXTAX", "ta",
    ]
    let prefixes = ["", "i", "in", "IN", "In", "ta", "TAX", "Ta", "x", "tax_r", "ÉQ", "éq", "ï", "_", "b", "B", "ab", "taxtax"]
    for label in labels {
      for prefix in prefixes {
        var expected: CompletionMatch? = nil
        if prefix.isEmpty || label.hasPrefix(prefix) {
          expected = .prefix
        } else if label.lowercased().hasPrefix(prefix.lowercased()) {
          expected = .caseInsensitivePrefix
        } else if prefix.lowercased().count >= 2, label.lowercased().contains(prefix.lowercased()) {
          expected = .substring
        }
        #expect(CompletionEngine.match(label, prefix) == expected, "'\(label)' against '\(prefix)'")
      }
    }
  }

  // MARK: Positions

  @Test func types() {
    #expect(labels(complete("formula f(x: Mo1️⃣")) == ["Money"])
    #expect(labels(complete("formula f(x: Money): R1️⃣")) == ["Rate"])
    #expect(labels(complete("formula f(x: Money, y: 1️⃣)")).count == TaxType.writable.count)
    #expect(labels(complete("let x: N1️⃣ = 3")) == ["Number"])
    #expect(labels(complete("parameters Province {\n  rate: Ra1️⃣\n}")).first == "Rate")
    #expect(complete("formula f(x: 1️⃣").position == .type)
    // A named argument's label is followed by a value, not a type.
    let argument = complete("provincial_tax(income: 1️⃣", mode: .interactive)
    #expect(argument.position == .names)
    #expect(labels(argument).contains("ON"))
  }

  @Test func declarationsOfNewNames() {
    #expect(complete("formula 1️⃣").position == .declaration)
    #expect(complete("formula f(inc1️⃣").candidates.isEmpty)
    #expect(complete("formula f(income: Money, 1️⃣").position == .declaration)
    #expect(complete("let 1️⃣").candidates.isEmpty)
    #expect(complete("parameters Province {\n  inc1️⃣\n}").position == .declaration)
  }

  @Test func nothingInCommentsTextsAndNumbers() {
    #expect(complete("# ON.1️⃣").position == .none)
    #expect(complete("\"ON.1️⃣\"", mode: .interactive).position == .none)
    #expect(complete("\"unclosed ON.1️⃣", mode: .interactive).position == .none)
    #expect(complete("$851️⃣", mode: .interactive).candidates.isEmpty)
    #expect(complete("31️⃣", mode: .interactive).candidates.isEmpty)
    #expect(complete("$1️⃣", mode: .interactive).candidates.isEmpty)
    // Right after a closed text the cursor is outside it.
    #expect(complete("\"a\" 1️⃣", mode: .interactive).position == .names)
  }

  @Test func afterAnOperandOnlyOperatorKeywords() {
    let list = complete("formula f(x: Money): Bool = x > $5 a1️⃣")
    #expect(labels(list) == ["and"])
    let all = complete("if true t1️⃣", mode: .interactive)
    #expect(labels(all) == ["then"])
  }

  @Test func topLevelOfAFileTakesDeclarations() {
    let list = complete("fo1️⃣")
    #expect(labels(list) == ["formula"])
    let empty = complete("formula f(): Money = $1\n1️⃣")
    #expect(Set(labels(empty)) == ["formula", "let", "test", "parameters", "province"])
  }

  @Test func topLevelOfTheREPLTakesDeclarationsAndExpressions() {
    let list = complete("pro1️⃣", mode: .interactive)
    #expect(Set(labels(list)) == ["province", "provincial_tax"])
  }

  @Test func continuationLinesAtColumnZeroStayInTheFormula() {
    let list = complete("formula f(income: Money): Money =\nin1️⃣", mode: .interactive)
    #expect(labels(list).first == "income")
  }

  @Test func missingParametersInAYearBlock() {
    let list = complete(
      """
      province AB "Alberta" {
        year 2025 {
          income_tax = brackets {
            $0 -> 10%
          }
          1️⃣
        }
      }
      """)
    #expect(Set(labels(list)) == ["basic_personal_amount", "credit_rate"])
    #expect(labels(complete("province AB \"Alberta\" {\n  y1️⃣\n}")) == ["year"])
  }

  @Test func brokenCodeElsewhere() {
    let list = complete(
      """
      formula broken( =
      formula ok(x: Money): Money = x +
        fed1️⃣
      let after = )
      """)
    #expect(Set(labels(list)) == ["federal_tax", "federal"])
  }

  /// Completion is asked for in the middle of anything; no offset of any of these may crash or give a bad range.
  @Test func everyOffsetOfBrokenTexts() {
    let texts = [
      CompletionTests.library, "formula f(", "formula (x: ) = ", "let = ", "test \"unclosed", "province ON {\n  year {",
      "parameters { : }", "((((((", "))))", "ON..income", "$1,23.4 + é.ON.", "\"\\\"\" ON.", "# ## ON.\n", ".", ":", "::x",
      "if then else", "brackets { $0 -> 5% ", "f(a: b: c:", "formula g(p: Province) = p.name.x.", "🍁ON.in",
    ]
    for text in texts {
      for offset in 0...text.utf8.count {
        for mode in [ParseMode.file, .interactive] {
          let list = CompletionEngine.complete(
            CompletionQuery(text: text, offset: offset, mode: mode, year: 2025), in: Self.program)
          #expect(list.range.upperBound <= text.utf8.count && list.range.lowerBound <= list.range.upperBound)
          #expect(list.wordRange.lowerBound == list.range.lowerBound && list.wordRange.upperBound >= list.range.upperBound)
        }
      }
    }
  }

  @Test func cursorOutsideTheTextOrInsideACharacterIsSafe() {
    let text = "\"é\" + ON.i"
    for offset in [-5, 0, 1, 2, 3, text.utf8.count, text.utf8.count + 10] {
      let list = CompletionEngine.complete(CompletionQuery(text: text, offset: offset), in: Self.program)
      #expect(list.range.lowerBound <= list.range.upperBound)
      #expect(list.range.upperBound <= text.utf8.count)
    }
    let empty = CompletionEngine.complete(CompletionQuery(text: "", offset: 0, mode: .interactive), in: Self.program)
    #expect(empty.position == .names)
    #expect(labels(empty).contains("provincial_tax"))
  }
}
