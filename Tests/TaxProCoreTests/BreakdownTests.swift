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

  @Test func labelsAreTheDocumentationsWords() {
    #expect(Breakdown.title(fromSummary: "Take-home pay: a year's salary minus deductions.") == "Take-home pay")
    #expect(Breakdown.title(fromSummary: "EI premiums.") == "EI premiums")
    #expect(Breakdown.title(fromSummary: "Rent. Paid on the first.") == "Rent")
    #expect(Breakdown.title(fromSummary: String(repeating: "long ", count: 12)) == nil)
    #expect(Breakdown.words("income_tax") == "Income tax")
    #expect(Breakdown.percent((try? ExactDecimal(1) / ExactDecimal(3)) ?? .zero) == "33.3%")
  }
}
