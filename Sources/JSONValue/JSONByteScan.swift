/// Word-at-a-time scanning for the bytes JSON strings treat specially: `"`, `\` and the controls below 0x20.
///
/// The parser (reading a string up to its end or first escape) and the serializer (copying a string up to the next
/// byte it must escape) both spend nearly all their time skipping ordinary bytes: a document's text in `didOpen`
/// is hundreds of kilobytes with an escape only per line, a completion reply tens of kilobytes of documentation.
/// Eight bytes are tested at once with the usual bit tricks, then the word that holds a special byte is searched
/// byte by byte; the answer is the same index the byte loop would give.
enum JSONByteScan {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether any byte of `word` is zero (exact as a yes/no; not which byte).
  @inline(__always)
  private static func hasZeroByte(_ word: UInt64) -> Bool {
    (word &- ones) & ~word & highs != 0
  }

  /// Whether any byte of `word` is `"`, `\` or below 0x20.
  @inline(__always)
  static func hasSpecialByte(_ word: UInt64) -> Bool {
    // A byte below 0x20 borrows into its high bit when 0x20 is taken from it, and had no high bit of its own.
    let control = (word &- ones &* 0x20) & ~word & highs != 0
    return control || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
  }

  @inline(__always)
  static func isSpecial(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  /// The index of the first byte at or after `start` that is `"`, `\` or below 0x20; `bytes.count` when none is.
  static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return bytes.count }
    let count = bytes.count
    var index = start
    let raw = UnsafeRawPointer(base)
    while index + 8 <= count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      if hasSpecialByte(word) { break }
      index += 8
    }
    while index < count, !isSpecial(base[index]) { index += 1 }
    return index
  }
}
