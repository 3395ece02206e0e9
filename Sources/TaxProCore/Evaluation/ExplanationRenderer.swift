/// Turns explanation steps into indented text a learner can read from top to bottom.
///
/// The evaluator records everything; this decides what a learner needs to see. In full (`taxpro explain --full`),
/// each formula call shows its inputs and a one-line summary, each `let` step its source and value, each bracket
/// computation a table of the brackets it reaches, each parameter the jurisdiction and year it came from (once per
/// formula call), and each condition which branch it took; arithmetic that changes nothing (adding or subtracting
/// zero) is left out. Summarised (the default of `taxpro explain` and `:explain`), only the steps that change the
/// result are shown, in words (`ExplanationSummary`). Either way the result comes last, with the marginal and average
/// rates of the bracket tables involved and the outermost formula's notes (what it leaves out), then its definition
/// and tip. Lines are fitted to `width` columns.
public struct ExplanationRenderer {
  /// How much of the evaluation to show.
  public enum Detail: Sendable, Equatable {
    /// Every step.
    case full
    /// The steps that change the result, with named values `depth` levels below the outermost.
    case summary(depth: Int)
  }

  public var program: Program
  public var style: (String, TextRole) -> String
  /// Sources for showing formula text; the program's, plus any input sources the caller adds.
  public var sources: [FileID: SourceFile]
  /// Longest source excerpt shown inline (`let x = …`); longer expressions are described by their steps alone.
  public var excerptLimit = 110
  public var detail = Detail.full
  /// Columns to fit lines to; nil leaves them as long as they are.
  public var width: Int? = nil
  /// The tax year, for the values named in prose; the latest with figures when nil.
  public var year: Int? = nil
  /// Whether the definition and tip come last (a lesson shows them in places of its own).
  public var showsDocumentation = true
  /// Where the whole trace is, said after a summary (`taxpro explain --full '…'`); front ends know how to ask.
  public var fullTraceHint: String? = nil
  /// How to chart the result's parts (`taxpro chart '…'`), said at the end when the front end found it has parts.
  public var chartHint: String? = nil
  /// Whether the notes beside the result are cut to their first sentence (a lesson that has little room).
  public var briefNotes = false
  /// A summary is for long traces: one of at most this many lines is shown whole, even when a summary is asked for
  /// (a bracket table, a formula with a step or two).
  public var wholeTraceLimit = 12

  public init(
    program: Program, sources: [FileID: SourceFile]? = nil,
    style: @escaping (String, TextRole) -> String = { text, _ in text }
  ) {
    self.program = program
    self.sources = sources ?? program.sources
    self.style = style
  }

  /// Names and prose in words, for the year of the figures.
  var readable: ReadableText { ReadableText(program: program, year: year ?? program.years.max() ?? 0) }

  /// The explanation of `expression` (its source text) that evaluated to `value` through `steps`.
  ///
  /// Source text, Text values and documentation show their control characters as escapes (`\u{1B}`), so a crafted
  /// file cannot drive the terminal that prints its explanation.
  public func render(expression: String, value: Value, steps: [ExplanationStep]) -> String {
    var output = Output()
    output.line(style(expression.escapingControlCharacters(), .emphasis) + " = " + style(formatted(value), .emphasis))
    let readable = self.readable
    var summarised = false
    var trace = Output()
    if !steps.isEmpty {
      var context = Context()
      context.isTopLevel = steps.count == 1
      render(steps, depth: 0, context: &context, into: &trace)
    }
    if case .summary(let depth) = detail, trace.lines.count > wholeTraceLimit, Self.isWorthSummarising(steps) {
      output.blank()
      renderSummary(summary(of: steps, value: value, depth: depth), readable: readable, into: &output)
      summarised = true
    } else if !steps.isEmpty {
      output.blank()
      output.lines += trace.lines
    }
    renderResult(value: value, steps: steps, summarised: summarised, readable: readable, into: &output)
    if showsDocumentation { renderDocumentation(steps, readable: readable, into: &output) }
    if let chartHint {
      output.blank()
      output.line(style("Its parts as a chart: " + chartHint, .note))
    }
    if summarised, let fullTraceHint {
      output.blank()
      output.line(style("The whole trace: " + fullTraceHint, .note))
    }
    return output.text(width: width)
  }

