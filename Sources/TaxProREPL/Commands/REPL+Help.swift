import Foundation
import TaxProCore

extension REPL {
  var documentationText: DocumentationText { DocumentationText(style: style, width: width) }

  func helpCommand(_ argument: String) {
    let name = argument.trimmed
    if name.isEmpty {
      overview()
      return
    }
    if let lines = help(for: name) {
      say(lines.joined(separator: "\n"))
      return
    }
    var message = "no help for '\(name)'"
    if let suggestion = NameSuggestions.closest(to: name, among: helpNames) {
      message += "; did you mean '\(suggestion)'?"
    }
    complain(message)
    note("try :search \(name), or :help for an overview")
  }

  /// Every name `:help` knows, for suggestions.
  var helpNames: [String] {
    let program = session.program
    return program.formulas.map(\.name) + Builtin.allCases.map(\.name) + Array(program.jurisdictions.keys)
      + TaxType.writable.map(\.description) + program.constants.map(\.name) + Array(session.values.keys)
      + CommandTable.names.map { ":" + $0 } + ["ans"]
  }

  func overview() {
    var lines: [String] = []
    lines.append(style("TaxPro", .heading) + " — exact money arithmetic and tax formulas.")
    lines += TextLayout.wrap(
      "Type an expression to evaluate it: $1,234.56 * 13%, tax(ON.income_tax, $85,000). `ans` is the last result; "
        + "`let name = …` names a value; `formula name(x: Money): Money = …` defines a formula. "
        + "An unfinished line continues on the next; an empty line typed there drops it (pasted, it is kept).",
      width: width)
    lines.append("")
    lines.append(style("Commands", .heading))
    let rows = CommandTable.all.map { command in
      [style(":" + command.name, .command) + (command.usage.isEmpty ? "" : " " + command.usage), command.summary]
    }
    // Colour codes take no space on screen: widths are visible widths.
    let column = min(rows.map { TextLayout.width($0[0]) }.max() ?? 0, 28)
    for row in rows {
      let visible = TextLayout.width(row[0])
      let padding = String(repeating: " ", count: max(1, column - visible + 2))
      if visible > column {
        lines.append("  " + row[0])
        lines += TextLayout.wrap(row[1], width: width, first: "  " + String(repeating: " ", count: column + 2))
      } else {
        lines += TextLayout.wrap(
          row[1], width: width, first: "  " + row[0] + padding, rest: "  " + String(repeating: " ", count: column + 2))
      }
    }
    lines.append("")
    lines += TextLayout.wrap(
      "Tab completes names, commands and parameters after `ON.`; Ctrl-R searches history; Ctrl-C cancels the line or "
        + "a running evaluation; Ctrl-D leaves. Tax year: \(session.year).",
      width: width)
    say(lines.joined(separator: "\n"))
  }

