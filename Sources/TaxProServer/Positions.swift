import LanguageServerProtocol
import TaxProCore

// The one place where the protocol's positions (a line and a UTF-16 code unit offset within it) meet the core's
// UTF-8 byte offsets. Everything is clamped rather than rejected: a client that is a keystroke ahead or behind, or
// simply wrong, gets an answer about the nearest real place instead of an error or a crash.
//
// Lines end at "\n"; a "\r" just before it belongs to the line ending, not to the line. (A lone "\r" is not a line
// break here, as it is not for the core's line table.)

extension SourceFile {
  /// The byte range of line `line`'s text, without its line ending.
  func lineContentRange(_ line: Int) -> Range<Int> {
    let start = lineStarts[line]
    var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
    if end > start, bytes[end - 1] == 13, line + 1 < lineStarts.count { end -= 1 }
    return start..<max(start, end)
  }

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
      let (length, width) = SourceFile.scalarShape(bytes[index])
      if units + width > target { break }
      units += width
      index = min(index + length, content.upperBound)
    }
    return index
  }

  /// The protocol position of a byte offset (clamped to the text; an offset inside a scalar means its start).
  func position(of offset: Int) -> LSP.Position {
    var clamped = max(0, min(offset, bytes.count))
    while clamped > 0, clamped < bytes.count, bytes[clamped] & 0xC0 == 0x80 { clamped -= 1 }
    let line = lineIndex(of: clamped)
    var index = lineStarts[line]
    var units = 0
    while index < clamped {
      let (length, width) = SourceFile.scalarShape(bytes[index])
      units += width
      index += length
    }
    return LSP.Position(line: line, character: units)
  }

  func range(of span: Span) -> LSP.Range {
    LSP.Range(start: position(of: span.start), end: position(of: max(span.start, span.end)))
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

  /// UTF-16 length of a string, for labels whose offsets the protocol counts in UTF-16.
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
