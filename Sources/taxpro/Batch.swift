import Foundation
import TaxProCore

/// `taxpro eval --csv FILE 'EXPR'`: one result per row, with the row's columns as names in the expression.
///
/// The input is strict RFC 4180 (`CSVRecords`): a row with more or fewer fields than the header, or a field that
/// breaks the quoting rules, is an error naming its line, and so is a value that is not of its column's type by the
/// language's own literal rules (`FieldParser`). A column's type comes from its header when written `name:Type`
/// (`income:Money`), otherwise from its first value: `$…` is Money, `…%` a Rate, a number a Number, `true`/`false` a
/// Bool, a province code a Province, anything else Text. A header with an empty, unusable or repeated name is a usage
/// error before any row is read.
///
/// The output is a CSV column, one cell per row (an empty cell where the row had an error): cells with a comma, a quote
/// or a line break are quoted as RFC 4180 says, and a Text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage
/// return gets a leading `'`, so that a spreadsheet does not run it as a formula (OWASP's rule against CSV injection),
/// unless `--raw`. Cells TaxPro formats itself (amounts, rates, numbers, true/false, codes) are never formulas.
///
/// Rows stream through in bounded memory: the input is cut into pieces of whole records (`CSVChunker`), evaluated by
/// one worker per core (each with its own evaluator) and written in the rows' order, with at most a few pieces in
/// flight — so the memory used does not grow with the size of the input.
enum Batch {
  struct Column {
    var name: String
    var type: TaxType
    /// The first row's value the type was read from, when the header does not say it (`name:Type`).
    var inferredFrom: String? = nil
  }

