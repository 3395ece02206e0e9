import Foundation
import LineEditing
import TaxProCore
import TaxProLibrary
import Testing

@testable import TaxProREPL

/// The JSON mode's session: the REPL's semantics through requests (docs/REPL_JSON.md), over the harness's library.
@Suite struct JSONSessionTests {
  /// A JSON session over the harness's library; `answers` are what a client would send for `input` events.
  final class Client {
    let directory: TemporaryDirectory
    var answers: [LineInput]
    var prompts: [String] = []
    var cancelled = false
    private(set) var json: JSONSession!

    init(answers: [LineInput] = []) throws {
      directory = try TemporaryDirectory()
      self.answers = answers
      let session = Session(trees: REPLHarness.libraryTrees, year: 2025, firstInputFileID: 1)
      let configuration = REPL.Configuration(
        userFiles: UserFiles(directory: directory.file("data/taxpro")), color: true, width: { 80 },
        handlesInterrupts: false)
      json = JSONSession(
        session: session, sources: SourceImporter(libraryTrees: REPLHarness.libraryTrees),
        configuration: configuration,
        readLine: { [unowned self] prompt in
          prompts.append(prompt)
          return self.answers.isEmpty ? .endOfInput : self.answers.removeFirst()
        },
        isInterrupted: { [unowned self] in cancelled })
    }

    @discardableResult
    func run(_ code: String, stopOnError: Bool = true) -> (status: ReplyStatus, outputs: [OutputItem]) {
      let (status, outputs, _) = json.execute(code, stopOnError: stopOnError)
      return (status, outputs)
    }

    /// The one value a piece of code shows.
    func value(_ code: String) -> String? {
      run(code).outputs.last { $0.kind == .value }?.value?.text
    }
  }

  @Test func valuesCarryTheirTypeAndExactDigits() throws {
    let client = try Client()
    let (status, outputs) = client.run("$10 / 3")
    #expect(status == .ok)
    #expect(outputs.count == 1)
    #expect(outputs[0].kind == .value)
    #expect(outputs[0].text == "$3.33")
    #expect(outputs[0].value?.type == "Money")
    #expect(outputs[0].value?.exact == "3.33")
    #expect(client.run("1 / 3").outputs[0].value?.exact?.hasPrefix("0.3333333333333333333333333333") == true)
    #expect(client.value("13% + 1%") == "14%")
  }

  @Test func theSessionIsTheREPLs() throws {
    let client = try Client()
    #expect(client.run("let income = $60,000").outputs[0].definitions?.first?.value?.text == "$60,000.00")
    #expect(client.value("provincial_tax(income)") == "$3,500.00")
    #expect(client.value("ans * 2") == "$7,000.00")
    let defined = client.run("formula net(x: Money): Money = x - provincial_tax(x)").outputs
    #expect(defined.first?.definitions?.first?.kind == "formula")
    #expect(client.value("net(income)") == "$56,500.00")
    // :year changes the figures, as at the prompt, and the reply says which year is in force.
    #expect(client.run(":year 2026").outputs.first?.text.contains("2026") == true)
    #expect(client.json.execute("provincial_tax(income)").outputs.first?.text == "$3,000.00")
    #expect(client.json.session.year == 2026)
  }

  @Test func errorsLeaveNothingBehind() throws {
    let client = try Client()
    client.run("let x = $5")
    let failedLet = client.run("let x = $1 * $1")
    #expect(failedLet.status == .error)
    #expect(client.value("x") == "$5.00")
    let failedFormula = client.run("formula bad(x: Money): Money = x * x")
    #expect(failedFormula.status == .error)
    #expect(failedFormula.outputs[0].diagnostics?.first?.code == "type-mismatch")
    #expect(client.run("bad($1)").outputs[0].diagnostics?.first?.message.contains("bad") == true)
  }

