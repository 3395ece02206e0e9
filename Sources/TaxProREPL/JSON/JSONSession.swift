import Foundation
import JSONValue
import LineEditing
import TaxProCore
import TaxProLibrary

/// The REPL driven by requests instead of typed lines: what `taxpro repl --json` runs, one request at a time.
///
/// It is the terminal's REPL — the same `REPL`, session, command table and handlers — with a presenter that takes
/// what the REPL shows as data and an editor that asks the client when a command reads a line. So `let`, formulas,
/// `ans`, `:year`, `:load` and every command behave as at the prompt, and a command added to the table is here too.
/// Threads and I/O are `JSONMode`'s; this class only answers.
final class JSONSession {
  let repl: REPL
  /// Polled between the lines of a cell, so that an interruption arriving between two evaluations stops the cell.
  let isInterrupted: () -> Bool
  private let collector = OutputCollector()

  /// - Parameters:
  ///   - readLine: answers a command that reads a line (`:ask`), given its prompt.
  ///   - isInterrupted: whether the request running should stop (the SIGINT flag, in the process).
  init(
    session: Session, sources: SourceImporter, configuration: REPL.Configuration,
    readLine: @escaping (String) -> LineInput, isInterrupted: @escaping () -> Bool = { false }
  ) {
    var configuration = configuration
    configuration.color = false
    let editor = RequestLineEditor(readLine: readLine)
    let collector = self.collector
    repl = REPL(
      session: session, sources: sources, editor: editor,
      output: REPLOutput(
        write: { collector.appendText($0, stream: .stdout) },
        writeError: { collector.appendText($0, stream: .stderr) }),
      configuration: configuration)
    self.isInterrupted = isInterrupted
    repl.presenter = { [unowned self] item, text in
      collector.append(self.output(for: item, text: text))
    }
  }

  var session: Session { repl.session }

  var info: SessionInfo {
    SessionInfo(
      version: TaxPro.version, year: session.year, years: session.program.years,
      commands: CommandTable.all.map {
        CommandData(name: $0.name, aliases: $0.aliases, usage: $0.usage, summary: $0.summary)
      })
  }

  // MARK: Execute

  /// Loads files before the first request, as `taxpro repl FILE…` does; returns what that showed.
  func load(_ paths: [String]) -> [OutputItem] {
    collector.reset()
    repl.load(paths)
    return collector.take().outputs
  }

  /// Runs `code` as if its lines were typed at the prompt, one by one, but for what a cell needs (blank lines inside
  /// an entry and comments before one are kept with it: see `CellEntries.role`). Stops at an interruption, and at
  /// the first error when `stopOnError`.
  func execute(_ code: String, stopOnError: Bool = true) -> (status: ReplyStatus, outputs: [OutputItem], quit: Bool) {
    collector.reset()
    repl.pendingLines = []
    for (index, line) in CellEntries.lines(of: code).enumerated() {
      if repl.quitRequested || collector.cancelled || (stopOnError && collector.failed) { break }
      if isInterrupted() {
        collector.append(OutputItem(.cancelled, text: "cancelled"))
        break
      }
      if repl.pendingLines.isEmpty { repl.entryFirstLine = index + 1 }
      switch CellEntries.role(of: line, pending: repl.pendingLines) {
      case .skip:
        continue
      case .hold:
        repl.pendingLines.append(line)
      case .command:
        repl.pendingLines = []
        repl.entryFirstLine = index + 1
        repl.handle(line)
      case .code:
        repl.handle(line)
      }
    }
    let stopped = collector.cancelled || (stopOnError && collector.failed)
    if !stopped, !CellEntries.onlyNotes(repl.pendingLines) { repl.abandonPendingInput() }
    repl.pendingLines = []
    repl.entryFirstLine = 1
    let result = collector.take()
    let status: ReplyStatus = result.cancelled ? .cancelled : result.failed ? .error : .ok
    return (status, result.outputs, repl.quitRequested)
  }

  /// What the REPL showed, as an output of the reply.
  func output(for item: REPLDisplay, text: String) -> OutputItem {
    var output: OutputItem
    switch item {
    case .value(let value):
      output = OutputItem(.value, text: text)
      output.value = ValueData(value, digits: repl.digits)
    case .definitions(let definitions):
      output = OutputItem(.definitions, text: text)
      output.definitions = definitions.map { definition in
        DefinitionData(
          name: definition.name, kind: definition.kind, detail: definition.detail,
          value: definition.kind == "let" ? session.values[definition.name].map { ValueData($0, digits: repl.digits) } : nil)
      }
    case .tests(let outcomes):
      output = OutputItem(.tests, text: text)
      output.tests = outcomes.map { TestData(name: $0.name, passed: $0.passed, year: $0.year, checks: $0.checks) }
      output.diagnostics = outcomes.flatMap(\.failures).map(diagnosticData)
    case .diagnostics(let diagnostics):
      output = OutputItem(.diagnostics, text: text)
      output.diagnostics = diagnostics.map(diagnosticData)
    case .cancelled:
      output = OutputItem(.cancelled, text: text)
    case .problem(let message):
      output = OutputItem(.error, text: text)
      output.message = message
    case .explanation(let expression, let value, let steps):
      output = OutputItem(.explanation, text: text)
      let renderer = ExplanationRenderer(program: session.program, sources: session.sources)
      output.explanation = ExplanationJSON.json(
        expression: expression, value: value, steps: steps, year: session.year, renderer: renderer)
    case .image(let svg):
      output = OutputItem(.image, text: text)
      output.mimeType = "image/svg+xml"
      output.data = svg
    }
    return output
  }

