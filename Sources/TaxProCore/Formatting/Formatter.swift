/// The canonical layout of TaxPro source: `taxpro fmt` and the language server's formatting both use it.
///
/// Two-space indentation; one declaration after another with the blank lines the author left (at most one); formula
/// bodies on the next line unless the formula is one short line; one parameter per line when any is documented or the
/// header is long; bracket rows one per line with their arrows aligned; binary operators, commas and colons spaced;
/// amounts of money with thousands separators. Comments are kept: a comment on its own line stays before what follows
/// it, a comment at the end of a line stays at the end of that line.
///
/// **Invariant:** formatting never changes what a file means (the syntax trees before and after are the same, spans
/// aside), and formatting formatted text changes nothing. A source with syntax errors is returned unchanged.
public enum Formatter {
  /// Lines longer than this are broken where the layout rules allow.
  public static let lineWidth = 100

  /// The formatted text of a tree, or its text unchanged when it has syntax errors.
  public static func format(_ tree: SyntaxTree) -> String {
    if tree.diagnostics.hasErrors { return tree.source.text }
    var printer = Printer(tree: tree)
    printer.printDeclarations()
    return printer.finish()
  }

  /// Formats source text (parsed as a file).
  public static func format(_ text: String) -> String {
    format(Parser.parse(SourceFile(id: FileID(0), name: "", text: text)))
  }
}

/// The start offsets of comments printed as part of an expression; a reference, so that the expression printer
/// (which only reads the printer's state) can note them.
final class PrintedComments {
  var starts: Set<Int> = []
}

/// Builds the output line by line.
struct Printer {
  let tree: SyntaxTree
  let source: SourceFile
  var lines: [String] = []
  /// Comments not yet printed, in source order.
  var pendingComments: [Comment]
  var commentIndex = 0
  /// Offset up to which the source has been printed (for blank-line detection).
  var lastEnd = 0
  /// Comments already printed inside an expression (a bracket table's): the statement printer skips them.
  let printedInside = PrintedComments()

  init(tree: SyntaxTree) {
    self.tree = tree
    self.source = tree.source
    self.pendingComments = tree.comments
  }