  /// A summary says more than the trace only when there are formulas or `let` steps to summarise: a bracket table
  /// or a line of arithmetic is shown whole.
  static func isWorthSummarising(_ steps: [ExplanationStep]) -> Bool {
    steps.contains { step in
      switch step.kind {
      case .formula, .binding: true
      default: isWorthSummarising(step.children)
      }
    }
  }

  // MARK: Steps

  /// What the renderer remembers while walking one formula call's steps.
  struct Context {
    /// Parameters already shown in this formula call (`ON.credit_rate`), so that repeated reads are not repeated.
    var shownParameters: Set<String> = []
    /// Whether these are the expression's own steps: a lone bracket computation there has its rates in the result.
    var isTopLevel = false
  }

  /// Collects lines with their depth, and fits them to the width at the end.
  struct Output {
    var lines: [(depth: Int, text: String, isTable: Bool)] = []
    mutating func line(_ text: String, depth: Int = 0, isTable: Bool = false) {
      lines.append((depth, text, isTable))
    }
    mutating func blank() {
      if let last = lines.last, !last.text.isEmpty { lines.append((0, "", false)) }
    }

    /// Two columns a level, but never more than a third of the width, so that a deep trace keeps room for its text;
    /// each line wrapped at spaces under its own indentation.
    func text(width: Int?) -> String {
      var result: [String] = []
      for line in lines {
        let indent = String(repeating: " ", count: Output.indentation(line.depth, width: width))
        let text = line.text.isEmpty ? "" : indent + line.text
        guard let width, !line.isTable, TextLayout.width(text) > width else {
          result.append(text)
          continue
        }
        result += TextLayout.wrap(line.text, width: width, first: indent, rest: indent + "    ")
      }
      return result.joined(separator: "\n") + "\n"
    }

    static func indentation(_ depth: Int, width: Int?) -> Int {
      guard let width else { return 2 * depth }
      return min(2 * depth, max(8, width / 3))
    }
  }

  func render(_ steps: [ExplanationStep], depth: Int, context: inout Context, into output: inout Output) {
    for item in groupDefaults(steps) {
      if item.defaults.isEmpty {
        render(item.step, depth: depth, context: &context, into: &output)
      } else {
        renderFormula(item.step, prefix: "", defaults: item.defaults, depth: depth, into: &output)
      }
    }
  }

  /// Pairs each formula call with the steps that worked out its default arguments. The evaluator records those just
  /// before the call, at the caller's level; they are recognisable by lying inside the called formula's declaration.
  func groupDefaults(_ steps: [ExplanationStep]) -> [(step: ExplanationStep, defaults: [ExplanationStep])] {
    var items: [(step: ExplanationStep, defaults: [ExplanationStep])] = []
    for step in steps {
      var defaults: [ExplanationStep] = []
      if case .formula(let name, _) = step.kind, let formula = program.formula(named: name) {
        while let last = items.last, last.defaults.isEmpty, Self.span(last.step.span, isInside: formula.span) {
          defaults.insert(last.step, at: 0)
          items.removeLast()
        }
      }
      items.append((step, defaults))
    }
    return items
  }

  static func span(_ inner: Span, isInside outer: Span) -> Bool {
    inner.file == outer.file && inner.start >= outer.start && inner.end <= outer.end
  }

