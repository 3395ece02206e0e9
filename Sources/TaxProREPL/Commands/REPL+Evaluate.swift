import TaxProCore

extension REPL {
  func typeCommand(_ argument: String) {
    let text = argument.trimmed
    guard !text.isEmpty else {
      complain("usage: :type EXPR")
      return
    }
    // A formula's or function's name alone is not a value, but its signature is what is wanted.
    if let formula = session.program.formula(named: text) {
      say(style(formula.signature, .type))
      return
    }
    if let builtin = Builtin(rawValue: text) {
      say(style(builtin.signature, .type))
      return
    }
    let (type, diagnostics) = session.type(of: text, name: "<input>")
    if let type {
      say(style(type.description, .type))
    } else {
      report(diagnostics)
    }
  }

  func explainCommand(_ argument: String) {
    let text = argument.trimmed
    guard !text.isEmpty else {
      complain("usage: :explain EXPR")
      return
    }
    let valuesBefore = session.values
    switch interruptible({ session.explain(text, name: "<input>") }) {
    case .failure(let list):
      report(list.diagnostics)
    case .success(let (value, steps)):
      let rendered = ExplanationRenderer(program: session.program, style: style.textStyle)
        .render(expression: text, value: value, steps: steps)
      say(rendered)
      var calculation = Calculation(expression: text, values: valuesBefore, year: session.year, value: value)
      calculation.explanation = ExplanationRenderer(program: session.program)
        .render(expression: text, value: value, steps: steps)
      lastCalculation = calculation
    }
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

  /// The explanation's steps without the definition and tip the renderer adds after them (a lesson shows those in
  /// their own places).
  func explanationSteps(_ text: String, value: Value, steps: [ExplanationStep]) -> String {
    let rendered = ExplanationRenderer(program: session.program, style: style.textStyle)
      .render(expression: text, value: value, steps: steps)
    var lines: [Substring] = []
    for line in rendered.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty { break }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
