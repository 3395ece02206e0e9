/// The outcome of one `test` block.
public struct TestOutcome: Sendable {
  public var name: String
  public var span: Span
  public var year: Int
  public var checks: Int
  /// One diagnostic per failed check (or one for a run-time error), with both sides' values as notes.
  public var failures: [Diagnostic]
  public var passed: Bool { failures.isEmpty }
}

/// Runs `test` blocks.
public enum TestRunner {
  /// Runs every test of the program whose span lies in one of `files` (all tests when nil).
  ///
  /// `isCancelled` (the language server's: a newer version of the workspace is waiting) is passed to the evaluators
  /// and asked between tests; once it says yes the outcomes are incomplete and meant to be thrown away.
  public static func run(
    _ program: Program, year: Int? = nil, files: Set<FileID>? = nil, limits: EvaluationLimits = EvaluationLimits(),
    isCancelled: (@Sendable () -> Bool)? = nil
  ) -> [TestOutcome] {
    var evaluators: [Int: Evaluator] = [:]
    var outcomes: [TestOutcome] = []
    for test in program.tests {
      if let files, !files.contains(test.span.file) { continue }
      if let isCancelled, isCancelled() { break }
      let testYear = test.year ?? year ?? program.latestYear ?? 2025
      let evaluator = evaluators[testYear] ?? Evaluator(program: program, year: testYear, limits: limits)
      evaluator.isCancelled = isCancelled
      evaluators[testYear] = evaluator
      outcomes.append(run(test, with: evaluator))
    }
    return outcomes
  }

  public static func run(_ test: TestInfo, with evaluator: Evaluator) -> TestOutcome {
    var outcome = TestOutcome(
      name: test.name, span: test.span, year: evaluator.year, checks: 0, failures: [])
    if test.hasErrors {
      outcome.failures.append(
        .error(.testHasErrors(test.name), at: test.nameSpan))
      return outcome
    }
    evaluator.steps = 0
    evaluator.depth = 0
    var frame = [Value](repeating: .bool(false), count: test.slotCount)
    for step in test.steps {
      do throws(RuntimeError) {
        switch step {
        case .binding(let binding):
          frame[binding.slot] = try evaluator.evaluate(binding.value, in: &frame)
        case .check(let check):
          outcome.checks += 1
          let value = try evaluator.evaluate(check, in: &frame)
          if value != .bool(true) {
            outcome.failures.append(failure(test, check, frame: &frame, evaluator: evaluator))
          }
        }
      } catch {
        var diagnostic = error.diagnostic
        diagnostic.message = "test '\(test.name)' stopped: " + diagnostic.message
        outcome.failures.append(diagnostic)
        return outcome
      }
    }
    return outcome
  }

  static func failure(
    _ test: TestInfo, _ check: TypedExpression, frame: inout [Value], evaluator: Evaluator
  ) -> Diagnostic {
    var notes: [DiagnosticNote] = []
    if case .comparison(let op, let left, let right) = check.kind,
      let leftValue = try? evaluator.evaluate(left, in: &frame),
      let rightValue = try? evaluator.evaluate(right, in: &frame)
    {
      notes.append(DiagnosticNote(.note, "left side:  \(ValueFormatter.format(leftValue))", span: nil))
      notes.append(DiagnosticNote(.note, "right side: \(ValueFormatter.format(rightValue))", span: nil))
      if let a = leftValue.decimal, let b = rightValue.decimal, op == .equal,
        let difference = try? a.subtracting(b)
      {
        notes.append(
          DiagnosticNote(.note, "difference: \(ValueFormatter.format(Value.numeric(leftValue.type, difference)))"))
      }
    }
    let yearNote = test.year == nil ? " (\(evaluator.year))" : ""
    return .error(.testFailed(test.name, yearNote: yearNote), at: check.span, notes: notes)
  }
}
