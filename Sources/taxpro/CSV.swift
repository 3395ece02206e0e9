import Foundation
import Glibc
import TaxProREPL

/// Strict RFC 4180 records: fields separated by commas, a record ended by CRLF or LF (or the end of the input), a field
/// either unquoted (no `"`, CR or LF in it) or wholly quoted with `"` (a quote inside doubled, commas and line breaks
/// allowed). A record that breaks a rule is still read to its end, and `problem` says what is wrong with it; blank lines
/// are skipped (they still count as lines).
///
/// Fields are byte ranges into the buffer (a quoted field's bytes are unescaped into a scratch buffer), so reading a
/// million rows builds no strings. The buffer starts at a record boundary.
struct CSVRecords {
  /// Where a field's bytes are: in the buffer, or (quoted fields) in `scratch`.
  struct Field {
    var start: Int
    var end: Int
    var inScratch: Bool
  }

  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  let end: Int
  /// 1-based line (counted from the buffer's start) of where reading is.
  var line: Int
  /// The fields of the last record read by `nextRecord`: the first `fieldCount` of `fields` (which is reused from
  /// record to record rather than emptied and refilled).
  var fields: [Field] = []
  var fieldCount = 0
  var scratch: [UInt8] = []
  /// Why the last record is not valid CSV; nil when it is.
  var problem: String?

  init(bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, line: Int = 1) {
    self.bytes = bytes
    self.index = start
    self.end = bytes.count
    self.line = line
  }

  var atEnd: Bool { index >= end }

  /// The bytes of field `position` of the last record (empty when the record has fewer fields).
  @inline(__always) func withField<R>(_ position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    guard position < fieldCount else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    let field = fields[position]
    if field.inScratch {
      return scratch.withUnsafeBufferPointer { buffer in body(UnsafeBufferPointer(rebasing: buffer[field.start..<field.end])) }
    }
    return body(UnsafeBufferPointer(rebasing: bytes[field.start..<field.end]))
  }

  func fieldString(_ position: Int) -> String? {
    guard position < fieldCount else { return nil }
    return withField(position) { String(decoding: $0, as: UTF8.self) }
  }

  /// The next record's fields, or nil at the end.
  mutating func next() -> (line: Int, fields: [String])? {
    guard let start = nextRecord() else { return nil }
    return (start, (0..<fieldCount).map { fieldString($0) ?? "" })
  }

  /// Reads the next record into `fields` and returns the line it starts on, or nil at the end.
  mutating func nextRecord() -> Int? {
    while index < end {
      if bytes[index] == 10 {
        line += 1
        index += 1
      } else if bytes[index] == 13, index + 1 < end, bytes[index + 1] == 10 {
        line += 1
        index += 2
      } else {
        break
      }
    }
    guard index < end else { return nil }
    let startLine = line
    fieldCount = 0
    problem = nil
    if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
    while true {
      if index < end, bytes[index] == 34 {
        readQuotedField()
      } else {
        let start = index
        scanUnquoted()
        addField(Field(start: start, end: index, inScratch: false))
      }
      if finishField() { return startLine }
    }
  }

  /// Moves past the bytes of an unquoted field (or what follows a closing quote): up to a comma or a line break.
  @inline(__always) mutating func scanUnquoted() {
    while index < end {
      let byte = bytes[index]
      if byte == 44 || byte == 10 { return }
      if byte == 13 {
        if index + 1 < end, bytes[index + 1] == 10 { return }
        report("a carriage return outside quotes")
      } else if byte == 34 {
        report("a quote inside a field that does not start with one (quote the whole field and double the quote)")
      }
      index += 1
    }
  }

  mutating func report(_ message: String) {
    if problem == nil { problem = message }
  }

  @inline(__always) mutating func addField(_ field: Field) {
    if fieldCount < fields.count {
      fields[fieldCount] = field
    } else {
      fields.append(field)
    }
    fieldCount += 1
  }

  /// After a field: skips a comma (false: another field follows) or a line break (true: the record ends).
  mutating func finishField() -> Bool {
    guard index < end else { return true }
    let byte = bytes[index]
    if byte == 44 {
      index += 1
      // A comma at the very end of the input still ends with an empty last field.
      if index >= end {
        addField(Field(start: index, end: index, inScratch: false))
        return true
      }
      return false
    }
    if byte == 13 { index += 1 }
    index += 1
    line += 1
    return true
  }

