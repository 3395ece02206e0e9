/// One part of a whole amount, as a chart shows it.
public struct BreakdownPart: Sendable, Equatable {
  /// In the documentation's words: a `let` step's `##` comment, a formula's title, a quoted label; a name in words
  /// (`income_tax` → "Income tax") only when nothing is written.
  public var label: String
  /// Exact, whole cents.
  public var amount: ExactDecimal
  /// `amount / whole`, exact to 34 digits; charts turn it into angles and lengths, never into money.
  public var share: ExactDecimal
  /// The top of the part's budget line (`in $0..$800`), when it has one.
  public var limit: ExactDecimal?
  /// Where the part comes from: a `let` step's name, a named amount's label.
  public var span: Span

  /// The share as a percentage with one decimal: `4.7%`.
  public var shareText: String { Breakdown.percent(share) }
  /// How much the part is above its budget line, if it is.
  public var overBudget: ExactDecimal? {
    guard let limit, limit < amount, let over = try? amount - limit else { return nil }
    return over
  }
}

/// A result taken apart into Money parts that add up to a whole: what `taxpro chart` and `:chart` draw.
///
/// The parts come from the language: the `let` steps of the formula called (recorded by the explanation machinery) or
/// a list of named amounts. Nothing here is floating point; front ends use `Double` only for pixel geometry.
public struct Breakdown: Sendable {
  /// The expression as typed.
  public var expression: String
  public var year: Int
  /// What the parts add up to, and its label (the input they split, or the formula's title).
  public var whole: ExactDecimal
  public var wholeLabel: String
  /// Largest first; parts of $0.00 are left out.
  public var parts: [BreakdownPart]

  /// Whether any part has a budget line (then charts mark the limits).
  public var hasBudget: Bool { parts.contains { $0.limit != nil } }

  /// The sum of the budget lines, when every part has one.
  public var budget: ExactDecimal? {
    var total = ExactDecimal.zero
    for part in parts {
      guard let limit = part.limit, let sum = try? total + limit else { return nil }
      total = sum
    }
    return hasBudget ? total : nil
  }

  /// `take_home_pay($85,000, ON), 2026`.
  public var title: String { "\(expression), \(year)" }

  /// A fraction as a percentage with one decimal, `0.04746` → `4.7%`.
  public static func percent(_ fraction: ExactDecimal) -> String {
    let scaled = (try? fraction.scaled(byPowerOfTen: 2)) ?? fraction
    return ValueFormatter.fixed(scaled.rounded(places: 1, .halfAwayFromZero), decimals: 1) + "%"
  }

  /// The words of a `##` comment, or of a summary, as a label: the part before `: ` when there is one (`Take-home
  /// pay: a year's salary …` → `Take-home pay`), else the first sentence when it is short, without its full stop.
  static func title(fromSummary summary: String) -> String? {
    let text = Array(summary.split(separator: "\n").joined(separator: " "))
    func before(_ mark: Character) -> String? {
      guard let index = text.indices.first(where: { text[$0] == mark && $0 + 1 < text.count && text[$0 + 1] == " " })
      else { return nil }
      return String(text[..<index])
    }
    if let head = before(":"), !head.isEmpty, head.count <= 40 { return head }
    var sentence = before(".") ?? String(text)
    if sentence.hasSuffix(".") { sentence.removeLast() }
    return sentence.isEmpty || sentence.count > 40 ? nil : sentence
  }

  /// The names of a `parts:` line, `WHOLE = PART + PART + …` (spaces and line breaks anywhere between them), or nil
  /// when it does not read so: one name, `=`, and one or more distinct names joined by `+`.
  static func identityNames(_ identity: String) -> (whole: String, parts: [String])? {
    let sides = identity.split(separator: "=", omittingEmptySubsequences: false)
    guard sides.count == 2 else { return nil }
    func name(_ text: Substring) -> String? {
      let trimmed = text.split(whereSeparator: \.isWhitespace)
      guard trimmed.count == 1, let word = trimmed.first, let first = word.first, first == "_" || first.isLetter,
        word.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
      else { return nil }
      return String(word)
    }
    guard let whole = name(sides[0]) else { return nil }
    var parts: [String] = []
    for text in sides[1].split(separator: "+", omittingEmptySubsequences: false) {
      guard let part = name(text), part != whole, !parts.contains(part) else { return nil }
      parts.append(part)
    }
    return parts.isEmpty ? nil : (whole, parts)
  }