  func render(_ step: ExplanationStep, depth: Int, context: inout Context, into output: inout Output) {
    let value = formatted(step.value)
    switch step.kind {
    case .formula:
      renderFormula(step, prefix: "", defaults: [], depth: depth, into: &output)
    case .binding(let name):
      renderBinding(step, name: name, depth: depth, context: &context, into: &output)
    case .parameter(let jurisdiction, let year, let name):
      let key = jurisdiction + "." + name
      if context.shownParameters.contains(key) { return }
      context.shownParameters.insert(key)
      output.line(parameterLine(jurisdiction: jurisdiction, year: year, name: name, value: step.value), depth: depth)
    case .constant(let name):
      render(step.children, depth: depth, context: &context, into: &output)
      output.line("\(name) = \(value)", depth: depth)
    case .brackets(let computation, let builtin):
      // The table's own parameter read is named in the table's heading; the amount's steps come first.
      let amountSteps = step.children.filter { child in
        if case .parameter = child.kind, case .brackets = child.value { return false }
        return true
      }
      render(amountSteps, depth: depth, context: &context, into: &output)
      renderBrackets(computation, builtin: builtin, showRates: !context.isTopLevel, depth: depth, into: &output)
    case .builtin(let builtin, let arguments):
      render(step.children, depth: depth, context: &context, into: &output)
      let list = arguments.map { ValueFormatter.format($0) }.joined(separator: ", ")
      output.line("\(builtin.name)(\(list)) = \(value)", depth: depth)
    case .arithmetic(let operation, let left, let right):
      render(step.children, depth: depth, context: &context, into: &output)
      if isIdentity(operation, left, right) { return }
      output.line(describe(operation, left, right) + " = " + value, depth: depth)
    case .comparison(let op, let left, let right):
      render(step.children, depth: depth, context: &context, into: &output)
      output.line(
        "\(formatted(left)) \(op.rawValue) \(formatted(right)) is \(value)", depth: depth)
    case .condition(let taken):
      renderCondition(step, taken: taken, depth: depth, context: &context, into: &output)
    case .check:
      render(step.children, depth: depth, context: &context, into: &output)
    }
  }

  /// `name(a = $1.00, b = ON) = $2.00`, its summary, how its default arguments were worked out, then its body with a
  /// fresh set of shown parameters.
  func renderFormula(
    _ step: ExplanationStep, prefix: String, defaults: [ExplanationStep], depth: Int, into output: inout Output
  ) {
    guard case .formula(let name, let arguments) = step.kind else { return }
    let list = arguments.map { "\($0.name) = \(formatted($0.value))" }.joined(separator: ", ")
    output.line(
      prefix + style(name, .emphasis) + "(\(list)) = " + style(formatted(step.value), .emphasis),
      depth: depth)
    let formula = program.formula(named: name)
    if let summary = formula?.documentation.summary, !summary.isEmpty {
      output.line(style(firstSentence(summary), .note), depth: depth + 1)
    }
    var context = Context()
    if let formula, !defaults.isEmpty {
      for parameter in formula.parameters {
        guard let defaultValue = parameter.defaultValue else { continue }
        let own = defaults.filter { Self.span($0.span, isInside: defaultValue.span) }
        guard !own.isEmpty else { continue }
        let value = arguments.first { $0.name == parameter.name }.map { formatted($0.value) } ?? "?"
        let source = excerpt(defaultValue.span).map { $0 + " = " } ?? ""
        output.line("default " + style(parameter.name, .emphasis) + " = " + source + value, depth: depth + 1)
        render(own, depth: depth + 2, context: &context, into: &output)
      }
    }
    // The body: its `let` steps, then the steps of the result expression.
    let bindingCount = step.children.prefix { if case .binding = $0.kind { true } else { false } }.count
    render(Array(step.children.prefix(bindingCount)), depth: depth + 1, context: &context, into: &output)
    let resultSteps = Array(step.children.dropFirst(bindingCount))
    guard !resultSteps.isEmpty else { return }
    if let body = program.body(ofFormulaNamed: name), let excerpt = excerpt(body.result.span),
      bindingCount > 0 || resultSteps.count > 1
    {
      output.line("result: " + excerpt, depth: depth + 1)
      render(resultSteps, depth: depth + 2, context: &context, into: &output)
    } else {
      render(resultSteps, depth: depth + 1, context: &context, into: &output)
    }
  }