  static func run(
    csvPath: String, expression: String, files: [String], year: Int?, raw: Bool
  ) throws(UsageError) -> Int32 {
    // Opened first: a missing file or a device is refused before the library loads.
    let input = try CSVInput.open(csvPath)
    guard let session = try Commands.session(files, year: year) else { return 1 }
    // Freed by the process's exit rather than object by object.
    KeptUntilExit.keep(session)
    var chunker = CSVChunker(input: input)
    var firstPiece: [UInt8]?
    do throws(CSVChunker.Failure) {
      firstPiece = try chunker.next(records: 2)
    } catch {
      switch error {
      case .readFailed(let reason):
        throw UsageError(message: "cannot read '\(csvPath)': \(reason)")
      case .recordTooLong:
        throw UsageError(
          message: "the header or first row of '\(csvPath)' is longer than \(CSVChunker.maximumRecord >> 20) MiB")
      }
    }
    guard let first = firstPiece else { throw UsageError(message: "'\(csvPath)' is empty") }
    let provinces = Set(session.program.provinceCodes)
    let (columns, afterHeader) = try first.withUnsafeBufferPointer { (buffer) throws(UsageError) in
      var records = CSVRecords(bytes: buffer)
      guard let header = records.next() else { throw UsageError(message: "'\(csvPath)' is empty") }
      if let problem = records.problem {
        throw UsageError(message: "the header of '\(csvPath)' is not valid CSV: \(problem)")
      }
      let afterHeader = (index: records.index, line: records.line)
      let firstRow = records.next()
      return (try Self.columns(header.fields, firstRow: firstRow?.fields, csvPath: csvPath, provinces: provinces), afterHeader)
    }
    let compiled: TypedExpression
    switch session.compile(expression, name: "<expr>", locals: columns.map { ($0.name, $0.type) }) {
    case .success(let typed): compiled = typed
    case .failure(let list):
      Output.writeError(Output.renderer(session.sources).render(list.diagnostics))
      if list.diagnostics.contains(where: { $0.code == .unknownName }) {
        var names = columns.map(\.name).joined(separator: ", ")
        if names.count > 200 { names = String(names.prefix(200)) + "…" }
        Output.writeError("note: the columns of '\(csvPath)' are \(names)\n")
      }
      for note in inferredTypeNotes(list.diagnostics, sources: session.sources, columns: columns, csvPath: csvPath) {
        Output.writeError(note)
      }
      return 1
    }
    let rows = Rows(
      columns: columns, parser: FieldParser(provinces: session.program.provinceCodes), program: session.program,
      year: session.year, limits: session.limits, expression: compiled, raw: raw)
    let workers = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8)
    let pipeline = Pipeline(capacity: workers * 2 + 2)
    for _ in 0..<workers {
      let thread = Thread {
        let worker = rows.worker()
        while let piece = pipeline.take() {
          pipeline.complete(piece.index, worker.evaluate(piece))
        }
      }
      // The core's depth bounds assume a roomy stack.
      thread.stackSize = coreThreadStackSize
      thread.start()
    }
    let rest = chunker
    let reader = Thread {
      var chunker = rest
      var index = 0
      pipeline.submit(Piece(index: 0, bytes: first, start: afterHeader.index))
      index += 1
      do throws(CSVChunker.Failure) {
        while let bytes = try chunker.next() {
          pipeline.submit(Piece(index: index, bytes: bytes, start: 0))
          index += 1
        }
        pipeline.finish(count: index, failure: nil)
      } catch {
        pipeline.finish(count: index, failure: error)
      }
    }
    reader.start()
    // The results, in order, as they come.
    var status: Int32 = 0
    var line = afterHeader.line
    var index = 0
    while let outcome = pipeline.result(index) {
      switch outcome {
      case .rows(let result):
        var written = 0
        for error in result.errors {
          Output.write(result.output[written..<error.offset])
          written = error.offset
          Output.writeError("\(csvPath):\(line + error.line - 1): error: \(error.message)\n")
          status = 1
        }
        Output.write(result.output[written...])
        line += result.lines
      case .failed(.recordTooLong):
        Output.writeError(
          "\(csvPath):\(line): error: a row longer than \(CSVChunker.maximumRecord >> 20) MiB starts here "
            + "(or a quoted field is never closed); stopped reading\n")
        return 1
      case .failed(.readFailed(let reason)):
        Output.writeError("\(csvPath):\(line): error: reading stopped: \(reason)\n")
        return 1
      }
      index += 1
    }
    return status
  }

  /// A note for each column whose type was read from its first value and that a type mismatch is about (the
  /// diagnostic's span, in `sources`, is the column's name): a column of plain numbers is Number, and
  /// `tax(…, income)` wants Money, which the header can say.
  static func inferredTypeNotes(
    _ diagnostics: [Diagnostic], sources: [FileID: SourceFile], columns: [Column], csvPath: String
  ) -> [String] {
    let named = Set(
      diagnostics.filter { $0.code == .typeMismatch }.compactMap { sources[$0.span.file]?.text(of: $0.span) })
    return columns.compactMap { column in
      guard let sample = column.inferredFrom, named.contains(column.name) else { return nil }
      let shown = sample.count > 40 ? String(sample.prefix(40)) + "…" : sample
      return "note: column '\(column.name)' of '\(csvPath)' is \(column.type), read from its first value "
        + "'\(shown.escapingControlCharacters(tabs: false))'; the header can name its type, like \(column.name):Money\n"
    }
  }

  /// The columns the header names, typed; every problem with them is a usage error, before any row.
  static func columns(
    _ header: [String], firstRow: [String]?, csvPath: String, provinces: Set<String>
  ) throws(UsageError) -> [Column] {
    var columns: [Column] = []
    var seen: [String: Int] = [:]
    for (position, rawName) in header.enumerated() {
      let parts = rawName.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        .map { String($0).trimmingCharacters(in: .whitespaces) }
      let name = parts[0]
      let shown = rawName.escapingControlCharacters(tabs: false)
      guard !name.isEmpty else {
        throw UsageError(message: "column \(position + 1) of the header of '\(csvPath)' has no name")
      }
      guard name.first.map({ $0.isLetter || $0 == "_" }) == true, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else {
        throw UsageError(message: "'\(shown)' in the header of '\(csvPath)' is not a usable name")
      }
      if let earlier = seen[name] {
        throw UsageError(
          message: "column '\(name)' appears twice in the header of '\(csvPath)' (columns \(earlier + 1) and \(position + 1))")
      }
      seen[name] = position
      var type: TaxType = .text
      var inferredFrom: String? = nil
      if parts.count == 2 {
        guard let declared = TaxType(name: parts[1]), declared != .brackets else {
          throw UsageError(
            message: "unknown column type '\(parts[1].escapingControlCharacters(tabs: false))' in '\(csvPath)'")
        }
        type = declared
      } else if let sample = firstRow?[safe: position] {
        let trimmed = sample.trimmingCharacters(in: .whitespaces)
        type = inferType(trimmed, provinces: provinces)
        inferredFrom = trimmed
      }
      columns.append(Column(name: name, type: type, inferredFrom: inferredFrom))
    }
    return columns
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

  // MARK: Rows

  /// Whole records from the input, and where in `bytes` they start (after the header in the first piece).
  struct Piece: @unchecked Sendable {
    var index: Int
    var bytes: [UInt8]
    var start: Int
  }

  /// The rows of one piece: their output, the errors with where they fall in it, and how many lines the piece had.
  struct PieceResult: Sendable {
    var output: [UInt8] = []
    /// `line` counts from 1 at the piece's first byte.
    var errors: [(offset: Int, line: Int, message: String)] = []
    var lines = 0
  }

  /// Everything needed to evaluate rows, shared by the threads (all of it immutable).
  struct Rows: @unchecked Sendable {
    let columns: [Column]
    let parser: FieldParser
    let program: Program
    let year: Int
    let limits: EvaluationLimits
    let expression: TypedExpression
    let raw: Bool

    /// An evaluator for one thread.
    func worker() -> Worker {
      let evaluator = Evaluator(program: program, year: year, limits: limits)
      return Worker(rows: self, compiled: CompiledExpression(expression, evaluator: evaluator))
    }
  }

  /// Evaluates pieces on one thread.
  struct Worker {
    let rows: Rows
    let compiled: CompiledExpression

    func evaluate(_ piece: Piece) -> PieceResult {
      let columns = rows.columns
      var result = PieceResult()
      result.output.reserveCapacity(piece.bytes.count - piece.start)
      var locals = [Value](repeating: .bool(false), count: columns.count)
      piece.bytes.withUnsafeBufferPointer { buffer in
        var reader = CSVRecords(bytes: buffer, from: piece.start)
        func fail(_ line: Int, _ message: String) {
          result.errors.append((result.output.count, line, message))
          result.output.append(10)
        }
        rows: while let rowLine = reader.nextRecord() {
          if let problem = reader.problem {
            fail(rowLine, "this row is not valid CSV: \(problem)")
            continue
          }
          guard reader.fieldCount == columns.count else {
            fail(rowLine, Batch.fieldCountMessage(reader.fieldCount, columns))
            continue
          }
          for (position, column) in columns.enumerated() {
            guard let value = reader.withField(position, { rows.parser.parse($0, as: column.type) }) else {
              let text = (reader.fieldString(position) ?? "").trimmingCharacters(in: .whitespaces)
              var message =
                "'\(text.escapingControlCharacters(tabs: false))' in column '\(column.name)' is not "
                + "\(Batch.article(column.type)) \(column.type)"
              if let reason = rows.parser.rejection(text, as: column.type) { message += ": \(reason)" }
              fail(rowLine, message)
              continue rows
            }
            locals[position] = value
          }
          do throws(RuntimeError) {
            let value = try compiled.evaluate(locals: locals)
            Batch.writeCell(value, to: &result.output, raw: rows.raw)
            result.output.append(10)
          } catch {
            fail(rowLine, error.diagnostic.message)
          }
        }
        result.lines = reader.line - 1
      }
      return result
    }
  }

  static func fieldCountMessage(_ count: Int, _ columns: [Column]) -> String {
    let fields = "\(count) field\(count == 1 ? "" : "s")"
    var message = "this row has \(fields) but the header has \(columns.count)"
    if count > columns.count && columns.contains(where: { $0.type == .money }) {
      message += " (an amount with a comma must be quoted: \"$85,000.99\")"
    }
    return message
  }

  /// One output cell: quoted when it holds a comma, a quote or a line break (RFC 4180), and a Text cell that a
  /// spreadsheet would take for a formula made plain with a leading `'` unless `raw`.
  @inline(__always)
  static func writeCell(_ value: Value, to output: inout [UInt8], raw: Bool) {
    let start = output.count
    // Room for an opening quote, taken out again when the cell needs none.
    output.append(34)
    if !raw, case .text(let text) = value, let first = text.utf8.first,
      first == UInt8(ascii: "=") || first == UInt8(ascii: "+") || first == UInt8(ascii: "-")
        || first == UInt8(ascii: "@") || first == 9 || first == 13
    {
      output.append(UInt8(ascii: "'"))
    }
    ValueFormatter.write(value, to: &output)
    var needsQuotes = false
    var hasQuote = false
    for index in (start + 1)..<output.count {
      let byte = output[index]
      if byte == 44 || byte == 10 || byte == 13 {
        needsQuotes = true
      } else if byte == 34 {
        needsQuotes = true
        hasQuote = true
      }
    }
    if !needsQuotes {
      output.remove(at: start)
      return
    }
    if hasQuote {
      let cell = Array(output[(start + 1)...])
      output.removeSubrange((start + 1)...)
      for byte in cell {
        output.append(byte)
        if byte == 34 { output.append(34) }
      }
    }
    output.append(34)
  }
}

