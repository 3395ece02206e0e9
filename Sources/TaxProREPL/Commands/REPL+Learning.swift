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

  /// `:lesson` lists the lessons; `:lesson NAME` shows a concept lesson, a formula's lesson or a topic's, found by
  /// its name or any word for it; `:lesson NAME more` what did not fit on the screen. A word that names nothing
  /// falls back to what `:search` finds for it.
  func lessonCommand(_ argument: String) {
    var name = argument.trimmed
    var more = false
    if name.lowercased() == "more" || name.lowercased().hasSuffix(" more") {
      more = true
      name = String(name.dropLast(4)).trimmed
    }
    if name.isEmpty {
      say(lessonList().joined(separator: "\n"))
      return
    }
    switch findLesson(name) {
    case .concept(let lesson):
      say((more ? conceptLessonMore(lesson) : conceptLesson(lesson)).joined(separator: "\n"))
    case .formula(let formula):
      say((more ? formulaLessonMore(formula) : formulaLesson(formula)).joined(separator: "\n"))
    case .topic(let path, let node):
      say(topicLesson(path: path, node: node).joined(separator: "\n"))
    case nil:
      let results = search(name.lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
      if !results.isEmpty {
        note("no lesson called '\(name)'; here is what :search \(name) finds:")
        showSearchResults(results)
        return
      }
      var message = "no lesson, formula or topic '\(name)'"
      let tree = TopicTree(program: session.program)
      let candidates =
        ConceptLesson.all.map(\.name) + session.program.formulas.map(\.name)
        + tree.paths.map { $0.split(separator: "/").last.map { $0.trimmed } ?? $0 }
      if let suggestion = NameSuggestions.closest(to: name, among: candidates) { message += "; did you mean '\(suggestion)'?" }
      complain(message)
      note(":lesson lists the lessons; :topics the formulas by topic")
    }
  }

  enum LessonMatch {
    case concept(ConceptLesson)
    case formula(FormulaInfo)
    case topic([String], TopicTree.Node)
  }

  /// A concept lesson by its name first, then a formula, a concept lesson by one of its words, a topic, and a
  /// glossary term's lesson.
  func findLesson(_ name: String) -> LessonMatch? {
    if let lesson = ConceptLesson.all.first(where: { $0.name.lowercased() == name.lowercased() }) {
      return .concept(lesson)
    }
    if let formula = session.program.formula(named: name) { return .formula(formula) }
    // A word for a concept ("basic personal amount", "OAS") teaches the idea before listing a topic's formulas.
    if let lesson = ConceptLesson.named(name) { return .concept(lesson) }
    let tree = TopicTree(program: session.program)
    if let (path, node) = tree.find(name) { return .topic(path, node) }
    if let term = Glossary.term(named: name), let lesson = ConceptLesson.named(term.lesson) { return .concept(lesson) }
    return nil
  }

  /// The concept lessons, one a line, and how to find the others.
  func lessonList() -> [String] {
    var lines = [style("Lessons", .heading)]
    let rows = ConceptLesson.all.map { ["  " + style($0.name, .name), $0.title] }
    lines += TextLayout.table(rows)
    lines += TextLayout.wrap(
      "Type :lesson NAME (or a word for it: :lesson clawback, :lesson marginal). Every formula has a lesson too "
        + "(:lesson rrsp_refund); :topics lists them, :glossary the words the lessons use.",
      width: width)
    return lines
  }

  // MARK: Concept lessons

  /// The lesson's one screen: what it is, what goes in, the worked example, the tip, a line to try.
  func conceptLesson(_ lesson: ConceptLesson) -> [String] {
    var templates = LessonTemplates(evaluate: lessonValue, program: session.program)
    let problem = templates.define(lesson.given)
    var lines = [style("Lesson: " + lesson.title, .heading)]
    var section = 0
    func heading(_ title: String) {
      section += 1
      lines.append(style("\(section). \(title)", .heading))
    }
    func paragraph(_ template: String) {
      switch templates.fill(template) {
      case .success(let text): lines += TextLayout.wrap(text, width: width, first: "  ")
      case .failure(let problem): lines.append("  " + style("(not worked out: \(problem.message))", .error))
      }
    }
    let readable = ReadableText(program: session.program, year: session.year)
    lines.append("")
    heading("What it is")
    paragraph(lesson.definition)
    lines.append("")
    heading("What goes in")
    paragraph(lesson.inputs)
    lines.append("")
    heading("A worked example")
    if let problem {
      lines.append("  " + style("(not worked out: \(problem.message))", .error))
    } else {
      for block in lesson.example { lines += render(block, templates: templates) }
      for name in lesson.limits {
        for note in session.program.formula(named: name)?.documentation.notes ?? [] {
          lines += TextLayout.wrap(
            readable.prose(firstSentence(note)), width: width, first: "  " + style("Note:", .note) + " ", rest: "    ")
        }
      }
    }
    lines.append("")
    heading("Tip")
    paragraph(lesson.tip)
    lines.append("")
    lines.append(style("Try it:", .heading) + " " + lesson.tryIt)
    lines.append(style("More: :lesson \(lesson.name) more", .note))
    return lines
  }

  /// What a lesson leaves for later: its formulas' lessons, its chart, its words.
  func conceptLessonMore(_ lesson: ConceptLesson) -> [String] {
    var templates = LessonTemplates(evaluate: lessonValue, program: session.program)
    let problem = templates.define(lesson.given)
    var lines = [style("Lesson: " + lesson.title + " (more)", .heading)]
    if problem == nil { for block in lesson.more { lines += render(block, templates: templates) } }
    let formulas = lesson.formulas.filter { session.program.formula(named: $0) != nil }
    if !formulas.isEmpty {
      lines.append(style("The formulas behind it", .heading))
      for name in formulas {
        let summary = session.program.formula(named: name).map { firstSentence($0.documentation.summary) } ?? ""
        lines += TextLayout.wrap(summary, width: width, first: "  " + style(":lesson " + name, .command) + " — ", rest: "    ")
      }
    }
    let readable = ReadableText(program: session.program, year: session.year)
    let notes = lesson.limits.flatMap { session.program.formula(named: $0)?.documentation.notes ?? [] }
    if !notes.isEmpty {
      lines.append(style("What the figures leave out", .heading))
      for note in notes { lines += TextLayout.wrap(readable.prose(note), width: width, first: "  ") }
    }
    if let chart = lesson.chart { lines += lessonChart(chart, templates: templates) }
    lines.append(style("Words it uses", .heading))
    for term in lesson.terms {
      if let entry = Glossary.term(named: term) {
        lines += TextLayout.wrap(entry.meaning, width: width, first: "  " + style(entry.term, .name) + " — ", rest: "    ")
      }
    }
    return lines
  }

  /// The chart of a lesson's example. **The hook for charts:** today the `:plot` line that draws it; a front end
  /// that draws charts inline (`:chart`) can draw `chart` here instead.
  func lessonChart(_ chart: LessonChart, templates: LessonTemplates) -> [String] {
    // The chart's variable is what the plot varies: the example's value of it must not replace it.
    var templates = templates
    templates.given.removeAll { $0.name == chart.variable }
    let command = templates.substitute(chart.plotCommand)
    return [style("A chart of it", .heading)]
      + TextLayout.wrap(chart.caption + ":", width: width, first: "  ") + ["  " + command]
  }

  func render(_ block: LessonBlock, templates: LessonTemplates) -> [String] {
    func failed(_ problem: LessonProblem) -> [String] {
      ["  " + style("(not worked out: \(problem.message))", .error)]
    }
    switch block {
    case .text(let template):
      switch templates.fill(template) {
      case .success(let text): return TextLayout.wrap(text, width: width, first: "  ")
      case .failure(let problem): return failed(problem)
      }
    case .table(let header, let rows):
      var filled: [[String]] = []
      for row in (header.isEmpty ? [] : [header]) + rows {
        var cells: [String] = []
        for cell in row {
          switch templates.fill(cell) {
          case .success(let text): cells.append(text)
          case .failure(let problem): return failed(problem)
          }
        }
        filled.append(cells)
      }
      let columns = filled.map(\.count).max() ?? 0
      var lines = TextLayout.table(filled, indent: "  ", rightAligned: Set(1..<max(1, columns)), separator: "   ")
      if !header.isEmpty, !lines.isEmpty { lines[0] = style(lines[0], .note) }
      return lines
    case .explain(let template):
      let expression = templates.substitute(template)
      switch lessonExplanation(expression) {
      case .failure(let problem): return failed(problem)
      case .success(let (value, steps)):
        // A blank line after it, as inside it: the explanation is a block of its own before the lesson goes on.
        return indented(
          explanation(
            expression, value: value, steps: steps, detail: .summary(depth: 1), showsDocumentation: false, indent: 2,
            briefNotes: true),
          by: 2) + [""]
      }
    case .chart(let template):
      let expression = templates.substitute(template)
      switch lessonExplanation(expression) {
      case .failure(let problem): return failed(problem)
      case .success(let (value, steps)):
        guard let breakdown = session.breakdown(explained: expression, value: value, steps: steps) else {
          return failed(LessonProblem(message: "\(expression) has no parts to chart"))
        }
        // Indented as the rest of the example when the chart still gets its narrowest width.
        let indent = width - 2 >= BreakdownBars.minimumWidth ? "  " : ""
        let bars = BreakdownBars(width: width - indent.count, color: configuration.color)
        return bars.render(lines: breakdown).map { indent + $0 }
      }
    case .brackets(let template):
      let expression = templates.substitute(template)
      guard case .success(let (_, steps)) = explainDetached(expression), let computation = firstBrackets(steps) else {
        return failed(LessonProblem(message: "\(expression) is not a bracket computation"))
      }
      var rows: [[String]] = [["bracket", "income in it", "rate", "tax"]]
      for portion in computation.portions {
        let range = ValueFormatter.money(portion.lower) + (portion.upper.map { " to " + ValueFormatter.money($0) } ?? " and up")
        rows.append([range, ValueFormatter.money(portion.portion), ValueFormatter.rate(portion.rate), ValueFormatter.exact(portion.tax)])
      }
      rows.append(["total", ValueFormatter.money(computation.amount), "", ValueFormatter.money(computation.total)])
      var lines = TextLayout.table(rows, indent: "  ", rightAligned: [1, 2, 3], separator: "   ")
      lines[0] = style(lines[0], .note)
      return lines
    }
  }

  func firstBrackets(_ steps: [ExplanationStep]) -> BracketComputation? {
    for step in steps {
      if case .brackets(let computation, _) = step.kind { return computation }
      if let found = firstBrackets(step.children) { return found }
    }
    return nil
  }

  /// A self-contained expression's value, for a lesson's templates.
  func lessonValue(_ expression: String) -> Result<Value, LessonProblem> {
    lessonExplanation(expression).map(\.0)
  }

  /// A self-contained expression's value and steps, for a lesson's blocks, or why it could not be computed.
  func lessonExplanation(_ expression: String) -> Result<(Value, [ExplanationStep]), LessonProblem> {
    explainDetached(expression).mapError { list in
      LessonProblem(message: list.diagnostics.first?.message ?? "\(expression) could not be computed")
    }
  }

  /// Text split into lines, each non-empty one indented.
  func indented(_ text: String, by columns: Int) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    let indent = String(repeating: " ", count: columns)
    return lines.map { $0.isEmpty ? "" : indent + $0 }
  }

  // MARK: Formula lessons

  /// Lines a lesson may take before the rest goes behind "more": one screen.
  static let lessonScreen = 40

  /// Definition → inputs → a worked example, summarised, with what it leaves out → tip → a line to try, on one
  /// screen; `formulaLessonMore` has the rest.
  func formulaLesson(_ formula: FormulaInfo) -> [String] {
    let documentation = formula.documentation
    let readable = ReadableText(program: session.program, year: session.year)
    var title = style("Lesson: \(formula.name)", .heading)
    if !documentation.summary.isEmpty { title += " — " + readable.prose(firstSentence(documentation.summary)) }
    var head = TextLayout.wrap(title, width: width)
    if !documentation.topic.isEmpty { head.append(style("Topic: " + documentation.topic.joined(separator: " / "), .note)) }

    var concept = [style("1. What it is", .heading)]
    // The summary is in the title already; the definition says what the idea is.
    let definition = documentation.definition.map(readable.prose) ?? "(This formula has no definition in its documentation.)"
    concept += TextLayout.wrap(definition, width: width, first: "  ")

    var inputs = [style("2. What goes in", .heading)]
    inputs += formula.parameters.isEmpty ? ["  Nothing: it has no inputs."] : lessonParameterLines(formula, readable: readable)

    let example = workedExample(formula)
    func exampleLines(depth: Int, briefNotes: Bool) -> [String] {
      var lines = [style("3. A worked example", .heading)]
      switch example {
      case .success(let (text, value, steps)):
        lines += indented(
          explanation(
            text, value: value, steps: steps, detail: .summary(depth: depth), showsDocumentation: false, indent: 2,
            briefNotes: briefNotes, summarisesShortTraces: true),
          by: 2)
      case .failure(let problem):
        lines.append("  " + style("No example could be worked out: \(problem.message)", .error))
      }
      return lines
    }

    var tip: [String] = []
    if let text = documentation.tip {
      tip = [style("4. Tip", .heading)] + TextLayout.wrap(readable.prose(text), width: width, first: "  ")
    }
    let ending = [
      style("Try it:", .heading) + " :ask \(formula.name) (it asks for each input)",
      style("More: :lesson \(formula.name) more", .note),
    ]

    // The whole lesson, then shorter forms of its longest parts until it fits the screen: no blank lines, the
    // optional inputs on one line (at once when there are many), the notes' first sentences (whole in `more`), the example's values one level less deep; what is still too long is cut.
    let optionalInputs = formula.parameters.filter { $0.defaultValue != nil }.count
    var compactInputs = optionalInputs > 2
    var blankLines = true
    var briefNotes = false
    var exampleDepth = 1
    while true {
      let gap = blankLines ? [""] : []
      var lines = head + gap + concept + gap + (compactInputs ? compactParameterLines(formula, readable: readable) : inputs)
      lines += gap + exampleLines(depth: exampleDepth, briefNotes: briefNotes)
      if !tip.isEmpty { lines += gap + tip }
      lines += gap + ending
      if lines.count <= Self.lessonScreen { return lines }
      if blankLines {
        blankLines = false
      } else if !compactInputs {
        compactInputs = true
      } else if !briefNotes {
        briefNotes = true
      } else if exampleDepth > 0 {
        exampleDepth = 0
      } else {
        let kept = Array(lines.prefix(Self.lessonScreen - ending.count - 1))
        return kept + [style("  … (the rest: :lesson \(formula.name) more)", .note)] + ending
      }
    }
  }

  /// What the inputs mean, every input in full, the references, and how to see every step.
  func formulaLessonMore(_ formula: FormulaInfo) -> [String] {
    let documentation = formula.documentation
    let readable = ReadableText(program: session.program, year: session.year)
    var lines = [style("Lesson: \(formula.name) (more)", .heading)]
    if !formula.parameters.isEmpty {
      lines.append(style("The inputs", .heading))
      lines += lessonParameterLines(formula, readable: readable)
      if let instruction = documentation.instruction {
        lines += TextLayout.wrap(readable.prose(instruction), width: width, first: "  ")
      }
    }
    if !documentation.notes.isEmpty {
      lines.append(style("What it leaves out", .heading))
      for note in documentation.notes { lines += TextLayout.wrap(readable.prose(note), width: width, first: "  ") }
    }
    if !documentation.references.isEmpty {
      lines.append(style("References", .heading))
      for reference in documentation.references { lines += TextLayout.wrap(reference, width: width, first: "  ") }
    }
    if case .success(let (text, _, _)) = workedExample(formula) {
      lines.append(style("Every step of the example:", .heading) + " :explain full " + text)
    }
    if !documentation.topic.isEmpty {
      lines.append(style("Its topic:", .heading) + " :lesson " + (documentation.topic.last ?? ""))
    }
    return lines
  }

  /// One line (or more, wrapped) per input: name, type, range, default in words, summary.
  func lessonParameterLines(_ formula: FormulaInfo, readable: ReadableText) -> [String] {
    let nameWidth = formula.parameters.map(\.name.count).max() ?? 0
    var lines: [String] = []
    for parameter in formula.parameters {
      var facts = [parameter.type.description]
      if let range = parameter.rangeText { facts.append("from " + range.replacingOccurrences(of: "..", with: " to ")) }
      if let defaultValue = parameter.defaultValue { facts.append("by default " + readable.describeDefault(defaultValue)) }
      var text = facts.joined(separator: ", ")
      let summary = parameter.documentation.summary
      if !summary.isEmpty { text += " — " + summary }
      let padded = parameter.name + String(repeating: " ", count: nameWidth - parameter.name.count + 2)
      lines += TextLayout.wrap(
        text, width: width, first: "  " + style(padded, .name), rest: "  " + String(repeating: " ", count: nameWidth + 2))
    }
    return lines
  }

  /// The inputs without a default in full; those with one named on a line.
  func compactParameterLines(_ formula: FormulaInfo, readable: ReadableText) -> [String] {
    var lines = [style("2. What goes in", .heading)]
    var required = formula
    required.parameters = formula.parameters.filter { $0.defaultValue == nil }
    lines += lessonParameterLines(required, readable: readable)
    let optional = formula.parameters.filter { $0.defaultValue != nil }.map(\.name)
    if !optional.isEmpty {
      lines += TextLayout.wrap(
        "Optional, with defaults: " + optional.joined(separator: ", ") + ".", width: width, first: "  ", rest: "    ")
    }
    return lines
  }

  /// The documentation's first example if it works; otherwise a call with each input's default, or a typical value
  /// of its type inside its range.
  func workedExample(_ formula: FormulaInfo) -> Result<(String, Value, [ExplanationStep]), AnswerProblem> {
    for example in formula.documentation.examples {
      let text = example.trimmed.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      if case .success(let (value, steps)) = explainDetached(text) { return .success((text, value, steps)) }
    }
    // With every amount at its default of $0 there is nothing to explain: the first amount gets a typical value.
    let amounts = formula.parameters.filter { $0.type == .money }
    let typical = amounts.allSatisfy { $0.defaultValue != nil } ? amounts.first?.name : nil
    var values: [Value] = []
    var arguments: [String] = []
    for parameter in formula.parameters {
      guard let value = exampleValue(for: parameter, earlier: values, typical: parameter.name == typical) else {
        return .failure(AnswerProblem(message: "there is no example value for \(parameter.name) (\(parameter.type))"))
      }
      // The call as people type it: the inputs without a default in order, the others only where the example
      // changes them (by name); whole amounts without cents (`$60,000`).
      let isDefault =
        parameter.defaultValue.flatMap { try? session.evaluate($0, locals: values).get() } == value
      if parameter.defaultValue == nil {
        arguments.append(REPL.exampleLiteral(value))
      } else if !isDefault {
        arguments.append(parameter.name + ": " + REPL.exampleLiteral(value))
      }
      values.append(value)
    }
    let call = formula.name + "(" + arguments.joined(separator: ", ") + ")"
    switch explainDetached(call) {
    case .success(let (value, steps)): return .success((call, value, steps))
    case .failure(let list):
      return .failure(AnswerProblem(message: list.diagnostics.first?.message ?? "it could not be computed"))
    }
  }

  /// A value as an example's source text: `$60,000` rather than `$60,000.00`.
  static func exampleLiteral(_ value: Value) -> String {
    var literal = REPL.literal(value)
    if case .money = value, literal.hasSuffix(".00") { literal.removeLast(3) }
    return literal
  }

  func exampleValue(for parameter: FormulaParameter, earlier: [Value], typical: Bool = false) -> Value? {
    if !typical, let defaultValue = parameter.defaultValue,
      case .success(let value) = session.evaluate(defaultValue, locals: earlier)
    {
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
      lines += formulaLesson(first)
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
    showSearchResults(results)
  }

  func showSearchResults(_ results: [SearchResult]) {
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
  /// counts most, then in the topic, then in the documentation. A word is found at the start of a word of theirs
  /// (`age` finds "age" and "aged", not "wage" or "average"; `bracket` finds "brackets"); one with a `_` or a `.` in
  /// it anywhere in the text (`income_tax`).
  func search(_ words: [String]) -> [SearchResult] {
    let program = session.program
    var results: [SearchResult] = []
    func found(_ word: String, in text: String) -> Bool {
      guard word.allSatisfy({ $0.isLetter || $0.isNumber }) else { return text.contains(word) }
      return text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains { $0.hasPrefix(word) }
    }
    func consider(name: String, summary: String, topic: [String], documentation: [String]) {
      let nameText = name.lowercased()
      let topicText = topic.joined(separator: " / ").lowercased()
      let documentationText = documentation.joined(separator: " ").lowercased()
      var score = 0
      for word in words {
        if found(word, in: nameText) {
          score += 3
        } else if found(word, in: topicText) {
          score += 2
        } else if found(word, in: documentationText) {
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

extension REPL {
  /// `:glossary` lists the terms; `:glossary WORD` says what one means and which lesson teaches it.
  func glossaryCommand(_ argument: String) {
    let word = argument.trimmed
    if word.isEmpty {
      var lines = [style("Glossary", .heading)]
      for term in Glossary.terms {
        lines += TextLayout.wrap(
          term.meaning + " (:lesson \(term.lesson))", width: width, first: "  " + style(term.term, .name) + " — ",
          rest: "    ")
      }
      say(lines.joined(separator: "\n"))
      return
    }
    guard let term = Glossary.term(named: word) else {
      var message = "'\(word)' is not in the glossary"
      let names = Glossary.terms.flatMap { [$0.term] + $0.aliases }
      if let suggestion = NameSuggestions.closest(to: word, among: names) { message += "; did you mean '\(suggestion)'?" }
      complain(message)
      note(":glossary lists the terms; :search \(word) looks through the formulas")
      return
    }
    var lines = [style(term.term, .name)]
    lines += TextLayout.wrap(term.meaning, width: width, first: "  ")
    let title = ConceptLesson.named(term.lesson)?.title ?? term.lesson
    lines.append("  " + style("Learn it:", .heading) + " :lesson \(term.lesson) (\(title))")
    say(lines.joined(separator: "\n"))
  }
}