  @Test func aCellRunsLineByLineAndStopsAtItsFirstError() throws {
    let client = try Client()
    let (status, outputs) = client.run("let a = 2\na * 3\n1200 + $5\nlet b = 1")
    #expect(status == .error)
    #expect(outputs.map(\.kind) == [.definitions, .value, .diagnostics])
    // The line after the error did not run.
    #expect(client.run("b").status == .error)
    // Without stopping, it does; the error still makes the reply an error.
    let (goingOn, all) = client.run("1200 + $5\nlet b = 1", stopOnError: false)
    #expect(goingOn == .error)
    #expect(all.map(\.kind) == [.diagnostics, .definitions])
  }

  @Test func diagnosticsHaveTheCellsLineNumbersAndTheCaretRendering() throws {
    let client = try Client()
    let outputs = client.run("let a = 1\n\nmax($1,\n    $2) + 1").outputs
    let diagnostic = try #require(outputs.last?.diagnostics?.first)
    #expect(diagnostic.code == "type-mismatch")
    #expect(diagnostic.location?.line == 3)
    #expect(diagnostic.location?.column == 1)
    #expect(diagnostic.location?.endLine == 4)
    let text = try #require(outputs.last?.text)
    #expect(text.hasPrefix("<input>:3:1: error[type-mismatch]: cannot add Money and Number"))
    #expect(text.contains("3 | max($1,"))
    #expect(text.contains("^"))
    // No colour in a reply, whatever the configuration says.
    #expect(!text.contains("\u{1B}["))
    let hint = try #require(client.run("1200 + $5").outputs.first?.diagnostics?.first)
    #expect(hint.notes.first?.kind == "help")
    #expect(hint.fixes.first?.edits.first?.text == "$1200")
  }

  @Test func blankLinesInsideAnEntryAreKeptAndAnUnfinishedEntryIsReported() throws {
    let client = try Client()
    #expect(client.value("max($1,\n\n  $2)") == "$2.00")
    let (status, outputs) = client.run("1 + 1\nmax($1,")
    #expect(status == .error)
    #expect(outputs.first?.text == "2")
    #expect(outputs.contains { $0.kind == .diagnostics && $0.diagnostics?.first?.location?.line == 2 })
    #expect(outputs.contains { $0.text.contains("the unfinished input was dropped") })
  }

  @Test func commentsBeforeAnEntryStayWithIt() throws {
    let client = try Client()
    let (status, outputs) = client.run("# notes\n## Twice the amount.\n## tip: Double it.\nformula tw(x: Money): Money =\n  x * 2")
    #expect(status == .ok)
    #expect(outputs.map(\.kind) == [.definitions])
    let formula = try #require(client.json.session.program.formula(named: "tw"))
    #expect(formula.documentation.summary == "Twice the amount.")
    #expect(formula.documentation.tip == "Double it.")
    // Comments alone run nothing; before a command they are dropped.
    #expect(client.run("# nothing here\n\n## nor here").outputs.isEmpty)
    #expect(client.run("# the year\n:year 2026").outputs.first?.text.contains("2026") == true)
    #expect(client.json.isComplete("## a formula follows").0 == .complete)
  }

  @Test func commandsAreTheTablesAndTheirTextComesThrough() throws {
    let client = try Client()
    let help = client.run(":help :year").outputs
    #expect(help.count == 1)
    #expect(help[0].kind == .text)
    #expect(help[0].stream == .stdout)
    #expect(help[0].text.lowercased().contains(REPLCommand.year.entry.summary.lowercased()))
    let unknown = client.run(":hlep")
    #expect(unknown.status == .error)
    #expect(unknown.outputs.first?.kind == .error)
    #expect(unknown.outputs.first?.message == "unknown command ':hlep'; did you mean ':help'?")
    #expect(client.json.info.commands.map(\.name) == CommandTable.names)
  }

  @Test func explanationsAreData() throws {
    let client = try Client()
    let output = try #require(client.run(":explain provincial_tax($60,000)").outputs.first)
    #expect(output.kind == .explanation)
    #expect(output.text.hasPrefix("provincial_tax($60,000) = $3,500.00"))
    let explanation = try #require(output.explanation)
    #expect(explanation["value"]?["text"] == "$3,500.00")
    #expect(explanation["year"] == 2025)
    let brackets = explanation["steps"]?[0]?["steps"]?.arrayValue?.first { $0["kind"] == "brackets" }
    #expect(brackets?["brackets"]?[1]?["tax"] == "1000")
    #expect(brackets?["marginalRate"] == "0.1")
  }