  /// The help for one name, or nil when nothing has that name.
  func help(for name: String) -> [String]? {
    let program = session.program
    if name.hasPrefix(":") { return commandHelp(String(name.dropFirst())) }
    if let formula = program.formula(named: name) { return formulaHelp(formula) }
    if let builtin = Builtin(rawValue: name) {
      return [style(builtin.declaration.signature, .name)] + TextLayout.wrap(builtin.declaration.summary, width: width, first: "  ")
        + ["  " + style("A built-in function.", .note)]
    }
    if let dot = name.firstIndex(of: "."), dot != name.startIndex {
      return parameterHelp(owner: String(name[..<dot]), parameter: String(name[name.index(after: dot)...]))
    }
    if let jurisdiction = program.jurisdictions[name] { return jurisdictionHelp(jurisdiction) }
    if let type = TaxType(name: name) {
      var lines = [style(type.description, .type) + " (a type)"] + TextLayout.wrap(type.summary, width: width, first: "  ")
      // `Province` is also the interface every province satisfies: its members are what a Province value has.
      if let interface = program.interfaces[name] { lines += [""] + interfaceHelp(interface) }
      return lines
    }
    if let interface = program.interfaces[name] { return interfaceHelp(interface) }
    if let index = program.constantIndex[name] {
      let constant = program.constants[index]
      return [style(constant.name, .name) + ": " + style(constant.type.description, .type) + " (a constant)"]
        + documentationText.render(constant.documentation)
    }
    if let value = session.values[name] {
      let what = name == "ans" ? "the last result" : "defined in this session"
      return [
        style(name, .name) + " = " + style(ValueFormatter.format(value, digits: digits), .value) + ": "
          + style(value.type.description, .type) + " (\(what))"
      ]
    }
    if name == "ans" {
      // Before the first result `ans` has no value, but it is still a word of the REPL.
      return [style("ans", .name) + " (the last result)"]
        + TextLayout.wrap(
          "The value of the last expression typed, of its type: after $85,000 * 13%, ans is $11,050.00 and "
            + "ans / 12 its twelfth. No result yet in this session; :vars lists the names and their values.",
          width: width, first: "  ")
    }
    if CommandTable.command(named: name) != nil { return commandHelp(name) }
    return nil
  }

  func commandHelp(_ name: String) -> [String]? {
    guard let command = CommandTable.command(named: name) else { return nil }
    var lines = [style(":" + command.name, .command) + (command.usage.isEmpty ? "" : " " + command.usage)]
    lines += TextLayout.wrap(command.summary.prefix(1).uppercased() + command.summary.dropFirst() + ".", width: width, first: "  ")
    if !command.details.isEmpty { lines += TextLayout.wrap(command.details, width: width, first: "  ") }
    if !command.aliases.isEmpty {
      lines.append("  " + style("Also: " + command.aliases.map { ":" + $0 }.joined(separator: ", "), .note))
    }
    return lines
  }

  func formulaHelp(_ formula: FormulaInfo) -> [String] {
    var lines = [style(formula.signature, .name)]
    lines += documentationText.render(formula.documentation, skipping: [.instruction])
    if !formula.parameters.isEmpty {
      lines.append("  " + style("Inputs:", .heading))
      lines += parameterLines(formula)
      if let instruction = formula.documentation.instruction {
        lines += TextLayout.wrap(instruction, width: width, first: "    ")
      }
    }
    if formula.hasErrors { lines.append("  " + style("This formula has errors and cannot be used.", .error)) }
    lines.append("  " + style("Try :ask \(formula.name) or :lesson \(formula.name)", .note))
    return lines
  }

  /// One line (or more, wrapped) per parameter: name, type, range, default, summary.
  func parameterLines(_ formula: FormulaInfo, indent: String = "    ") -> [String] {
    let nameWidth = formula.parameters.map(\.name.count).max() ?? 0
    var lines: [String] = []
    for parameter in formula.parameters {
      var facts = [parameter.type.description]
      if let range = parameter.rangeText { facts.append("from " + range.replacingOccurrences(of: "..", with: " to ")) }
      if let defaultText = parameter.defaultText { facts.append("default " + defaultText) }
      var text = facts.joined(separator: ", ")
      let summary = parameter.documentation.summary
      if !summary.isEmpty { text += " — " + summary }
      let padded = parameter.name + String(repeating: " ", count: nameWidth - parameter.name.count + 2)
      lines += TextLayout.wrap(
        text, width: width, first: indent + style(padded, .name),
        rest: indent + String(repeating: " ", count: nameWidth + 2))
    }
    return lines
  }

  func jurisdictionHelp(_ jurisdiction: JurisdictionInfo) -> [String] {
    let kind = jurisdiction.kind == .federal ? "the federal jurisdiction" : "a province or territory"
    var lines = [style(jurisdiction.code, .name) + " — \(jurisdiction.fullName) (\(kind))"]
    lines += documentationText.render(jurisdiction.documentation)
    let years = jurisdiction.sortedYears.map(String.init).joined(separator: ", ")
    if !years.isEmpty { lines.append("  Figures for \(years).") }
    let names = jurisdiction.parameterTypes.keys.sorted()
    lines += TextLayout.wrap(
      names.joined(separator: ", "), width: width, first: "  " + style("Parameters:", .heading) + " ", rest: "    ")
    lines.append("  " + style("See one with :help \(jurisdiction.code).\(names.first ?? "name")", .note))
    return lines
  }