  /// `income_tax` → `Income tax`: the fallback when a step has no words of its own.
  static func words(_ name: String) -> String {
    let spaced = name.split(separator: "_").joined(separator: " ")
    guard let first = spaced.first else { return name }
    return first.uppercased() + spaced.dropFirst()
  }
}

extension Session {
  /// Takes a result apart for a chart. `text` is one formula call (its Money `let` steps are the parts) or a list of
  /// named amounts (`rent: $2,000, food: $600 in $0..$800`). The parts must add up — to the result, or with the
  /// result as the remainder, to one of the formula's Money inputs — and be Money and not negative; otherwise
  /// `chart-parts` or `chart-type` diagnostics with spans say why.
  public func breakdown(_ text: String, name: String = "<input>") -> Result<Breakdown, DiagnosticList> {
    if Parser.startsNamedAmounts(SourceFile(id: FileID(-1), name: name, text: text)) {
      return namedAmounts(makeSource(text, name: name), text: text)
    }
    let typed: TypedExpression
    switch checkExpression(text, name: name) {
    case .failure(let list): return .failure(list)
    case .success(let checked): typed = checked
    }
    guard typed.type == .money else {
      return .failure(DiagnosticList([.error(.chartNotMoney("the result", typed.type), at: typed.span)]))
    }
    let evaluator = self.evaluator
    evaluator.isCancelled = isCancelled
    let value: Value
    let steps: [ExplanationStep]
    do {
      (value, steps) = try evaluator.explain(typed)
    } catch {
      return .failure(DiagnosticList([error.diagnostic]))
    }
    guard case .money(let result) = value, let call = steps.last, call.span == typed.span,
      case .formula(let formulaName, let arguments) = call.kind, let formula = program.formula(named: formulaName)
    else {
      return .failure(
        DiagnosticList([
          .error(
            .chartNeedsParts, at: typed.span,
            notes: [
              DiagnosticNote(
                .help, "chart a formula call, such as take_home_pay($85,000, ON), whose Money let steps are the parts"),
              DiagnosticNote(.help, "or name the amounts: rent: $2,000, food: $600, transit: $156"),
            ])
        ]))
    }
    return formulaBreakdown(
      expression: text, formula: formula, arguments: arguments, result: result, steps: call.children,
      span: typed.span)
  }

  /// The breakdown of a result already explained (`taxpro explain`, `:explain`), or nil when it has no parts: so
  /// that an explanation can say a chart would show them without evaluating again.
  public func breakdown(explained text: String, value: Value, steps: [ExplanationStep]) -> Breakdown? {
    guard case .money(let result) = value, let call = steps.last, case .formula(let name, let arguments) = call.kind,
      let formula = program.formula(named: name)
    else { return nil }
    let found = formulaBreakdown(
      expression: text, formula: formula, arguments: arguments, result: result, steps: call.children, span: call.span)
    if case .success(let breakdown) = found, breakdown.parts.count > 1 { return breakdown }
    return nil
  }

