extension String {
  /// The text with its control characters written as visible escapes (`\u{1B}`), so that echoing a crafted source
  /// line, name or CSV field to a terminal cannot move the cursor, set the window title (OSC) or ring the bell, and
  /// bidirectional overrides cannot reorder what the reader sees ("Trojan source"). Escaped: C0 controls and DEL,
  /// C1 controls (U+0080–U+009F), and the bidirectional embedding, override and isolate characters. Tabs are kept
  /// unless `tabs` is false; line breaks become `\n` and `\r` unless `lineBreaks` is true. Everything else, including
  /// any other non-ASCII text, stays as it is.
  public func escapingControlCharacters(tabs: Bool = true, lineBreaks: Bool = false) -> String {
    // Most text has nothing to escape: a look at its bytes, and it is returned without copying. The look is exact,
    // byte by byte through a pointer (the UTF-8 view's iterator, then a pass over the scalars whenever the text had
    // a dash or a curly quote, cost a completion reply a sixth of its time).
    guard containsEscapes(tabs: tabs, lineBreaks: lineBreaks) else { return self }
    var result = ""
    result.reserveCapacity(utf8.count + 8)
    for scalar in unicodeScalars {
      guard Self.needsEscape(scalar, tabs: tabs, lineBreaks: lineBreaks) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar.value {
      case 0x0A: result += "\\n"
      case 0x0D: result += "\\r"
      case 0x09: result += "\\t"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  /// Whether any scalar `needsEscape`, read from the UTF-8 bytes: C0 controls and DEL are single bytes, U+0080–U+009F
  /// are 0xC2 0x80–0x9F, U+202A–U+202E are 0xE2 0x80 0xAA–0xAE and U+2066–U+2069 are 0xE2 0x81 0xA6–0xA9.
  private func containsEscapes(tabs: Bool, lineBreaks: Bool) -> Bool {
    var text = self
    return text.withUTF8 { bytes in
      let count = bytes.count
      func escapes(at index: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x20 {
          return !(byte == 9 && tabs) && !((byte == 10 || byte == 13) && lineBreaks)
        } else if byte == 0x7F {
          return true
        } else if byte == 0xC2 {
          return index + 1 < count && (0x80...0x9F).contains(bytes[index + 1])
        } else if byte == 0xE2, index + 2 < count {
          let second = bytes[index + 1]
          let third = bytes[index + 2]
          return (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third))
        }
        return false
      }
      guard let base = bytes.baseAddress else { return false }
      var index = 0
      // Eight bytes at a time: a word of printable ASCII (every byte in 0x20..<0x7F) has nothing to escape. Only a
      // word with a control byte or a byte from 0x7F up is looked at byte by byte (documentation is long, and mostly
      // such words: this look was a twelfth of a completion reply).
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while index + 8 <= count {
        let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let control = (word &- ones &* 0x20) & ~word & highs
        let high = (word | (word &+ ones)) & highs
        if control | high != 0 {
          for offset in index..<(index + 8) where escapes(at: offset) { return true }
        }
        index += 8
      }
      while index < count {
        if escapes(at: index) { return true }
        index += 1
      }
      return false
    }
  }

  static func needsEscape(_ scalar: Unicode.Scalar, tabs: Bool, lineBreaks: Bool) -> Bool {
    switch scalar.value {
    case 0x09: return !tabs
    case 0x0A, 0x0D: return !lineBreaks
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}

extension Unicode.Scalar {
  /// How the scalar is shown when control characters are escaped: its escape, or nil when it is shown as it is.
  public func visibleEscape(tabs: Bool = true, lineBreaks: Bool = false) -> String? {
    guard String.needsEscape(self, tabs: tabs, lineBreaks: lineBreaks) else { return nil }
    return String(self).escapingControlCharacters(tabs: tabs, lineBreaks: lineBreaks)
  }
}
