import Foundation
import TaxProCore

extension REPL {
  func topicsCommand() {
    let tree = TopicTree(program: session.program)
    guard !tree.isEmpty else {
      note("no formula has a topic yet (a `## topic: A / B` line in its documentation gives it one)")
      return
    }
    say(tree.render(style: style, width: width).joined(separator: "\n"))
    note("learn one with :lesson NAME or :lesson TOPIC")
  }

  func lessonCommand(_ name: String) {
    if let formula = session.program.formula(named: name) {
      say(lesson(formula).joined(separator: "\n"))
      return
    }
    let tree = TopicTree(program: session.program)
    if let (path, node) = tree.find(name) {
      say(topicLesson(path: path, node: node).joined(separator: "\n"))
      return
    }
    var message = "no formula or topic '\(name)'"
    let candidates = session.program.formulas.map(\.name) + tree.paths.map { $0.split(separator: "/").last.map { $0.trimmed } ?? $0 }
    if let suggestion = NameSuggestions.closest(to: name, among: candidates) { message += "; did you mean '\(suggestion)'?" }
    complain(message)
    note("see the topics with :topics, or search with :search \(name)")
  }

  /// Definition → inputs → a worked example with its explanation → tip.
  func lesson(_ formula: FormulaInfo) -> [String] {
    let documentation = formula.documentation
    var lines = [style("Lesson: \(formula.name)", .heading) + (documentation.summary.isEmpty ? "" : " — " + firstSentence(documentation.summary))]
    if !documentation.topic.isEmpty { lines.append(style("Topic: " + documentation.topic.joined(separator: " / "), .note)) }
    var section = 0
    func heading(_ title: String) {
      section += 1
      lines.append("")
      lines.append(style("\(section). \(title)", .heading))
    }
    heading("What it is")
    let concept = documentation.definition ?? (documentation.summary.isEmpty ? nil : documentation.summary)
    lines += TextLayout.wrap(concept ?? "(This formula has no definition in its documentation.)", width: width, first: "  ")
    if documentation.definition != nil, !documentation.summary.isEmpty {
      lines += TextLayout.wrap(documentation.summary, width: width, first: "  ")
    }

    heading("What goes in")
    if formula.parameters.isEmpty {
      lines.append("  Nothing: it has no inputs.")
    } else {
      lines += parameterLines(formula, indent: "  ")
    }
    if let instruction = documentation.instruction { lines += TextLayout.wrap(instruction, width: width, first: "  ") }

    heading("A worked example")
    switch workedExample(formula) {
    case .success(let (text, value, steps)):
      lines += explanationSteps(text, value: value, steps: steps).split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "  " + $0 }
    case .failure(let problem):
      lines.append("  " + style("No example could be worked out: \(problem.message)", .error))
    }

