import Foundation
import LineEditing
import TaxProCore
import Testing

@testable import TaxProREPL

@Suite struct REPLLoopTests {
  @Test func harnessLibraryChecks() {
    let program = Checker.check(REPLHarness.libraryTrees)
    #expect(program.diagnostics.filter { $0.severity == .error }.map(\.message) == [])
  }

  @Test func arithmeticAndAns() throws {
    let repl = try REPLHarness(lines: ["1 + 2", "ans * 2", "0.1 + 0.2", "$10 / 3"])
    #expect(repl.run() == 0)
    #expect(repl.text == "3\n6\n0.3\n$3.33\n")
    #expect(repl.editor.prompts.allSatisfy { $0 == .init(kind: .primary, text: REPL.prompt) })
    #expect(repl.editor.history == ["1 + 2", "ans * 2", "0.1 + 0.2", "$10 / 3"])
  }

  @Test func letBindings() throws {
    let repl = try REPLHarness(lines: ["let income = $85,000", "income * 13%", "let income = $1"])
    repl.run()
    #expect(repl.text.hasPrefix("income = $85,000.00\n$11,050.00\n"))
    // A `let` typed again takes the new value.
    #expect(repl.errors.isEmpty)
    #expect(repl.session.values["income"] == .money(ExactDecimal(1)))
  }

  @Test func anErrorThenAWorkingLine() throws {
    let repl = try REPLHarness(lines: ["1200 + $5", "$1 + $2"])
    repl.run()
    #expect(repl.errors.contains("error[type-mismatch]: cannot add Number and Money"))
    #expect(repl.errors.contains("did you mean '$1200'?"))
    #expect(repl.errors.contains("<input>:1:1"))
    #expect(repl.text.hasSuffix("$3.00\n"))
  }

  @Test func twoLineExpressionUsesTheContinuationPrompt() throws {
    let repl = try REPLHarness(lines: ["max($1,", "$2)", "ans"])
    repl.run()
    #expect(repl.text == "$2.00\n$2.00\n")
    #expect(repl.editor.prompts.map(\.kind).prefix(3) == [.primary, .continuation, .primary])
    #expect(repl.editor.prompts[1].text == REPL.continuationPrompt)
    #expect(repl.editor.history.first == "max($1,\n$2)")
  }

  @Test func blankContinuationLineDropsTheUnfinishedInput() throws {
    let repl = try REPLHarness(lines: ["(1 +", "", "5"])
    repl.run()
    // One line says what was missing and that it was dropped, not the rendered parse error.
    #expect(repl.errors.contains("error: expected an expression, found the end of the input; the unfinished input was dropped"))
    #expect(!repl.errors.contains("error[syntax]:"))
    #expect(repl.text.hasSuffix("5\n"))
  }

  @Test func aBlankLineInsidePastedTextIsPartOfTheEntry() throws {
    let lines = [
      "formula net(income: Money): Money =", "  let t = provincial_tax(income)", "", "  income - t", "net($10,000)",
    ]
    let pasted = try REPLHarness(lines: lines)
    pasted.editor.pasted = true
    pasted.run()
    #expect(pasted.errors.isEmpty)
    #expect(pasted.text.contains("defined net(income: Money): Money"))
    #expect(pasted.text.hasSuffix("$9,500.00\n"))
    #expect(pasted.editor.history.first == lines[0..<4].joined(separator: "\n"))
    // Typed, the same blank line gives the entry up.
    let typed = try REPLHarness(lines: lines)
    typed.run()
    #expect(typed.errors.contains("the unfinished input was dropped"))
    #expect(typed.errors.contains("unknown formula 'net'"))
  }

  @Test func formulasTypedInAndAFailedDefinitionLeavesNothing() throws {
    let repl = try REPLHarness(lines: [
      "formula twice(x: Money): Money = x * 2", "twice($3)", "formula bad(x: Money): Money = x * x", "bad($1)",
    ])
    repl.run()
    #expect(repl.text.contains("defined twice(x: Money): Money"))
    #expect(repl.text.contains("$6.00"))
    #expect(repl.errors.contains("cannot multiply"))
    #expect(repl.errors.contains("unknown formula 'bad'"))
  }

  @Test func multiLineFormula() throws {
    let repl = try REPLHarness(lines: ["formula net(income: Money): Money =", "  let t = provincial_tax(income)", "  income - t", "net($10,000)"])
    repl.run()
    #expect(repl.text.contains("defined net(income: Money): Money"))
    #expect(repl.text.hasSuffix("$9,500.00\n"))
  }

