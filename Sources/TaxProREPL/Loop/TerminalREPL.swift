import Foundation
import LineEditing
import TaxProCore
import TaxProLibrary

/// The REPL wired to this process's terminal: libedit with the history file when standard input is a terminal, plain
/// lines otherwise; the profile and records under the XDG data directory. The executable calls this and nothing
/// else of the REPL, so the terminal's details stay in this module.
public enum TerminalREPL {
  /// Runs the REPL until Ctrl-D or `:quit`; returns the exit status.
  ///
  /// - Parameters:
  ///   - sources: what `session` was made from (`sources.session(year:)`); `:load` imports files into them.
  ///   - files: formula files to load before the first prompt.
  ///   - color: whether output is coloured (the caller has weighed `--no-color`, `NO_COLOR` and the output).
  ///   - banner: printed first when standard input is a terminal.
  public static func run(
    session: Session, sources: SourceImporter, files: [String], color: Bool, banner: String?,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int32 {
    let output = REPLOutput.standard
    var editor: LineEditor = StreamLineEditor()
    let interactive = Terminal.standardInputIsTerminal
    if interactive {
      let historyPath = XDGDirectories(environment: environment).historyFile(application: "taxpro")
      if let lineEditor = EditLineEditor(programName: "taxpro", historyPath: historyPath, colorEnabled: color) {
        editor = lineEditor
        if let problem = lineEditor.history.lastError { output.writeError("warning: \(problem)\n") }
      } else {
        output.writeError("warning: line editing is not available here; reading plain lines\n")
      }
    }
    let configuration = REPL.Configuration(
      userFiles: UserFiles(environment: environment), color: color, width: { Terminal.width() })
    let repl = REPL(session: session, sources: sources, editor: editor, output: output, configuration: configuration)
    if interactive, let banner { output.write(banner) }
    repl.load(files)
    return repl.run()
  }

  /// A REPL for `taxpro` reading a script from a pipe, which evaluates the lines itself and hands each `:command` line
  /// to it; it reads any further lines a command needs (the answers of `:ask`) from standard input too.
  public static func piped(
    session: Session, sources: SourceImporter, color: Bool,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> REPL {
    let configuration = REPL.Configuration(
      userFiles: UserFiles(environment: environment), color: color, width: { Terminal.width() })
    return REPL(
      session: session, sources: sources, editor: StreamLineEditor(), output: .standard, configuration: configuration)
  }

  /// Columns of the terminal on standard output (80 when it is not one), for charts.
  public static var width: Int { Terminal.width() }
}