  /// A field that starts with `"`, unescaped into `scratch`. Anything between its closing quote and the next comma or
  /// line break is a problem (and kept in the field, so nothing is silently dropped).
  mutating func readQuotedField() {
    let start = scratch.count
    index += 1
    var closed = false
    while index < end {
      let byte = bytes[index]
      if byte == 34 {
        if index + 1 < end, bytes[index + 1] == 34 {
          scratch.append(34)
          index += 2
          continue
        }
        index += 1
        closed = true
        break
      }
      if byte == 10 { line += 1 }
      scratch.append(byte)
      index += 1
    }
    if !closed {
      report("a quoted field is not closed")
    } else if index < end, bytes[index] != 44, bytes[index] != 10,
      !(bytes[index] == 13 && index + 1 < end && bytes[index + 1] == 10)
    {
      report("text after the closing quote of a field")
      let rest = index
      scanUnquoted()
      scratch.append(contentsOf: bytes[rest..<index])
    }
    addField(Field(start: start, end: scratch.count, inScratch: true))
  }

  /// Where the last record ends in `bytes` (which starts at a record boundary): just after the last line feed outside
  /// quotes, by the same rules `nextRecord` reads with; nil when there is none, or fewer than `records` boundaries.
  static func lastBoundary(_ bytes: UnsafeBufferPointer<UInt8>, records: Int = 1) -> Int? {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
    if records <= 1, memchr(base, 34, bytes.count) == nil {
      // No quotes (the usual file): the last line feed is the boundary.
      var index = bytes.count - 1
      while index >= 0 {
        if bytes[index] == 10 { return index + 1 }
        index -= 1
      }
      return nil
    }
    var last: Int? = nil
    var found = 0
    var index = 0
    var fieldStart = true
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte == 34 && fieldStart {
        // A quoted field: to its closing quote (a doubled quote stays inside).
        index += 1
        while index < count {
          if bytes[index] == 34 {
            if index + 1 < count, bytes[index + 1] == 34 {
              index += 2
              continue
            }
            break
          }
          index += 1
        }
        fieldStart = false
      } else if byte == 44 {
        fieldStart = true
      } else if byte == 10 {
        fieldStart = true
        last = index + 1
        found += 1
      } else {
        fieldStart = false
      }
      index += 1
    }
    return found >= records ? last : nil
  }
}

/// The CSV input: a regular file, standard input (`-`), or a pipe.
///
/// Anything else given by path is refused before a byte is read: a character device such as `/dev/zero` would never
/// end, a directory is not text. A named FIFO is read like a pipe once a program writes to it; if none has opened it
/// for writing within `fifoWait`, it is refused rather than waited for forever.
final class CSVInput: @unchecked Sendable {
  let descriptor: Int32
  /// Bytes read while waiting for a FIFO's writer, handed out first.
  private var early: [UInt8] = []
  private var closeOnDeinit: Bool

  /// How long a named FIFO may stay without a writer.
  static let fifoWait: Duration = .seconds(5)

  private init(descriptor: Int32, closeOnDeinit: Bool) {
    self.descriptor = descriptor
    self.closeOnDeinit = closeOnDeinit
  }

  deinit {
    if closeOnDeinit { close(descriptor) }
  }