  @Test func documentationWaitsForTheFormulaItDocuments() throws {
    let repl = try REPLHarness(lines: [
      "## Doubles an amount.", "## The second line of it.", "formula dbl(x: Money): Money = x * 2", ":help dbl",
    ])
    repl.run()
    #expect(repl.errors.isEmpty)
    #expect(repl.text.contains("defined dbl(x: Money): Money"))
    #expect(repl.text.contains("Doubles an amount. The second line of it."))
    #expect(repl.editor.prompts.map(\.kind) == [.primary, .continuation, .continuation, .primary, .primary])
    let entry = "## Doubles an amount.\n## The second line of it.\nformula dbl(x: Money): Money = x * 2"
    #expect(repl.editor.history.first == entry)
  }

  @Test func heldDocumentationIsDroppedWithANoteByABlankLineACommandOrTheEnd() throws {
    let repl = try REPLHarness(lines: [
      "## Meant for nothing.", "", "## Meant for a command.", ":help", "formula dbl(x: Money): Money = x * 2",
      ":help dbl", "## Left at the end.",
    ])
    #expect(repl.run() == 0)
    #expect(repl.errors.isEmpty)
    #expect(repl.text.components(separatedBy: REPL.droppedDocumentation).count == 4)
    #expect(repl.text.contains("defined dbl(x: Money): Money"))
    #expect(!repl.text.contains("Meant for"))
    #expect(repl.editor.prompts.map(\.kind) == [
      .primary, .continuation, .primary, .continuation, .primary, .primary, .primary, .continuation,
    ])
    #expect(repl.editor.history.contains(":help"))
  }

  @Test func aDefinitionThatChecksStillShowsTheCheckersWarnings() throws {
    let repl = try REPLHarness(lines: ["## parts: a, b", "formula p(x: Money): Money = x", "p($1)"])
    repl.run()
    #expect(repl.errors.contains("warning[parts-line]: the 'parts:' line of p's documentation must read WHOLE = PART"))
    #expect(repl.text.contains("defined p(x: Money): Money"))
    #expect(repl.text.hasSuffix("$1.00\n"))
    #expect(repl.repl.problems == 0)
  }

  @Test func aPlainCommentAloneStillDoesNothing() throws {
    let repl = try REPLHarness(lines: ["# a note to self", "1 + 1"])
    repl.run()
    #expect(repl.text == "2\n")
    #expect(repl.editor.prompts.allSatisfy { $0.kind == .primary })
  }

  @Test func testsTypedIn() throws {
    let repl = try REPLHarness(lines: ["test \"t\" { 1 + 1 == 2 }"])
    repl.run()
    #expect(repl.text.contains("1 passed, 0 failed"))
  }

  @Test func ctrlCDropsTheLineAndKeepsTheSession() throws {
    let repl = try REPLHarness([.line("let x = 4"), .line("(1 +"), .interrupted, .line("x")])
    repl.run()
    #expect(repl.text == "x = 4\n4\n")
    #expect(repl.editor.prompts.map(\.kind) == [.primary, .primary, .continuation, .primary, .primary])
  }

  @Test func ctrlDLeavesWithStatusZero() throws {
    let repl = try REPLHarness([.line("1"), .endOfInput, .line("2")])
    #expect(repl.run() == 0)
    #expect(repl.editor.remaining == 1)
  }

  @Test func quitLeaves() throws {
    let repl = try REPLHarness(lines: [":quit", "1"])
    #expect(repl.run() == 0)
    #expect(repl.editor.remaining == 1)
    #expect(repl.editor.history == [":quit"])
  }

  @Test func ctrlDInTheMiddleOfAnEntryReportsItAndLeaves() throws {
    let repl = try REPLHarness([.line("(1 +"), .endOfInput])
    #expect(repl.run() == 0)
    #expect(repl.text.contains("dropped"))
  }

  @Test func cancelledEvaluationIsOneLine() throws {
    let repl = try REPLHarness(lines: ["d12($1)", "1"])
    repl.session.isCancelled = { true }
    repl.run()
    #expect(repl.errors == "cancelled\n")
    #expect(repl.text.hasSuffix("1\n"))
  }

  @Test func noColourUnlessAskedFor() throws {
    let plain = try REPLHarness(lines: ["1 +", "$1 * $1", ":help"])
    plain.run()
    #expect(!plain.text.contains("\u{1B}["))
    #expect(!plain.editor.prompts.contains { $0.text.contains("\u{1B}[") })
    let coloured = try REPLHarness(lines: ["1", "$1 * $1"], color: true)
    coloured.run()
    #expect(coloured.text.contains("\u{1B}[1m1\u{1B}[0m"))
    #expect(coloured.errors.contains("\u{1B}[1;31merror[type-mismatch]:"))
    #expect(coloured.editor.prompts.first?.text == "\u{1B}[1;32mtaxpro>\u{1B}[0m ")
  }

  @Test func unknownCommandSuggestsOne() throws {
    let repl = try REPLHarness(lines: [":hlep", ":"])
    repl.run()
    #expect(repl.errors.contains("unknown command ':hlep'; did you mean ':help'?"))
    #expect(repl.errors.contains("a command name is needed"))
  }
}
