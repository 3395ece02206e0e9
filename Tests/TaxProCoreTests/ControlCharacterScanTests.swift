import Testing

@testable import TaxProCore

/// The look for control characters reads eight bytes at a time; it must find what the scalars say, wherever in (or
/// across) a word the escaped character's bytes fall.
@Suite struct ControlCharacterScanTests {
  @Test func escapesAreFoundAtEveryAlignment() {
    let scalars = (UInt32(0)...0xFF).compactMap(Unicode.Scalar.init)
      + (UInt32(0x2020)...0x2070).compactMap(Unicode.Scalar.init) + ["é", "—", "“", "🍁", "\u{FEFF}"]
    for scalar in scalars {
      for padding in 0..<17 {
        for (tabs, lineBreaks) in [(true, false), (false, true), (true, true)] {
          let escaped = String.needsEscape(scalar, tabs: tabs, lineBreaks: lineBreaks)
          for text in [
            String(repeating: "a", count: padding) + String(scalar),
            String(repeating: "b", count: padding) + String(scalar) + String(repeating: "c", count: 17 - padding),
            // Other non-ASCII before it, so that the words holding it are looked at byte by byte too.
            "é" + String(repeating: "d", count: padding) + String(scalar) + "—xyzxyzxyz",
          ] {
            let result = text.escapingControlCharacters(tabs: tabs, lineBreaks: lineBreaks)
            #expect((result != text) == escaped, "U+\(String(scalar.value, radix: 16)) after \(padding)")
            if escaped {
              #expect(!result.unicodeScalars.contains { String.needsEscape($0, tabs: tabs, lineBreaks: lineBreaks) })
            }
          }
        }
      }
    }
  }

  /// Long documentation with line breaks kept and nothing to escape comes back as it is; one bidirectional override
  /// anywhere in it is found.
  @Test func longTextIsLookedAtWhole() {
    let line = "Provincial age amount × 1.019 — “indexed” (line 58080)\tsee `quebec_senior_amounts`.\n"
    let text = String(repeating: line, count: 50)
    #expect(text.escapingControlCharacters(lineBreaks: true) == text)
    for offset in stride(from: 0, to: text.utf8.count, by: 97) {
      let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
      guard text.unicodeScalars.indices.contains(index) else { continue }
      var crafted = text
      crafted.insert(contentsOf: "\u{202E}", at: index)
      #expect(crafted.escapingControlCharacters(lineBreaks: true).contains("\\u{202E}"))
    }
  }
}