  static func open(_ path: String) throws(UsageError) -> CSVInput {
    if path == "-" { return CSVInput(descriptor: STDIN_FILENO, closeOnDeinit: false) }
    // Non-blocking, so that opening a FIFO without a writer returns at once.
    let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw UsageError(message: "cannot read '\(path)': \(SystemError.last)")
    }
    let input = CSVInput(descriptor: descriptor, closeOnDeinit: true)
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw UsageError(message: "cannot read '\(path)': \(SystemError.last)")
    }
    switch status.st_mode & S_IFMT {
    case S_IFREG:
      break
    case S_IFIFO:
      if !isAnonymousPipe(descriptor) { try input.waitForWriter(path) }
    default:
      throw UsageError(
        message: "cannot read '\(path)': \(SystemError.notRegular(status.st_mode)); give - to read standard input")
    }
    let flags = fcntl(descriptor, F_GETFL)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    return input
  }

  /// A pipe made by `pipe(2)` (`<(command)`, `/dev/stdin` on a pipe) rather than a FIFO on a file system: its writer
  /// already exists, or it has ended.
  private static func isAnonymousPipe(_ descriptor: Int32) -> Bool {
    var buffer = [CChar](repeating: 0, count: 64)
    let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
    guard length > 0 else { return false }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix("pipe:")
  }

  /// Waits for a program to open the FIFO for writing (a non-blocking read says `EAGAIN` once one has, and gives
  /// bytes once it wrote some); refuses it after `fifoWait`.
  private func waitForWriter(_ path: String) throws(UsageError) {
    let clock = ContinuousClock()
    let deadline = clock.now + Self.fifoWait
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        early = Array(buffer[0..<count])
        return
      }
      if count < 0 && errno == EAGAIN { return }
      if count < 0 && errno != EINTR {
        throw UsageError(message: "cannot read '\(path)': \(SystemError.last)")
      }
      if clock.now >= deadline {
        throw UsageError(
          message: "cannot read '\(path)': it is a FIFO that no program opened for writing within "
            + "\(Self.fifoWait.components.seconds) seconds")
      }
      usleep(20_000)
    }
  }

  /// Reads up to `count` bytes into `buffer`; 0 at the end of the input.
  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(CSVChunker.Failure) -> Int {
    if !early.isEmpty {
      let taken = min(count, early.count)
      early.withUnsafeBytes { source in
        if let start = source.baseAddress { buffer.copyMemory(from: start, byteCount: taken) }
      }
      early.removeFirst(taken)
      return taken
    }
    while true {
      let read = Glibc.read(descriptor, buffer, count)
      if read >= 0 { return read }
      if errno == EINTR { continue }
      if errno == EAGAIN {
        // Standard input left non-blocking by whoever started us: wait for it.
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&poller, 1, -1)
        continue
      }
      throw .readFailed(SystemError.last)
    }
  }
}

/// Cuts the input into pieces of whole records (about `blockSize` each), so that rows are read, evaluated and written
/// in bounded memory whatever the size of the input.
struct CSVChunker {
  enum Failure: Error {
    case readFailed(String)
    /// No record boundary in `maximumRecord` bytes: a row that long, or a quote never closed.
    case recordTooLong
  }

  static let blockSize = 1 << 20
  /// The longest row taken, in bytes.
  static let maximumRecord = 1 << 20

  let input: CSVInput
  var blockSize: Int
  private var carry: [UInt8] = []
  private var ended = false
  private var atStart = true

  init(input: CSVInput, blockSize: Int = CSVChunker.blockSize) {
    self.input = input
    self.blockSize = blockSize
  }

  /// The next piece: whole records (at least `records` of them unless the input ends first), or what is left at the
  /// end; nil when nothing is left.
  mutating func next(records: Int = 1) throws(Failure) -> [UInt8]? {
    var buffer = carry
    carry = []
    var target = max(buffer.count, 0) + blockSize
    while true {
      try fill(&buffer, to: target)
      if atStart && (buffer.count >= 3 || ended) {
        atStart = false
        // A byte-order mark is not part of the first field.
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { buffer.removeFirst(3) }
      }
      if ended {
        if buffer.count >= Self.maximumRecord + blockSize,
          buffer.withUnsafeBufferPointer({ CSVRecords.lastBoundary($0) }) == nil
        {
          throw .recordTooLong
        }
        return buffer.isEmpty ? nil : buffer
      }
      let boundary = buffer.withUnsafeBufferPointer { CSVRecords.lastBoundary($0, records: records) }
      if let boundary {
        carry = Array(buffer[boundary...])
        buffer.removeSubrange(boundary...)
        return buffer
      }
      if buffer.count >= Self.maximumRecord + blockSize { throw .recordTooLong }
      target = buffer.count + blockSize
    }
  }

  /// Reads until `buffer` holds `target` bytes or the input ends.
  private mutating func fill(_ buffer: inout [UInt8], to target: Int) throws(Failure) {
    guard !ended, buffer.count < target else { return }
    var count = buffer.count
    buffer.reserveCapacity(target)
    buffer.append(contentsOf: repeatElement(0, count: target - count))
    var failure: Failure? = nil
    buffer.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      while count < target {
        do throws(Failure) {
          let read = try input.read(into: base + count, count: target - count)
          if read == 0 {
            ended = true
            return
          }
          count += read
        } catch {
          failure = error
          return
        }
      }
    }
    buffer.removeSubrange(count...)
    if let failure { throw failure }
  }
}