  func formulaBreakdown(
    expression: String, formula: FormulaInfo, arguments: [NamedValue], result: ExactDecimal,
    steps: [ExplanationStep], span: Span
  ) -> Result<Breakdown, DiagnosticList> {
    if let identity = formula.documentation.parts {
      return declaredBreakdown(
        identity, expression: expression, formula: formula, arguments: arguments, steps: steps, span: span)
    }
    var parts: [(label: String, amount: ExactDecimal, span: Span)] = []
    for step in steps {
      guard case .binding(let name) = step.kind, case .money(let amount) = step.value else { continue }
      parts.append((letLabel(name, at: step.span), amount, step.span))
    }
    let formulaTitle =
      Breakdown.title(fromSummary: formula.documentation.summary) ?? Breakdown.words(formula.name)
    guard !parts.isEmpty else {
      return .failure(
        DiagnosticList([
          .error(
            .noPartsIn(formula.name), at: span,
            notes: [DiagnosticNote(.note, "\(formula.name) is defined here", span: formula.nameSpan)])
        ]))
    }
    let sum = parts.reduce(ExactDecimal.zero) { total, part in (try? total + part.amount) ?? total }
    var whole = result
    var wholeLabel = formulaTitle
    if sum != result {
      // The result is what is left of an input once the parts are taken out (take-home pay of a salary).
      let withResult = (try? sum + result) ?? sum
      let input = zip(formula.parameters, arguments).first { parameter, argument in
        if case .money(let amount) = argument.value { return amount == withResult && !amount.isZero }
        return false
      }
      guard let (parameter, _) = input else {
        return .failure(
          DiagnosticList([
            .error(
              .partsDoNotAddUp(
                formula.name, parts: ValueFormatter.money(sum), result: ValueFormatter.money(result),
                withResult: ValueFormatter.money(withResult)),
              at: span, notes: Self.partNotes(parts))
          ]))
      }
      whole = withResult
      wholeLabel = Breakdown.title(fromSummary: parameter.documentation.summary) ?? Breakdown.words(parameter.name)
      parts.append((formulaTitle, result, span))
    }
    return finish(
      expression: expression, whole: whole, wholeLabel: wholeLabel,
      parts: parts.map { ($0.label, $0.amount, nil, $0.span) }, span: span)
  }

  /// The breakdown a formula's documentation declares (`## parts: income_received = after_tax_income + …`): for a
  /// formula whose `let` steps include subtotals and other lines, so that no rule over all of them could find the
  /// parts. The named steps must add up to the named whole, exactly, in every call; when they do not (a formula
  /// changed, a line forgotten) the chart is a `chart-parts` error listing each part, never a chart of a wrong whole.
  func declaredBreakdown(
    _ identity: String, expression: String, formula: FormulaInfo, arguments: [NamedValue], steps: [ExplanationStep],
    span: Span
  ) -> Result<Breakdown, DiagnosticList> {
    let documented = DiagnosticNote(
      .note, "in the documentation of \(formula.name)", span: formula.documentation.span ?? formula.nameSpan)
    guard let names = Breakdown.identityNames(identity) else {
      return .failure(DiagnosticList([.error(.partsLineForm(formula.name), at: span, notes: [documented])]))
    }
    var lets: [String: (amount: ExactDecimal, span: Span)] = [:]
    for step in steps {
      if case .binding(let name) = step.kind, case .money(let amount) = step.value { lets[name] = (amount, step.span) }
    }
    var parts: [(label: String, amount: ExactDecimal, span: Span)] = []
    for name in names.parts {
      guard let found = lets[name] else {
        return .failure(DiagnosticList([.error(.partsLineName(formula.name, name), at: span, notes: [documented])]))
      }
      parts.append((letLabel(name, at: found.span), found.amount, found.span))
    }
    let whole: ExactDecimal
    let wholeLabel: String
    if let found = lets[names.whole] {
      whole = found.amount
      wholeLabel = letLabel(names.whole, at: found.span)
    } else if let (parameter, argument) = zip(formula.parameters, arguments).first(where: { $0.0.name == names.whole }),
      case .money(let amount) = argument.value
    {
      whole = amount
      wholeLabel = Breakdown.title(fromSummary: parameter.documentation.summary) ?? Breakdown.words(parameter.name)
    } else {
      return .failure(DiagnosticList([.error(.partsLineName(formula.name, names.whole), at: span, notes: [documented])]))
    }
    let sum = parts.reduce(ExactDecimal.zero) { total, part in (try? total + part.amount) ?? total }
    guard sum == whole else {
      return .failure(
        DiagnosticList([
          .error(
            .declaredPartsDoNotAddUp(
              formula.name, whole: wholeLabel, amount: ValueFormatter.money(whole), parts: ValueFormatter.money(sum)),
            at: span, notes: Self.partNotes(parts))
        ]))
    }
    return finish(
      expression: expression, whole: whole, wholeLabel: wholeLabel,
      parts: parts.map { ($0.label, $0.amount, nil, $0.span) }, span: span)
  }

