import Testing
import TestSupport

@testable import TaxProCore

/// A source's line table is found eight bytes at a time; it must be the one a byte-by-byte look finds.
@Suite struct SourceFileTests {
  @Test func lineStartsAndCarriageReturnsMatchAByteByByteLook() {
    var random = SeededGenerator(seed: 7)
    let alphabet: [UInt8] = Array("ab =$1\n\n\r\t".utf8) + [0xC3, 0xA9, 0x0A, 0x0D]
    for length in 0..<120 {
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
}