  mutating func finish() -> String {
    // Comments after the last declaration.
    emitComments(before: source.bytes.count, indent: 0)
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  func pad(_ indent: Int) -> String { String(repeating: "  ", count: indent) }

  /// Whether the source has a blank line between two offsets.
  func blankLineBetween(_ start: Int, _ end: Int) -> Bool {
    guard start < end else { return false }
    var newlines = 0
    var index = start
    while index < end && index < source.bytes.count {
      let byte = source.bytes[index]
      // A line break is "\n", or a "\r" that no "\n" follows (as in the line table).
      if byte == 10 || (byte == 13 && (index + 1 == source.bytes.count || source.bytes[index + 1] != 10)) {
        newlines += 1
        if newlines >= 2 { return true }
      } else if byte != 32 && byte != 9 && byte != 13 {
        newlines = 0
      }
      index += 1
    }
    return false
  }

  /// Prints the own-line comments that come before `offset`, keeping blank lines between groups.
  mutating func emitComments(before offset: Int, indent: Int) {
    while commentIndex < pendingComments.count, pendingComments[commentIndex].span.start < offset {
      let comment = pendingComments[commentIndex]
      commentIndex += 1
      if printedInside.starts.contains(comment.span.start) { continue }
      if !lines.isEmpty && blankLineBetween(lastEnd, comment.span.start) && lines.last != "" { lines.append("") }
      if comment.ownLine || lines.isEmpty {
        lines.append(pad(indent) + commentText(comment))
      } else if let last = lines.popLast() {
        // A trailing comment the statement printer did not claim (inside a multi-line construct): keep it on its line.
        lines.append(last + "  " + commentText(comment))
      }
      lastEnd = comment.span.end
    }
  }

  func commentText(_ comment: Comment) -> String {
    var text = source.text(of: comment.span)
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return text
  }

  /// Starts a statement: comments above it and the blank line before it.
  mutating func begin(_ span: Span, indent: Int, allowBlank: Bool = true) {
    emitComments(before: span.start, indent: indent)
    if allowBlank && !lines.isEmpty && lines.last != "" && blankLineBetween(lastEnd, span.start) {
      // Keep the blank line only when no comment directly above ate it (a doc comment must touch its declaration).
      lines.append("")
    }
  }

  /// Ends a statement: a comment at the end of its last line stays there.
  mutating func end(_ span: Span) {
    lastEnd = max(lastEnd, span.end)
    while commentIndex < pendingComments.count, printedInside.starts.contains(pendingComments[commentIndex].span.start) {
      commentIndex += 1
    }
    guard commentIndex < pendingComments.count else { return }
    let comment = pendingComments[commentIndex]
    guard !comment.ownLine, comment.span.start >= span.end,
      source.lineIndex(of: comment.span.start) == source.lineIndex(of: max(span.end - 1, span.start))
    else { return }
    commentIndex += 1
    if let last = lines.popLast() { lines.append(last + "  " + commentText(comment)) }
    lastEnd = comment.span.end
  }

  // MARK: Declarations

  mutating func printDeclarations() {
    var previous: Declaration? = nil
    for declaration in tree.declarations {
      // Declarations are separated by a blank line (before their comments), except consecutive constants, which keep
      // the author's choice.
      if let previous, !lines.isEmpty, lines.last != "", needsSeparation(previous, declaration) {
        lines.append("")
      }
      printDeclaration(declaration)
      previous = declaration
    }
  }

  func needsSeparation(_ a: Declaration, _ b: Declaration) -> Bool {
    switch (a, b) {
    case (.constant, .constant):
      return blankLineBetween(a.span.end, b.span.start)
    default:
      return true
    }
  }

  mutating func printDeclaration(_ declaration: Declaration) {
    switch declaration {
    case .formula(let formula): printFormula(formula)
    case .constant(let constant):
      begin(constant.span, indent: 0)
      printLet(constant.binding, indent: 0)
    case .test(let test): printTest(test)
    case .interface(let interface): printInterface(interface)
    case .jurisdiction(let jurisdiction): printJurisdiction(jurisdiction)
    case .expression(let expression):
      begin(expression.span, indent: 0)
      printStatement(prefix: "", expression, indent: 0)
    }
  }

  mutating func printFormula(_ formula: FormulaDeclaration) {
    begin(formula.span, indent: 0)
    let returnPart = formula.returnType.map { "): \($0.name) =" } ?? ") ="
    let inlineParameters = formula.parameters.map { parameterText($0) }.joined(separator: ", ")
    let documented = formula.parameters.contains { !$0.documentation.isEmpty || hasComments(in: $0.span) }
    let header = "\(word(.kwFormula)) \(formula.name.name)(\(inlineParameters)\(returnPart)"
    if !documented && header.count <= Formatter.lineWidth {
      // One short line when there are no lets and the result fits.
      if formula.lets.isEmpty, !isMultiline(formula.result) {
        let single = header + " " + expression(formula.result, indent: 0)
        if single.count <= Formatter.lineWidth && !single.contains("\n") && !hasComments(in: formula.result.span) {
          lines.append(single)
          end(formula.span)
          return
        }
      }
      lines.append(header)
    } else {
      lines.append("\(word(.kwFormula)) \(formula.name.name)(")
      for (index, parameter) in formula.parameters.enumerated() {
        begin(parameter.span, indent: 1, allowBlank: false)
        lines.append(pad(1) + parameterText(parameter) + (index + 1 < formula.parameters.count ? "," : ""))
        end(parameter.span)
      }
      lines.append(String(returnPart))
    }
    lastEnd = max(lastEnd, formula.returnType?.span.end ?? formula.name.span.end)
    for binding in formula.lets {
      begin(binding.span, indent: 1)
      printLet(binding, indent: 1)
    }
    begin(formula.result.span, indent: 1, allowBlank: !formula.lets.isEmpty)
    printStatement(prefix: "", formula.result, indent: 1)
    end(formula.span)
  }

  func hasComments(in span: Span) -> Bool {
    pendingComments[commentIndex...].contains { $0.span.start >= span.start && $0.span.start < span.end }
  }

  func parameterText(_ parameter: Parameter) -> String {
    var text = "\(parameter.name.name): \(parameter.type.name)"
    if let range = parameter.range {
      text += " \(word(.kwIn)) \(expression(range.lower, indent: 0))\(word(.dotDot))\(expression(range.upper, indent: 0))"
    }
    if let defaultValue = parameter.defaultValue { text += " = \(expression(defaultValue, indent: 0))" }
    return text
  }

  mutating func printLet(_ binding: LetBinding, indent: Int) {
    let typePart = binding.type.map { ": \($0.name)" } ?? ""
    printStatement(prefix: "\(word(.kwLet)) \(binding.name.name)\(typePart) = ", binding.value, indent: indent)
    end(binding.span)
  }

  mutating func printTest(_ test: TestDeclaration) {
    begin(test.span, indent: 0)
    let yearPart = test.year.map { " \(word(.kwYear)) \($0)" } ?? ""
    lines.append("\(word(.kwTest)) \(stringLiteral(test.name))\(yearPart) {")
    lastEnd = test.yearSpan?.end ?? test.nameSpan.end
    var first = true
    for item in test.items {
      switch item {
      case .binding(let binding):
        begin(binding.span, indent: 1, allowBlank: !first)
        printLet(binding, indent: 1)
      case .check(let check):
        begin(check.span, indent: 1, allowBlank: !first)
        printStatement(prefix: "", check, indent: 1)
        end(check.span)
      }
      first = false
    }
    closeBlock(test.span, indent: 0)
  }

  /// Prints the comments before a block's closing brace, then the brace.
  mutating func closeBlock(_ span: Span, indent: Int) {
    emitComments(before: span.end - 1, indent: indent + 1)
    lines.append(pad(indent) + "}")
    end(span)
  }

  mutating func printInterface(_ interface: InterfaceDeclaration) {
    begin(interface.span, indent: 0)
    lines.append("\(word(.kwParameters)) \(interface.name.name) {")
    lastEnd = interface.name.span.end
    var first = true
    for member in interface.members {
      begin(member.span, indent: 1, allowBlank: !first)
      lines.append(pad(1) + "\(member.name.name): \(member.type.name)")
      end(member.span)
      first = false
    }
    closeBlock(interface.span, indent: 0)
  }

  mutating func printJurisdiction(_ jurisdiction: JurisdictionDeclaration) {
    begin(jurisdiction.span, indent: 0)
    let namePart = jurisdiction.fullName.map { " " + stringLiteral($0) } ?? ""
    let head =
      jurisdiction.kind == .federal ? word(.kwFederal) : "\(word(.kwProvince)) \(jurisdiction.code.name)"
    lines.append("\(head)\(namePart) {")
    lastEnd = jurisdiction.code.span.end
    var first = true
    for year in jurisdiction.years {
      begin(year.span, indent: 1, allowBlank: !first)
      lines.append(pad(1) + "\(word(.kwYear)) \(year.year) {")
      lastEnd = year.yearSpan.end
      var firstDefinition = true
      for definition in year.definitions {
        begin(definition.span, indent: 2, allowBlank: !firstDefinition)
        printStatement(prefix: "\(definition.name.name) = ", definition.value, indent: 2)
        end(definition.span)
        firstDefinition = false
      }
      closeBlock(year.span, indent: 1)
      first = false
    }
    closeBlock(jurisdiction.span, indent: 0)
  }

  // MARK: Statements and expressions

  /// One statement `prefix + expression`, broken over lines when too long.
  mutating func printStatement(prefix: String, _ value: Expression, indent: Int) {
    lines.append(contentsOf: layout(prefix: pad(indent) + prefix, value, indent: indent))
  }

  /// The lines of `prefix + value`. An `if` with `else if` branches always takes one line per condition and branch;
  /// anything else stays on one line when it fits, and otherwise breaks: a chain of operators one per line, an `if`
  /// with its branches on their own lines, a call with one argument per line.
  func layout(prefix: String, _ value: Expression, indent: Int) -> [String] {
    if case .conditional = value.kind, isChain(value) {
      return conditionalLines(prefix: prefix, value, indent: indent)
    }
    let flat = expression(value, indent: indent)
    let line = prefix + flat
    let firstLineLength = line.split(separator: "\n", omittingEmptySubsequences: false).first?.count ?? line.count
    if firstLineLength <= Formatter.lineWidth || flat.contains("\n") {
      return line.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
    switch value.kind {
    case .binary(let op, _, _, _) where !op.isComparison:
      var operands: [(String?, Expression)] = []
      flatten(value, precedence: op.precedence, into: &operands)
      var result = [prefix + expression(operands[0].1, indent: indent)]
      for (symbol, operand) in operands.dropFirst() {
        result.append(pad(indent + 2) + (symbol ?? "") + " " + expression(operand, indent: indent + 2))
      }
      return result
    case .conditional:
      return conditionalLines(prefix: prefix, value, indent: indent)
    case .call(let callee, let arguments) where !arguments.isEmpty:
      var result = [prefix + callee.name + "("]
      for (index, argument) in arguments.enumerated() {
        let label = argument.label.map { "\($0.name): " } ?? ""
        var argumentLines = layout(prefix: pad(indent + 1) + label, argument.value, indent: indent + 1)
        if index + 1 < arguments.count, let last = argumentLines.popLast() { argumentLines.append(last + ",") }
        result += argumentLines
      }
      result.append(pad(indent) + ")")
      return result
    default:
      return [line]
    }
  }

  /// Whether an `if` has an `else if`.
  func isChain(_ value: Expression) -> Bool {
    if case .conditional(_, _, let elseBranch) = value.kind, case .conditional = elseBranch.kind { return true }
    return false
  }

  /// `if c then` / branch / `else if c then` / branch / … / `else` / branch, each branch indented one level.
  func conditionalLines(prefix: String, _ value: Expression, indent: Int) -> [String] {
    var result: [String] = []
    var current = value
    var head = prefix + word(.kwIf) + " "
    while case .conditional(let condition, let thenBranch, let elseBranch) = current.kind {
      result.append(head + expression(condition, indent: indent) + " " + word(.kwThen))
      result += layout(prefix: pad(indent + 1), thenBranch, indent: indent + 1)
      current = elseBranch
      head = pad(indent) + word(.kwElse) + " " + word(.kwIf) + " "
    }
    result.append(pad(indent) + word(.kwElse))
    result += layout(prefix: pad(indent + 1), current, indent: indent + 1)
    return result
  }

  /// The operands of a left-associative chain of operators of one precedence.
  func flatten(_ value: Expression, precedence: Int, into operands: inout [(String?, Expression)]) {
    if case .binary(let op, let left, let right, _) = value.kind, op.precedence == precedence {
      flatten(left, precedence: precedence, into: &operands)
      operands.append((op.rawValue, right))
    } else {
      operands.append((nil, value))
    }
  }

  func isMultiline(_ value: Expression) -> Bool {
    expression(value, indent: 0).contains("\n") || isChain(value)
  }

  func argumentText(_ argument: Argument, indent: Int) -> String {
    (argument.label.map { "\($0.name): " } ?? "") + expression(argument.value, indent: indent)
  }

  /// The canonical one-line text of an expression (bracket tables take several lines, indented from `indent`).
  func expression(_ value: Expression, indent: Int) -> String {
    switch value.kind {
    case .number: return source.text(of: value.span)
    case .rate: return source.text(of: value.span)
    case .money: return moneyText(source.text(of: value.span))
    case .text: return source.text(of: value.span)
    case .bool(let flag): return word(flag ? .kwTrue : .kwFalse)
    case .name(let name): return name
    case .federal: return word(.kwFederal)
    case .missing: return source.text(of: value.span)
    case .unary(let op, let operand, _):
      let inner = expression(operand, indent: indent)
      return op == .negate ? op.rawValue + inner : op.rawValue + " " + inner
    case .binary(let op, let left, let right, _):
      return expression(left, indent: indent) + " " + op.rawValue + " " + expression(right, indent: indent)
    case .call(let callee, let arguments):
      return callee.name + "(" + arguments.map { argumentText($0, indent: indent) }.joined(separator: ", ") + ")"
    case .member(let object, let member):
      return expression(object, indent: indent) + "." + member.name
    case .conditional(let condition, let thenBranch, let elseBranch):
      return word(.kwIf) + " " + expression(condition, indent: indent) + " " + word(.kwThen) + " "
        + expression(thenBranch, indent: indent) + " " + word(.kwElse) + " " + expression(elseBranch, indent: indent)
    case .parenthesized(let inner):
      return "(" + expression(inner, indent: indent) + ")"
    case .brackets(let rows):
      return bracketTable(rows, value.span, indent: indent)
    }
  }

  /// A bracket table, one row per line with the arrows aligned. Its comments stay where they were: a comment on its
  /// own line above the row (or the closing brace) it preceded, a comment at the end of a row at the end of that row.
  func bracketTable(_ rows: [BracketRow], _ span: Span, indent: Int) -> String {
    let thresholds = rows.map { expression($0.threshold, indent: indent + 1) }
    let width = thresholds.map(\.count).max() ?? 0
    let comments = pendingComments[commentIndex...].filter { $0.span.start > span.start && $0.span.start < span.end }
    for comment in comments { printedInside.starts.insert(comment.span.start) }
    var next = comments.startIndex
    var text = word(.kwBrackets) + " {"
    var line = source.lineIndex(of: span.start)
    func trailing() -> String {
      var result = ""
      while next < comments.endIndex, !comments[next].ownLine, source.lineIndex(of: comments[next].span.start) == line {
        result += "  " + commentText(comments[next])
        next += 1
      }
      return result
    }
    func ownLines(before offset: Int) -> String {
      var result = ""
      while next < comments.endIndex, comments[next].span.start < offset {
        result += pad(indent + 1) + commentText(comments[next]) + "\n"
        next += 1
      }
      return result
    }
    text += trailing() + "\n"
    for (row, threshold) in zip(rows, thresholds) {
      text += ownLines(before: row.threshold.span.start)
      text += pad(indent + 1) + threshold + String(repeating: " ", count: width - threshold.count) + " "
        + word(.arrow) + " " + expression(row.rate, indent: indent + 1)
      line = source.lineIndex(of: max(row.rate.span.end - 1, row.threshold.span.start))
      text += trailing() + "\n"
    }
    text += ownLines(before: span.end)
    return text + pad(indent) + "}"
  }

  /// `$85000` → `$85,000`; decimals and `_`-free digits kept.
  func moneyText(_ written: String) -> String {
    let digits = written.dropFirst().filter { $0 != "," && $0 != "_" }
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integer = ValueFormatter.groupThousands(String(parts[0]))
    return "$" + integer + (parts.count > 1 ? "." + parts[1] : "")
  }

  func stringLiteral(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      default: result.append(character)
      }
    }
    return result + "\""
  }
}

/// A keyword's or operator's spelling: the formatter writes the language's words as `Vocabulary` spells them.
private func word(_ kind: TokenKind) -> String { kind.spelling }
