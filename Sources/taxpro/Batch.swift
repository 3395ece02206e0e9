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

  static func run(csvPath: String, expression: String, files: [String], year: Int?) throws(UsageError) -> Int32 {
    guard let file = CSVFile(path: csvPath) else {
      throw UsageError(message: "cannot read '\(csvPath)'")
    }
    guard let session = try Commands.session(files, year: year) else { return 1 }
    // Freed by the process's exit rather than object by object.
    KeptUntilExit.keep(session)
    KeptUntilExit.keep(file)
    guard let bytes = file.bytes else { throw UsageError(message: "cannot read '\(csvPath)'") }
    var reader = CSVReader(bytes: bytes)
    guard let header = reader.next() else { throw UsageError(message: "'\(csvPath)' is empty") }
    let rowsStart = (index: reader.index, line: reader.line)
    let firstRow = reader.next()
    let provinces = Set(session.program.provinceCodes)
    var columns: [Column] = []
    for (position, rawName) in header.fields.enumerated() {
      let parts = rawName.split(separator: ":", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
      let name = parts[0]
      guard !name.isEmpty, name.first.map({ $0.isLetter || $0 == "_" }) == true,
        name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else {
        throw UsageError(message: "'\(rawName)' in the header of '\(csvPath)' is not a usable name")
      }
      var type: TaxType = .text
      if parts.count == 2 {
        guard let declared = TaxType(name: parts[1]), declared != .brackets else {
          throw UsageError(message: "unknown column type '\(parts[1])' in '\(csvPath)'")
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
    // Rows are read again from just after the header, in pieces evaluated in parallel, each by its own evaluator;
    // the output keeps the rows' order.
    let body = rowsStart.index..<bytes.count
    let parts = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)
    let pieces = CSVReader.split(bytes, body, line: rowsStart.line, parts: parts)
    let batch = Rows(
      bytes: bytes, columns: columns, parser: FieldParser(provinces: session.program.provinceCodes),
      program: session.program, year: session.year,
      limits: session.limits, expression: compiled, csvPath: csvPath)
    let results = Parallel.map(pieces) { piece in batch.evaluate(piece.range, line: piece.line) }
    KeptUntilExit.keep(results)
    var status: Int32 = 0
    for result in results {
      var written = 0
      for error in result.errors {
        Output.write(result.output[written..<error.offset])
        written = error.offset
        Output.writeError(error.message)
        status = 1
      }
      Output.write(result.output[written...])
    }
    return status
  }

  /// The rows of one piece of the file: their output, and the errors with where they fall in it.
  struct PieceResult {
    var output: [UInt8] = []
    var errors: [(offset: Int, message: String)] = []
  }

  /// Everything needed to evaluate rows, shared by the threads (all of it immutable).
  struct Rows: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    let columns: [Column]
    let parser: FieldParser
    let program: Program
    let year: Int
    let limits: EvaluationLimits
    let expression: TypedExpression
    let csvPath: String

    func evaluate(_ range: Range<Int>, line: Int) -> PieceResult {
      let evaluator = Evaluator(program: program, year: year, limits: limits)
      let compiled = CompiledExpression(expression, evaluator: evaluator)
      var reader = CSVReader(bytes: bytes, range: range, line: line)
      var result = PieceResult()
      result.output.reserveCapacity(range.count)
      var locals = [Value](repeating: .bool(false), count: columns.count)
      rows: while let rowLine = reader.nextRecord() {
        for (position, column) in columns.enumerated() {
          guard let value = reader.withField(position, { parser.parse($0, as: column.type) }) else {
            let text = (reader.fieldString(position) ?? "").trimmingCharacters(in: .whitespaces)
            let message = "'\(text)' in column '\(column.name)' is not \(article(column.type)) \(column.type)"
            result.errors.append((result.output.count, "\(csvPath):\(rowLine): error: \(message)\n"))
            result.output.append(10)
            continue rows
          }
          locals[position] = value
        }
        do {
          let value = try compiled.evaluate(locals: locals)
          ValueFormatter.write(value, to: &result.output)
          result.output.append(10)
        } catch {
          result.errors.append(
            (result.output.count, "\(csvPath):\(rowLine): error: \(error.diagnostic.message)\n"))
          result.output.append(10)
        }
      }
      return result
    }
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
}

/// Runs work on threads with the roomy stack the core's depth bounds assume.
enum Parallel {
  /// `transform` of each item, the first on the calling thread and the others on threads of their own.
  static func map<Item, Result>(_ items: [Item], _ transform: @escaping @Sendable (Item) -> Result) -> [Result] {
    guard items.count > 1 else { return items.map(transform) }
    let slots = items.indices.map { _ in Slot<Result>() }
    let done = DispatchSemaphore(value: 0)
    for index in items.indices.dropFirst() {
      let item = UncheckedBox(items[index])
      let slot = slots[index]
      let thread = Thread {
        slot.result = transform(item.value)
        done.signal()
      }
      thread.stackSize = 512 << 20
      thread.start()
    }
    slots[0].result = transform(items[0])
    for _ in items.indices.dropFirst() { done.wait() }
    return slots.compactMap { $0.result }
  }

  /// Where a thread leaves its result; read only after the thread has signalled.
  final class Slot<Result>: @unchecked Sendable {
    var result: Result?
  }

  struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
