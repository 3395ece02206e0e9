import Foundation
import LineEditing
import TaxProCore
import TaxProLibrary

/// The interactive loop: reads entries with a `LineEditor`, runs them in a `Session`, prints what came of them, and
/// runs `:commands`.
///
/// It never ends on bad input: every problem is printed and the next prompt follows. It ends on Ctrl-D or `:quit`,
/// with status 0. All terminal I/O goes through the editor and `REPLOutput`, so the same loop runs against libedit,
/// a pipe, or a scripted list of lines in tests.
public final class REPL {
  /// What the loop needs from its surroundings, gathered so the executable and the tests each give their own.
  public struct Configuration: Sendable {
    /// Where the profile and records live; `nil` keeps nothing between runs.
    public var userFiles: UserFiles?
    public var color: Bool
    /// Columns for wrapping text and sizing charts, asked each time (the window can be resized).
    public var width: @Sendable () -> Int
    /// Whether Ctrl-C (the SIGINT flag of `Interrupts`) cancels a running evaluation. Off in tests that run in a
    /// process whose signals are not the REPL's.
    public var handlesInterrupts: Bool
    public var now: @Sendable () -> Date

    public init(
      userFiles: UserFiles?, color: Bool, width: @escaping @Sendable () -> Int = { 80 }, handlesInterrupts: Bool = true,
      now: @escaping @Sendable () -> Date = { Date() }
    ) {
      self.userFiles = userFiles
      self.color = color
      self.width = width
      self.handlesInterrupts = handlesInterrupts
      self.now = now
    }
  }

  /// The prompts, equally wide so that continued lines line up under the first.
  public static let prompt = "taxpro> "
  public static let continuationPrompt = "   ...> "

  let session: Session
  let editor: LineEditor
  let output: REPLOutput
  let configuration: Configuration
  let style: REPLStyle
  /// The library and the files loaded with `:load`: what the session's base trees are made of.
  var sources: SourceImporter
  /// Lines of an entry that is not finished yet.
  var pendingLines: [String] = []
  /// What `:save` keeps.
  var lastCalculation: Calculation?
  var quitRequested = false
  /// Significant digits of a Number that is not exact (`:digits`).
  public internal(set) var digits = ValueFormatter.numberDigits
  /// Problems reported so far (complaints and error diagnostics), for the exit status of piped input.
  var problems = 0
  /// Takes values, diagnostics, explanations and images as data (`REPLDisplay`) instead of their text being written;
  /// set by the JSON mode. Nil at a terminal.
  var presenter: ((REPLDisplay, String) -> Void)?
  /// The line number of the next entry's first line, for diagnostics: 1 at a terminal, where every entry is its own
  /// `<input>`; the JSON mode numbers the lines of a cell.
  var entryFirstLine = 1

  /// `sources` are what the session was made from (its `trees`); `:load` imports files into them.
  public init(
    session: Session, sources: SourceImporter, editor: LineEditor, output: REPLOutput, configuration: Configuration
  ) {
    self.session = session
    self.editor = editor
    self.output = output
    self.configuration = configuration
    self.style = REPLStyle(color: configuration.color)
    self.sources = sources
    if configuration.handlesInterrupts {
      Interrupts.install()
      session.isCancelled = { Interrupts.isPending }
    }
    editor.completionProvider = { [unowned self] buffer, cursor in
      self.complete(buffer, cursor: cursor)
    }
  }

  /// `libraryTrees` are the library's trees the session was made with, parsed already (tests bring a small one).
  public convenience init(
    session: Session, libraryTrees: [SyntaxTree], editor: LineEditor, output: REPLOutput, configuration: Configuration
  ) {
    self.init(
      session: session, sources: SourceImporter(libraryTrees: libraryTrees), editor: editor, output: output,
      configuration: configuration)
  }

  // MARK: The loop

