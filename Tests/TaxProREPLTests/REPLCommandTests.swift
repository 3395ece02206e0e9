import Foundation
import LineEditing
import TaxProCore
import Testing

@testable import TaxProREPL

@Suite struct REPLCommandTests {
  @Test func typeOfExpressionsAndSignatures() throws {
    let repl = try REPLHarness(lines: [":type $1 * 2", ":type ON.income_tax", ":type provincial_tax", ":type max", ":type 1 + $1"])
    repl.run()
    let lines = repl.text.split(separator: "\n")
    #expect(lines.prefix(4) == [
      "Money", "Brackets", "provincial_tax(income: Money in $0..$100,000,000, province: Province = ON): Money",
      "max(x: T, …): T",
    ])
    #expect(repl.errors.contains("cannot add"))
    // :type evaluates nothing: ans is still unset.
    #expect(repl.session.values["ans"] == nil)
  }

  @Test func helpOverviewAndNames() throws {
    let repl = try REPLHarness(lines: [
      ":help", ":help provincial_tax", ":help ON.basic_personal_amount", ":help :ask", ":help max", ":help Money",
      ":help ON", ":help ON.income_tax", ":help Province",
    ])
    repl.run()
    let text = repl.text
    #expect(text.contains(":ask FORMULA"))
    #expect(text.contains("Tab completes"))
    #expect(text.contains("Tax owed to one province on taxable income."))
    #expect(text.contains("Definition: Each bracket's rate"))
    #expect(text.contains("income    Money, from $0 to $100,000,000 — Taxable income for the year."))
    #expect(text.contains("ON.basic_personal_amount: Money — Ontario, 2025"))
    #expect(text.contains("Value in 2025: $12,000.00"))
    #expect(text.contains("Fill in a formula's inputs like a form"))
    #expect(text.contains("The largest of its arguments"))
    #expect(text.contains("An amount in dollars and cents"))
    #expect(text.contains("ON — Ontario (a province or territory)"))
    #expect(text.contains("$50,000.00  and up         10%"))
    #expect(text.contains("parameters Province"))
    #expect(repl.errors.isEmpty)
  }

  @Test func helpForUnknownNamesSuggests() throws {
    let repl = try REPLHarness(lines: [":help provincal_tax", ":help ON.nothing"])
    repl.run()
    #expect(repl.errors.contains("no help for 'provincal_tax'; did you mean 'provincial_tax'?"))
    #expect(repl.errors.contains("no help for 'ON.nothing'"))
  }

  @Test func explainShowsTheSteps() throws {
    let repl = try REPLHarness(lines: [":explain provincial_tax($60,000)", "ans"])
    repl.run()
    #expect(repl.text.contains("provincial_tax($60,000) = $3,500.00"))
    #expect(repl.text.contains("bracket by bracket"))
    #expect(repl.text.contains("Definition: Each bracket's rate"))
    #expect(repl.text.hasSuffix("$3,500.00\n"))
  }

  @Test func yearCommand() throws {
    let repl = try REPLHarness(lines: [":year", ":year 1999", ":year 2026", "provincial_tax($60,000)", ":year twenty"])
    repl.run()
    #expect(repl.text.contains("the tax year is 2025 (figures for 2025, 2026)"))
    #expect(repl.errors.contains("there are no figures for 1999; the years with figures are 2025, 2026"))
    #expect(repl.text.contains("the tax year is now 2026"))
    #expect(repl.text.contains("$3,000.00"))
    #expect(repl.errors.contains("a year is a number"))
  }

  @Test func loadAndReload() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("mine.tax")
    try directory.write("formula half(x: Money): Money = x / 2\n", to: "mine.tax")
    let repl = try REPLHarness(
      lines: [":load \(path)", "half($10)", ":load \(directory.file("missing.tax"))", ":load"], directory: directory)
    repl.run()
    #expect(repl.text.contains("loaded \(path): 1 formula"))
    #expect(repl.text.contains("$5.00"))
    #expect(repl.errors.contains("no such file"))
    #expect(repl.errors.contains("usage: :load FILE"))

    // A file that stops checking is not taken; the version loaded before stays.
    try directory.write("formula half(x: Money): Money = x * x\n", to: "mine.tax")
    let second = try REPLHarness(lines: [":load \(path)"], directory: directory)
    second.run()
    #expect(second.errors.contains("was not loaded"))
    #expect(second.session.program.formula(named: "half") == nil)
  }

  @Test func reloadReadsTheFilesAgain() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("mine.tax")
    try directory.write("formula rate(): Rate = 5%\n", to: "mine.tax")
    let repl = try REPLHarness(lines: [":reload"], directory: directory)
    repl.repl.load([path])
    try directory.write("formula rate(): Rate = 7%\n", to: "mine.tax")
    repl.run()
    #expect(repl.text.contains("reloaded \(path)"))
    #expect(repl.session.submit("rate()").valueText == "7%")
    // Nothing loaded: nothing to reload.
    let empty = try REPLHarness(lines: [":reload"])
    empty.run()
    #expect(empty.text.contains("no files are loaded"))
  }

  @Test func topicsLessonAndSearch() throws {
    let repl = try REPLHarness(lines: [
      ":topics", ":lesson refund", ":lesson income tax", ":lesson nothing", ":search bracket", ":search rrsp refund",
      ":search zebra",
    ])
    repl.run()
    let text = repl.text
    #expect(text.contains("Income\n  Income tax: provincial_tax\n"))
    #expect(text.contains("  RRSP: refund"))
    #expect(text.contains("Lesson: refund — Tax saved by an RRSP contribution."))
    #expect(text.contains("1. What it is"))
    #expect(text.contains("2. What goes in"))
    #expect(text.contains("3. A worked example"))
    // The example as it would be typed (the province left at its default), summarised: the $5,000 deducted was
    // taxed at 10% + 20%.
    #expect(text.contains("  refund($5,000, $60,000) = $1,500.00"))
    #expect(text.contains("under the federal brackets, all of it at 20%"))
    #expect(text.contains("province      Province, by default Ontario"))
    #expect(text.contains("4. Tip"))
    #expect(text.contains("Topic: Income / Income tax"))
    #expect(text.contains("Lesson: provincial_tax"))
    #expect(repl.errors.contains("no lesson, formula or topic 'nothing'"))
    #expect(text.contains("provincial_tax — Tax owed to one province"))
    #expect(text.contains("refund — Tax saved by an RRSP contribution. (Income / RRSP)"))
    #expect(text.contains("nothing matches 'zebra'"))
  }

  @Test func plotInTheTerminalAndAsSVG() throws {
    let directory = try TemporaryDirectory()
    let svg = directory.file("chart.svg")
    let repl = try REPLHarness(
      lines: [
        ":plot provincial_tax(income) over income from $0 to $100,000",
        ":plot provincial_tax(income) over income from $0 to $100,000 --svg \(svg)",
        ":plot income over income from $10 to $0", ":plot nonsense", ":plot x > 1 over x from 0 to 2",
        ":plot provincial_tax(income) over income from 0 to 100000", ":plot x + \"a\" over x from 0 to 2",
      ], directory: directory)
    repl.run()
    #expect(repl.text.contains("┤"))
    #expect(repl.text.contains("$100,000"))
    #expect(repl.text.contains("wrote \(svg) (201 points)"))
    let document = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(document.contains("<polyline"))
    #expect(repl.errors.contains("the range must go from a smaller to a larger value"))
    #expect(repl.errors.contains("usage: :plot EXPR over NAME from A to B"))
    #expect(repl.errors.contains("only Money, Rate and Number can be plotted"))
    // A range of numbers where the formula wants money says how to write it; a mistake of another kind does not.
    let errors = repl.errors.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let hints = errors.components(separatedBy: "the range's ends are numbers, so 'income' is a Number")
    #expect(hints.count == 2)
    #expect(hints.last?.contains("write them with '$': $0 and $100000") == true)
    #expect(!errors.contains("so 'x' is a Number"))
  }

  @Test func plotCommandParsing() {
    #expect(
      PlotCommand.parse("tax(ON.income_tax, income) over income from $0 to $250,000")
        == PlotCommand(expression: "tax(ON.income_tax, income)", variable: "income", from: "$0", to: "$250,000"))
    #expect(
      PlotCommand.parse("over * 2 over over from 1 to 2 --svg 'my chart.svg'")
        == PlotCommand(expression: "over * 2", variable: "over", from: "1", to: "2", svgPath: "my chart.svg"))
    #expect(PlotCommand.parse("x over 1 from 1 to 2") == nil)
    #expect(PlotCommand.parse("x over y from 1") == nil)
    #expect(PlotRequest.parseOver("income=$0..$250,000.50")! == ("income", "$0", "$250,000.50"))
    #expect(PlotRequest.parseOver("income=$0") == nil)
    #expect(PlotRequest.parseOver("=1..2") == nil)
  }
}

extension SessionOutcome {
  /// The printed value, for short expectations.
  var valueText: String? {
    if case .value(let value) = self { return ValueFormatter.format(value) }
    return nil
  }
}