    if let tip = documentation.tip {
      heading("Tip")
      lines += TextLayout.wrap(tip, width: width, first: "  ")
    }
    if !documentation.references.isEmpty {
      lines.append("")
      lines.append(style("References:", .heading))
      for reference in documentation.references { lines += TextLayout.wrap(reference, width: width, first: "  ") }
    }
    lines.append("")
    lines.append(style("Try it with your own figures: :ask \(formula.name)", .note))
    return lines
  }

  /// The documentation's first example if it works; otherwise a call with each input's default, or a typical value
  /// of its type inside its range.
  func workedExample(_ formula: FormulaInfo) -> Result<(String, Value, [ExplanationStep]), AnswerProblem> {
    for example in formula.documentation.examples {
      let text = example.trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      if case .success(let (value, steps)) = explainDetached(text) { return .success((text, value, steps)) }
    }
    var values: [Value] = []
    for parameter in formula.parameters {
      guard let value = exampleValue(for: parameter, earlier: values) else {
        return .failure(AnswerProblem(message: "there is no example value for \(parameter.name) (\(parameter.type))"))
      }
      values.append(value)
    }
    let call =
      formula.name + "("
      + zip(formula.parameters, values).map { "\($0.name): \(REPL.literal($1))" }.joined(separator: ", ") + ")"
    switch explainDetached(call) {
    case .success(let (value, steps)): return .success((call, value, steps))
    case .failure(let list):
      return .failure(AnswerProblem(message: list.diagnostics.first?.message ?? "it could not be computed"))
    }
  }

  func exampleValue(for parameter: FormulaParameter, earlier: [Value]) -> Value? {
    if let defaultValue = parameter.defaultValue, case .success(let value) = session.evaluate(defaultValue, locals: earlier) {
      return value
    }
    var value: Value
    switch parameter.type {
    case .money:
      // An income-like input gets a typical income; any other amount (a contribution, a dividend) a smaller one.
      let name = parameter.name.lowercased()
      let incomeLike = ["income", "salary", "earnings", "wage", "pay"].contains { name.contains($0) }
      value = .money(ExactDecimal(incomeLike ? 60_000 : 5_000))
    case .rate: value = .rate(ExactDecimal(significand: 5, exponent: -2))
    case .number: value = .number(ExactDecimal(1))
    case .bool: value = .bool(true)
    case .text: value = .text("")
    case .province:
      let codes = session.program.provinceCodes
      guard let code = codes.contains("ON") ? "ON" : codes.first else { return nil }
      value = .province(code)
    case .brackets, .federal, .error:
      return nil
    }
    func bound(_ expression: TypedExpression?) -> Value? {
      guard let expression, case .success(let bound) = session.evaluate(expression, locals: earlier) else { return nil }
      return bound
    }
    if let decimal = value.decimal {
      if let lower = bound(parameter.lower), let lowest = lower.decimal, decimal < lowest { value = lower }
      if let upper = bound(parameter.upper), let highest = upper.decimal, decimal > highest { value = upper }
    }
    return value
  }

  func topicLesson(path: [String], node: TopicTree.Node) -> [String] {
    var lines = [style("Topic: " + path.joined(separator: " / "), .heading)]
    let program = session.program
    let formulas = node.entries.compactMap { program.formula(named: $0) }
    for entry in node.entries {
      if let formula = program.formula(named: entry) {
        lines += TextLayout.wrap(
          firstSentence(formula.documentation.summary), width: width, first: "  " + style(entry, .name) + " — ",
          rest: "    ")
      } else if entry.hasPrefix("parameters "), let interface = program.interfaces[String(entry.dropFirst(11))] {
        lines += TextLayout.wrap(
          firstSentence(interface.documentation.summary), width: width, first: "  " + style(entry, .name) + " — ",
          rest: "    ")
      }
    }
    if !node.children.isEmpty {
      lines.append("  " + style("Subtopics: ", .heading) + node.children.map(\.name).joined(separator: ", "))
    }
    if let first = formulas.first {
      lines.append("")
      lines += lesson(first)
      let others = formulas.dropFirst().map { ":lesson " + $0.name }
      if !others.isEmpty { lines.append(style("More in this topic: " + others.joined(separator: ", "), .note)) }
    } else {
      // A topic with parameters only: their documentation is the lesson.
      for entry in node.entries where entry.hasPrefix("parameters ") {
        if let interface = program.interfaces[String(entry.dropFirst(11))] {
          lines.append("")
          lines += interfaceHelp(interface)
        }
      }
    }
    return lines
  }

  func searchCommand(_ argument: String) {
    let words = argument.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    let results = search(words)
    guard !results.isEmpty else {
      note("nothing matches '\(argument.trimmed)'; :topics lists what there is")
      return
    }
    for result in results.prefix(30) {
      var text = result.summary
      if !result.topic.isEmpty { text += " (" + result.topic + ")" }
      say(TextLayout.wrap(text, width: width, first: "  " + style(result.name, .name) + " — ", rest: "    ").joined(separator: "\n"))
    }
    if results.count > 30 { note("and \(results.count - 30) more; add words to narrow it down") }
  }

  struct SearchResult {
    var name: String
    var summary: String
    var topic: String
    var score: Int
  }

  /// Formulas, jurisdiction parameters and jurisdictions in which every word occurs, best first: a word in the name
  /// counts most, then in the topic, then in the documentation.
  func search(_ words: [String]) -> [SearchResult] {
    let program = session.program
    var results: [SearchResult] = []
    func consider(name: String, summary: String, topic: [String], documentation: [String]) {
      let nameText = name.lowercased() + " " + name.lowercased().replacingOccurrences(of: "_", with: " ")
      let topicText = topic.joined(separator: " / ").lowercased()
      let documentationText = documentation.joined(separator: " ").lowercased()
      var score = 0
      for word in words {
        if nameText.contains(word) {
          score += 3
        } else if topicText.contains(word) {
          score += 2
        } else if documentationText.contains(word) {
          score += 1
        } else {
          return
        }
      }
      results.append(
        SearchResult(name: name, summary: firstSentence(summary), topic: topic.joined(separator: " / "), score: score))
    }
    func texts(_ documentation: Documentation) -> [String] {
      [documentation.summary, documentation.definition ?? "", documentation.instruction ?? "", documentation.tip ?? ""]
        + documentation.notes
    }
    for formula in program.formulas {
      let parameters = formula.parameters.flatMap { [$0.name] + texts($0.documentation) }
      consider(
        name: formula.name, summary: formula.documentation.summary, topic: formula.documentation.topic,
        documentation: texts(formula.documentation) + parameters)
    }
    for interface in program.interfaces.values {
      for member in interface.members {
        consider(
          name: interface.name + "." + member.name, summary: member.documentation.summary,
          topic: interface.documentation.topic, documentation: texts(member.documentation))
      }
    }
    for jurisdiction in program.jurisdictions.values {
      consider(
        name: jurisdiction.code, summary: jurisdiction.fullName, topic: [],
        documentation: [jurisdiction.fullName] + texts(jurisdiction.documentation))
    }
    return results.sorted { $0.score != $1.score ? $0.score > $1.score : $0.name < $1.name }
  }
}
