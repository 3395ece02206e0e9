import Foundation
import TaxProCore

/// `taxpro eval --csv FILE 'EXPR'`: one result per row, with the row's columns as names in the expression.
///
/// A column's type comes from its header when written `name:Type` (`income:Money`), otherwise from its first value:
/// `$…` is Money, `…%` a Rate, a number a Number, `true`/`false` a Bool, a province code a Province, anything else Text.
/// The expression is checked once; each row is then only parsed and evaluated (parameters are read once for all rows).
enum Batch {
  struct Column {
    var name: String
    var type: TaxType
  }

  static func run(csvPath: String, expression: String, files: [String], year: Int?) throws(Options.UsageError) -> Int32 {
    guard let data = FileManager.default.contents(atPath: csvPath) else {
      throw Options.UsageError(message: "cannot read '\(csvPath)'")
    }
    guard let session = try Commands.session(files, year: year) else { return 1 }
    var reader = CSVReader(bytes: Array(data))
    guard let header = reader.next() else { throw Options.UsageError(message: "'\(csvPath)' is empty") }
    var firstRow = reader.next()
    let provinces = Set(session.program.provinceCodes)
    var columns: [Column] = []
    for (position, rawName) in header.fields.enumerated() {
      let parts = rawName.split(separator: ":", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
      let name = parts[0]
      guard !name.isEmpty, name.first.map({ $0.isLetter || $0 == "_" }) == true,
        name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else {
        throw Options.UsageError(message: "'\(rawName)' in the header of '\(csvPath)' is not a usable name")
      }
      var type: TaxType = .text
      if parts.count == 2 {
        guard let declared = TaxType(name: parts[1]), declared != .brackets else {
          throw Options.UsageError(message: "unknown column type '\(parts[1])' in '\(csvPath)'")
        }
        type = declared
      } else if let sample = firstRow?.fields[safe: position] {
        type = inferType(sample.trimmingCharacters(in: .whitespaces), provinces: provinces)
      }
      columns.append(Column(name: name, type: type))
    }
    let compiled: TypedExpression
    switch session.compile(expression, name: "<expr>", locals: columns.map { ($0.name, $0.type) }) {
    case .success(let typed): compiled = typed
    case .failure(let list):
      Output.writeError(Output.renderer(session.sources).render(list.diagnostics))
      return 1
    }
    var status: Int32 = 0
    var output = OutputBuffer()
    var locals = [Value](repeating: .bool(false), count: columns.count)
    while let row = firstRow ?? reader.next() {
      firstRow = nil
      var rowError: String? = nil
      for (position, column) in columns.enumerated() {
        let text = (row.fields[safe: position] ?? "").trimmingCharacters(in: .whitespaces)
        if let value = parse(text, as: column.type, provinces: provinces) {
          locals[position] = value
        } else {
          rowError = "'\(text)' in column '\(column.name)' is not \(article(column.type)) \(column.type)"
          break
        }
      }
      if let rowError {
        output.flush()
        Output.writeError("\(csvPath):\(row.line): error: \(rowError)\n")
        output.append("\n")
        status = 1
        continue
      }
      switch session.evaluate(compiled, locals: locals) {
      case .success(let value):
        output.append(ValueFormatter.format(value))
        output.append("\n")
      case .failure(let list):
        output.flush()
        let message = list.diagnostics.first?.message ?? "evaluation failed"
        Output.writeError("\(csvPath):\(row.line): error: \(message)\n")
        output.append("\n")
        status = 1
      }
    }
    output.flush()
    return status
  }

  static func article(_ type: TaxType) -> String {
    "AEIOU".contains(type.description.first ?? "x") ? "an" : "a"
  }

  static func inferType(_ sample: String, provinces: Set<String>) -> TaxType {
    if sample.hasPrefix("$") || sample.hasPrefix("-$") { return .money }
    if sample.hasSuffix("%") { return .rate }
    if sample == "true" || sample == "false" { return .bool }
    if provinces.contains(sample) { return .province }
    if ExactDecimal(sample.replacingOccurrences(of: "_", with: "")) != nil { return .number }
    return .text
  }

  /// A field as a value of the column's type.
  static func parse(_ text: String, as type: TaxType, provinces: Set<String>) -> Value? {
    switch type {
    case .money:
      var digits = Substring(text)
      var negative = false
      if digits.hasPrefix("-") {
        negative = true
        digits = digits.dropFirst()
      }
      if digits.hasPrefix("$") { digits = digits.dropFirst() }
      let cleaned = digits.filter { $0 != "," && $0 != "_" }
      guard let value = ExactDecimal(cleaned) else { return nil }
      return .money((negative ? -value : value).rounded(places: 2, .halfAwayFromZero))
    case .rate:
      guard text.hasSuffix("%"), let value = ExactDecimal(String(text.dropLast())),
        let fraction = try? value.scaled(byPowerOfTen: -2)
      else { return nil }
      return .rate(fraction)
    case .number:
      return ExactDecimal(text.replacingOccurrences(of: "_", with: "")).map { .number($0) }
    case .bool:
      return text == "true" ? .bool(true) : (text == "false" ? .bool(false) : nil)
    case .province:
      return provinces.contains(text) ? .province(text) : nil
    case .text:
      return .text(text)
    case .brackets, .federal, .error:
      return nil
    }
  }
}

/// Collects output and writes it in large chunks.
struct OutputBuffer {
  var bytes: [UInt8] = []

  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    if bytes.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    guard !bytes.isEmpty else { return }
    FileHandle.standardOutput.write(Data(bytes))
    bytes.removeAll(keepingCapacity: true)
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
