import Testing

@testable import TaxProCore

/// A result taken apart for a chart: which steps are parts, what the whole is, the labels' words, exact shares, and
/// the diagnostics for parts that cannot be charted.
@Suite struct BreakdownTests {
  static let program = """
    ## Combined tax: federal and provincial together.
    formula both(income: Money): Money =
      ## Federal part: the federal share.
      let national = income * 10%
      let provincial = income * 5%
      let rate = 15%
      national + provincial

    formula kept(
      ## Pay for the month.
      pay: Money,
      other: Money = $1
    ): Money =
      ## Rent.
      let rent = $1,000
      pay - rent

    formula odd(pay: Money): Money =
      let half = pay / 2
      let third = pay / 3
      pay - half

    formula negative(pay: Money): Money =
      let refund = -$10
      pay - refund

    ## A summary with many lines, returning one.
    ## parts: gross = kept_part + tax
    ##   + dues
    formula lines(gross: Money, which: Text = "kept"): Money =
      let subtotal = gross * 50%
      ## Tax: a fifth.
      let tax = gross * 20%
      let dues = $10
      let kept_part = gross - tax - dues
      if which == "kept" then kept_part else tax

    ## parts: total = a + b
    formula wrong(total: Money): Money =
      ## First part.
      let a = total / 2
      let b = total / 3
      a + b

    ## parts: total = a + missing
    formula misnamed(total: Money): Money =
      let a = total
      a

    ## parts: total a + b
    formula malformed(total: Money): Money =
      let a = total
      a
    """