  /// Runs until Ctrl-D or `:quit`; returns the exit status.
  public func run() -> Int32 {
    reportDamagedFiles()
    while !quitRequested {
      let input =
        pendingLines.isEmpty
        ? editor.readLine(prompt: promptText(REPL.prompt))
        : editor.readContinuationLine(prompt: promptText(REPL.continuationPrompt))
      switch input {
      case .interrupted:
        // The editor has shown ^C; whatever was being typed is dropped, the session stays.
        pendingLines = []
      case .endOfInput:
        if !pendingLines.isEmpty { abandonPendingInput() }
        return 0
      case .line(let line):
        handle(line)
      }
    }
    return 0
  }

  /// Records `text`, which computed `value`, as the last calculation, for `:save` and `:explain ans`; `values` as they
  /// were before `text` ran. Piped input calls it too: its lines go to the session directly, not through this REPL.
  public func noteCalculation(_ text: String, values: [String: Value], value: Value) {
    lastCalculation = Calculation(expression: text, values: values, year: session.year, value: value)
  }

  /// Runs one `:command` line of piped input; false when it reported a problem.
  public func runPipedCommand(_ line: String) -> Bool {
    let before = problems
    runCommand(line)
    return problems == before
  }

  /// One line typed at either prompt.
  func handle(_ line: String) {
    let blank = line.allSatisfy(\.isWhitespace)
    if pendingLines.isEmpty {
      if blank { return }
      if line.drop(while: \.isWhitespace).hasPrefix(":") {
        editor.addHistory(line)
        runCommand(line)
        return
      }
    } else if blank {
      // A blank line inside pasted text (between a formula's steps, say) is part of the entry; typed, it gives the
      // entry up.
      if editor.hasTypeAhead {
        pendingLines.append(line)
        return
      }
      abandonPendingInput()
      return
    } else if CellEntries.onlyNotes(pendingLines), line.drop(while: \.isWhitespace).hasPrefix(":") {
      // Documentation held for an entry, then a command: the documentation is dropped and the command runs.
      pendingLines = []
      note(REPL.droppedDocumentation)
      editor.addHistory(line)
      runCommand(line)
      return
    }
    pendingLines.append(line)
    // `##` documentation typed on its own waits (at the continuation prompt) for the formula or `let` it documents,
    // which it then belongs to, as in a file.
    if REPL.isHeldDocumentation(pendingLines) { return }
    let text = pendingLines.joined(separator: "\n")
    let valuesBefore = session.values
    let outcome = interruptible { session.submit(text, name: "<input>", firstLine: entryFirstLine) }
    if case .incomplete = outcome { return }
    pendingLines = []
    editor.addHistory(text)
    report(session.warnings)
    show(outcome, for: text)
    if case .value(let value) = outcome { noteCalculation(text, values: valuesBefore, value: value) }
  }

  /// Whether the lines of an entry so far are only comments and blank lines with `##` documentation among them: the
  /// entry waits for the formula or `let` the documentation belongs to (the prompt and piped input both hold it).
  public static func isHeldDocumentation(_ lines: [String]) -> Bool {
    CellEntries.onlyNotes(lines) && lines.contains { $0.drop { $0 == " " || $0 == "\t" }.hasPrefix("##") }
  }

  /// What is said when held documentation is given up (a blank line, a command or the end of the input after it).
  public static let droppedDocumentation =
    "the documentation (##) was dropped: it belongs to the formula or let typed right after it"

  /// A blank line (or Ctrl-D) on a continuation prompt gives up the unfinished entry, saying what it lacked; held
  /// documentation alone is dropped with a note.
  func abandonPendingInput() {
    let text = pendingLines.joined(separator: "\n")
    let onlyNotes = CellEntries.onlyNotes(pendingLines)
    pendingLines = []
    editor.addHistory(text)
    if onlyNotes {
      // Nothing was going to run: a note, not an error.
      note(REPL.droppedDocumentation)
      return
    }
    let source = session.makeSource(text, name: "<input>", firstLine: entryFirstLine)
    let diagnostics = Parser.parse(source, mode: .interactive).diagnostics
    // At a terminal one line says what was missing: the full rendering, with the source and its marks, would bury the
    // news that nothing was run. A notebook shows the diagnostics with their spans (the cell's line) as data, and then
    // the same line.
    if presenter != nil { report(diagnostics) }
    let what = diagnostics.first(where: { $0.severity == .error })?.message ?? "the input was not finished"
    complain(what + "; the unfinished input was dropped")
  }