  func diagnosticData(_ diagnostic: Diagnostic) -> DiagnosticData {
    DiagnosticData(
      severity: diagnostic.severity.rawValue, code: diagnostic.code.rawValue, message: diagnostic.message,
      location: location(diagnostic.span),
      notes: diagnostic.notes.map {
        NoteData(kind: $0.kind.rawValue, message: $0.message, location: $0.span.flatMap(location))
      },
      fixes: diagnostic.fixes.map { fix in
        FixData(
          title: fix.title, edits: fix.replacements.map { EditData(location: location($0.span), text: $0.text) })
      })
  }

  func location(_ span: Span) -> LocationData? {
    guard let source = session.sources[span.file] else { return nil }
    let start = source.lineColumn(of: span.start)
    let end = source.lineColumn(of: span.end)
    return LocationData(
      file: source.name, line: start.line, column: start.column, endLine: end.line, endColumn: end.column)
  }

  // MARK: Looking without running

  /// Whether `code` is finished: incomplete when its last entry is unfinished, invalid when an entry does not parse
  /// or a command is unknown.
  func isComplete(_ code: String) -> (IsCompleteReply.Completeness, indent: String?) {
    let cell = CellEntries(code)
    if let last = cell.entries.last, !last.isFinished {
      let lastLine = cell.lines[last.lines].last { !$0.allSatisfy(\.isWhitespace) } ?? ""
      var indent = String(lastLine.prefix { $0 == " " || $0 == "\t" })
      if let end = lastLine.trimmed.last, "={(,".contains(end) { indent += "  " }
      return (.incomplete, indent)
    }
    for entry in cell.entries {
      let text = cell.text(of: entry)
      if entry.isCommand {
        let name = text.drop(while: \.isWhitespace).dropFirst().prefix { !$0.isWhitespace }
        if REPLCommand(named: String(name)) == nil { return (.invalid, nil) }
      } else {
        let source = SourceFile(id: FileIDRange.standalone, name: "<input>", text: text)
        if Parser.parse(source, mode: .interactive).diagnostics.contains(where: { $0.severity == .error }) {
          return (.invalid, nil)
        }
      }
    }
    return (.complete, nil)
  }

  /// Completion at scalar offset `cursor`, through the REPL's own Tab completion: the cursor's line, with the lines
  /// of its entry before it as the context the prompt would have.
  func complete(_ code: String, cursor: Int?) -> (matches: [String], start: Int, end: Int) {
    let cell = CellEntries(code)
    let starts = CellEntries.lineStarts(of: code)
    let scalars = code.unicodeScalars.count
    let (line, column) = TextPosition.lineAndColumn(
      ofScalar: min(cursor ?? scalars, scalars), lineStarts: starts, lines: cell.lines)
    let text = cell.lines[line]
    if let entry = cell.entry(containing: line), !entry.isCommand {
      repl.pendingLines = Array(cell.lines[entry.lines.lowerBound..<line])
    }
    defer { repl.pendingLines = [] }
    let completion = repl.complete(text, cursor: TextPosition.utf8Offset(ofScalar: column, in: text))
    let start = starts[line] + TextPosition.scalarOffset(ofUTF8: completion.replacing.lowerBound, in: text)
    let end = starts[line] + TextPosition.scalarOffset(ofUTF8: completion.replacing.upperBound, in: text)
    // A cell's earlier entries have not run yet, so their `let`s are not the session's: offer them too.
    var candidates = completion.candidates
    let bytes = Array(text.utf8)
    let replaced = min(completion.replacing.lowerBound, bytes.count)
    let wordEnd = max(replaced, min(bytes.count, completion.replacing.upperBound))
    let word = String(decoding: bytes[replaced..<wordEnd], as: UTF8.self)
    let afterDot = replaced > 0 && bytes[replaced - 1] == UInt8(ascii: ".")
    if !afterDot, !word.isEmpty || !candidates.isEmpty {
      for name in cellLets(cell, before: line) where name.hasPrefix(word) && !candidates.contains(name) {
        candidates.append(name)
      }
    }
    guard !candidates.isEmpty else {
      let here = starts[line] + column
      return ([], here, here)
    }
    return (candidates, start, end)
  }