  @Test func plotsAreSVGWhereImagesAreShown() throws {
    let client = try Client()
    let output = try #require(client.run(":plot x * 2 over x from 0 to 10").outputs.first)
    #expect(output.kind == .image)
    #expect(output.mimeType == "image/svg+xml")
    #expect(output.data?.contains("<svg") == true)
    #expect(output.text == "a chart of x * 2 as x goes from 0 to 10 (\(REPL.svgSamples) points)")
  }

  @Test func chartsAreSVGWhereImagesAreShown() throws {
    let client = try Client()
    let reply = client.run(":chart rent: $2,100, food: $640")
    #expect(reply.status == .ok)
    let output = try #require(reply.outputs.first)
    #expect(output.kind == .image)
    #expect(output.mimeType == "image/svg+xml")
    #expect(output.data?.contains("<svg") == true)
    #expect(output.text.contains("$2,100.00"))
    #expect(output.text.contains("$640.00"))
    #expect(!output.text.contains("\u{1B}["))
  }

  @Test func aValuesTextHonoursDigits() throws {
    let client = try Client()
    let before = try #require(client.run("1 / 3").outputs.first?.value)
    #expect(client.run(":digits 4").status == .ok)
    let output = try #require(client.run("1 / 3").outputs.first)
    let value = try #require(output.value)
    #expect(value.text == output.text)
    #expect(value.text.count < before.text.count)
    #expect(value.exact == before.exact)
  }

  @Test func testsTypedInAreReported() throws {
    let client = try Client()
    let passed = client.run("test \"t\" { 1 + 1 == 2 }")
    #expect(passed.status == .ok)
    #expect(passed.outputs.first?.tests?.first?.passed == true)
    let failed = client.run("test \"u\" { 1 + 1 == 3 }")
    #expect(failed.status == .error)
    #expect(failed.outputs.first?.text.hasSuffix("0 passed, 1 failed") == true)
  }

  @Test func askReadsItsAnswersFromTheClient() throws {
    let client = try Client(answers: [.line("$1,000"), .line("$60,000"), .line(""), .line("y")])
    let (status, outputs) = client.run(":ask refund")
    #expect(status == .ok)
    #expect(client.prompts == ["  contribution: ", "  income: ", "  province [ON]: ", "Explain it? [y/N] "])
    #expect(outputs.contains { $0.text.contains("refund(contribution: ") && $0.text.contains(") = $300.00") })
    #expect(outputs.last?.kind == .explanation)
    // Without answers (a client that gives none) the form is left.
    let (_, left) = try Client().run(":ask refund")
    #expect(left.contains { $0.text.contains("the form was left") })
  }

  @Test func anInterruptionBetweenLinesStopsTheCell() throws {
    let client = try Client()
    client.cancelled = true
    let (status, outputs) = client.run("let a = 1\na")
    #expect(status == .cancelled)
    #expect(outputs.map(\.kind) == [.cancelled])
    client.cancelled = false
    client.json.session.isCancelled = { true }
    let (stopped, partial) = client.run("1 + 1\nd12($1)\n3")
    #expect(stopped == .cancelled)
    #expect(partial.map(\.kind) == [.value, .cancelled])
  }

  @Test func quitEndsTheSession() throws {
    let client = try Client()
    let (_, outputs, quit) = client.json.execute(":quit\n1")
    #expect(quit)
    #expect(outputs.isEmpty)
  }

  // MARK: Looking without running

