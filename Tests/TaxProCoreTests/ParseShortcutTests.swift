import Testing

@testable import TaxProCore

/// The parser's shortcuts give what the general paths give: names from `NameCache` are the strings of their bytes,
/// short literals read in 64 bits are the values `ExactDecimal.parse` makes, and a plain one-line summary is the
/// documentation the general reading makes of it.
struct ParseShortcutTests {
  @Test func namesFromTheCacheAreTheirBytes() {
    // More names than the table has entries, so that entries are replaced, each asked for twice, at the end of the
    // buffer too (where fewer than 16 bytes follow).
    var words = (0..<2_000).map { "n\($0)" } + ["a", "abcdefg", "abcdefgh", "abcdefghijklmno", "abcdefghijklmnop", "_x9"]
    words += words.reversed()
    let text = words.joined(separator: " ")
    let bytes = Array(text.utf8)
    var cache = NameCache()
    bytes.withUnsafeBufferPointer { buffer in
      var start = 0
      for word in words {
        let end = start + word.utf8.count
        #expect(cache.name(buffer, start, end) == word)
        #expect(cache.name(buffer, start, end) == word)
        start = end + 1
      }
    }
  }

  @Test func shortLiteralsAreWhatTheDecimalParseGives() throws {
    let literals = [
      "0", "000", "0.00", "1", "12", "1.50", "0.05", "85,000", "1,234,567.89", "1_000_000", "5%", "2.5%", "0%",
      "123456789012345678", "99999999999999999.9", "0.00000000000000001", "007",
    ]
    for literal in literals {
      let bytes = Array(literal.utf8)
      let short = bytes.withUnsafeBufferPointer { Parser.shortLiteral($0) }
      let parsed = try ExactDecimal.parse(scientific: bytes)
      #expect(short != nil, "\(literal)")
      #expect(short.map { "\($0)" } == "\(parsed.value)", "\(literal)")
      #expect(short == parsed.value, "\(literal)")
      // The same representation, not only the same value: `1.50` keeps its two decimals.
      #expect(short?.magnitude == parsed.value.magnitude && short?.exponent == parsed.value.exponent, "\(literal)")
      #expect(short?.isInexact == false)
    }
    // Longer ones and exponents take the general path.
    for literal in ["1234567890123456789", "0.000000000000000001", "1e5", "2.5E-3"] {
      #expect(Array(literal.utf8).withUnsafeBufferPointer { Parser.shortLiteral($0) } == nil, "\(literal)")
    }
  }

  @Test func plainSummaryIsTheGeneralReading() {
    let lines = [
      "Formula 12: a generated mix of arithmetic.", "Tip: a tip", "topic: A / B", "x", "ends with a space ",
      " starts with one", "note:", "Définition: non-ASCII", "parts: a = b + c", "instructions: do this",
    ]
    for line in lines {
      #expect(Documentation.parse(line: line, span: nil) == Documentation.parse(lines: [line], span: nil), "\(line)")
    }
  }
}