  /// A note at each part with its amount, for parts that do not add up.
  static func partNotes(_ parts: [(label: String, amount: ExactDecimal, span: Span)]) -> [DiagnosticNote] {
    parts.map { DiagnosticNote(.note, "\($0.label): \(ValueFormatter.money($0.amount))", span: $0.span) }
  }

  /// A `let` step's words: the `##` lines just above it, else its name in words.
  func letLabel(_ name: String, at span: Span) -> String {
    guard let source = sources[span.file] else { return Breakdown.words(name) }
    var line = source.lineIndex(of: span.start) - 1
    var lines: [String] = []
    while line >= 0 {
      let text = source.lineText(line).drop { $0 == " " || $0 == "\t" }
      guard text.hasPrefix("##") else { break }
      lines.insert(String(text.dropFirst(2).drop { $0 == " " }), at: 0)
      line -= 1
    }
    let summary = Documentation.parse(lines: lines, span: nil).summary
    return Breakdown.title(fromSummary: summary) ?? Breakdown.words(name)
  }

  func namedAmounts(_ source: SourceFile, text: String) -> Result<Breakdown, DiagnosticList> {
    let (amounts, diagnostics) = Parser.parseNamedAmounts(source)
    if diagnostics.hasErrors { return .failure(DiagnosticList(diagnostics)) }
    var parts: [(String, ExactDecimal, ExactDecimal?, Span)] = []
    var problems: [Diagnostic] = []
    for amount in amounts {
      let label = amount.isText ? amount.label : Breakdown.words(amount.label)
      switch evaluate(amount.value, source: source) {
      case .failure(let list): problems += list.diagnostics
      case .success(.money(let value)):
        var limit: ExactDecimal? = nil
        if let range = amount.range {
          switch evaluate(range.upper, source: source) {
          case .failure(let list): problems += list.diagnostics
          case .success(.money(let top)): limit = top
          case .success(let other):
            problems.append(.error(.chartNotMoney("the budget line of '\(label)'", other.type), at: range.upper.span))
          }
        }
        parts.append((label, value, limit, amount.labelSpan))
      case .success(let other):
        problems.append(.error(.chartNotMoney("'\(label)'", other.type), at: amount.value.span))
      }
    }
    if !problems.isEmpty { return .failure(DiagnosticList(problems)) }
    let whole = parts.reduce(ExactDecimal.zero) { total, part in (try? total + part.1) ?? total }
    let span = Span(file: source.id, start: 0, end: source.bytes.count)
    return finish(expression: text, whole: whole, wholeLabel: "Total", parts: parts, span: span)
  }

  /// Checks the parts' signs, works out the shares and sorts them.
  func finish(
    expression: String, whole: ExactDecimal, wholeLabel: String,
    parts: [(String, ExactDecimal, ExactDecimal?, Span)], span: Span
  ) -> Result<Breakdown, DiagnosticList> {
    let negative = parts.filter { $0.1.isNegative }
    if !negative.isEmpty {
      return .failure(
        DiagnosticList(
          negative.map { part in
            .error(.negativePart(part.0, ValueFormatter.money(part.1)), at: part.3)
          }))
    }
    guard whole.sign > 0 else {
      return .failure(DiagnosticList([.error(.nothingToChart(ValueFormatter.money(whole)), at: span)]))
    }
    var shown: [BreakdownPart] = []
    for (label, amount, limit, span) in parts where !amount.isZero || limit != nil {
      let share = (try? amount / whole) ?? .zero
      shown.append(BreakdownPart(label: label, amount: amount, share: share, limit: limit, span: span))
    }
    // Largest first; equal amounts keep their written order.
    let ordered = shown.enumerated().sorted { left, right in
      left.element.amount == right.element.amount ? left.offset < right.offset : right.element.amount < left.element.amount
    }.map(\.element)
    return .success(Breakdown(expression: expression, year: year, whole: whole, wholeLabel: wholeLabel, parts: ordered))
  }
}
