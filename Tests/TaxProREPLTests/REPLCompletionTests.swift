import Foundation
import LineEditing
import TaxProCore
import Testing

@testable import TaxProREPL

@Suite struct REPLCompletionTests {
  func editor() throws -> REPLHarness { try REPLHarness(lines: []) }

  @Test func commandNames() throws {
    let repl = try editor()
    #expect(repl.editor.complete(":he") == Completion(candidates: [":help"], replacing: 0..<3))
    #expect(repl.editor.complete("  :re").candidates == [":reload", ":reset", ":records"])
    #expect(repl.editor.complete(":").candidates.count == CommandTable.all.count)
    #expect(repl.editor.complete(":nothing x").candidates.isEmpty)
  }

  @Test func commandNamesAfterHeldDocumentation() throws {
    let repl = try editor()
    // `##` typed alone waits for its entry, but a command may still come instead (it drops the documentation).
    repl.repl.pendingLines = ["## Documentation waiting for its formula."]
    #expect(repl.editor.complete(":he") == Completion(candidates: [":help"], replacing: 0..<3))
    repl.repl.pendingLines = ["max($1,"]
    #expect(repl.editor.complete(":he").candidates.isEmpty)
  }

  @Test func membersAfterACode() throws {
    let repl = try editor()
    #expect(repl.editor.complete("ON.income_t") == Completion(candidates: ["income_tax"], replacing: 3..<11))
    #expect(repl.editor.complete("tax(federal.") == Completion(candidates: ["income_tax", "name"], replacing: 12..<12))
  }

  @Test func namesAndSessionValues() throws {
    let repl = try REPLHarness(lines: ["let income = $1"])
    repl.run()
    #expect(repl.editor.complete("provincial_tax(inc").candidates == ["income: ", "income"])
    #expect(repl.editor.complete("refu").candidates == ["refund"])
    // A cursor in the middle of the line completes the word before it.
    #expect(repl.editor.complete("refu + 1", cursor: 4) == Completion(candidates: ["refund"], replacing: 0..<4))
  }

  @Test func commandArguments() throws {
    let repl = try editor()
    #expect(repl.editor.complete(":ask re") == Completion(candidates: ["refund"], replacing: 5..<7))
    #expect(repl.editor.complete(":help ON.basic") == Completion(candidates: ["basic_personal_amount"], replacing: 9..<14))
    #expect(repl.editor.complete(":help :a").candidates == [":ask"])
    #expect(repl.editor.complete(":help Mo").candidates == ["Money"])
    #expect(repl.editor.complete(":type provincial_tax($1, Q").candidates == ["QC"])
    #expect(repl.editor.complete(":year 20").candidates == ["2025", "2026"])
    #expect(repl.editor.complete(":lesson Income").candidates.contains("Income / Income tax"))
    #expect(repl.editor.complete(":plot provincial_tax(income) over income from $0 to $1 --svg x").candidates.isEmpty)
  }

  @Test func filesForLoad() throws {
    let repl = try editor()
    try repl.directory.write("formula f(): Money = $1\n", to: "alpha.tax")
    try repl.directory.write("not tax", to: "alpha.txt")
    try FileManager.default.createDirectory(atPath: repl.directory.file("album"), withIntermediateDirectories: true)
    let prefix = repl.directory.path + "/al"
    let completion = repl.editor.complete(":load " + prefix)
    #expect(completion.candidates == [repl.directory.path + "/album/", repl.directory.path + "/alpha.tax"])
    #expect(completion.replacing == 6..<(6 + prefix.utf8.count))
  }

  @Test func continuationLinesSeeTheLinesBefore() throws {
    let repl = try editor()
    repl.repl.pendingLines = ["formula f(income: Money, province: Province): Money ="]
    #expect(repl.editor.complete("  inc") == Completion(candidates: ["income"], replacing: 2..<5))
    #expect(repl.editor.complete("  province.inc") == Completion(candidates: ["income_tax"], replacing: 11..<14))
    // On a continuation line a leading ':' is not a command.
    #expect(repl.editor.complete(":he").candidates.isEmpty)
  }

  @Test func profileNames() throws {
    let repl = try REPLHarness(lines: [":profile salary $1"])
    repl.run()
    let names = repl.editor.complete(":profile ").candidates
    #expect(names.contains("salary") && names.contains("income") && names.contains("contribution") && names.contains("clear"))
    #expect(repl.editor.complete(":profile income Q").candidates == ["QC"])
  }
}
