#if canImport(Glibc)
  import Glibc
#endif

/// Bytes tested eight at a time: a buffer's bytes loaded as one `UInt64` word, and whether any of the word's bytes is a
/// given one. The scans that pass over long runs of ordinary text (line breaks in `SourceFile`, a comment's end in the
/// `Lexer`, a documentation line's characters in `Documentation`) skip a word at a time when it holds nothing they stop
/// at, and look at its bytes one by one only when it does.
enum ByteWords {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// The eight bytes from `offset` (`offset + 8` at most the buffer's count), in memory order.
  @inline(__always) static func word(_ base: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
    UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
  }

  /// Whether some byte of `word` is `byte`. (A byte that equals it leaves zero after the exclusive or; subtracting one
  /// from each byte then borrows into its high bit, which was clear. The borrow can mark a byte above a match wrongly,
  /// so the test says whether there is one, not where.)
  @inline(__always) static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & highs != 0
  }

  /// Whether some byte of `word` is a "\n" or a "\r".
  @inline(__always) static func containsLineBreak(_ word: UInt64) -> Bool {
    contains(word, 10) || contains(word, 13)
  }

  /// Whether some byte of `word` is outside ASCII.
  @inline(__always) static func containsNonASCII(_ word: UInt64) -> Bool { word & highs != 0 }

  /// The offset of the first `byte` in `buffer` at or after `start`, found with the C library's vectorised `memchr`;
  /// nil when there is none. Nil too where there is no C library to ask (`isAvailable` says which): callers keep a
  /// scan of their own for that case.
  @inline(__always) static func firstIndex(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int)
    -> Int?
  {
    #if canImport(Glibc)
      guard let base = buffer.baseAddress, start < buffer.count,
        let found = memchr(base + start, Int32(byte), buffer.count - start)
      else { return nil }
      return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    #else
      return nil
    #endif
  }

  /// Whether `firstIndex(of:in:from:)` searches (there is a C library), rather than answering nil.
  static var isAvailable: Bool {
    #if canImport(Glibc)
      true
    #else
      false
    #endif
  }
}
