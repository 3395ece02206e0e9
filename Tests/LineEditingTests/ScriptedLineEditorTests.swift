import LineEditing
import Testing

@Suite struct ScriptedLineEditorTests {
  @Test func replaysLinesThenEndsInput() {
    let editor = ScriptedLineEditor(lines: ["1 + 2", "ans * 2"])
    #expect(editor.readLine(prompt: "> ") == .line("1 + 2"))
    #expect(editor.readLine(prompt: "> ") == .line("ans * 2"))
    #expect(editor.readLine(prompt: "> ") == .endOfInput)
    #expect(editor.readLine(prompt: "> ") == .endOfInput)
    #expect(editor.remaining == 0)
  }

  @Test func recordsPromptsWithTheirKind() {
    let editor = ScriptedLineEditor(lines: ["let x = (1 +", "2)"])
    _ = editor.readLine(prompt: "taxpro> ")
    _ = editor.readContinuationLine(prompt: "   ...> ")
    #expect(
      editor.prompts == [
        .init(kind: .primary, text: "taxpro> "),
        .init(kind: .continuation, text: "   ...> "),
      ])
  }

  @Test func replaysInterruptsAndEndOfInput() {
    let editor = ScriptedLineEditor([.line("a"), .interrupted, .endOfInput, .line("never read by a loop")])
    #expect(editor.readLine(prompt: "") == .line("a"))
    #expect(editor.readLine(prompt: "") == .interrupted)
    #expect(editor.readLine(prompt: "") == .endOfInput)
    #expect(editor.remaining == 1)
  }

  @Test func keepsHistoryInOrder() {
    let editor = ScriptedLineEditor(lines: [])
    editor.addHistory("first")
    editor.addHistory("second\nline")
    #expect(editor.history == ["first", "second\nline"])
  }

  @Test func completesThroughTheInstalledProvider() {
    let editor = ScriptedLineEditor(lines: [])
    #expect(editor.complete("inc") == .none)
    editor.completionProvider = { buffer, cursor in
      Completion(candidates: ["income", "income_tax"].filter { $0.hasPrefix(buffer) }, replacing: 0..<cursor)
    }
    #expect(editor.complete("inc") == Completion(candidates: ["income", "income_tax"], replacing: 0..<3))
    #expect(editor.complete("income_", cursor: 7).candidates == ["income_tax"])
  }

  @Test func reportsColourChoice() {
    #expect(!ScriptedLineEditor(lines: []).colorEnabled)
    #expect(ScriptedLineEditor(lines: [], colorEnabled: true).colorEnabled)
  }

  @Test func loopWrittenAgainstTheProtocolRuns() {
    // A miniature REPL loop: joins lines ending in `\` into one entry, stops at end of input.
    func run(_ editor: LineEditor) -> [String] {
      var entries: [String] = []
      var pending: [String] = []
      loop: while true {
        let input = pending.isEmpty ? editor.readLine(prompt: "> ") : editor.readContinuationLine(prompt: ". ")
        switch input {
        case .endOfInput: break loop
        case .interrupted: pending = []
        case .line(let line) where line.hasSuffix("\\"): pending.append(String(line.dropLast()))
        case .line(let line):
          let entry = (pending + [line]).joined()
          pending = []
          editor.addHistory(entry)
          entries.append(entry)
        }
      }
      return entries
    }
    let editor = ScriptedLineEditor([.line("1 +\\"), .line("2"), .line("x\\"), .interrupted, .line("3")])
    #expect(run(editor) == ["1 +2", "3"])
    #expect(editor.prompts.map(\.kind) == [.primary, .continuation, .primary, .continuation, .primary, .primary])
    #expect(editor.history == ["1 +2", "3"])
  }
}