  /// `let name = source = value`, then how the value was worked out. A `let` that is just a formula call shares its line
  /// with the call.
  func renderBinding(
    _ step: ExplanationStep, name: String, depth: Int, context: inout Context, into output: inout Output
  ) {
    let value = formatted(step.value)
    let items = groupDefaults(step.children)
    if items.count == 1, let only = items.first, case .formula = only.step.kind {
      renderFormula(
        only.step, prefix: "let " + style(name, .emphasis) + " = ", defaults: only.defaults, depth: depth, into: &output)
      return
    }
    var heading = "let " + style(name, .emphasis) + " = "
    if let source = letSource(step.span), source != value, !step.children.isEmpty {
      heading += source + " = "
    }
    output.line(heading + style(value, .emphasis), depth: depth)
    render(step.children, depth: depth + 1, context: &context, into: &output)
  }

  /// The condition's own steps, a line saying which branch it took, then that branch's steps. An `else if` chain stays
  /// at one depth instead of stepping further right at every `else`.
  func renderCondition(
    _ step: ExplanationStep, taken: Bool, depth: Int, context: inout Context, into output: inout Output
  ) {
    let (conditionSteps, branchSteps, conditionText) = splitCondition(step)
    var shown = conditionSteps
    var verdict = "the condition is \(taken)"
    if let last = shown.last, case .comparison(let op, let left, let right) = last.kind, last.children.isEmpty {
      shown.removeLast()
      verdict = "\(formatted(left)) \(op.rawValue) \(formatted(right)) is \(taken)"
    }
    render(shown, depth: depth, context: &context, into: &output)
    var line = "if " + (conditionText.map { $0 + ": " } ?? "") + verdict + ", so the "
      + (taken ? "'then'" : "'else'") + " branch applies"
    if branchSteps.isEmpty { line += ": " + formatted(step.value) }
    output.line(line, depth: depth)
    if branchSteps.count == 1, let only = branchSteps.first, case .condition = only.kind {
      render(only, depth: depth, context: &context, into: &output)
    } else {
      render(branchSteps, depth: depth + 1, context: &context, into: &output)
    }
  }

  /// Adding or subtracting nothing, or multiplying by nothing right after a step that showed the zero, says nothing
  /// to a learner.
  func isIdentity(_ operation: ArithmeticOperation, _ left: Value, _ right: Value) -> Bool {
    switch operation {
    case .add, .subtract, .addPercentage, .subtractPercentage:
      if right.decimal?.isZero == true { return true }
      return operation == .add && left.decimal?.isZero == true
    case .multiply:
      return left.decimal?.isZero == true || right.decimal?.isZero == true
    case .divide, .power, .modulo:
      return false
    }
  }

  func describe(_ operation: ArithmeticOperation, _ left: Value, _ right: Value) -> String {
    let a = formatted(left)
    let b = formatted(right)
    switch operation {
    case .addPercentage: return "\(a) + \(b) of \(a)"
    case .subtractPercentage: return "\(a) - \(b) of \(a)"
    default: return "\(a) \(operation.symbol) \(b)"
    }
  }

  /// `ON.credit_rate = 5.05%  (Ontario, 2025)`.
  func parameterLine(jurisdiction: String, year: Int, name: String, value: Value) -> String {
    let owner = jurisdiction
    if case .brackets(let table) = value {
      return "\(owner).\(name): the \(fullName(jurisdiction)) bracket table for \(year) (\(table.rows.count) brackets)"
    }
    return "\(owner).\(name) = \(formatted(value))  (\(fullName(jurisdiction)), \(year))"
  }

  func fullName(_ code: String) -> String {
    (program.jurisdictions[code]?.fullName ?? code).escapingControlCharacters()
  }