  func interfaceHelp(_ interface: InterfaceInfo) -> [String] {
    var lines = [style("parameters " + interface.name, .name)]
    lines += documentationText.render(interface.documentation)
    let rows = interface.members.map { member in
      ["  " + member.name, member.type.description, firstSentence(member.documentation.summary)]
    }
    lines += TextLayout.table(rows, indent: "  ")
    return lines
  }

  /// `ON.income_tax`, `federal.credit_rate`, `Province.income_tax`, or `p.income_tax` for a Province value.
  func parameterHelp(owner: String, parameter name: String) -> [String]? {
    let program = session.program
    var code: String? = nil
    if let jurisdiction = program.jurisdictions[owner] {
      code = jurisdiction.code
    } else if case .province(let valueCode) = session.values[owner] {
      code = valueCode
    } else if let interface = program.interfaces[owner], let member = interface.member(name) {
      return [style("\(owner).\(name)", .name) + ": " + style(member.type.description, .type)]
        + documentationText.render(member.documentation)
    }
    guard let code, let jurisdiction = program.jurisdictions[code] else { return nil }
    if name == "name" {
      return [style("\(owner).name", .name) + ": Text = \"\(jurisdiction.fullName)\""]
    }
    guard let type = jurisdiction.parameterTypes[name] else { return nil }
    let year = session.year
    var lines = [
      style("\(owner).\(name)", .name) + ": " + style(type.description, .type) + " — \(jurisdiction.fullName), \(year)"
    ]
    let interface = program.interface(for: jurisdiction.kind)
    if let member = interface?.member(name) { lines += documentationText.render(member.documentation) }
    let years = jurisdiction.sortedYears.filter { jurisdiction.years[$0]?[name] != nil }
    if let definition = jurisdiction.years[year]?[name] {
      lines += documentationText.render(definition.documentation)
      let evaluator = Evaluator(program: program, year: year)
      do {
        let value = try evaluator.parameter(code, name, at: definition.span)
        lines += valueLines(value, label: "Value in \(year):")
      } catch {
        lines.append("  " + style(error.diagnostic.message, .error))
      }
    } else {
      lines.append("  " + style("No figure for \(year).", .error))
    }
    if !years.isEmpty { lines.append("  " + style("Figures for \(years.map(String.init).joined(separator: ", ")).", .note)) }
    return lines
  }

  /// A value under a label; a bracket table as a table.
  func valueLines(_ value: Value, label: String) -> [String] {
    guard case .brackets(let table) = value else {
      return ["  " + style(label, .heading) + " " + style(ValueFormatter.format(value), .value)]
    }
    var rows: [[String]] = []
    for (index, row) in table.rows.enumerated() {
      let upper = index + 1 < table.rows.count ? "to " + ValueFormatter.money(table.rows[index + 1].threshold) : "and up"
      rows.append([ValueFormatter.money(row.threshold), upper, ValueFormatter.rate(row.rate)])
    }
    return ["  " + style(label, .heading)] + TextLayout.table(rows, indent: "    ")
  }

  /// Up to the first full stop that ends a sentence (one followed by a space or the end: not the one in `5.05%`).
  func firstSentence(_ text: String) -> String {
    let flat = text.replacingOccurrences(of: "\n", with: " ")
    var index = flat.startIndex
    while let dot = flat[index...].firstIndex(of: ".") {
      let after = flat.index(after: dot)
      if after == flat.endIndex || flat[after] == " " { return String(flat[...dot]) }
      index = after
    }
    return flat
  }
}
