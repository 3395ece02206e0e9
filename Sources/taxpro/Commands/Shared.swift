import Foundation
import TaxProCore
import TaxProLibrary
import TaxProREPL

/// The formula files and the tax year a command works with: the arguments after the ones it names itself (eval's
/// EXPR), and `--year`.
struct ProgramInputs {
  var files: [String]
  var year: Int?

  init(_ arguments: ParsedArguments, after named: Int = 0) throws(UsageError) {
    files = Array(arguments.positionals.dropFirst(named))
    year = try arguments.year()
  }

  /// A session over the library and the files; nil (their errors printed, exit 1) when the files have errors.
  func session() throws(UsageError) -> Session? {
    try Commands.session(files, year: year)
  }
}

/// What several commands do alike: load a session, check the year, print test results and session outcomes.
enum Commands {
  static func summary(_ diagnostics: [Diagnostic]) -> String {
    let errors = diagnostics.filter { $0.severity == .error }.count
    let warnings = diagnostics.filter { $0.severity == .warning }.count
    var parts: [String] = []
    if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
    if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
    return parts.joined(separator: ", ")
  }

  /// Prints why `expression`, given on the command line, failed: its diagnostics, then, when digits grouped with
  /// commas stand without a `$` (`5,000`), a line on the shell: inside double quotes it replaces `$8` in `"$85,000"`
  /// with nothing, and no diagnostic can see that.
  static func reportFailure(_ diagnostics: [Diagnostic], of expression: String, in session: Session) {
    Output.writeError(Output.renderer(session.sources).render(withCommandHints(diagnostics, expression: expression)))
    if hasBareGroupedDigits(expression) {
      Output.writeError(
        "taxpro: note: inside double quotes a shell replaces '$8' in \"$85,000\" with nothing, so taxpro gets "
          + "\"5,000\"; put an expression with amounts in single quotes\n")
    }
  }

  /// The commands that take one expression, by the name a newcomer may call them with: `taxpro eval
  /// 'explain(take_home_pay($85,000))'` gets the command written out.
  static let expressionCommands: Set<String> = ["explain", "chart"]

  /// `diagnostics`, with a note on an unknown formula named like a command that takes an expression, when the
  /// expression is that call and nothing else.
  static func withCommandHints(_ diagnostics: [Diagnostic], expression: String) -> [Diagnostic] {
    REPL.withNameHints(diagnostics, input: expression) { word, range, bytes in
      guard expressionCommands.contains(word), case .wholeCall(let argument) = NameUse.of(range, in: bytes) else {
        return nil
      }
      return "'\(word)' is a command: taxpro \(word) \(Output.shellQuoted(argument))"
    }
  }

  /// Whether `text` has digits grouped by commas (`5,000`, `00,000`) with no `$` before them.
  static func hasBareGroupedDigits(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      guard Lexer.isDigit(bytes[index]) else {
        index += 1
        continue
      }
      let start = index
      while index < bytes.count, Lexer.isDigit(bytes[index]) { index += 1 }
      let before = start > 0 ? Character(Unicode.Scalar(bytes[start - 1])) : " "
      let standsAlone = !"$._,".contains(before) && !(before.isASCII && before.isLetter)
      if standsAlone, Lexer.groupedDigitsEnd(in: bytes, firstGroup: start..<index) != nil { return true }
    }
    return false
  }

  /// A session over the library and `files`; reports errors in the files (exit 1) and returns nil then.
  static func session(_ files: [String], year: Int?) throws(UsageError) -> Session? {
    let sources = try Loading.load(files)
    let session = sources.session(year: year)
    try checkYear(year, years: session.program.years)
    let problems = session.programDiagnostics.filter { sources.userFileIDs.contains($0.span.file) }
    if problems.hasErrors {
      Output.writeError(Output.renderer(session.sources).render(problems))
      return nil
    }
    return session
  }

  /// A session over only the library files that `expression` and `files` reach (`LibraryReach`), for a command that
  /// evaluates one expression and exits: a fresh process then parses and checks no library file it does not need.
  /// Nil when such a session might say something the whole library's would not: `--year` given (it is checked
  /// against every jurisdiction's years), or any diagnostic in the program (the whole library's suggestions and notes
  /// are wanted then). The caller then uses `session`, as it does when the expression fails.
  static func reachedSession(_ files: [String], year: Int?, expression: String) throws(UsageError) -> Session? {
    guard year == nil else { return nil }
    let (sources, latestYear) = try Loading.load(files, reaching: expression)
    let session = sources.session(year: latestYear)
    guard session.programDiagnostics.isEmpty else { return nil }
    return session
  }

  /// A usage error when the program has figures, but none for `year`.
  static func checkYear(_ year: Int?, years: [Int]) throws(UsageError) {
    guard let year, !years.isEmpty, !years.contains(year) else { return }
    let list = years.map(String.init).joined(separator: ", ")
    throw UsageError(message: "there are no figures for \(year); the years with data are \(list)")
  }

  /// Prints failures, then `N passed, N failed`.
  static func report(_ outcomes: [TestOutcome], _ sources: [FileID: SourceFile]) -> Int32 {
    let renderer = Output.renderer(sources)
    var passed = 0
    var failed = 0
    for outcome in outcomes {
      if outcome.passed {
        passed += 1
      } else {
        failed += 1
        Output.write(renderer.render(outcome.failures))
      }
    }
    Output.write("\(passed) passed, \(failed) failed\n")
    return failed > 0 ? 1 : 0
  }

  /// Prints a session outcome; false when it was a failure.
  static func print(_ outcome: SessionOutcome, _ session: Session, digits: Int = ValueFormatter.numberDigits) -> Bool {
    switch outcome {
    case .value(let value):
      Output.write(ValueFormatter.format(value, digits: digits) + "\n")
    case .defined(let definitions):
      for definition in definitions {
        Output.write(definition.kind == "let" ? "\(definition.name) = \(definition.detail)\n" : "defined \(definition.detail)\n")
      }
    case .tested(let outcomes):
      return report(outcomes, session.sources) == 0
    case .nothing, .incomplete:
      break
    case .failed(let diagnostics):
      Output.writeError(Output.renderer(session.sources).render(diagnostics))
      return false
    }
    return true
  }

  /// The "expected …" diagnostic of input that stopped in the middle, parsed again as a whole.
  static func reportIncomplete(_ text: String, name: String, firstLine: Int = 1, in session: Session) {
    let source = session.makeSource(text, name: name, firstLine: firstLine)
    let diagnostics = Parser.parse(source, mode: .interactive).diagnostics
    Output.writeError(Output.renderer(session.sources).render(diagnostics))
  }
}