  /// The names of the `let`s in the code entries of a cell that end before 0-based `line`.
  func cellLets(_ cell: CellEntries, before line: Int) -> [String] {
    var names: [String] = []
    for entry in cell.entries where !entry.isCommand && entry.lines.upperBound <= line {
      let source = SourceFile(id: FileIDRange.standalone, name: "<input>", text: cell.text(of: entry))
      for case .constant(let constant) in Parser.parse(source, mode: .interactive).declarations {
        names.append(constant.binding.name.name)
      }
    }
    return names
  }

  /// The hover of the name at scalar offset `cursor`: a `:command`'s help on its name, else the language server's
  /// hover over the code (a command's argument, or the entry), checked against the session.
  func inspect(_ code: String, cursor: Int?) -> HoverInfo? {
    let cell = CellEntries(code)
    let starts = CellEntries.lineStarts(of: code)
    let scalars = code.unicodeScalars.count
    let (line, column) = TextPosition.lineAndColumn(
      ofScalar: min(cursor ?? scalars, scalars), lineStarts: starts, lines: cell.lines)
    guard let entry = cell.entry(containing: line) else { return nil }
    let lineText = cell.lines[line]
    let offsetInLine = TextPosition.utf8Offset(ofScalar: column, in: lineText)
    guard entry.isCommand else {
      let text = cell.text(of: entry)
      let before = cell.lines[entry.lines.lowerBound..<line].reduce(0) { $0 + $1.utf8.count + 1 }
      return session.hover(inInput: text, at: before + offsetInLine)
    }
    let bytes = Array(lineText.utf8)
    let nameStart = bytes.prefix { $0 == 32 || $0 == 9 }.count + 1
    var nameEnd = nameStart
    while nameEnd < bytes.count, bytes[nameEnd] != 32, bytes[nameEnd] != 9 { nameEnd += 1 }
    let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
    guard let command = REPLCommand(named: name) else { return nil }
    if offsetInLine <= nameEnd {
      var documentation = Documentation()
      documentation.summary = command.entry.summary
      if !command.entry.details.isEmpty { documentation.definition = command.entry.details }
      let usage = ":" + command.entry.name + (command.entry.usage.isEmpty ? "" : " " + command.entry.usage)
      let aliases = command.entry.aliases.map { ":" + $0 }.joined(separator: ", ")
      return HoverInfo(
        span: Span(file: FileIDRange.standalone, start: nameStart, end: nameEnd), code: usage,
        documentation: documentation,
        notes: ["A REPL command." + (aliases.isEmpty ? "" : " Also written " + aliases + ".")])
    }
    var argumentStart = nameEnd
    while argumentStart < bytes.count, bytes[argumentStart] == 32 || bytes[argumentStart] == 9 { argumentStart += 1 }
    guard offsetInLine >= argumentStart else { return nil }
    let argument = String(decoding: bytes[argumentStart...], as: UTF8.self)
    return session.hover(inInput: argument, at: offsetInLine - argumentStart)
  }
}

/// What a request's run showed, gathered from the REPL's two ways of showing (text through `REPLOutput`, data
/// through the presenter) in the order it happened. Locked: `REPLOutput`'s closures are `Sendable`.
final class OutputCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var outputs: [OutputItem] = []
  private var sawError = false
  private var sawCancel = false

  var failed: Bool { lock.withLock { sawError } }
  var cancelled: Bool { lock.withLock { sawCancel } }

  func reset() {
    lock.withLock {
      outputs = []
      sawError = false
      sawCancel = false
    }
  }

  func take() -> (outputs: [OutputItem], failed: Bool, cancelled: Bool) {
    lock.withLock {
      defer { outputs = [] }
      return (outputs, sawError, sawCancel)
    }
  }

  func append(_ output: OutputItem) {
    lock.withLock {
      switch output.kind {
      case .cancelled: sawCancel = true
      case .error: sawError = true
      case .diagnostics: if output.diagnostics?.contains(where: { $0.severity == "error" }) == true { sawError = true }
      case .tests: if output.tests?.contains(where: { !$0.passed }) == true { sawError = true }
      default: break
      }
      outputs.append(output)
    }
  }

  /// Text joins the text just before it on the same stream, so a command's lines make one output.
  func appendText(_ text: String, stream: OutputItem.Stream) {
    lock.withLock {
      if let last = outputs.last, last.kind == .text, last.stream == stream {
        outputs[outputs.count - 1].text += text
      } else {
        var output = OutputItem(.text, text: text)
        output.stream = stream
        outputs.append(output)
      }
    }
  }
}

/// The JSON mode's line editor: nothing is typed at a prompt, but a command that reads a line (`:ask`) gets the
/// client's answer through `readLine`.
final class RequestLineEditor: LineEditor {
  var completionProvider: CompletionProvider?
  let colorEnabled = false
  let answer: (String) -> LineInput

  init(readLine answer: @escaping (String) -> LineInput) {
    self.answer = answer
  }

  func readLine(prompt: String) -> LineInput { answer(prompt) }
  func readContinuationLine(prompt: String) -> LineInput { answer(prompt) }
  func addHistory(_ entry: String) {}
}
