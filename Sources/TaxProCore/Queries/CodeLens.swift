/// Code lenses and the commands behind them: run a `test` block, or explain a formula step by step.
public struct LensInfo: Sendable, Equatable {
  /// What clicking the lens does; the server turns it into a command the client sends back.
  public enum Action: Sendable, Equatable {
    /// Runs the test of that name in the lens's file.
    case runTest(name: String)
    /// Explains the evaluation of an expression (a call of the formula with sample or default inputs).
    case explain(expression: String)
  }
  /// The declaration's name, where the lens is shown.
  public var span: Span
  public var title: String
  public var action: Action
}

/// What running one test produced, in the words `taxpro test` would use.
public struct TestReport: Sendable, Equatable {
  public var passed: Bool
  public var text: String
}

/// Lenses make the two things a learner does most — run a test, see a calculation explained — one click away.
public enum CodeLenses {
  /// A lens on every test ("Run test") and on every formula without errors ("Explain f(…)").
  public static func lenses(file: FileID, program: Program) -> [LensInfo] {
    var result: [LensInfo] = []
    for formula in program.formulas where formula.nameSpan.file == file && !formula.hasErrors {
      let expression = sampleCall(formula, program: program)
      result.append(LensInfo(span: formula.nameSpan, title: "Explain \(expression)", action: .explain(expression: expression)))
    }
    for test in program.tests where test.span.file == file {
      result.append(LensInfo(span: test.nameSpan, title: "Run test", action: .runTest(name: test.name)))
    }
    return result.sorted { $0.span.start < $1.span.start }
  }

  /// A call of `formula` that can run as it is: required parameters get named sample inputs within their range,
  /// the others keep their defaults.
  public static func sampleCall(_ formula: FormulaInfo, program: Program) -> String {
    let arguments = formula.parameters.filter { $0.defaultValue == nil }.map { parameter in
      "\(parameter.name): \(sample(parameter, program: program))"
    }
    return "\(formula.name)(\(arguments.joined(separator: ", ")))"
  }

  static func sample(_ parameter: FormulaParameter, program: Program) -> String {
    let preferred: String
    switch parameter.type {
    case .money: preferred = "$50,000"
    case .rate: preferred = "10%"
    case .number: preferred = "1"
    case .bool: preferred = "true"
    case .text: preferred = "\"\""
    case .province: preferred = program.provinceCodes.contains("ON") ? "ON" : (program.provinceCodes.first ?? "ON")
    case .brackets: preferred = "federal.income_tax"
    case .federal, .error: preferred = "0"
    }
    // A sample outside the declared range would only explain an error: use the range's own bound instead.
    let value: ExactDecimal? =
      switch parameter.type {
      case .money: ExactDecimal(50_000)
      case .rate: ExactDecimal(significand: 10, exponent: -2)
      case .number: ExactDecimal(1)
      default: nil
      }
    if let value {
      if case .literal(let lower)? = parameter.lower?.kind, let bound = lower.decimal, value < bound {
        return ValueFormatter.literal(lower)
      }
      if case .literal(let upper)? = parameter.upper?.kind, let bound = upper.decimal, value > bound {
        return ValueFormatter.literal(upper)
      }
    }
    return preferred
  }

  /// Runs the tests named `name` in `file` for `year` (a test's own year wins), within `limits` (the server gives
  /// its background limits), stopping with a "cancelled" failure once `isCancelled` says so.
  public static func runTest(
    named name: String, in file: FileID, program: Program, year: Int?, limits: EvaluationLimits = EvaluationLimits(),
    isCancelled: (() -> Bool)? = nil
  ) -> TestReport? {
    let matching = program.tests.filter { $0.name == name && $0.span.file == file }
    guard !matching.isEmpty else { return nil }
    var passed = true
    var lines: [String] = []
    let renderer = DiagnosticRenderer(sources: program.sources)
    for test in matching {
      let evaluator = Evaluator(program: program, year: test.year ?? year, limits: limits)
      evaluator.isCancelled = isCancelled
      let outcome = TestRunner.run(test, with: evaluator)
      if outcome.passed {
        lines.append("test \"\(name)\" (\(outcome.year)): passed, \(outcome.checks) \(outcome.checks == 1 ? "check" : "checks")")
      } else {
        passed = false
        lines.append("test \"\(name)\" (\(outcome.year)): failed")
        lines.append(renderer.render(outcome.failures))
      }
    }
    return TestReport(passed: passed, text: lines.joined(separator: "\n"))
  }

  /// Why an expression a lens (or a client) asked to explain could not be: its diagnostics, and them rendered as
  /// `taxpro explain` prints them (with the expression's own text, which the caller never had an id for).
  public struct ExplainFailure: Error, Sendable {
    public var diagnostics: [Diagnostic]
    public var text: String
  }

  /// The step-by-step explanation of `expression` against `program`, as `taxpro explain` prints it, or why it cannot
  /// be evaluated; within `limits` (the server gives its background limits), stopping with a "cancelled" failure once
  /// `isCancelled` says so.
  public static func explain(
    _ expression: String, program: Program, year: Int?, limits: EvaluationLimits = EvaluationLimits(),
    isCancelled: (() -> Bool)? = nil
  ) -> Result<String, ExplainFailure> {
    let source = SourceFile(id: FileID(-3), name: "<explain>", text: expression)
    let tree = Parser.parse(source, mode: .interactive)
    var sources = program.sources
    sources[source.id] = source
    func failure(_ diagnostics: [Diagnostic]) -> Result<String, ExplainFailure> {
      .failure(ExplainFailure(diagnostics: diagnostics, text: DiagnosticRenderer(sources: sources).render(diagnostics)))
    }
    guard !tree.diagnostics.hasErrors, tree.declarations.count == 1, case .expression(let syntax) = tree.declarations[0]
    else {
      let problems =
        tree.diagnostics.hasErrors
        ? tree.diagnostics
        : [.error(.expectedOneExpression, at: Span(file: source.id, start: 0, end: source.bytes.count))]
      return failure(problems)
    }
    let (typed, diagnostics) = Checker.check(syntax, source: source, against: program)
    if diagnostics.hasErrors { return failure(diagnostics) }
    let evaluator = Evaluator(program: program, year: year, limits: limits)
    evaluator.isCancelled = isCancelled
    do throws(RuntimeError) {
      let (value, steps) = try evaluator.explain(typed)
      let renderer = ExplanationRenderer(program: program)
      return .success(renderer.render(expression: expression, value: value, steps: steps))
    } catch {
      return failure([error.diagnostic])
    }
  }
}
