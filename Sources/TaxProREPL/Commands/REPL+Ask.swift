import Foundation
import TaxProCore

/// A value offered for an input of `:ask`, and where it came from.
struct OfferedValue {
  enum Origin: String {
    case session = "your `let`"
    case profile = "your profile"
    case formulaDefault = "the default"
  }
  var value: Value
  var origin: Origin
}

/// Why an answer was not taken, in words for the person filling in the form.
struct AnswerProblem: Error {
  var message: String
  /// The checker's own diagnostics, when the answer did not parse or check.
  var diagnostics: [Diagnostic] = []
}

extension REPL {
  func askCommand(_ name: String) {
    guard let formula = session.program.formula(named: name) else {
      var message = "no formula named '\(name)'"
      if let suggestion = NameSuggestions.closest(to: name, among: session.program.formulas.map(\.name)) {
        message += "; did you mean '\(suggestion)'?"
      }
      complain(message)
      return
    }
    guard !formula.hasErrors else {
      complain("'\(name)' has errors and cannot be computed")
      return
    }
    guard let answers = fillIn(formula) else {
      note("the form was left; nothing was computed")
      return
    }
    compute(formula, answers: answers)
  }

  /// Asks every input in order; nil when the user left the form (Ctrl-C or Ctrl-D).
  func fillIn(_ formula: FormulaInfo) -> [Value]? {
    say(style(formula.signature, .name))
    if !formula.documentation.summary.isEmpty {
      say(TextLayout.wrap(formula.documentation.summary, width: width, first: "  ").joined(separator: "\n"))
    }
    if let instruction = formula.documentation.instruction {
      say(TextLayout.wrap(instruction, width: width, first: "  ").joined(separator: "\n"))
    }
    let profile = loadProfile()
    var answers: [Value] = []
    for parameter in formula.parameters {
      say("")
      var facts = [parameter.type.description]
      if let range = parameter.rangeText { facts.append("from " + range.replacingOccurrences(of: "..", with: " to ")) }
      say(style(parameter.name, .name) + " (" + facts.joined(separator: ", ") + ")")
      let documentation = DocumentationText(style: style, width: width).render(parameter.documentation, topic: false)
      if !documentation.isEmpty { say(documentation.joined(separator: "\n")) }
      let offer = offeredValue(for: parameter, answers: answers, profile: profile)
      if let offer {
        note("  Enter takes \(ValueFormatter.format(offer.value)) (\(offer.origin.rawValue))")
      }
      asking: while true {
        let prompt = "  \(parameter.name)" + (offer.map { " [\(ValueFormatter.format($0.value))]" } ?? "") + ": "
        guard case .line(let line) = editor.readLine(prompt: promptText(prompt)) else { return nil }
        let text = line.trimmed
        if text.isEmpty {
          if let offer {
            answers.append(offer.value)
            break asking
          }
          complain("an answer is needed: a \(parameter.type) such as \(REPL.example(of: parameter.type))")
          continue asking
        }
        switch answer(text, for: parameter, in: formula, answers: answers) {
        case .success(let value):
          answers.append(value)
          // Show what a plain number or a province's name was taken as.
          if ValueFormatter.format(value) != text { note("  \(parameter.name) = \(ValueFormatter.format(value))") }
          break asking
        case .failure(let problem):
          report(problem.diagnostics)
          complain(problem.message)
        }
      }
    }
    return answers
  }

  /// Computes the formula with the answers, prints the result and offers the explanation.
  func compute(_ formula: FormulaInfo, answers: [Value]) {
    var arguments: [String: Value] = [:]
    for (parameter, value) in zip(formula.parameters, answers) { arguments[parameter.name] = value }
    let call =
      formula.name + "("
      + zip(formula.parameters, answers).map { "\($0.name): \(REPL.literal($1))" }.joined(separator: ", ") + ")"
    let result = interruptible { session.call(formula.name, arguments: arguments) }
    say("")
    switch result {
    case .failure(let list):
      report(list.diagnostics)
    case .success(let value):
      say(call + " = " + style(ValueFormatter.format(value), .value))
      var inputs: [String: String] = [:]
      for (parameter, value) in zip(formula.parameters, answers) { inputs[parameter.name] = REPL.literal(value) }
      lastCalculation = Calculation(
        expression: call, selfContained: call, inputs: inputs, value: value, year: session.year)
      guard case .line(let reply) = editor.readLine(prompt: promptText("Explain it? [y/N] ")) else { return }
      guard ["y", "yes"].contains(reply.trimmed.lowercased()) else { return }
      switch explainDetached(call) {
      case .failure(let list): report(list.diagnostics)
      case .success(let (value, steps)):
        present(
          .explanation(expression: call, value: value, steps: steps),
          text: explanation(call, value: value, steps: steps, detail: .summary(depth: REPL.summaryDepth)))
        lastCalculation?.explanation = explanation(call, value: value, steps: steps, colored: false, fitted: false)
      }
    }
  }