  @Test func completionIsTheREPLsTab() throws {
    let client = try Client()
    let members = client.json.complete("ON.income_t", cursor: nil)
    #expect(members.matches == ["income_tax"])
    #expect(members.start == 3 && members.end == 11)
    #expect(client.json.complete(":ex", cursor: nil).matches == [":explain"])
    client.run("let income = $1")
    // A continuation line of an entry completes with the lines before it as context.
    let inside = client.json.complete("let y = 1\nprovincial_tax(\n  inc", cursor: nil)
    #expect(inside.matches.contains("income"))
    #expect(inside.start == 28)
    // A `let` earlier in the cell has not run, but is offered.
    #expect(client.json.complete(":year 2025\nlet my_rate = 5%\nmy_r", cursor: nil).matches == ["my_rate"])
    #expect(client.json.complete("let my_rate = 5%\nON.inc", cursor: nil).matches == ["income_tax"])
    // Offsets count Unicode scalars, as Python does.
    let unicode = client.json.complete("\"\u{E9}t\u{E9}\" == \"\"\nON.bas", cursor: 18)
    #expect(unicode.matches == ["basic_personal_amount"])
    #expect(unicode.start == 15 && unicode.end == 18)
  }

  @Test func inspectionIsTheHoverWithTheYearsValue() throws {
    let client = try Client()
    let formula = try #require(client.json.inspect("provincial_tax($1)", cursor: 3))
    #expect(formula.code.hasPrefix("formula provincial_tax(income: Money"))
    #expect(formula.documentation?.summary == "Tax owed to one province on taxable income.")
    #expect(formula.markdown.contains("**Definition.**"))
    let parameter = try #require(client.json.inspect("ON.basic_personal_amount", cursor: 5))
    #expect(parameter.value?.caption == "ON.basic_personal_amount in 2025")
    #expect(parameter.value?.lines == ["$12,000.00"])
    client.run(":year 2026\nlet income = $85,000")
    #expect(client.json.inspect("ON.basic_personal_amount", cursor: 5)?.value?.lines == ["$12,500.00"])
    let sessionValue = try #require(client.json.inspect("income * 2", cursor: 2))
    #expect(sessionValue.code == "let income: Money")
    #expect(sessionValue.value?.lines == ["$85,000.00"])
    // In a formula being written, a parameter is the formula's.
    let inFormula = try #require(client.json.inspect("formula f(rate: Rate): Rate =\n  rate * 2", cursor: 33))
    #expect(inFormula.code == "rate: Rate")
    // A command's name, and the code after it.
    #expect(client.json.inspect(":explain provincial_tax($1)", cursor: 3)?.code == ":explain [full] EXPR")
    #expect(client.json.inspect(":explain provincial_tax($1)", cursor: 12)?.code.hasPrefix("formula provincial_tax") == true)
    #expect(client.json.inspect("1 + 2", cursor: 2) == nil)
  }

  @Test func isCompleteDecidesAsThePromptDoes() throws {
    let client = try Client()
    #expect(client.json.isComplete("1 + 2").0 == .complete)
    #expect(client.json.isComplete("").0 == .complete)
    #expect(client.json.isComplete(":help").0 == .complete)
    let open = client.json.isComplete("formula f(x: Money): Money =")
    #expect(open.0 == .incomplete)
    #expect(open.indent == "  ")
    #expect(client.json.isComplete("max($1,\n  $2").0 == .incomplete)
    #expect(client.json.isComplete("1 +* 2").0 == .invalid)
    #expect(client.json.isComplete(":nonsense").0 == .invalid)
  }

  /// `CellEntries` (for the requests that only look) and the REPL (which runs) group a cell's lines alike.
  @Test func entriesAreGroupedAsExecuteGroupsThem() throws {
    let cells = [
      "1 + 2\n:year 2026\nmax($1,\n  $2)\n\nlet a = 1",
      "formula f(x: Money): Money =\n  let y = x\n\n  y * 2\nf($1)",
      "  :help\n(1 +\n 2)\n3",
      "# a note\n:year 2025\n## Doc.\nformula g(x: Money): Money = x\n# end",
    ]
    for cell in cells {
      let entries = CellEntries(cell)
      let client = try Client()
      let outputs = client.run(cell).outputs
      #expect(outputs.count == entries.entries.count, "\(cell)")
      #expect(entries.entries.allSatisfy { $0.isFinished })
    }
  }
}
