/// Inlay hints: values shown beside the text without being part of it — what each `test` line and each top-level
/// constant evaluates to, for the selected tax year.
public struct InlayHintInfo: Sendable, Equatable {
  /// Where the hint goes: just after the expression it describes.
  public var offset: Int
  public var label: String
  /// More detail on hover, e.g. the values on both sides of a failed comparison.
  public var tooltip: String?
  /// Whether the hint reports a problem (a failed check or a run-time error).
  public var isProblem: Bool
}

/// Values come from the evaluator, bounded by `limits`, for the year the editor selected.
public enum InlayHints {
  /// Evaluation is bounded per test and constant so that hints stay quick while typing.
  public static let limits = EvaluationLimits(steps: 2_000_000, depth: 1_500)

  /// Hints for `file`, limited to declarations that overlap `range` (byte offsets) when given.
  public static func hints(file: FileID, program: Program, year: Int?, range: Range<Int>? = nil) -> [InlayHintInfo] {
    var evaluators: [Int: Evaluator] = [:]
    func evaluator(for testYear: Int?) -> Evaluator {
      let chosen = testYear ?? year ?? program.latestYear ?? 2025
      if let existing = evaluators[chosen] { return existing }
      let created = Evaluator(program: program, year: chosen, limits: limits)
      evaluators[chosen] = created
      return created
    }
    func overlaps(_ span: Span) -> Bool {
      guard let range else { return true }
      return span.start <= range.upperBound && span.end >= range.lowerBound
    }
    var result: [InlayHintInfo] = []
    for (index, constant) in program.constants.enumerated()
    where constant.span.file == file && overlaps(constant.span) && !constant.value.containsError {
      let evaluator = evaluator(for: nil)
      evaluator.steps = 0
      evaluator.depth = 0
      do throws(RuntimeError) {
        let value = try evaluator.constant(index, at: constant.nameSpan)
        result.append(InlayHintInfo(offset: constant.value.span.end, label: "= " + short(value), tooltip: nil, isProblem: false))
      } catch {
        result.append(problem(error, at: constant.value.span.end))
      }
    }
    for test in program.tests where test.span.file == file && overlaps(test.span) && !test.hasErrors {
      let evaluator = evaluator(for: test.year)
      evaluator.steps = 0
      evaluator.depth = 0
      var frame = [Value](repeating: .bool(false), count: test.slotCount)
      steps: for step in test.steps {
        // A line the checker could not type (a parse error inside it) has nothing to show.
        switch step {
        case .binding(let binding): if binding.value.containsError { break steps }
        case .check(let check): if check.containsError { break steps }
        }
        do throws(RuntimeError) {
          switch step {
          case .binding(let binding):
            let value = try evaluator.evaluate(binding.value, in: &frame)
            if binding.slot < frame.count { frame[binding.slot] = value }
            result.append(
              InlayHintInfo(offset: binding.value.span.end, label: "= " + short(value), tooltip: nil, isProblem: false))
          case .check(let check):
            let value = try evaluator.evaluate(check, in: &frame)
            if value == .bool(true) {
              result.append(InlayHintInfo(offset: check.span.end, label: "= true", tooltip: nil, isProblem: false))
            } else {
              result.append(failure(check, value: value, frame: &frame, evaluator: evaluator))
            }
          }
        } catch {
          result.append(problem(error, at: stepEnd(step)))
          break steps
        }
      }
    }
    return result.sorted { $0.offset < $1.offset }
  }

  static func stepEnd(_ step: TestStep) -> Int {
    switch step {
    case .binding(let binding): binding.value.span.end
    case .check(let check): check.span.end
    }
  }

  static func problem(_ error: RuntimeError, at offset: Int) -> InlayHintInfo {
    InlayHintInfo(offset: offset, label: "= error", tooltip: error.diagnostic.message, isProblem: true)
  }

  /// `= false (left $5,609.17, right $5,600.00)` for a comparison; both sides are what a reader needs to fix it.
  static func failure(
    _ check: TypedExpression, value: Value, frame: inout [Value], evaluator: Evaluator
  ) -> InlayHintInfo {
    if case .comparison(_, let left, let right) = check.kind,
      let leftValue = try? evaluator.evaluate(left, in: &frame),
      let rightValue = try? evaluator.evaluate(right, in: &frame)
    {
      let l = short(leftValue)
      let r = short(rightValue)
      return InlayHintInfo(
        offset: check.span.end, label: "= false (left \(l), right \(r))",
        tooltip: "The left side is \(l) and the right side is \(r) in \(evaluator.year).", isProblem: true)
    }
    return InlayHintInfo(offset: check.span.end, label: "= " + short(value), tooltip: nil, isProblem: true)
  }

  /// A value short enough for a line: a bracket table is summarized.
  static func short(_ value: Value) -> String {
    if case .brackets(let table) = value {
      return "brackets (\(table.rows.count) \(table.rows.count == 1 ? "row" : "rows"))"
    }
    let text = ValueFormatter.format(value)
    return text.count > 60 ? String(text.prefix(59)) + "…" : text
  }
}
