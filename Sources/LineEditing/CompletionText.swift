/// The text side of Tab completion, kept apart from libedit so it can be tested without a terminal.
enum CompletionText {
  /// The longest prefix shared by all candidates, compared by characters so a prefix never ends inside one.
  static func commonPrefix(_ candidates: [String]) -> String {
    guard let first = candidates.first else { return "" }
    var prefix = first[...]
    for candidate in candidates.dropFirst() {
      var end = prefix.startIndex
      var other = candidate.startIndex
      while end < prefix.endIndex, other < candidate.endIndex, prefix[end] == candidate[other] {
        end = prefix.index(after: end)
        other = candidate.index(after: other)
      }
      prefix = prefix[..<end]
      if prefix.isEmpty { break }
    }
    return String(prefix)
  }

  /// Candidates in columns that fill the width, read down each column like `ls`, one line per row.
  static func columns(_ candidates: [String], width: Int) -> [String] {
    guard !candidates.isEmpty else { return [] }
    let gap = 2
    let cellWidth = (candidates.map(\.count).max() ?? 0) + gap
    let columnCount = max(1, (max(width, 1) + gap - 1) / max(cellWidth, 1))
    let rowCount = (candidates.count + columnCount - 1) / columnCount
    var rows: [String] = []
    for row in 0..<rowCount {
      var line = ""
      for column in 0..<columnCount {
        let index = column * rowCount + row
        guard index < candidates.count else { break }
        let candidate = candidates[index]
        let isLast = (column + 1) * rowCount + row >= candidates.count
        line += isLast ? candidate : candidate + String(repeating: " ", count: cellWidth - candidate.count)
      }
      rows.append(line)
    }
    return rows
  }

  /// Candidates without repeats, in their first order, and without NUL bytes that C strings cannot carry.
  static func unique(_ candidates: [String]) -> [String] {
    var seen = Set<String>()
    return candidates.filter { !$0.utf8.contains(0) && seen.insert($0).inserted }
  }

  /// Whether `offset` falls between UTF-8 scalars of `bytes` (not inside a multi-byte character).
  static func isBoundary(_ offset: Int, in bytes: [UInt8]) -> Bool {
    guard offset >= 0, offset <= bytes.count else { return false }
    return offset == bytes.count || bytes[offset] & 0b1100_0000 != 0b1000_0000
  }

  /// Characters as libedit counts them (one per Unicode scalar) in a byte range of UTF-8.
  static func scalarCount(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.reduce(0) { $0 + ($1 & 0b1100_0000 != 0b1000_0000 ? 1 : 0) }
  }

  /// libedit needs non-printing prompt bytes bracketed by an escape character (`EL_PROMPT_ESC`) to compute
  /// where the cursor is; callers pass ordinary ANSI-coloured prompts, so the brackets are added here.
  static func bracketingEscapes(_ prompt: String, marker: Unicode.Scalar = "\u{1}") -> String {
    var result = String.UnicodeScalarView()
    var scalars = prompt.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == marker { continue }
      guard scalar == "\u{1B}" else {
        result.append(scalar)
        continue
      }
      result.append(marker)
      result.append(scalar)
      // A CSI sequence (`ESC [ … final`) ends at a byte in @…~; other escapes are two characters long.
      if let next = scalars.next() {
        result.append(next)
        if next == "[" {
          while let inner = scalars.next() {
            if inner == marker { continue }
            result.append(inner)
            if (0x40...0x7E).contains(inner.value) { break }
          }
        }
      }
      result.append(marker)
    }
    return String(result)
  }
}
