import Foundation
import TaxProCore
import TaxProLibrary
import TaxProREPL

/// `taxpro repl [FILE…]`: the REPL, even when standard input is not a terminal. The work is TaxProREPL's.
struct InteractiveCommand: Command {
  static let help = CommandHelp(
    name: "repl", summary: "the REPL, with FILEs loaded, even when standard input is not a terminal",
    discussion: """
      Reads expressions, declarations and :commands (:help lists them) and prints each result. Line editing uses \
      libedit and ~/.editrc; history is kept in $XDG_STATE_HOME/taxpro/history.
      """,
    arguments: [.formulaFiles],
    options: [.year, .requestsAsJSON],
    examples: [
      HelpEntry(name: "taxpro repl rates.tax", meaning: "the REPL with the formulas of rates.tax"),
      HelpEntry(
        name: "echo '{\"id\":1,\"request\":\"execute\",\"code\":\"0.1 + 0.2\"}' | taxpro repl --json",
        meaning: "one request, one reply"),
    ])

  /// The files to load before the first prompt, and the year.
  var inputs: ProgramInputs
  /// Requests and replies as JSON lines instead of a prompt.
  var json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    inputs = try ProgramInputs(arguments)
    json = arguments.has(.requestsAsJSON)
  }

  func run() throws(UsageError) -> Int32 {
    let sources = try Loading.standardLibrary()
    let session = sources.session(year: inputs.year)
    try Commands.checkYear(inputs.year, years: session.program.years)
    if json {
      return JSONMode.run(session: session, sources: sources, files: inputs.files)
    }
    let banner = "TaxPro \(TaxPro.version) — tax year \(session.year). :help for help, Ctrl-D to leave.\n"
    return TerminalREPL.run(
      session: session, sources: sources, files: inputs.files, color: Output.colorOut, banner: banner)
  }
}

extension OptionSpec {
  static let requestsAsJSON = OptionSpec(
    name: "--json",
    summary: "read JSON requests and write JSON replies, one per line, for notebooks and tools (docs/REPL_JSON.md)")
}

/// `taxpro` alone: the REPL at a terminal; piped input is evaluated line by line, one result each.
struct DefaultCommand: Command {
  static let help = CommandHelp(
    name: nil, summary: "the REPL at a terminal; with input piped in, one result per line",
    options: [.year])

  /// The REPL it starts at a terminal (with no files: it takes no arguments).
  var repl: InteractiveCommand

  init(_ arguments: ParsedArguments) throws(UsageError) {
    repl = try InteractiveCommand(arguments)
  }

  func run() throws(UsageError) -> Int32 {
    isatty(STDIN_FILENO) == 1 ? try repl.run() : try lines()
  }

  /// Reads standard input line by line; each complete statement prints its result.
  func lines() throws(UsageError) -> Int32 {
    guard let session = try repl.inputs.session() else { return 1 }
    // `:commands` run as at the prompt, in a REPL over the same session (made when the first one comes).
    var commands: REPL? = nil
    var status: Int32 = 0
    var pending = ""
    var lineNumber = 0
    var startLine = 1
    /// What the last entry computed, until a command's REPL has it (`:save`, `:explain ans`).
    var calculation: (text: String, values: [String: Value], value: Value)? = nil
    /// `##` documentation waits for the entry it documents, as at the prompt (`REPL.isHeldDocumentation`).
    func holdsDocumentation() -> Bool {
      REPL.isHeldDocumentation(pending.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }
    func dropDocumentation() {
      Output.writeError("note: " + REPL.droppedDocumentation + "\n")
      pending = ""
    }
    while let line = readLine(strippingNewline: true) {
      lineNumber += 1
      if pending.isEmpty { startLine = lineNumber }
      let blank = line.allSatisfy(\.isWhitespace)
      if !pending.isEmpty, holdsDocumentation(), blank || line.drop(while: \.isWhitespace).hasPrefix(":") {
        dropDocumentation()
        if blank { continue }
        startLine = lineNumber
      }
      if pending.isEmpty, line.drop(while: \.isWhitespace).hasPrefix(":") {
        if commands == nil {
          commands = TerminalREPL.piped(
            session: session, sources: try Loading.standardLibrary(), color: Output.colorOut)
        }
        if let commands, let done = calculation {
          commands.noteCalculation(done.text, values: done.values, value: done.value)
          calculation = nil
        }
        if let commands, !commands.runPipedCommand(line) { status = 1 }
        continue
      }
      // As at the prompt, an empty line gives up an unfinished entry (saying what it lacked), so that one unclosed
      // parenthesis does not swallow the rest of the input.
      if !pending.isEmpty, line.allSatisfy(\.isWhitespace) {
        Commands.reportIncomplete(pending, name: "<stdin>", firstLine: startLine, in: session)
        pending = ""
        status = 1
        continue
      }
      pending += pending.isEmpty ? line : "\n" + line
      if holdsDocumentation() { continue }
      let valuesBefore = session.values
      var outcome = session.submit(pending, name: "<stdin>", firstLine: startLine)
      if case .incomplete = outcome { continue }
      if case .value(let value) = outcome { calculation = (pending, valuesBefore, value) }
      if case .failed(let diagnostics) = outcome { outcome = .failed(REPL.withCommandHints(diagnostics, input: pending, atPrompt: false)) }
      pending = ""
      if !session.warnings.isEmpty { Output.writeError(Output.renderer(session.sources).render(session.warnings)) }
      let digits = commands?.digits ?? ValueFormatter.numberDigits
      if !Commands.print(outcome, session, digits: digits) { status = 1 }
    }
    if holdsDocumentation() {
      dropDocumentation()
    } else if !pending.isEmpty {
      Commands.reportIncomplete(pending, name: "<stdin>", firstLine: startLine, in: session)
      status = 1
    }
    return status
  }
}
