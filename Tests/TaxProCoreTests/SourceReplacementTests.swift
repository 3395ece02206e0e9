import Testing
import TestSupport

@testable import TaxProCore

/// `SourceFile.replacing` looks only at the replaced part of a text; what it makes must be exactly the source made
/// from the new bytes, wherever the edit falls (next to a "\r" or a "\n", inside a character, at either end).
@Suite struct SourceReplacementTests {
  @Test func aReplacedRangeGivesTheSourceOfTheNewBytes() {
    var random = SeededGenerator(seed: 18)
    let alphabet: [UInt8] = Array("ab =$1\n\n\r\t".utf8) + [0xC3, 0xA9, 0x0A, 0x0D]
    let replacements: [[UInt8]] = [
      [], Array("7".utf8), Array("\n".utf8), Array("\r".utf8), Array("\r\n".utf8), Array("x\ry".utf8),
      Array("é\n".utf8), [0xA9], [0xC3],
    ]
    for length in 0..<80 {
      for _ in 0..<30 {
        let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        let source = SourceFile(id: FileID(3), name: "t", bytes: bytes, firstLine: 2)
        let low = Int.random(in: 0...length, using: &random)
        let high = Int.random(in: low...min(length, low + 4), using: &random)
        let replacement = replacements[Int.random(in: 0..<replacements.count, using: &random)]
        var updated = source.bytes
        updated.replaceSubrange(low..<high, with: replacement)
        let expected = SourceFile(id: FileID(3), name: "t", bytes: updated, firstLine: 2)
        let replaced = source.replacing(low..<high, with: replacement)
        let context = "\(source.bytes) \(low)..<\(high) \(replacement)"
        #expect(replaced.bytes == expected.bytes, "\(context)")
        #expect(replaced.lineStarts == expected.lineStarts, "\(context)")
        #expect(replaced.containsCarriageReturn == expected.containsCarriageReturn, "\(context)")
        #expect(replaced.id == expected.id && replaced.name == expected.name && replaced.firstLine == 2)
      }
    }
  }

  @Test func aRangePastTheEndIsClamped() {
    let source = SourceFile(id: FileID(0), name: "t", text: "a\nb")
    let replaced = source.replacing(2..<10, with: Array("c\r\n".utf8))
    #expect(replaced.text == "a\nc\r\n")
    #expect(replaced.lineStarts == [0, 2, 5])
  }
}
