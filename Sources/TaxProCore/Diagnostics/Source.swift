/// Identifies one source text within a program: a file, the standard library's files, an expression typed in.
public struct FileID: Hashable, Sendable, Comparable {
  public let rawValue: Int
  public init(_ rawValue: Int) { self.rawValue = rawValue }
  public static func < (lhs: FileID, rhs: FileID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A half-open range of UTF-8 byte offsets in one source.
///
/// Every node of every tree carries spans, so they are stored in 32 bits each (12 bytes rather than 24; sources are
/// read up to 2 GiB, see `Lexer`).
public struct Span: Hashable, Sendable {
  var storedFile: Int32
  var storedStart: Int32
  var storedEnd: Int32

  public var file: FileID {
    get { FileID(Int(storedFile)) }
    set { storedFile = Int32(clamping: newValue.rawValue) }
  }
  public var start: Int {
    get { Int(storedStart) }
    set { storedStart = Int32(clamping: newValue) }
  }
  public var end: Int {
    get { Int(storedEnd) }
    set { storedEnd = Int32(clamping: newValue) }
  }

  public init(file: FileID, start: Int, end: Int) {
    storedFile = Int32(clamping: file.rawValue)
    storedStart = Int32(clamping: start)
    storedEnd = Int32(clamping: max(start, end))
  }

  /// The smallest span covering both.
  public func to(_ other: Span) -> Span {
    Span(file: file, start: min(start, other.start), end: max(end, other.end))
  }

  public func contains(_ offset: Int) -> Bool { offset >= start && offset < end }
  /// Like `contains`, but also true just after the last byte (where an editor's cursor sits after a word).
  public func touches(_ offset: Int) -> Bool { offset >= start && offset <= end }
  public var length: Int { end - start }
}

/// A line and column, both counted from 1; the column counts Unicode scalars, as compilers print them.
public struct LineColumn: Hashable, Sendable {
  public var line: Int
  public var column: Int
}

/// The text of one source with its line table.
///
/// The UTF-8 bytes are what everything reads; the text as a `String` is made from them when asked for, so a large
/// file is held once rather than twice.
public struct SourceFile: Sendable {
  public let id: FileID
  /// How diagnostics name it: a path, `<expr>`, `<stdin>`, `<std>/ON.tax`.
  public let name: String
  public let bytes: [UInt8]
  /// Byte offset of the first byte of each line. Lines end at "\n", "\r\n" or a lone "\r" (the lexer's line breaks,
  /// and the protocol's).
  public let lineStarts: [Int]
  /// Whether a "\r" is anywhere in the text (found with the line starts, at no extra cost).
  public let containsCarriageReturn: Bool
  /// The number of the first line, for text that is part of a larger input (a statement read from standard input).
  public let firstLine: Int

  public init(id: FileID, name: String, text: String, firstLine: Int = 1) {
    self.init(id: id, name: name, validBytes: Array(text.utf8), firstLine: firstLine)
  }

  /// A source from bytes as read from a file: invalid UTF-8 is repaired exactly as `String(decoding:as:)` repairs it,
  /// so this is the same source as one made from that string, without making the string.
  public init(id: FileID, name: String, bytes: [UInt8], firstLine: Int = 1) {
    let valid = bytes.withUnsafeBufferPointer { buffer in
      // ASCII (most sources) needs no decoding: eight bytes at a time, no byte with the high bit.
      var ascii = true
      var index = 0
      if let base = buffer.baseAddress {
        while index + 8 <= buffer.count {
          if UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
            ascii = false
            break
          }
          index += 8
        }
      }
      while ascii && index < buffer.count {
        if buffer[index] >= 0x80 { ascii = false }
        index += 1
      }
      if ascii { return true }
      var iterator = buffer.makeIterator()
      var decoder = UTF8()
      while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: return true
        case .error: return false
        }
      }
    }
    self.init(
      id: id, name: name, validBytes: valid ? bytes : Array(String(decoding: bytes, as: UTF8.self).utf8),
      firstLine: firstLine)
  }

  /// Where `bytes` are not valid UTF-8: the offset and value of the first byte of the first invalid sequence, and
  /// how many invalid sequences there are, each read as one U+FFFD (as `init(id:name:bytes:)` and
  /// `String(decoding:as:)` repair them). Nil when the bytes are valid.
  public static func invalidUTF8(in bytes: [UInt8]) -> (offset: Int, byte: UInt8, count: Int)? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    var first: (offset: Int, byte: UInt8)? = nil
    var count = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        offset += encoded.count
      case .error(let length):
        if first == nil { first = (offset, bytes[offset]) }
        count += 1
        offset += length
      case .emptyInput:
        guard let first else { return nil }
        return (first.offset, first.byte, count)
      }
    }
  }

  /// A `not-utf8` warning when this source was made from `bytes` that are not valid UTF-8, at the first replacement
  /// character the repair put in; none when they are valid. For the front ends that read files from disk: the
  /// parser sees only the repaired text, in which a U+FFFD may also be one the file really holds.
  public func encodingWarnings(readFrom bytes: [UInt8]) -> [Diagnostic] {
    // A valid file's bytes are this source's own (the same buffer): no second look at them.
    guard self.bytes != bytes, let bad = SourceFile.invalidUTF8(in: bytes) else { return [] }
    // The text before the first invalid sequence is the same in both; the sequence became 3 bytes (U+FFFD).
    let span = Span(file: id, start: bad.offset, end: min(bad.offset + 3, self.bytes.count))
    return [Diagnostic(.notUTF8(bad.byte, count: bad.count), at: span)]
  }

  init(id: FileID, name: String, validBytes bytes: [UInt8], firstLine: Int) {
    self.id = id
    self.name = name
    self.firstLine = firstLine
    self.bytes = bytes
    var starts = [0]
    starts.reserveCapacity(bytes.count / 32 + 1)
    let carriageReturn = bytes.withUnsafeBufferPointer { SourceFile.appendLineStarts(of: $0, to: &starts) }
    self.lineStarts = starts
    self.containsCarriageReturn = carriageReturn
  }

  /// Appends where each line of `buffer` after the first starts: after a "\n", and after a "\r" that no "\n"
  /// follows. Returns whether `buffer` holds a "\r". (A nested function appending to the caller's variables would
  /// reach them through a box, with an exclusivity check at each access: 7M instructions for a 40,000-line file.)
  ///
  /// A text without a "\r" (most of them) has its lines found by `memchr`, the C library's vectorised search, one
  /// line at a time: 2.8 MB of formulas (40,000 lines) in 2.5M instructions, against 18M eight bytes at a time, which
  /// was 6% of `taxpro check`'s thread and done before its parse could start.
  private static func appendLineStarts(of buffer: UnsafeBufferPointer<UInt8>, to starts: inout [Int]) -> Bool {
    if ByteWords.isAvailable, ByteWords.firstIndex(of: 13, in: buffer, from: 0) == nil {
      var offset = 0
      while let found = ByteWords.firstIndex(of: 10, in: buffer, from: offset) {
        offset = found + 1
        starts.append(offset)
      }
      return false
    }
    var carriageReturn = false
    var index = 0
    // Eight bytes at a time: a word with no "\n" or "\r" in it (most of them; lines are long) is passed over whole.
    if let base = buffer.baseAddress {
      while index + 8 <= buffer.count {
        if ByteWords.containsLineBreak(ByteWords.word(base, at: index)) {
          for offset in index..<(index + 8) {
            lineBreak(at: offset, in: buffer, starts: &starts, carriageReturn: &carriageReturn)
          }
        }
        index += 8
      }
    }
    while index < buffer.count {
      lineBreak(at: index, in: buffer, starts: &starts, carriageReturn: &carriageReturn)
      index += 1
    }
    return carriageReturn
  }

  @inline(__always)
  private static func lineBreak(
    at offset: Int, in buffer: UnsafeBufferPointer<UInt8>, starts: inout [Int], carriageReturn: inout Bool
  ) {
    let byte = buffer[offset]
    if byte == 10 {
      starts.append(offset + 1)
    } else if byte == 13 {
      carriageReturn = true
      if offset + 1 == buffer.count || buffer[offset + 1] != 10 { starts.append(offset + 1) }
    }
  }

  private init(
    id: FileID, name: String, firstLine: Int, bytes: [UInt8], lineStarts: [Int], containsCarriageReturn: Bool
  ) {
    self.id = id
    self.name = name
    self.firstLine = firstLine
    self.bytes = bytes
    self.lineStarts = lineStarts
    self.containsCarriageReturn = containsCarriageReturn
  }

  /// This text with `range` replaced by `replacement`: the same source as one made from the new bytes, but only the
  /// replaced part is looked at — the line starts before it are kept and those after it moved, where a new source
  /// would scan every byte again (a keystroke in a large document in the language server). `range` is clamped to the
  /// text; a range that splits a character is repaired, as a new source would repair it.
  public func replacing(_ range: Range<Int>, with replacement: [UInt8]) -> SourceFile {
    replacingWithEdit(range, with: replacement).file
  }

  /// `replacing(_:with:)`, and the edit it made when that is the bytes of `range` (clamped) replaced by
  /// `replacement`; nil when a split character had to be repaired (then only comparing the texts tells).
  public func replacingWithEdit(_ range: Range<Int>, with replacement: [UInt8]) -> (file: SourceFile, edit: SourceEdit?) {
    let low = max(0, min(range.lowerBound, bytes.count))
    let high = max(low, min(range.upperBound, bytes.count))
    var updated = bytes
    updated.replaceSubrange(low..<high, with: replacement)
    func isBoundary(_ offset: Int) -> Bool { offset >= bytes.count || bytes[offset] & 0xC0 != 0x80 }
    let removedReturn = bytes[low..<high].contains(13)
    let valid = replacement.allSatisfy { $0 < 0x80 } || String(validating: replacement, as: UTF8.self) != nil
    // (A "\r" taken out may have been the last: only a new source can tell.)
    let delta = replacement.count - (high - low)
    let newEnd = low + replacement.count
    guard isBoundary(low), isBoundary(high), valid, !(removedReturn && !replacement.contains(13)) else {
      let file = SourceFile(id: id, name: name, bytes: updated, firstLine: firstLine)
      // Valid UTF-8 is kept as it is: then the edit is still exactly the replaced range.
      let kept = file.bytes.count == updated.count && file.bytes == updated
      return (file, kept ? SourceEdit(start: low, oldEnd: high, newEnd: newEnd) : nil)
    }
    // A line starts at `s` when the byte before is "\n", or a "\r" not followed by "\n": it depends on the bytes at
    // s - 1 and s, so starts before `low` and after `high` (moved) are as they were, and those in between are found.
    var starts: [Int] = []
    starts.reserveCapacity(lineStarts.count + 8)
    var index = 0
    while index < lineStarts.count, lineStarts[index] < low || lineStarts[index] == 0 {
      starts.append(lineStarts[index])
      index += 1
    }
    var offset = max(low, 1)
    while offset <= min(newEnd, updated.count) {
      let byte = updated[offset - 1]
      if byte == 10 || (byte == 13 && (offset == updated.count || updated[offset] != 10)) { starts.append(offset) }
      offset += 1
    }
    while index < lineStarts.count, lineStarts[index] <= high { index += 1 }
    while index < lineStarts.count {
      starts.append(lineStarts[index] + delta)
      index += 1
    }
    let file = SourceFile(
      id: id, name: name, firstLine: firstLine, bytes: updated, lineStarts: starts,
      containsCarriageReturn: containsCarriageReturn || replacement.contains(13))
    return (file, SourceEdit(start: low, oldEnd: high, newEnd: newEnd))
  }

  /// The whole text (made from the bytes on each call).
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The 0-based line holding `offset`.
  public func lineIndex(of offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  public func lineColumn(of offset: Int) -> LineColumn {
    let clamped = max(0, min(offset, bytes.count))
    let line = lineIndex(of: clamped)
    var column = 1
    var index = lineStarts[line]
    while index < clamped {
      // Count scalars: skip UTF-8 continuation bytes.
      if bytes[index] & 0xC0 != 0x80 { column += 1 }
      index += 1
    }
    // An offset inside a multi-byte scalar belongs to that scalar.
    if clamped < bytes.count, bytes[clamped] & 0xC0 == 0x80 { column -= 1 }
    return LineColumn(line: line + firstLine, column: max(column, 1))
  }

  /// The text of a 0-based line without its line break.
  public func lineText(_ line: Int) -> String {
    String(decoding: bytes[lineRange(line)], as: UTF8.self)
  }

  /// The byte range of a 0-based line's text, without its line break ("\n", "\r\n" or "\r"); for a line that is not
  /// there, the empty range at the end of the text.
  public func lineRange(_ line: Int) -> Range<Int> {
    guard line >= 0, line < lineStarts.count else { return bytes.count..<bytes.count }
    let start = lineStarts[line]
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
    while end > start, bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
    return start..<end
  }

  /// The source text of a span.
  public func text(of span: Span) -> String {
    let start = max(0, min(span.start, bytes.count))
    let end = max(start, min(span.end, bytes.count))
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// Byte offset of a 0-based line and a 0-based column counted in UTF-8 bytes, clamped to the line.
  public func offset(line: Int, byteColumn: Int) -> Int {
    guard line >= 0 else { return 0 }
    guard line < lineStarts.count else { return bytes.count }
    let start = lineStarts[line]
    let end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
    return min(start + max(0, byteColumn), max(start, end))
  }
}