  func session() -> Session {
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "mine.tax", text: Self.program))
    return Session(trees: [tree], year: 2025, firstInputFileID: 1)
  }

  func parts(_ breakdown: Breakdown) -> [String] {
    breakdown.parts.map { "\($0.label) \(ValueFormatter.money($0.amount)) \($0.shareText)" }
  }

  @Test func stepsThatAddUpToTheResultAreItsParts() throws {
    let breakdown = try session().breakdown("both($1,000)").get()
    // `rate` is not Money: left out. The result is the whole, named by the summary's words before the colon.
    #expect(parts(breakdown) == ["Federal part $100.00 66.7%", "Provincial $50.00 33.3%"])
    #expect(breakdown.wholeLabel == "Combined tax")
    #expect(breakdown.whole == ExactDecimal(150))
  }

  @Test func aRemainderOfAnInputIsThePartLeftOver() throws {
    let breakdown = try session().breakdown("kept($3,000)").get()
    #expect(parts(breakdown) == ["Kept $2,000.00 66.7%", "Rent $1,000.00 33.3%"])
    #expect(breakdown.wholeLabel == "Pay for the month")
  }

  @Test func sharesAreExactDecimals() throws {
    let breakdown = try session().breakdown("a: $1, b: $2").get()
    #expect(breakdown.parts.map(\.share) == [try ExactDecimal(2) / ExactDecimal(3), try ExactDecimal(1) / ExactDecimal(3)])
    #expect(breakdown.parts.map(\.label) == ["B", "A"])
    #expect(breakdown.wholeLabel == "Total")
  }

  @Test func budgetLines() throws {
    let breakdown = try session().breakdown(#"rent: $2,100 in $0..$2,000, "Food and drink": $600 in $0..$800"#).get()
    #expect(breakdown.parts.map(\.label) == ["Rent", "Food and drink"])
    #expect(breakdown.parts.map(\.overBudget) == [ExactDecimal(100), nil])
    #expect(breakdown.budget == ExactDecimal(2800))
  }

  func codes(_ text: String) -> [String] {
    switch session().breakdown(text) {
    case .success: return []
    case .failure(let list): return list.diagnostics.map { "\($0.code.rawValue): \($0.message)" }
    }
  }

  @Test func whatCannotBeCharted() {
    #expect(codes("odd($600)").first?.hasPrefix("chart-parts: the let steps of odd add up to $500.00") == true)
    #expect(codes("negative($600)") == ["chart-parts: 'Refund' is -$10.00; a part of a whole cannot be negative"])
    #expect(codes("$5 + $5") == ["chart-parts: a chart needs parts: a formula call with Money let steps, or a list of named amounts"])
    #expect(codes("kept($0, $1,000)").first?.hasPrefix("chart-parts") == true)
    #expect(codes("a: $1, b: 2") == ["chart-type: only Money can be shared out in a chart, but 'B' is Number"])
    #expect(codes("a: $1 in $0..5%") == ["chart-type: only Money can be shared out in a chart, but the budget line of 'A' is Rate"])
    #expect(codes("a: $1,") == [])
    #expect(codes("a: $1 b") == ["syntax: expected ',' between named amounts, found 'b'"])
  }

  @Test func aPartsLineNamesThePartsOfARecordLikeFormula() throws {
    // The subtotal and the result (whichever line is asked for) are not parts; the line's names are.
    for call in [#"lines($1,000)"#, #"lines($1,000, "tax")"#] {
      let breakdown = try session().breakdown(call).get()
      #expect(parts(breakdown) == ["Kept part $790.00 79.0%", "Tax $200.00 20.0%", "Dues $10.00 1.0%"])
      #expect(breakdown.whole == ExactDecimal(1000))
      #expect(breakdown.wholeLabel == "Gross")
    }
  }

  @Test func aPartsLineThatDoesNotAddUpIsAnErrorNotAChart() throws {
    guard case .failure(let list) = session().breakdown("wrong($600)") else {
      Issue.record("wrong($600) was charted")
      return
    }
    let error = try #require(list.diagnostics.first)
    #expect(error.code == .chartParts)
    #expect(error.message == "the parts that wrong's documentation names add up to $500.00, which is not Total ($600.00)")
    #expect(error.notes.map(\.message) == ["First part: $300.00", "B: $200.00"])
    #expect(codes("misnamed($5)") == [
      "chart-parts: the 'parts:' line of misnamed's documentation names 'missing', which is not one of its Money let "
        + "steps or inputs"
    ])
    #expect(codes("malformed($5)") == [
      "chart-parts: the 'parts:' line of malformed's documentation must read WHOLE = PART + PART + …"
    ])
  }

  /// A wrong `parts:` line is said when the file is checked, as a warning (the formula still runs).
  @Test func aWrongPartsLineIsAWarningWhenChecked() {
    let warnings = session().program.diagnostics.filter { $0.code == .partsLine }
    #expect(warnings.allSatisfy { $0.severity == .warning })
    #expect(warnings.map(\.message) == [
      "the 'parts:' line of misnamed's documentation names 'missing', which is not one of its Money let steps or inputs",
      "the 'parts:' line of malformed's documentation must read WHOLE = PART + PART + …",
    ])
    #expect(!session().program.diagnostics.contains { $0.severity == .error })
  }

  @Test func aPartsLineReadsWholeEqualsASumOfNames() {
    #expect(Breakdown.identityNames("w = a + b")?.whole == "w")
    #expect(Breakdown.identityNames("w = a\n + b_2")?.parts == ["a", "b_2"])
    for wrong in ["w = a +", "w = a + a", "w = w + a", "= a", "w a = b", "w = a = b", "w = 2a", "w = a - b", "w"] {
      #expect(Breakdown.identityNames(wrong) == nil, "\(wrong)")
    }
  }

  @Test func labelsAreTheDocumentationsWords() {
    #expect(Breakdown.title(fromSummary: "Take-home pay: a year's salary minus deductions.") == "Take-home pay")
    #expect(Breakdown.title(fromSummary: "EI premiums.") == "EI premiums")
    #expect(Breakdown.title(fromSummary: "Rent. Paid on the first.") == "Rent")
    #expect(Breakdown.title(fromSummary: String(repeating: "long ", count: 12)) == nil)
    #expect(Breakdown.words("income_tax") == "Income tax")
    #expect(Breakdown.percent((try? ExactDecimal(1) / ExactDecimal(3)) ?? .zero) == "33.3%")
  }
}
