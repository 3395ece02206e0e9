import Foundation
import TaxProCore
import TaxProLibrary

/// The commands: each returns the exit status.
enum Commands {
  static func summary(_ diagnostics: [Diagnostic]) -> String {
    let errors = diagnostics.filter { $0.severity == .error }.count
    let warnings = diagnostics.filter { $0.severity == .warning }.count
    var parts: [String] = []
    if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
    if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
    return parts.joined(separator: ", ")
  }

  /// A session over the library and `files`; reports errors in the files (exit 1) and returns nil then.
  static func session(_ files: [String], year: Int?) throws(Options.UsageError) -> Session? {
    let loaded = try Loading.load(files)
    let session = loaded.session(year: year)
    if let year, !session.program.years.isEmpty, !session.program.years.contains(year) {
      let years = session.program.years.map(String.init).joined(separator: ", ")
      throw Options.UsageError(message: "there are no figures for \(year); the years with data are \(years)")
    }
    let problems = session.programDiagnostics.filter { loaded.userFileIDs.contains($0.span.file) }
    if problems.hasErrors {
      Output.writeError(Output.renderer(session.sources).render(problems))
      return nil
    }
    return session
  }

  static func eval(_ options: Options) throws(Options.UsageError) -> Int32 {
    guard let expression = options.arguments.first else {
      throw Options.UsageError(message: "eval needs an expression: taxpro eval '$1,234.56 * 13%'")
    }
    if let csv = options.csv {
      return try Batch.run(
        csvPath: csv, expression: expression, files: Array(options.arguments.dropFirst()), year: options.year)
    }
    guard let session = try session(Array(options.arguments.dropFirst()), year: options.year) else { return 1 }
    KeptUntilExit.keep(session)
    switch session.submit(expression, name: "<expr>") {
    case .value(let value):
      Output.write(ValueFormatter.format(value) + "\n")
      return 0
    case .defined(let definitions):
      for definition in definitions { Output.write("\(definition.name) = \(definition.detail)\n") }
      return 0
    case .tested(let outcomes):
      return report(outcomes, session.sources)
    case .nothing:
      return 0
    case .incomplete:
      reportIncomplete(expression, name: "<expr>", in: session)
      return 1
    case .failed(let diagnostics):
      Output.writeError(Output.renderer(session.sources).render(diagnostics))
      return 1
    }
  }

  static func explain(_ options: Options) throws(Options.UsageError) -> Int32 {
    guard let expression = options.arguments.first else {
      throw Options.UsageError(message: "explain needs an expression: taxpro explain 'tax(ON.income_tax, $85,000)'")
    }
    guard let session = try session(Array(options.arguments.dropFirst()), year: options.year) else { return 1 }
    switch session.explain(expression, name: "<expr>") {
    case .success(let (value, steps)):
      let renderer = ExplanationRenderer(
        program: session.program, sources: session.sources, style: Output.style(color: Output.colorOut))
      if options.json {
        Output.write(
          ExplanationJSON.render(expression: expression, value: value, steps: steps, year: session.year, renderer: renderer)
            + "\n")
      } else {
        Output.write(renderer.render(expression: expression, value: value, steps: steps))
      }
      return 0
    case .failure(let list):
      Output.writeError(Output.renderer(session.sources).render(list.diagnostics))
      return 1
    }
  }

  static func check(_ options: Options) throws(Options.UsageError) -> Int32 {
    guard !options.arguments.isEmpty else { throw Options.UsageError(message: "check needs at least one file") }
    let loaded = try Loading.load(options.arguments, directories: true)
    KeptUntilExit.keep(loaded)
    if options.syntaxOnly {
      let trees = loaded.files.map(\.tree)
      let diagnostics = trees.flatMap(\.diagnostics)
      let sources = Dictionary(uniqueKeysWithValues: trees.map { ($0.source.id, $0.source) })
      if !diagnostics.isEmpty {
        Output.writeError(Output.renderer(sources).render(diagnostics))
        Output.writeError(summary(diagnostics) + "\n")
      }
      return diagnostics.hasErrors ? 1 : 0
    }
    let program = Checker.check(loaded.trees, recordOccurrences: false)
    KeptUntilExit.keep(program)
    let diagnostics = program.diagnostics.filter { loaded.userFileIDs.contains($0.span.file) }
    if !diagnostics.isEmpty {
      Output.writeError(Output.renderer(program.sources).render(diagnostics))
      Output.writeError(summary(diagnostics) + "\n")
    }
    return diagnostics.hasErrors ? 1 : 0
  }

