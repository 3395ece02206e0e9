import Foundation
import LineEditing
import TaxProCore
import Testing

@testable import TaxProREPL

@Suite struct REPLAskTests {
  @Test func formAsksEachInputReasksOnBadAnswersAndComputes() throws {
    let repl = try REPLHarness(lines: [
      ":ask refund",
      "$50,000",  // above the contribution's range
      "five",  // not an expression that checks
      "$5,000",
      "",  // no default: an answer is needed
      "60000",  // a plain number for a Money input: that many dollars

      "",  // the province's default, ON
      "y",
    ])
    repl.run()
    let text = repl.text
    #expect(text.contains("refund(contribution: Money in $0..$32,490, income: Money in $0..$10,000,000, province: Province = ON): Money"))
    #expect(text.contains("Enter the contribution and your taxable income before it."))
    #expect(text.contains("contribution (Money, from $0 to $32,490)"))
    #expect(text.contains("The amount you put into your RRSP."))
    #expect(repl.errors.contains("contribution must be from $0.00 to $32,490.00, but $50,000.00 is above that"))
    #expect(repl.errors.contains("unknown name 'five'"))
    #expect(text.contains("income = $60,000.00"))
    #expect(repl.errors.contains("an answer is needed: a Money such as $50,000"))
    #expect(text.contains("Enter takes ON (the default)"))
    // $60,000 − $5,000 crosses the $50,000 threshold: $5,000 at 10% + 20%, nothing below.
    #expect(text.contains("refund(contribution: $5,000.00, income: $60,000.00, province: ON) = $1,500.00"))
    // The explanation is the summary: the $5,000 is taxed at 10% + 20% under the two tables.
    #expect(text.contains("The $5,000.00 between $55,000.00 and $60,000.00 was taxed at:"))
    #expect(text.contains("under the Ontario brackets, all of it at 10%"))
    #expect(text.contains("under the federal brackets, all of it at 20%"))
    let prompts = repl.editor.prompts.map(\.text)
    #expect(prompts.filter { $0 == "  contribution: " }.count == 3)
    #expect(prompts.filter { $0 == "  income: " }.count == 2)
    #expect(prompts.contains("  province [ON]: "))
    #expect(prompts.last == "Explain it? [y/N] " || prompts.last == REPL.prompt)
    #expect(repl.session.values["ans"] == .money(ExactDecimal(1500)))
    // Answers are not history entries; the command is.
    #expect(repl.editor.history == [":ask refund"])
  }

  @Test func answersMayNameEarlierInputs() throws {
    let repl = try REPLHarness(lines: [":ask refund", "$1,000", "contribution * 50", "QC", "n"])
    repl.run()
    #expect(repl.text.contains("refund(contribution: $1,000.00, income: $50,000.00, province: QC) = $290.00"))
  }

  @Test func profileValuesAreOffered() throws {
    let repl = try REPLHarness(lines: [":profile income $85,000", ":profile province QC", ":ask refund", "$1,000", "", "", "n"])
    repl.run()
    #expect(repl.editor.prompts.contains { $0.text == "  income [$85,000.00]: " })
    #expect(repl.editor.prompts.contains { $0.text == "  province [QC]: " })
    #expect(repl.text.contains("Enter takes $85,000.00 (your profile)"))
    #expect(repl.text.contains("refund(contribution: $1,000.00, income: $85,000.00, province: QC) ="))
  }

  @Test func sessionValuesComeBeforeTheProfile() throws {
    let repl = try REPLHarness(lines: [":profile income $85,000", "let income = $40,000", ":ask refund", "$1,000", "", "", "n"])
    repl.run()
    #expect(repl.editor.prompts.contains { $0.text == "  income [$40,000.00]: " })
    #expect(repl.text.contains("Enter takes $40,000.00 (your `let`)"))
  }

  @Test func aProfileValueThatNoLongerFitsIsNotOffered() throws {
    let repl = try REPLHarness(lines: [":profile contribution $99,000", ":ask refund", "$1", "$100", "", "n"])
    repl.run()
    #expect(repl.editor.prompts.contains { $0.text == "  contribution: " })
  }

  @Test func ctrlCLeavesTheForm() throws {
    let repl = try REPLHarness([.line(":ask refund"), .line("$1"), .interrupted, .line("1 + 1")])
    repl.run()
    #expect(repl.text.contains("the form was left; nothing was computed"))
    #expect(repl.text.hasSuffix("2\n"))
  }

  @Test func unknownAndBrokenFormulas() throws {
    let repl = try REPLHarness(lines: [":ask refnud", ":ask"])
    repl.run()
    #expect(repl.errors.contains("no formula named 'refnud'; did you mean 'refund'?"))
    #expect(repl.errors.contains("usage: :ask FORMULA"))
  }
}