  /// A value as printed, its control characters (a Text value's) shown as escapes.
  func formatted(_ value: Value) -> String {
    ValueFormatter.format(value).escapingControlCharacters()
  }

  // MARK: Brackets

  /// A table of the brackets the amount reaches: range, the part of the amount in it, rate, exact tax; then the total,
  /// its rounding, the next bracket up, and the marginal and average rates.
  func renderBrackets(
    _ computation: BracketComputation, builtin: Builtin, showRates: Bool, depth: Int, into output: inout Output
  ) {
    let amount = ValueFormatter.money(computation.amount)
    output.line("Tax on \(amount)\(tableName(computation.table).map { " under " + $0 } ?? ""), bracket by bracket:", depth: depth)
    if computation.portions.isEmpty {
      output.line("no bracket reaches \(amount): no tax", depth: depth + 1)
    } else {
      var rows: [[String]] = [["bracket", "income in it", "rate", "tax"]]
      for portion in computation.portions {
        let range = ValueFormatter.money(portion.lower) + (portion.upper.map { " to " + ValueFormatter.money($0) } ?? " and up")
        rows.append([
          range, ValueFormatter.money(portion.portion), ValueFormatter.rate(portion.rate), ValueFormatter.exact(portion.tax),
        ])
      }
      rows.append(["total", amount, "", ValueFormatter.exact(computation.exactTotal)])
      let lines = table(rows, rightAligned: [1, 2, 3])
      if let width, TextLayout.widest(lines) + Output.indentation(depth + 1, width: width) > width {
        // Too narrow for the table: a sentence a bracket, which wraps.
        for row in rows.dropFirst().dropLast() {
          output.line("\(row[0]): \(row[1]) at \(row[2]) = \(row[3])", depth: depth + 1)
        }
        output.line("total: \(amount), tax \(ValueFormatter.exact(computation.exactTotal))", depth: depth + 1)
      } else {
        for line in lines { output.line(line, depth: depth + 1, isTable: true) }
      }
      if computation.exactTotal != computation.total {
        output.line("rounded to the cent: " + ValueFormatter.money(computation.total), depth: depth + 1)
      }
    }
    if let next = computation.table.rows.first(where: { $0.threshold > computation.amount }),
      computation.amount > .zero
    {
      output.line(
        "The next bracket, at \(ValueFormatter.rate(next.rate)), starts at \(ValueFormatter.money(next.threshold)).",
        depth: depth + 1)
    }
    if showRates {
      output.line(
        "marginal rate \(ValueFormatter.rate(computation.marginalRate)), average rate \(ValueFormatter.rate(computation.averageRate))",
        depth: depth + 1)
    }
    if builtin != .tax {
      let rate = builtin == .marginalRate ? computation.marginalRate : computation.averageRate
      output.line("\(builtin.name) = \(ValueFormatter.rate(rate))", depth: depth + 1)
    }
  }

  /// `ON.income_tax (Ontario, 2025)` from the table's origin `ON.income_tax (2025)`.
  func tableName(_ table: BracketTable) -> String? {
    guard let origin = table.origin else { return nil }
    guard let (code, name, year) = Self.parseOrigin(origin) else { return origin }
    return "\(code).\(name) (\(fullName(code)), \(year))"
  }

  /// Splits `ON.income_tax (2025)` into its jurisdiction code, parameter name and year.
  public static func parseOrigin(_ origin: String) -> (code: String, name: String, year: Int)? {
    let parts = origin.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, let dot = parts[0].firstIndex(of: ".") else { return nil }
    let yearText = parts[1].filter { $0.isNumber }
    guard let year = Int(yearText) else { return nil }
    return (String(parts[0][..<dot]), String(parts[0][parts[0].index(after: dot)...]), year)
  }

  /// Lines of a table whose columns line up; `rightAligned` columns are padded on the left (amounts and rates).
  func table(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
    TextLayout.table(rows, rightAligned: rightAligned, separator: "   ")
  }

