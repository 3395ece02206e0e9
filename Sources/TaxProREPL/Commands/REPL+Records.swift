import Foundation
import TaxProCore

extension REPL {
  func saveCommand(_ argument: String) {
    guard let files = configuration.userFiles else {
      complain("there is nowhere to keep records (neither XDG_DATA_HOME nor HOME is set)")
      return
    }
    guard var calculation = lastCalculation else {
      complain("nothing to save yet: compute something first (an expression, :explain or :ask)")
      return
    }
    if calculation.explanation == nil {
      switch explainDetached(calculation.selfContained, year: calculation.year) {
      case .success(let (value, steps)):
        calculation.explanation = explanation(calculation.expression, value: value, steps: steps, colored: false, fitted: false)
      case .failure:
        // The formulas it used may have changed since; the result is still worth keeping.
        calculation.explanation = ""
      }
      lastCalculation = calculation
    }
    var name = argument.trimmed
    if name.isEmpty {
      name = "record-\((loadRecords()?.records.count ?? 0) + 1)"
    }
    let record = Record(
      name: name, date: configuration.now(), expression: calculation.expression, inputs: calculation.inputs,
      result: ValueFormatter.format(calculation.value), explanation: calculation.explanation ?? "")
    if store("records", at: files.recordsPath, { try files.records.append(record) }) {
      say("saved " + style(name, .name) + ": \(calculation.expression) = " + style(record.result, .value))
    }
  }

  func recordsCommand(_ argument: String) {
    guard configuration.userFiles != nil else {
      complain("there is nowhere to keep records (neither XDG_DATA_HOME nor HOME is set)")
      return
    }
    guard let book = loadRecords() else { return }
    let name = argument.trimmed
    if name.isEmpty {
      if book.records.isEmpty {
        note("no records yet; :save keeps the last calculation")
        return
      }
      let rows = book.records.map { record in
        [style(record.name, .name), REPL.dateText(record.date), record.expression + " = " + record.result]
      }
      say(TextLayout.table(rows, indent: "  ").joined(separator: "\n"))
      return
    }
    guard let record = book.record(named: name) else {
      var message = "no record named '\(name)'"
      if let suggestion = NameSuggestions.closest(to: name, among: book.records.map(\.name)) {
        message += "; did you mean '\(suggestion)'?"
      }
      complain(message)
      return
    }
    var lines = [style(record.name, .name) + " — saved " + REPL.dateText(record.date)]
    lines.append("  " + record.expression + " = " + style(record.result, .value))
    if !record.inputs.isEmpty {
      lines.append("  " + style("Inputs:", .heading))
      lines += TextLayout.table(record.inputs.keys.sorted().map { [$0, record.inputs[$0] ?? ""] }, indent: "    ")
    }
    if !record.explanation.isEmpty {
      lines.append("  " + style("Explanation:", .heading))
      lines += record.explanation.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
    }
    say(lines.joined(separator: "\n").trimmingTrailingSpaces)
  }

  /// The records on disk now; damage is reported (the damaged file is moved aside by the load).
  func loadRecords() -> RecordBook? {
    configuration.userFiles.flatMap { loadStored($0.records, what: "records", empty: RecordBook()) }
  }

  static func dateText(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
  }
}