  /// A value of the same name from this session (a `let`) or the profile if it fits, else the formula's default.
  func offeredValue(for parameter: FormulaParameter, answers: [Value], profile: Profile?) -> OfferedValue? {
    if let value = session.values[parameter.name], parameter.name != "ans", value.type == parameter.type,
      rangeProblem(value, parameter, answers: answers) == nil
    {
      return OfferedValue(value: value, origin: .session)
    }
    if let text = profile?.values[parameter.name],
      case .success(let value) = checkedAnswer(text, for: parameter, answers: answers, earlier: [])
    {
      return OfferedValue(value: value, origin: .profile)
    }
    if let defaultValue = parameter.defaultValue,
      case .success(let value) = session.evaluate(defaultValue, locals: answers)
    {
      return OfferedValue(value: value, origin: .formulaDefault)
    }
    return nil
  }

  func answer(_ text: String, for parameter: FormulaParameter, in formula: FormulaInfo, answers: [Value]) -> Result<
    Value, AnswerProblem
  > {
    let earlier = formula.parameters.prefix(answers.count).map { (name: $0.name, type: $0.type) }
    return checkedAnswer(text, for: parameter, answers: answers, earlier: Array(earlier))
  }

  /// Parses and checks an answer as an expression of the input's type (earlier inputs may be named in it), evaluates
  /// it and checks it against the input's range.
  func checkedAnswer(
    _ text: String, for parameter: FormulaParameter, answers: [Value], earlier: [(name: String, type: TaxType)]
  ) -> Result<Value, AnswerProblem> {
    if let taken = formValue(text, for: parameter.type) {
      return taken.flatMap { value in
        rangeProblem(value, parameter, answers: answers).map { .failure($0) } ?? .success(value)
      }
    }
    let choices = parameter.type == .province ? "; the choices are \(provinceChoices)" : ""
    let typed: TypedExpression
    switch session.compile(text, name: "<answer>", locals: earlier) {
    case .failure(let list):
      // An unknown name where a province is wanted: the list of choices says more than "unknown name".
      if parameter.type == .province, REPL.isName(text) {
        return .failure(AnswerProblem(message: "'\(text)' is not a province or territory\(choices)"))
      }
      return .failure(
        AnswerProblem(message: "that is not a \(parameter.type); try again\(choices)", diagnostics: list.diagnostics))
    case .success(let compiled):
      typed = compiled
    }
    guard typed.type == parameter.type else {
      var message = "\(parameter.name) is \(parameter.type), but '\(text)' is \(typed.type)\(choices)"
      if let hint = REPL.hint(text, given: typed.type, wanted: parameter.type) { message += "; did you mean \(hint)?" }
      return .failure(AnswerProblem(message: message))
    }
    let value: Value
    switch interruptible({ session.evaluate(typed, locals: answers) }) {
    case .failure(let list): return .failure(AnswerProblem(message: "that answer cannot be used", diagnostics: list.diagnostics))
    case .success(let computed): value = computed
    }
    if let problem = rangeProblem(value, parameter, answers: answers) { return .failure(problem) }
    return .success(value)
  }

  func rangeProblem(_ value: Value, _ parameter: FormulaParameter, answers: [Value]) -> AnswerProblem? {
    guard let decimal = value.decimal else { return nil }
    func bound(_ expression: TypedExpression?) -> Value? {
      guard let expression, case .success(let value) = session.evaluate(expression, locals: answers) else { return nil }
      return value
    }
    let lower = bound(parameter.lower)
    let upper = bound(parameter.upper)
    let tooLow = lower?.decimal.map { decimal < $0 } ?? false
    let tooHigh = upper?.decimal.map { decimal > $0 } ?? false
    guard tooLow || tooHigh else { return nil }
    let range = [lower, upper].map { $0.map { ValueFormatter.format($0) } ?? "…" }.joined(separator: " to ")
    return AnswerProblem(message: "\(parameter.name) must be from \(range), but \(ValueFormatter.format(value)) is \(tooLow ? "below" : "above") that")
  }

  /// `85000` for a Money input → `$85000`; `5` for a Rate → `5%`.
  static func hint(_ text: String, given: TaxType, wanted: TaxType) -> String? {
    guard given == .number, ExactDecimal(text.replacingOccurrences(of: "_", with: "")) != nil else { return nil }
    switch wanted {
    case .money: return text.hasPrefix("-") ? "-$" + text.dropFirst() : "$" + text
    case .rate: return text + "%"
    default: return nil
    }
  }

  static func example(of type: TaxType) -> String {
    switch type {
    case .money: "$50,000"
    case .rate: "5%"
    case .number: "2"
    case .bool: "true"
    case .text: "\"text\""
    case .province: "ON"
    case .brackets: "brackets { $0 -> 15% }"
    case .federal, .error: "a value"
    }
  }

  /// Source text for a value that reads back as the same value wherever it is put.
  static func literal(_ value: Value) -> String {
    let text = ValueFormatter.literal(value)
    return value.decimal?.isNegative == true ? "(\(text))" : text
  }
}