  // MARK: Result and documentation

  /// The result again, at the end where a learner's reading stops, with the rates of the bracket tables it used.
  func renderResult(
    value: Value, steps: [ExplanationStep], summarised: Bool, readable: ReadableText, into output: inout Output
  ) {
    output.blank()
    output.line(style("Result:", .emphasis) + " " + style(formatted(value), .emphasis))
    // What the number leaves out, next to it.
    for note in notes(for: steps) {
      let text = readable.prose(briefNotes ? firstSentence(note) : note).escapingControlCharacters()
      output.line(style("Note:", .note) + " " + text, depth: 1)
    }
    if summarised { return }
    if steps.count == 1, case .brackets(let computation, _) = steps[0].kind {
      output.line("marginal rate \(ValueFormatter.rate(computation.marginalRate)): the rate on the next dollar", depth: 1)
      let average = ValueFormatter.rate(computation.averageRate)
      output.line(
        computation.amount > .zero
          ? "average rate \(average): \(ValueFormatter.money(computation.total)) ÷ \(ValueFormatter.money(computation.amount))"
          : "average rate \(average): there is no income to average over",
        depth: 1)
      return
    }
    var seen: Set<String> = []
    var lines: [String] = []
    collectBrackets(steps) { computation in
      let name = tableName(computation.table) ?? "a bracket table"
      let key = name + " " + computation.amount.description
      guard seen.insert(key).inserted else { return }
      lines.append(
        "\(name) on \(ValueFormatter.money(computation.amount)): marginal rate \(ValueFormatter.rate(computation.marginalRate)), average rate \(ValueFormatter.rate(computation.averageRate))"
      )
    }
    guard !lines.isEmpty else { return }
    output.line("Bracket rates at the amounts taxed:", depth: 1)
    for line in lines.prefix(8) { output.line(line, depth: 2) }
    if lines.count > 8 { output.line("… and \(lines.count - 8) more", depth: 2) }
  }

  func collectBrackets(_ steps: [ExplanationStep], _ visit: (BracketComputation) -> Void) {
    for step in steps {
      if case .brackets(let computation, _) = step.kind { visit(computation) }
      collectBrackets(step.children, visit)
    }
  }

  /// The notes (what it leaves out, what is estimated) of the outermost formula, when the expression is one call.
  public func notes(for steps: [ExplanationStep]) -> [String] {
    let items = groupDefaults(steps)
    guard items.count == 1, case .formula(let name, _) = items[0].step.kind, let formula = program.formula(named: name)
    else { return [] }
    return formula.documentation.notes.filter { !$0.isEmpty }
  }

  /// The concept behind the outermost formula (or the bracket table taxed directly), for learners.
  func renderDocumentation(_ steps: [ExplanationStep], readable: ReadableText, into output: inout Output) {
    guard let documentation = outermostDocumentation(steps) else { return }
    var lines: [String] = []
    if let definition = documentation.definition, !definition.isEmpty {
      lines.append(style("Definition:", .note) + " " + readable.prose(definition).escapingControlCharacters())
    }
    if let tip = documentation.tip, !tip.isEmpty {
      lines.append(style("Tip:", .help) + " " + readable.prose(tip).escapingControlCharacters())
    }
    guard !lines.isEmpty else { return }
    output.blank()
    for line in lines { output.line(line) }
  }

  func outermostDocumentation(_ steps: [ExplanationStep]) -> Documentation? {
    if let name = outermostFormula(steps), let formula = program.formula(named: name) {
      return formula.documentation
    }
    // `tax(ON.income_tax, …)` on its own: the interface member's documentation explains brackets.
    for step in steps {
      if case .brackets(let computation, _) = step.kind, let origin = computation.table.origin,
        let (code, name, _) = Self.parseOrigin(origin), let jurisdiction = program.jurisdictions[code]
      {
        return program.interface(for: jurisdiction.kind)?.member(name)?.documentation
      }
    }
    return nil
  }