/// Pieces of the input on their way through the workers, and their results on their way out in order. At most
/// `capacity` pieces are read and not yet written, which bounds the memory; the reader waits when they are.
final class Pipeline: @unchecked Sendable {
  enum Outcome {
    case rows(Batch.PieceResult)
    case failed(CSVChunker.Failure)
  }

  private let condition = NSCondition()
  private let capacity: Int
  private var waiting: [Batch.Piece] = []
  private var finished: [Int: Batch.PieceResult] = [:]
  private var inFlight = 0
  private var count: Int?
  private var failure: CSVChunker.Failure?

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Hands a piece to the workers, waiting while `capacity` pieces are in flight.
  func submit(_ piece: Batch.Piece) {
    condition.lock()
    while inFlight >= capacity { condition.wait() }
    inFlight += 1
    waiting.append(piece)
    condition.broadcast()
    condition.unlock()
  }

  /// The input ended after `count` pieces (or failed there).
  func finish(count: Int, failure: CSVChunker.Failure?) {
    condition.lock()
    self.count = count
    self.failure = failure
    condition.broadcast()
    condition.unlock()
  }

  /// The next piece for a worker; nil once the input has ended and every piece was taken.
  func take() -> Batch.Piece? {
    condition.lock()
    defer { condition.unlock() }
    while waiting.isEmpty {
      if count != nil { return nil }
      condition.wait()
    }
    return waiting.removeFirst()
  }

  func complete(_ index: Int, _ result: Batch.PieceResult) {
    condition.lock()
    finished[index] = result
    condition.broadcast()
    condition.unlock()
  }

  /// Piece `index`'s result, waiting for it; nil after the last.
  func result(_ index: Int) -> Outcome? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let result = finished.removeValue(forKey: index) {
        inFlight -= 1
        condition.broadcast()
        return .rows(result)
      }
      if let count, index >= count {
        if index == count, let failure { return .failed(failure) }
        return nil
      }
      condition.wait()
    }
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
