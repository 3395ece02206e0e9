/// The strings of the names a parse has read, by their bytes. A file names the same few parameters, formulas and types
/// over and over, and making a string of a name's bytes each time (checking them for UTF-8, then forming the string)
/// cost several times a look-up here. Only names of up to 15 bytes are kept — Swift's small strings, which allocate
/// nothing, so a name taken from here is the same value a new one would be — in a direct-mapped table: a name whose
/// entry holds another replaces it.
struct NameCache {
  /// Entries in the table (a power of two).
  static let size = 512
  static let shift = UInt64(64 - 9)
  /// An entry: the name's first eight bytes, then the next seven and its length in the top byte (zero for an empty
  /// entry, as no name is empty; unused bytes are zero), and its string. Keys and string side by side, so that a
  /// look-up reads one entry of one array (one bounds check, one cache line).
  struct Entry {
    var first: UInt64 = 0
    var second: UInt64 = 0
    var string = ""
  }
  var entries: [Entry]

  init() {
    entries = Array(repeating: Entry(), count: NameCache.size)
  }

  /// The string of `buffer[start..<end]`, a name's bytes (ASCII: letters, digits, `_`). Inlined where the parser reads
  /// a name: the look-up is a few instructions, the call around it as many again.
  @inline(__always) mutating func name(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    let length = end - start
    guard length > 0, length <= 15, start >= 0, start + 16 <= buffer.count, let base = buffer.baseAddress else {
      return nameNearTheEnd(buffer, start, end)
    }
    // Both words loaded whole, the bytes past the name masked off (the shifts stay below 64: `length` is 1 to 15).
    var first = UInt64(littleEndian: ByteWords.word(base, at: start))
    var second = UInt64(littleEndian: ByteWords.word(base, at: start + 8))
    if length < 8 {
      first &= (1 &<< UInt64(8 &* length)) &- 1
      second = 0
    } else {
      second &= (1 &<< UInt64(8 &* (length &- 8))) &- 1
    }
    second |= UInt64(length) &<< 56
    return lookUp(first, second, buffer, start, end)
  }

  /// `name` of a name with fewer than 16 bytes after its start in `buffer` (at the end of a source), or longer than
  /// 15 bytes (not kept).
  @inline(never) mutating func nameNearTheEnd(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> String
  {
    let length = end - start
    guard length > 0, length <= 15, start >= 0, end <= buffer.count, let base = buffer.baseAddress else {
      return NameCache.string(buffer, start, end)
    }
    var first: UInt64 = 0
    var second: UInt64 = 0
    for offset in 0..<length {
      let byte = UInt64(base[start + offset])
      if offset < 8 { first |= byte << UInt64(8 * offset) } else { second |= byte << UInt64(8 * (offset - 8)) }
    }
    second |= UInt64(length) << 56
    return lookUp(first, second, buffer, start, end)
  }

  /// The entry of the key `first`, `second`: its string when it holds the name, otherwise the name's string made
  /// and stored there.
  @inline(__always) mutating func lookUp(
    _ first: UInt64, _ second: UInt64, _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> String {
    let hash = (first ^ (second &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
    let slot = Int(truncatingIfNeeded: hash >> NameCache.shift)
    if entries[slot].first == first && entries[slot].second == second { return entries[slot].string }
    return store(first, second, at: slot, buffer, start, end)
  }

  @inline(never) mutating func store(
    _ first: UInt64, _ second: UInt64, at slot: Int, _ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int
  ) -> String {
    let string = NameCache.string(buffer, start, end)
    entries[slot] = Entry(first: first, second: second, string: string)
    return string
  }

  static func string(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    guard start >= 0, start <= end, end <= buffer.count else { return "" }
    return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
  }
}