  /// The first formula called at the top level; a call's default arguments (recorded before it) do not count.
  func outermostFormula(_ steps: [ExplanationStep]) -> String? {
    for item in groupDefaults(steps) {
      if case .formula(let name, _) = item.step.kind { return name }
    }
    return nil
  }

  // MARK: Source text, shared with other front ends (`taxpro explain --json`)

  /// The source of the `let` that `step` (a `.binding`) records, on one line, however long.
  public func letExpression(of step: ExplanationStep) -> String? {
    guard case .binding = step.kind else { return nil }
    var unlimited = self
    unlimited.excerptLimit = Int.max
    return unlimited.letSource(step.span)
  }

  /// The condition's source text of a `.condition` step (`province == QC`).
  public func conditionText(of step: ExplanationStep) -> String? {
    guard case .condition = step.kind else { return nil }
    var unlimited = self
    unlimited.excerptLimit = Int.max
    return unlimited.splitCondition(step).text
  }

  /// The documentation a learner should read with these steps: the outermost formula's, or for a bracket table taxed
  /// directly, its interface member's.
  public func documentation(for steps: [ExplanationStep]) -> (name: String, documentation: Documentation)? {
    if let name = outermostFormula(steps), let formula = program.formula(named: name) {
      return (name, formula.documentation)
    }
    guard let documentation = outermostDocumentation(steps) else { return nil }
    for step in steps {
      if case .brackets(let computation, _) = step.kind, let origin = computation.table.origin,
        let (_, name, _) = Self.parseOrigin(origin)
      {
        return (name, documentation)
      }
    }
    return nil
  }

  /// `FILE`, line and column of a step, for tools that link back to the source.
  public func location(of span: Span) -> (file: String, line: Int, column: Int)? {
    guard let source = sources[span.file] else { return nil }
    let position = source.lineColumn(of: span.start)
    return (source.name, position.line, position.column)
  }

  /// The source of a `let` whose name is at `span`, on one line, when it is short enough to read inline.
  func letSource(_ span: Span) -> String? {
    if let step = program.letStep(namedAt: span) { return excerpt(step.value.span) }
    for test in program.tests where test.span.file == span.file {
      for case .binding(let step) in test.steps where step.nameSpan == span { return excerpt(step.value.span) }
    }
    return nil
  }

  /// The source text at `span` with its whitespace collapsed, or nil when it is unavailable or too long.
  func excerpt(_ span: Span) -> String? {
    guard let text = sourceText(span) else { return nil }
    let flat = flatten(text)
    return flat.count <= excerptLimit ? flat : nil
  }

  func sourceText(_ span: Span) -> String? {
    guard let source = sources[span.file], span.start >= 0, span.end <= source.bytes.count, span.start < span.end
    else { return nil }
    return String(decoding: source.bytes[span.start..<span.end], as: UTF8.self)
  }

  /// Separates a condition's steps into those of its condition and those of the branch it took, by where each step's
  /// source lies relative to `then`; also returns the condition's source text.
  func splitCondition(_ step: ExplanationStep) -> (condition: [ExplanationStep], branch: [ExplanationStep], text: String?) {
    guard let source = sources[step.span.file], let then = thenOffset(in: source, span: step.span) else {
      // Without the source: the condition ends with its first comparison.
      let end = step.children.firstIndex { if case .comparison = $0.kind { true } else { false } }
      let split = end.map { $0 + 1 } ?? 0
      return (Array(step.children.prefix(split)), Array(step.children.dropFirst(split)), nil)
    }
    // Steps recorded in another file (defaults of a call) belong with the next step of this file.
    var inCondition = [Bool](repeating: false, count: step.children.count)
    var next = false
    for index in step.children.indices.reversed() {
      let child = step.children[index]
      if child.span.file == step.span.file { next = child.span.start < then.offset }
      inCondition[index] = next
    }
    let condition = step.children.indices.filter { inCondition[$0] }.map { step.children[$0] }
    let branch = step.children.indices.filter { !inCondition[$0] }.map { step.children[$0] }
    let text = then.conditionStart < then.offset
      ? excerpt(Span(file: step.span.file, start: then.conditionStart, end: then.offset)) : nil
    return (condition, branch, text)
  }

