import Testing
import TestSupport

@testable import TaxProCore

/// A source's line table is found eight bytes at a time, or by `memchr`; it must be the one a byte-by-byte look finds.
@Suite struct SourceFileTests {
  /// Texts with a "\r" and without one: those without are searched by `memchr`, the others eight bytes at a time.
  @Test(arguments: [Array("ab =$1\n\n\r\t".utf8) + [0xC3, 0xA9, 0x0A, 0x0D], Array("ab =$1\n\n\t".utf8) + [0xC3, 0xA9]])
  func lineStartsAndCarriageReturnsMatchAByteByByteLook(_ alphabet: [UInt8]) {
    var random = SeededGenerator(seed: 7)
    for length in 0..<300 {
      for _ in 0..<20 {
        let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        let source = SourceFile(id: FileID(0), name: "t", bytes: bytes)
        // Lines end at "\n", "\r\n" and a lone "\r".
        var expected = [0]
        for (index, byte) in source.bytes.enumerated()
        where byte == 10 || (byte == 13 && (index + 1 == source.bytes.count || source.bytes[index + 1] != 10)) {
          expected.append(index + 1)
        }
        #expect(source.lineStarts == expected, "\(bytes)")
        #expect(source.containsCarriageReturn == source.bytes.contains(13), "\(bytes)")
      }
    }
  }

  @Test func aReturnInEveryPlaceOfAWordIsSeen() {
    for length in 1..<40 {
      for place in 0..<length {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
        bytes[place] = 13
        let withReturn = SourceFile(id: FileID(0), name: "t", bytes: bytes)
        #expect(withReturn.containsCarriageReturn, "\(length) \(place)")
        #expect(withReturn.lineStarts == [0, place + 1], "\(length) \(place)")
        bytes[place] = 10
        let source = SourceFile(id: FileID(0), name: "t", bytes: bytes)
        #expect(!source.containsCarriageReturn)
        #expect(source.lineStarts == [0, place + 1], "\(length) \(place)")
      }
    }
  }

  /// The invalid sequences are those the repair replaces, one U+FFFD each: a random mix of valid and broken UTF-8
  /// agrees with `String(decoding:as:)` on how many there are and on where the first one lands.
  @Test func invalidUTF8IsFoundAsTheRepairFindsIt() {
    var random = SeededGenerator(seed: 11)
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("é".utf8), Array("🍁".utf8), Array("\u{FFFD}".utf8), [0xE9], [0xC3], [0xF0, 0x9F, 0x8D],
      [0xED, 0xA0, 0x80], [0xC0, 0x80], [0xFF], [0x80],
    ]
    for _ in 0..<500 {
      let bytes = (0..<Int.random(in: 0..<8, using: &random)).flatMap { _ in
        pieces[Int.random(in: 0..<pieces.count, using: &random)]
      }
      let repaired = Array(String(decoding: bytes, as: UTF8.self).utf8)
      let found = SourceFile.invalidUTF8(in: bytes)
      #expect((found == nil) == (repaired == bytes), "\(bytes)")
      guard let found else { continue }
      #expect(Array(bytes[..<found.offset]) == Array(repaired[..<found.offset]), "\(bytes)")
      #expect(Array(repaired[found.offset..<(found.offset + 3)]) == [0xEF, 0xBF, 0xBD], "\(bytes)")
      #expect(found.byte == bytes[found.offset])
      // Each invalid sequence is one more U+FFFD than the bytes themselves hold.
      let ownReplacements = String(decoding: bytes, as: UTF8.self).unicodeScalars.count { $0 == "\u{FFFD}" }
      let held =
        bytes.count >= 3 ? (0...(bytes.count - 3)).count { Array(bytes[$0..<($0 + 3)]) == [0xEF, 0xBF, 0xBD] } : 0
      #expect(found.count == ownReplacements - held, "\(bytes)")
    }
  }

  @Test func aFileThatIsNotUTF8GetsOneWarningAtItsFirstBadByte() {
    let bytes = Array("## Caf".utf8) + [0xE9] + Array(" tax\nlet t = \"Montr".utf8) + [0xE9] + Array("al\"\n".utf8)
    let source = SourceFile(id: FileID(3), name: "latin.tax", bytes: bytes)
    let warnings = source.encodingWarnings(readFrom: bytes)
    #expect(warnings.count == 1)
    #expect(warnings.first?.code == .notUTF8)
    #expect(warnings.first?.severity == .warning)
    #expect(warnings.first?.span == Span(file: FileID(3), start: 6, end: 9))
    #expect(
      warnings.first?.message
        == "not valid UTF-8 (byte 0xE9; 2 places in all): each read as the replacement character U+FFFD")
    let one = Array("## Caf".utf8) + [0xE9] + Array("\n".utf8)
    #expect(
      SourceFile(id: FileID(3), name: "one.tax", bytes: one).encodingWarnings(readFrom: one).first?.message
        == "not valid UTF-8 (byte 0xE9): read as the replacement character U+FFFD")
    let valid = Array("let t = \"Qu\u{FFFD}bec\"\n".utf8)
    #expect(SourceFile(id: FileID(3), name: "ok.tax", bytes: valid).encodingWarnings(readFrom: valid).isEmpty)
  }
}
