import Foundation
import Glibc

/// A small RFC 4180 reader: fields separated by commas, optionally quoted with `"` (a quote inside doubled).
///
/// Fields are byte ranges into the file (a quoted field's bytes are unescaped into a scratch buffer), so reading a
/// million rows builds no strings. The file's bytes are a buffer that outlives every reader (`CSVFile`).
struct CSVReader {
  /// Where a field's bytes are: in the file, or (quoted fields) in `scratch`.
  struct Field {
    var start: Int
    var end: Int
    var inScratch: Bool
  }

  let bytes: UnsafeBufferPointer<UInt8>
  var index: Int
  /// Where this reader stops (a chunk's end, or the end of the file).
  let end: Int
  /// 1-based line number of the record being read.
  var line: Int
  /// The fields of the last record read by `nextRecord`: the first `fieldCount` of `fields` (which is reused from
  /// record to record rather than emptied and refilled).
  var fields: [Field] = []
  var fieldCount = 0
  var scratch: [UInt8] = []

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    self.end = bytes.count
    self.line = 1
    // Skip a byte-order mark.
    self.index = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  /// A reader of the records in `range`, which starts at a record boundary on line `line`.
  init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, line: Int) {
    self.bytes = bytes
    self.index = range.lowerBound
    self.end = range.upperBound
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

  /// The next record's fields, or nil at the end. Blank lines are skipped.
  mutating func next() -> (line: Int, fields: [String])? {
    guard let start = nextRecord() else { return nil }
    return (start, (0..<fieldCount).map { fieldString($0) ?? "" })
  }

  /// Reads the next record into `fields` and returns its line, or nil at the end. Blank lines are skipped.
  mutating func nextRecord() -> Int? {
    while index < end, bytes[index] == 10 || bytes[index] == 13 {
      if bytes[index] == 10 { line += 1 }
      index += 1
    }
    guard index < end else { return nil }
    let startLine = line
    fieldCount = 0
    if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
    while true {
      if index < end, bytes[index] == 34 {
        if readQuotedField() { return startLine }
        continue
      }
      // An unquoted field: quotes inside it are plain bytes.
      let start = index
      while index < end {
        let byte = bytes[index]
        if byte == 44 || byte == 10 || byte == 13 { break }
        index += 1
      }
      addField(Field(start: start, end: index, inScratch: false))
      if finishField() { return startLine }
    }
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
    if byte == 13, index + 1 < end, bytes[index + 1] == 10 { index += 1 }
    index += 1
    line += 1
    return true
  }

  /// A field that starts with `"`, unescaped into `scratch`; returns whether the record ended after it.
  mutating func readQuotedField() -> Bool {
    let start = scratch.count
    var quoted = false
    var empty = true
    while index < end {
      let byte = bytes[index]
      if quoted {
        if byte == 34 {
          if index + 1 < end, bytes[index + 1] == 34 {
            scratch.append(34)
            empty = false
            index += 2
            continue
          }
          quoted = false
          index += 1
          continue
        }
        if byte == 10 { line += 1 }
        scratch.append(byte)
        empty = false
        index += 1
        continue
      }
      switch byte {
      case 34 where empty:
        quoted = true
        index += 1
      case 44, 10, 13:
        addField(Field(start: start, end: scratch.count, inScratch: true))
        return finishField()
      default:
        scratch.append(byte)
        empty = false
        index += 1
      }
    }
    addField(Field(start: start, end: scratch.count, inScratch: true))
    return true
  }

  /// Splits `range` (which starts at a record boundary on line `line`) into up to `parts` pieces that each start at a
  /// record boundary, with the line each starts on. Files with quotes or carriage returns are not split: only a full
  /// read can tell their record boundaries and line numbers. (`memchr` looks for those bytes and counts the lines.)
  static func split(
    _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int, parts: Int
  ) -> [(range: Range<Int>, line: Int)] {
    guard parts > 1, range.count > 1 << 18, let base = buffer.baseAddress else { return [(range, line)] }
    func find(_ byte: UInt8, from start: Int, to end: Int) -> Int? {
      guard start < end, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
    if find(34, from: range.lowerBound, to: range.upperBound) != nil
      || find(13, from: range.lowerBound, to: range.upperBound) != nil
    {
      return [(range, line)]
    }
    var pieces: [(range: Range<Int>, line: Int)] = []
    var start = range.lowerBound
    var startLine = line
    for part in 1..<parts {
      // The first record boundary at or after the even cut.
      let even = range.lowerBound + range.count / parts * part
      guard even > start, let newline = find(10, from: even - 1, to: range.upperBound) else { continue }
      let cut = newline + 1
      guard cut < range.upperBound else { break }
      pieces.append((start..<cut, startLine))
      var newlines = 0
      var position = start
      while let next = find(10, from: position, to: cut) {
        newlines += 1
        position = next + 1
      }
      startLine += newlines
      start = cut
    }
    pieces.append((start..<range.upperBound, startLine))
    return pieces
  }
}

/// A file's bytes in memory of their own, kept for as long as rows are read from them.
///
/// The file is opened at once (so that a missing file or a directory is reported before anything else) and read on a
/// thread of its own while the standard library loads: reading 13 MB into fresh memory takes about as long as loading
/// it, and they need not wait for each other.
final class CSVFile: @unchecked Sendable {
  private let descriptor: Int32
  private let sizeHint: Int
  private var memory: UnsafeMutableRawPointer?
  private var count = 0
  private var failed = false
  private let done = DispatchSemaphore(value: 0)

  /// Opens the file and starts reading it; nil when it cannot be opened, or is a directory.
  init?(path: String) {
    descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    var status = stat()
    let isDirectory = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    guard !isDirectory else {
      close(descriptor)
      return nil
    }
    sizeHint = status.st_size > 0 ? Int(status.st_size) + 1 : 1 << 16
    let thread = Thread { [self] in
      readAll()
      done.signal()
    }
    thread.start()
  }

  /// The whole file once read (waiting for the reading thread); nil when reading failed.
  lazy var bytes: UnsafeBufferPointer<UInt8>? = {
    done.wait()
    // Left signalled, so that `deinit` (or anyone else) waiting for the reading thread does not wait forever.
    done.signal()
    guard !failed, let memory else { return nil }
    return UnsafeBufferPointer(start: memory.assumingMemoryBound(to: UInt8.self), count: count)
  }()

  private func readAll() {
    defer { close(descriptor) }
    var capacity = sizeHint
    var memory = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    var count = 0
    while true {
      if count == capacity {
        let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
        larger.copyMemory(from: memory, byteCount: count)
        memory.deallocate()
        memory = larger
        capacity *= 2
      }
      let read = Glibc.read(descriptor, memory + count, capacity - count)
      if read < 0 && errno == EINTR { continue }
      guard read >= 0 else {
        memory.deallocate()
        failed = true
        return
      }
      if read == 0 { break }
      count += read
    }
    self.memory = memory
    self.count = count
  }

  deinit {
    done.wait()
    memory?.deallocate()
  }
}
