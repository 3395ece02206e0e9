import LineEditing
import TaxProCore

/// The calculator's commands: `:digits`, `:vars`, `:reset` and `:table`.
extension REPL {
  func digitsCommand(_ argument: String) {
    guard !argument.isEmpty else {
      say("numbers that are not exact show \(digits) significant digits")
      return
    }
    guard let number = Int(argument), (1...ExactDecimal.precision).contains(number) else {
      complain(":digits needs a whole number from 1 to \(ExactDecimal.precision), not '\(argument)'")
      return
    }
    digits = number
    say("numbers that are not exact now show \(number) significant digits")
  }

  func varsCommand() {
    let values = session.values
    guard !values.isEmpty else {
      note("no names yet: let x = 5 makes one, and every value becomes ans")
      return
    }
    // `ans` last: it changes with every line, the others only when typed.
    let names = values.keys.filter { $0 != "ans" }.sorted() + (values["ans"] == nil ? [] : ["ans"])
    let width = names.map(\.count).max() ?? 0
    for name in names {
      guard let value = values[name] else { continue }
      let padding = String(repeating: " ", count: width - name.count)
      say("\(style(name, .name))\(padding) = \(style(ValueFormatter.format(value, digits: digits), .value))")
    }
  }

  func resetCommand() {
    let count = session.values.count
    session.reset()
    lastCalculation = nil
    say("forgot \(count) name\(count == 1 ? "" : "s") and the formulas typed in")
  }

  /// Rows a `:table` may have.
  static let maximumTableRows = 1_000

  func tableCommand(_ argument: String) {
    let usage = {
      self.complain("usage: :table EXPR over NAME from A to B step S")
      self.note("for example :table tax(ON.income_tax, income) over income from $0 to $100,000 step $20,000")
    }
    guard let stepMarker = argument.range(of: " step ", options: .backwards),
      let command = PlotCommand.parse(String(argument[..<stepMarker.lowerBound])), command.svgPath == nil
    else { return usage() }
    let stepText = argument[stepMarker.upperBound...].trimmed
    guard !stepText.isEmpty else { return usage() }
    var bounds: [Value] = []
    for (text, name) in [(command.from, "<from>"), (command.to, "<to>"), (stepText, "<step>")] {
      switch session.compile(text, name: name, locals: []).flatMap({ session.evaluate($0, locals: []) }) {
      case .failure(let list): return report(list.diagnostics)
      case .success(let value): bounds.append(value)
      }
    }
    let (lower, upper, step) = (bounds[0], bounds[1], bounds[2])
    guard lower.type == upper.type, lower.type == step.type, let start = lower.decimal, let end = upper.decimal,
      let by = step.decimal
    else {
      complain(
        "A, B and the step must be of one type (Money, Rate or Number), not \(lower.type), \(upper.type) and \(step.type)")
      return
    }
    guard by.sign > 0 else {
      complain("the step must be more than zero, not \(ValueFormatter.format(step))")
      return
    }
    guard start <= end else {
      complain("the table runs from the smaller value to the larger: from \(ValueFormatter.format(upper)) to \(ValueFormatter.format(lower))?")
      return
    }
    guard let span = try? (end - start) / by, let whole = span.rounded(places: 0, .towardZero).intValue,
      whole < REPL.maximumTableRows
    else {
      complain("that is more than \(REPL.maximumTableRows) rows; take a larger step")
      return
    }
    let typed: TypedExpression
    switch session.compile(command.expression, name: "<table>", locals: [(command.variable, lower.type)]) {
    case .failure(let list): return report(list.diagnostics)
    case .success(let compiled): typed = compiled
    }
    var rows: [(String, String)] = []
    for index in 0...whole {
      if configuration.handlesInterrupts && Interrupts.isPending {
        Interrupts.clear()
        output.writeError(style("cancelled", .error) + "\n")
        return
      }
      let offset = (try? by * ExactDecimal(index)) ?? .zero
      let x = Value.numeric(lower.type, (try? start + offset) ?? start)
      let shown: String
      switch session.evaluate(typed, locals: [x]) {
      case .success(let y): shown = ValueFormatter.format(y, digits: digits)
      case .failure(let list): shown = "error: " + (list.diagnostics.first?.message ?? "no value")
      }
      rows.append((ValueFormatter.format(x, digits: digits), shown))
    }
    let left = max(command.variable.count, rows.map { $0.0.count }.max() ?? 0)
    let right = max(command.expression.count, rows.map { $0.1.count }.max() ?? 0)
    func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
    say(style(pad(command.variable, left), .name) + "  " + style(pad(command.expression, right), .name))
    for (x, y) in rows { say(pad(x, left) + "  " + pad(y, right)) }
  }
}