  /// The byte offset of the `then` that belongs to the `if` at the start of `span`, skipping nested `if`s, brackets,
  /// strings and comments; and where the condition starts (just after `if`).
  func thenOffset(in source: SourceFile, span: Span) -> (offset: Int, conditionStart: Int)? {
    let bytes = source.bytes
    guard span.start >= 0, span.end <= bytes.count else { return nil }
    var index = span.start
    var depth = 0
    var baseDepth = 0  // the span may start inside parentheses: `(if a then b else c)`
    var pendingIfs = -1  // the first `if` is the conditional's own
    var conditionStart = span.start
    func isWordByte(_ byte: UInt8) -> Bool {
      (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
    }
    while index < span.end {
      let byte = bytes[index]
      switch byte {
      case 35:  // `#` comment
        while index < span.end && bytes[index] != 10 && bytes[index] != 13 { index += 1 }
        continue
      case 34:  // string literal
        index += 1
        while index < span.end && bytes[index] != 34 {
          if bytes[index] == 92 { index += 1 }
          index += 1
        }
        index += 1
        continue
      case 40, 91, 123: depth += 1
      case 41, 93, 125: depth -= 1
      default:
        if isWordByte(byte) {
          let start = index
          while index < span.end && isWordByte(bytes[index]) { index += 1 }
          let word = String(decoding: bytes[start..<index], as: UTF8.self)
          if pendingIfs < 0 {
            if word == "if" {
              pendingIfs = 0
              baseDepth = depth
              conditionStart = index
            }
            continue
          }
          guard depth == baseDepth else { continue }
          if word == "if" {
            pendingIfs += 1
          } else if word == "then" {
            if pendingIfs == 0 { return (start, conditionStart) }
            pendingIfs -= 1
          }
          continue
        }
      }
      index += 1
    }
    return nil
  }

  // MARK: Text

  /// The summary's first sentence: up to the first full stop followed by a space or the end.
  func firstSentence(_ text: String) -> String {
    let flat = flatten(text)
    for index in flat.indices where flat[index] == "." {
      let after = flat.index(after: index)
      if after == flat.endIndex || flat[after] == " " { return String(flat[...index]) }
    }
    return flat
  }

  /// Joins lines and collapses runs of spaces.
  func flatten(_ text: String) -> String {
    flattenedSpaces(text).escapingControlCharacters()
  }

  func flattenedSpaces(_ text: String) -> String {
    var result = ""
    var lastWasSpace = false
    for character in text {
      let isSpace = character == " " || character == "\n" || character == "\t" || character == "\r"
      if isSpace {
        if !lastWasSpace && !result.isEmpty { result.append(" ") }
        lastWasSpace = true
      } else {
        result.append(character)
        lastWasSpace = false
      }
    }
    return trimTrailingSpaces(result)
  }

  func trimTrailingSpaces(_ text: String) -> String {
    var result = text
    while result.last == " " { result.removeLast() }
    return result
  }
}

extension ValueFormatter {
  /// An exact amount of money with as many decimals as it has (at least two): `$2,670.743`.
  public static func exact(_ amount: ExactDecimal) -> String {
    let trimmed = amount.trimmed
    let (_, exponent) = trimmed.digitsAndExponent
    let decimals = max(2, -exponent)
    let plain = fixed(trimmed.absoluteValue, decimals: decimals)
    let parts = plain.split(separator: ".", maxSplits: 1)
    let integer = groupThousands(String(parts[0]))
    let fraction = parts.count > 1 ? "." + String(parts[1]) : ""
    return (amount.isNegative ? "-$" : "$") + integer + fraction
  }
}