  func show(_ outcome: SessionOutcome, for text: String) {
    switch outcome {
    case .value(let value):
      present(.value(value), text: style(ValueFormatter.format(value, digits: digits), .value))
    case .defined(let definitions):
      let lines = definitions.map { definition in
        switch definition.kind {
        case "let":
          "\(style(definition.name, .name)) = \(style(definition.detail, .value))"
        case "formula":
          "defined \(style(definition.detail, .name))"
        default:
          "defined \(definition.kind) \(style(definition.name, .name))"
        }
      }
      if !lines.isEmpty { present(.definitions(definitions), text: lines.joined(separator: "\n")) }
    case .tested(let outcomes):
      let failed = outcomes.filter { !$0.passed }
      let summary = style(
        "\(outcomes.count - failed.count) passed, \(failed.count) failed", failed.isEmpty ? .success : .error)
      if presenter != nil {
        let failures = DiagnosticRenderer(sources: session.sources, style: style.textStyle, width: noteWidth).render(
          failed.flatMap(\.failures))
        present(.tests(outcomes), text: failures + summary)
      } else {
        for outcome in failed { report(outcome.failures) }
        say(summary)
      }
    case .failed(let diagnostics):
      // A front end with a presenter (a notebook) has no prompt for Ctrl-D to leave.
      report(REPL.withCommandHints(diagnostics, input: text, atPrompt: presenter == nil))
    case .nothing, .incomplete:
      break
    }
  }

  /// Runs `work`, which Ctrl-C cancels (the session polls the flag), then clears the flag so that a Ctrl-C that came
  /// too late to stop `work` does not cancel what follows.
  ///
  /// The flag is not cleared before: a Ctrl-C pressed just after Enter, before the evaluation started, is meant for
  /// it. (The editor clears stale ones when it starts reading a line.)
  func interruptible<T>(_ work: () -> T) -> T {
    let result = work()
    if configuration.handlesInterrupts { Interrupts.clear() }
    return result
  }

  // MARK: Output

  /// A prompt, coloured up to its trailing spaces: libedit draws escape sequences with the character after them, so a
  /// colour reset at the very end of a prompt would be lost and the typed text would take the prompt's colour.
  func promptText(_ prompt: String) -> String {
    let visible = prompt.trimmingTrailingSpaces
    return style(visible, .prompt) + String(repeating: " ", count: prompt.count - visible.count)
  }

  /// Writes results, each line fitted to the terminal's width: text that is wider is wrapped at spaces, under its
  /// own indentation. (The renderers wrap their own text; this keeps anything else from running past the edge.)
  func say(_ text: String) {
    let fitted = TextLayout.fitLines(text, width: width)
    output.write(fitted.hasSuffix("\n") ? fitted : fitted + "\n")
  }

  func note(_ text: String) {
    output.write(style(text, .note) + "\n")
  }

  func complain(_ text: String) {
    problems += 1
    present(.problem(text), text: style("error:", .error) + " " + text)
  }

  /// Prints diagnostics; a cancelled evaluation is one short line.
  func report(_ diagnostics: [Diagnostic]) {
    if diagnostics.contains(where: { $0.code == .cancelled }) {
      present(.cancelled, text: style("cancelled", .error))
      return
    }
    guard !diagnostics.isEmpty else { return }
    if diagnostics.contains(where: { $0.severity == .error }) { problems += 1 }
    present(
      .diagnostics(diagnostics),
      text: DiagnosticRenderer(sources: session.sources, style: style.textStyle, width: noteWidth).render(diagnostics))
  }

  var width: Int { max(40, min(configuration.width(), 120)) }

  /// Where diagnostics' notes wrap: the terminal's width at a terminal; a notebook's front end wraps its own.
  var noteWidth: Int? { presenter == nil ? configuration.width() : nil }
}
