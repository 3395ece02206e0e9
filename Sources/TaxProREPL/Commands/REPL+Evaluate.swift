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

  func explainCommand(_ text: String) {
    let valuesBefore = session.values
    switch interruptible({ session.explain(text, name: "<input>") }) {
    case .failure(let list):
      report(list.diagnostics)
    case .success(let (value, steps)):
      say(explanation(text, value: value, steps: steps))
      var calculation = Calculation(expression: text, values: valuesBefore, year: session.year, value: value)
      calculation.explanation = explanation(text, value: value, steps: steps, colored: false)
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

  /// An explanation as text, in colour unless it is being stored; the session's sources let it quote formulas that
  /// were typed in.
  func explanation(_ text: String, value: Value, steps: [ExplanationStep], colored: Bool = true) -> String {
    var renderer = ExplanationRenderer(program: session.program, sources: session.sources)
    if colored { renderer.style = style.textStyle }
    return renderer.render(expression: text, value: value, steps: steps)
  }

  /// The explanation without the definition and tip the renderer puts last (a lesson shows those in their own places).
  func explanationSteps(_ text: String, value: Value, steps: [ExplanationStep]) -> String {
    var lines = explanation(text, value: value, steps: steps).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    // The concept block is the last paragraph when all its lines are "Definition:" or "Tip:" lines.
    if let blank = lines.lastIndex(of: ""),
      lines[(blank + 1)...].allSatisfy({ REPL.plain($0).hasPrefix("Definition:") || REPL.plain($0).hasPrefix("Tip:") })
    {
      lines.removeSubrange(blank...)
    }
    return lines.joined(separator: "\n")
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