  static func test(_ options: Options) throws(Options.UsageError) -> Int32 {
    let useLibrary = options.arguments.isEmpty
    let loaded = try Loading.load(options.arguments, libraryTests: useLibrary, directories: true)
    let program = Checker.check(loaded.trees, recordOccurrences: false)
    let files: Set<FileID> = useLibrary ? Set(program.sources.keys) : loaded.userFileIDs
    let problems = program.diagnostics.filter { files.contains($0.span.file) }
    if !problems.isEmpty { Output.writeError(Output.renderer(program.sources).render(problems)) }
    if let year = options.year, !program.years.contains(year) {
      throw Options.UsageError(message: "there are no figures for \(year)")
    }
    let outcomes = TestRunner.run(program, year: options.year, files: files)
    let status = report(outcomes, program.sources)
    return problems.hasErrors ? 1 : status
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

  /// Formats files in place (or checks that they are formatted); `-` formats standard input to standard output.
  static func fmt(_ options: Options) throws(Options.UsageError) -> Int32 {
    guard !options.arguments.isEmpty else { throw Options.UsageError(message: "fmt needs at least one file (or -)") }
    var status: Int32 = 0
    for path in options.arguments {
      let text: String
      if path == "-" {
        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      } else {
        guard let data = FileManager.default.contents(atPath: path) else {
          throw Options.UsageError(message: "cannot read '\(path)'")
        }
        text = String(decoding: data, as: UTF8.self)
      }
      let source = SourceFile(id: FileID(0), name: path == "-" ? "<stdin>" : path, text: text)
      let tree = Parser.parse(source)
      if tree.diagnostics.hasErrors {
        Output.writeError(Output.renderer([source.id: source]).render(tree.diagnostics))
        Output.writeError("\(source.name): not formatted: it has syntax errors\n")
        status = 1
        continue
      }
      let formatted = Formatter.format(tree)
      if path == "-" {
        Output.write(formatted)
      } else if formatted != text {
        if options.check {
          Output.writeError("\(path): not formatted\n")
          status = 1
        } else {
          do {
            try Data(formatted.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
          } catch {
            throw Options.UsageError(message: "cannot write '\(path)': \(error.localizedDescription)")
          }
        }
      }
    }
    return status
  }

  /// Reads standard input line by line; each complete statement prints its result.
  static func lines(_ options: Options) throws(Options.UsageError) -> Int32 {
    guard let session = try session([], year: options.year) else { return 1 }
    var status: Int32 = 0
    var pending = ""
    var lineNumber = 0
    var startLine = 1
    while let line = readLine(strippingNewline: true) {
      lineNumber += 1
      if pending.isEmpty { startLine = lineNumber }
      pending += pending.isEmpty ? line : "\n" + line
      let outcome = session.submit(pending, name: "<stdin>", firstLine: startLine)
      if case .incomplete = outcome { continue }
      pending = ""
      if !print(outcome, session) { status = 1 }
    }
    if !pending.isEmpty {
      reportIncomplete(pending, name: "<stdin>", firstLine: startLine, in: session)
      status = 1
    }
    return status
  }

  /// The "expected …" diagnostic of input that stopped in the middle, parsed again as a whole.
  static func reportIncomplete(_ text: String, name: String, firstLine: Int = 1, in session: Session) {
    let source = session.makeSource(text, name: name, firstLine: firstLine)
    let diagnostics = Parser.parse(source, mode: .interactive).diagnostics
    Output.writeError(Output.renderer(session.sources).render(diagnostics))
  }

  /// Prints a session outcome; false when it was a failure.
  static func print(_ outcome: SessionOutcome, _ session: Session) -> Bool {
    switch outcome {
    case .value(let value):
      Output.write(ValueFormatter.format(value) + "\n")
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
}
