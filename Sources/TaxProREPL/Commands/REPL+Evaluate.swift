import TaxProCore

extension REPL {
  func typeCommand(_ text: String) {
    // A formula's or function's name alone is not a value, but its signature is what is wanted.
    if let formula = session.program.formula(named: text) {
      say(style(formula.signature, .type))
      return
    }
    if let builtin = Builtin(rawValue: text) {
      say(style(builtin.declaration.signature, .type))
      return
    }
    let (type, diagnostics) = session.type(of: text, name: "<input>")
    if let type {
      say(style(type.description, .type))
    } else {
      report(diagnostics)
    }
  }

  /// `:explain EXPR` summarises; `:explain full EXPR` shows every step.
  func explainCommand(_ argument: String) {
    // `full` with nothing after it is the keyword without its expression, unless the session has a value of that name.
    guard argument != "full" || session.values["full"] != nil else { return sayUsage(of: .explain) }
    var text = argument
    var detail = ExplanationRenderer.Detail.summary(depth: REPL.summaryDepth)
    if let rest = REPL.afterFullKeyword(argument) {
      text = rest
      detail = .full
    }
    // `ans` alone asks why the last result is what it is: the last calculation is explained (with the session's values
    // it read written in), not `ans` as a value without steps. Unless `ans` no longer holds that result.
    if text == "ans", let last = lastCalculation, session.values["ans"] == last.value {
      text = last.selfContained
    }
    let valuesBefore = session.values
    switch interruptible({ session.explain(text, name: "<input>") }) {
    case .failure(let list):
      report(list.diagnostics)
    case .success(let (value, steps)):
      let chartable = session.breakdown(explained: text, value: value, steps: steps) != nil
      present(
        .explanation(expression: text, value: value, steps: steps),
        text: explanation(text, value: value, steps: steps, detail: detail, chartable: chartable))
      var calculation = Calculation(expression: text, values: valuesBefore, year: session.year, value: value)
      calculation.explanation = explanation(text, value: value, steps: steps, colored: false, fitted: false)
      lastCalculation = calculation
    }
  }

  /// How many levels of named values a summarised explanation shows below the outermost formula.
  static let summaryDepth = 2

  /// The expression after `full` in `:explain full EXPR`, or nil when the argument does not start with the word.
  static func afterFullKeyword(_ argument: String) -> String? {
    guard argument.hasPrefix("full"), let next = argument.dropFirst(4).first, next == " " || next == "\t" else {
      return nil
    }
    let rest = argument.dropFirst(5).trimmed
    return rest.isEmpty ? nil : rest
  }

  /// Evaluates and explains a self-contained expression without touching the session's `ans`: for lessons and for
  /// explaining a calculation that is being saved.
  func explainDetached(_ text: String, year: Int? = nil) -> Result<(Value, [ExplanationStep]), DiagnosticList> {
    let source = session.makeSource(text, name: "<example>")
    let tree = Parser.parse(source, mode: .interactive)
    if tree.diagnostics.contains(where: { $0.severity == .error }) { return .failure(DiagnosticList(tree.diagnostics)) }
    guard tree.declarations.count == 1, case .expression(let expression) = tree.declarations[0] else {
      return .failure(DiagnosticList([]))
    }
    let (typed, diagnostics) = Checker.check(expression, source: source, against: session.program)
    if diagnostics.contains(where: { $0.severity == .error }) { return .failure(DiagnosticList(diagnostics)) }
    let evaluator = Evaluator(program: session.program, year: year ?? session.year, limits: session.limits)
    evaluator.isCancelled = session.isCancelled
    do {
      return .success(try evaluator.explain(typed))
    } catch {
      return .failure(DiagnosticList([error.diagnostic]))
    }
  }

  /// An explanation as text, in colour unless it is being stored, fitted to the terminal unless it is being
  /// stored; the session's sources let it quote formulas that were typed in. `indent` is
  /// what the caller will put before each line. The whole trace unless `detail` asks
  /// for a summary, which ends by saying how to see the whole trace.
  func explanation(
    _ text: String, value: Value, steps: [ExplanationStep], colored: Bool = true,
    detail: ExplanationRenderer.Detail = .full, fitted: Bool = true, showsDocumentation: Bool = true,
    indent: Int = 0, briefNotes: Bool = false, summarisesShortTraces: Bool = false, chartable: Bool = false
  ) -> String {
    var renderer = ExplanationRenderer(program: session.program, sources: session.sources)
    if colored { renderer.style = style.textStyle }
    renderer.year = session.year
    renderer.width = fitted ? width - indent : nil
    renderer.detail = detail
    renderer.showsDocumentation = showsDocumentation
    renderer.briefNotes = briefNotes
    // A lesson teaches in words: even a short trace, whose code a summary would otherwise show whole, is summarised.
    if summarisesShortTraces { renderer.wholeTraceLimit = 0 }
    if !text.contains("\n") { renderer.fullTraceHint = ":explain full " + text }
    if chartable && !text.contains("\n") { renderer.chartHint = ":chart " + text }
    return renderer.render(expression: text, value: value, steps: steps)
  }

  /// Text without ANSI escape sequences.
  static func plain(_ text: String) -> String {
    var result = ""
    var skipping = false
    for scalar in text.unicodeScalars {
      if scalar == "\u{1B}" {
        skipping = true
      } else if skipping {
        if (0x40...0x7E).contains(scalar.value) && scalar != "[" { skipping = false }
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
