import Foundation
import LineEditing
import TaxProCore
import Testing

@testable import TaxProREPL

@Suite struct REPLStorageTests {
  @Test func profileSurvivesARestart() throws {
    let directory = try TemporaryDirectory()
    let first = try REPLHarness(lines: [":profile", ":profile income $85,000", ":profile age 67", ":profile province ON"], directory: directory)
    first.run()
    #expect(first.text.contains("your profile is empty"))
    #expect(first.text.contains("income = $85,000.00 (saved)"))
    let second = try REPLHarness(
      lines: [":profile", ":profile income", ":profile clear age", ":profile age", ":profile 9lives 1", ":profile x $1 * $1"],
      directory: directory)
    second.run()
    #expect(second.text.contains("  age       67\n  income    $85,000.00\n  province  ON\n"))
    #expect(second.text.contains("income = $85,000.00\n"))
    #expect(second.text.contains("removed age from your profile"))
    #expect(second.text.contains("age is not in your profile"))
    #expect(second.errors.contains("a profile name is a name such as income"))
    #expect(second.errors.contains("cannot multiply"))
  }

  @Test func saveAndRecordsSurviveARestart() throws {
    let directory = try TemporaryDirectory()
    let first = try REPLHarness(
      lines: [":save", "let rate = 13%", "$2", "ans * rate", ":save thirteen", ":ask refund", "$5,000", "$60,000", "", "n", ":save"],
      directory: directory)
    first.run()
    #expect(first.errors.contains("nothing to save yet"))
    #expect(first.text.contains("saved thirteen: ans * rate = $0.26"))
    #expect(first.text.contains("saved record-2: refund(contribution: $5,000.00, income: $60,000.00, province: ON) = $1,500.00"))
    let second = try REPLHarness(lines: [":records", ":records thirteen", ":records record-2", ":records thirten"], directory: directory)
    second.run()
    #expect(second.text.contains("  thirteen  2026-01-01"))
    #expect(second.text.contains("ans * rate = $0.26"))
    #expect(second.text.contains("thirteen — saved 2026-01-01"))
    #expect(second.text.contains("    ans   $2.00\n    rate  13%\n"))
    // The explanation was worked out from the values as they were: ans was $2.00, not the later result.
    #expect(second.text.contains("ans * rate = $0.26"))
    #expect(second.text.contains("$2.00 × 13% = $0.26"))
    #expect(second.text.contains("province      ON"))
    #expect(second.text.contains("Tax on $60,000.00"))
    #expect(second.errors.contains("no record named 'thirten'; did you mean 'thirteen'?"))
  }

  @Test func aDamagedRecordsFileIsReportedKeptAndNotOverwritten() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.file("data/taxpro"), withIntermediateDirectories: true)
    try directory.write("{\"version\": 1, \"records\": [tru", to: "data/taxpro/records.json")
    let repl = try REPLHarness(lines: ["$1 + $1", ":save two", ":records"], directory: directory)
    repl.run()
    #expect(repl.errors.contains("your records file \(repl.recordsPath) is damaged (not valid JSON)"))
    let kept = try directory.contents("data/taxpro").filter { $0.hasPrefix("records.json.damaged-") }
    #expect(kept.count == 1)
    #expect(repl.errors.contains("it was kept as \(repl.recordsPath).damaged-"))
    let keptText = try String(contentsOfFile: directory.file("data/taxpro/" + (kept.first ?? "")), encoding: .utf8)
    #expect(keptText == "{\"version\": 1, \"records\": [tru")
    #expect(repl.text.contains("saved two"))
    #expect(repl.text.contains("  two  "))
  }

  @Test func aDamagedProfileIsReported() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.file("data/taxpro"), withIntermediateDirectories: true)
    try directory.write("[]", to: "data/taxpro/profile.json")
    let repl = try REPLHarness(lines: [":profile"], directory: directory)
    repl.run()
    #expect(repl.errors.contains("your profile file \(repl.profilePath) is damaged (expected an object)"))
    #expect(try directory.contents("data/taxpro").contains { $0.hasPrefix("profile.json.damaged-") })
    #expect(repl.text.contains("your profile is empty"))
  }

  @Test func withoutADataDirectoryNothingIsKept() throws {
    let session = Session(trees: REPLHarness.libraryTrees, year: 2025, firstInputFileID: 1)
    let editor = ScriptedLineEditor(lines: ["1", ":save", ":profile", ":records"])
    let transcript = Transcript()
    let repl = REPL(
      session: session, libraryTrees: REPLHarness.libraryTrees, editor: editor, output: transcript.output,
      configuration: .init(userFiles: nil, color: false, handlesInterrupts: false))
    #expect(repl.run() == 0)
    #expect(transcript.errorText.contains("there is nowhere to keep records"))
    #expect(transcript.errorText.contains("there is nowhere to keep a profile"))
  }
}
