import LanguageServerProtocol
import TaxProCore

/// The one place where the protocol's positions (a line and a UTF-16 code unit offset within it) meet the core's
/// UTF-8 byte offsets.
///
/// Lines are the protocol's: they end at "\n", "\r\n" or a lone "\r", as the core's line table and lexer do, so the
/// core's table is used as it is. Everything is clamped rather than rejected: a client that is a keystroke
/// ahead or behind, or simply wrong, gets an answer about the nearest real place instead of an error or a crash.
struct LineMap {
  let source: SourceFile
  /// Byte offset of the first byte of each protocol line (`SourceFile.lineStarts`).
  var lineStarts: [Int] { source.lineStarts }

  init(_ source: SourceFile) {
    self.source = source
  }

  var bytes: [UInt8] { source.bytes }
  var text: String { source.text }
  func text(of span: Span) -> String { source.text(of: span) }

  /// The byte range of a line's text, without its line ending.
  func lineContentRange(_ line: Int) -> Range<Int> { source.lineRange(line) }

  /// The 0-based protocol line holding a byte offset.
  func line(of offset: Int) -> Int { source.lineIndex(of: offset) }

  /// The byte offset of a protocol position. A line past the end means the end of the text; a character past the
  /// end of its line means the end of that line; a character inside a surrogate pair means the start of its scalar.
  func offset(of position: LSP.Position) -> Int {
    guard position.line >= 0 else { return 0 }
    guard position.line < lineStarts.count else { return bytes.count }
    let content = lineContentRange(position.line)
    var index = content.lowerBound
    var units = 0
    let target = max(0, position.character)
    while index < content.upperBound, units < target {
      let (length, width) = LineMap.scalarShape(bytes[index])
      if units + width > target { break }
      units += width
      index = min(index + length, content.upperBound)
    }
    return index
  }

  /// The protocol position of a byte offset (clamped to the text; an offset inside a scalar, or between the "\r"
  /// and "\n" of a line ending, means the place before it).
  func position(of offset: Int) -> LSP.Position {
    var clamped = max(0, min(offset, bytes.count))
    while clamped > 0, clamped < bytes.count, bytes[clamped] & 0xC0 == 0x80 { clamped -= 1 }
    let line = self.line(of: clamped)
    let content = lineContentRange(line)
    let end = min(clamped, content.upperBound)
    var index = content.lowerBound
    var units = 0
    while index < end {
      let (length, width) = LineMap.scalarShape(bytes[index])
      units += width
      index += length
    }
    return LSP.Position(line: line, character: units)
  }

  /// A converter for many offsets in ascending order (every token of a file): amortized constant time each, where
  /// `position(of:)` would rescan a long line for every token on it.
  func cursor() -> PositionCursor { PositionCursor(map: self) }

  /// The ranges of many spans, in their order, converted in text order with a cursor.
  func ranges(of spans: [Span]) -> [LSP.Range] {
    var cursor = self.cursor()
    var result = [LSP.Range](repeating: LSP.Range(at: LSP.Position(line: 0, character: 0)), count: spans.count)
    for position in spans.indices.sorted(by: { spans[$0].start < spans[$1].start }) {
      let span = spans[position]
      let start = cursor.position(of: span.start)
      result[position] = LSP.Range(start: start, end: cursor.position(of: max(span.start, span.end)))
    }
    return result
  }

  func range(of span: Span) -> LSP.Range { range(of: span.start..<max(span.start, span.end)) }

  /// The protocol range of a byte range of this text.
  func range(of bytes: Range<Int>) -> LSP.Range {
    LSP.Range(start: position(of: bytes.lowerBound), end: position(of: bytes.upperBound))
  }

  /// The byte range of a protocol range; a reversed range is read as empty at its start.
  func byteRange(of range: LSP.Range) -> Range<Int> {
    let start = offset(of: range.start)
    let end = offset(of: range.end)
    return start..<max(start, end)
  }

  /// Bytes in the UTF-8 sequence a lead byte starts, and UTF-16 code units of its scalar. A stray continuation byte
  /// (which valid text never has) counts as one byte and one unit, so that every loop moves forward.
  static func scalarShape(_ lead: UInt8) -> (bytes: Int, units: Int) {
    switch lead {
    case 0..<0xC0: (1, 1)
    case 0xC0..<0xE0: (2, 1)
    case 0xE0..<0xF0: (3, 1)
    default: (4, 2)
    }
  }

  /// The UTF-16 offset of a byte offset within a one-line string (signature labels).
  static func utf16Offset(_ text: String, byteOffset: Int) -> Int {
    let bytes = Array(text.utf8)
    var index = 0
    var units = 0
    while index < min(byteOffset, bytes.count) {
      let (length, width) = scalarShape(bytes[index])
      units += width
      index += length
    }
    return units
  }
}

/// Converts ascending byte offsets to positions by walking forward; an offset behind the last one starts over.
struct PositionCursor {
  let map: LineMap
  private var line = 0
  private var index = 0
  private var units = 0

  init(map: LineMap) { self.map = map }

  mutating func position(of offset: Int) -> LSP.Position {
    let bytes = map.bytes
    var target = max(0, min(offset, bytes.count))
    while target > 0, target < bytes.count, bytes[target] & 0xC0 == 0x80 { target -= 1 }
    if target < index {
      let position = map.position(of: target)
      line = position.line
      index = target
      units = position.character
      return position
    }
    while line + 1 < map.lineStarts.count, map.lineStarts[line + 1] <= target {
      line += 1
      index = map.lineStarts[line]
      units = 0
    }
    let end = min(target, map.lineContentRange(line).upperBound)
    while index < end {
      let (length, width) = LineMap.scalarShape(bytes[index])
      units += width
      index += length
    }
    index = max(index, target)
    return LSP.Position(line: line, character: units)
  }
}
