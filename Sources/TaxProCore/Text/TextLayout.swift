/// Laying text out in a terminal's columns: every front end's prose, tables and explanations go through here, so
/// they are measured the same way.
///
/// Widths are *visible* widths: an ANSI escape sequence (colour) takes no column, an East Asian wide or fullwidth
/// character takes two, a combining mark or zero-width character none. Lines are broken between words only; a
/// single word wider than the line (a long web address) is broken after a `/`, `-`, `_`, `.` or `=` where it can
/// be, and only otherwise at the last column.
public enum TextLayout {
  // MARK: Measuring

  /// The columns `text` takes on a terminal.
  public static func width(_ text: some StringProtocol) -> Int {
    var columns = 0
    var scanner = EscapeScanner()
    var previous: Unicode.Scalar? = nil
    for scalar in text.unicodeScalars {
      if scanner.consume(scalar) { continue }
      columns += scalarWidth(scalar, after: previous)
      previous = scalar
    }
    return columns
  }

  /// `text` without its ANSI escape sequences.
  public static func plain(_ text: some StringProtocol) -> String {
    var result = String.UnicodeScalarView()
    var scanner = EscapeScanner()
    for scalar in text.unicodeScalars where !scanner.consume(scalar) { result.append(scalar) }
    return String(result)
  }

  /// Columns of one scalar: 0 for controls, combining marks, zero-width characters and what a zero-width joiner
  /// joins; 2 for East Asian wide and fullwidth characters and emoji; 1 otherwise.
  static func scalarWidth(_ scalar: Unicode.Scalar, after previous: Unicode.Scalar?) -> Int {
    let value = scalar.value
    if previous?.value == 0x200D { return 0 }
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x300 { return 1 }
    for range in zeroWidth where range.contains(value) { return 0 }
    for range in wide where range.contains(value) { return 2 }
    return 1
  }

  static let zeroWidth: [ClosedRange<UInt32>] = [
    0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F, 0x0E31...0x0E31,
    0x0E34...0x0E3A, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064,
    0x20D0...0x20FF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF...0xFEFF, 0xE0100...0xE01EF,
  ]

  static let wide: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
    0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
    0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
    0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
    0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
    0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
    0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
    0x17000...0x18AFF, 0x1B000...0x1B16F, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
    0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
    0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4,
    0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E,
    0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
    0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC,
    0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
    0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  /// Recognises ANSI escape sequences scalar by scalar: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC \`) and
  /// two-character escapes.
  struct EscapeScanner {
    enum State { case text, escape, csi, osc, oscEscape }
    var state = State.text

    /// Whether `scalar` belongs to an escape sequence (and so takes no column).
    mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
      switch state {
      case .text:
        if scalar == "\u{1B}" {
          state = .escape
          return true
        }
        return false
      case .escape:
        state = scalar == "[" ? .csi : scalar == "]" ? .osc : .text
        return true
      case .csi:
        if (0x40...0x7E).contains(scalar.value) { state = .text }
        return true
      case .osc:
        if scalar == "\u{07}" { state = .text } else if scalar == "\u{1B}" { state = .oscEscape }
        return true
      case .oscEscape:
        state = .text
        return true
      }
    }
  }

  // MARK: Wrapping

  /// Words of `text` in lines no wider than `width` columns, the first prefixed with `first`, the rest with `rest`
  /// (as many spaces as `first` is wide, unless given). Line breaks in `text` are kept as paragraph breaks. Colour
  /// that is on where a line breaks is closed at its end and opened again after the next line's prefix, so
  /// indentation is never underlined or coloured.
  public static func wrap(_ text: String, width: Int, first: String = "", rest: String? = nil) -> [String] {
    let rest = rest ?? String(repeating: " ", count: Self.width(first))
    var lines: [String] = []
    var prefix = first
    var style = ActiveStyle()
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var linePrefix = prefix
      var line = prefix + style.reopen
      var lineWidth = Self.width(prefix)
      var lineHasWord = false
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        let wordWidth = Self.width(word)
        if lineHasWord && lineWidth + 1 + wordWidth > width {
          lines.append(line + style.close)
          linePrefix = rest
          line = rest + style.reopen
          lineWidth = Self.width(rest)
          lineHasWord = false
        }
        if lineHasWord {
          line += " "
          lineWidth += 1
        }
        // A word wider than what is left of an empty line is broken at its best break points.
        var remaining = String(word)
        var remainingWidth = wordWidth
        while !lineHasWord, lineWidth + remainingWidth > width {
          let room = max(1, width - lineWidth)
          let (head, tail) = split(remaining, toFit: room)
          if head.isEmpty { break }
          line += head
          style.track(head)
          lines.append(line + style.close)
          linePrefix = rest
          line = rest + style.reopen
          lineWidth = Self.width(rest)
          lineHasWord = false
          remaining = tail
          remainingWidth = Self.width(tail)
        }
        line += remaining
        style.track(remaining)
        lineWidth += remainingWidth
        lineHasWord = true
      }
      lines.append(lineHasWord ? line + style.close : trimmingTrailingSpaces(linePrefix))
      prefix = rest
    }
    return lines
  }

  /// A line of output no wider than `width`: as it is when it fits, else wrapped at spaces with continuation lines
  /// indented `hang` columns more than the line's own indentation.
  public static func fit(_ line: String, width: Int, hang: Int = 4) -> [String] {
    guard Self.width(line) > width else { return [line] }
    let indentCount = line.prefix { $0 == " " }.count
    let indent = String(repeating: " ", count: indentCount)
    let continuation = String(repeating: " ", count: min(indentCount + hang, max(0, width / 2)))
    return wrap(String(line.dropFirst(indentCount)), width: width, first: indent, rest: continuation)
  }

  /// Each line of `text` fitted to `width` (see `fit`), joined again with line breaks.
  public static func fitLines(_ text: String, width: Int, hang: Int = 4) -> String {
    let endsWithNewline = text.hasSuffix("\n")
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if endsWithNewline { lines.removeLast() }
    let fitted = lines.flatMap { fit($0, width: width, hang: hang) }.joined(separator: "\n")
    return endsWithNewline ? fitted + "\n" : fitted
  }

  /// `label` then text wrapped under it: `  Tip: Because the credit…`.
  public static func labelled(_ label: String, _ text: String, width: Int, indent: String) -> [String] {
    wrap(text, width: width, first: indent + label + " ", rest: indent + "  ")
  }

  /// The longest head of `word` that fits in `room` columns, preferring to end just after a break character, and
  /// what is left. Never splits an escape sequence.
  static func split(_ word: String, toFit room: Int) -> (head: String, tail: String) {
    var columns = 0
    var scanner = EscapeScanner()
    var previous: Unicode.Scalar? = nil
    var lastFit = word.unicodeScalars.startIndex
    var lastBreak: String.UnicodeScalarView.Index? = nil
    let scalars = word.unicodeScalars
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let next = scalars.index(after: index)
      if scanner.consume(scalar) {
        index = next
        continue
      }
      let scalarColumns = scalarWidth(scalar, after: previous)
      if columns + scalarColumns > room { break }
      columns += scalarColumns
      previous = scalar
      lastFit = next
      if "/-_.=,".unicodeScalars.contains(scalar), next < scalars.endIndex { lastBreak = next }
      index = next
    }
    let cut = lastBreak ?? lastFit
    return (String(scalars[scalars.startIndex..<cut]), String(scalars[cut...]))
  }

  /// The SGR (colour) sequence in force while wrapping, so it can be closed and reopened around line breaks.
  struct ActiveStyle {
    var open: String? = nil

    var close: String { open == nil ? "" : "\u{1B}[0m" }
    var reopen: String { open ?? "" }

    /// Follows the SGR sequences in `text`: a reset turns the style off, any other one turns it on.
    mutating func track(_ text: some StringProtocol) {
      guard text.contains("\u{1B}") else { return }
      var sequence = ""
      var inSequence = false
      for scalar in text.unicodeScalars {
        if scalar == "\u{1B}" {
          inSequence = true
          sequence = "\u{1B}"
          continue
        }
        guard inSequence else { continue }
        sequence.unicodeScalars.append(scalar)
        if scalar != "[", (0x40...0x7E).contains(scalar.value) {
          inSequence = false
          if scalar == "m" { open = sequence == "\u{1B}[0m" || sequence == "\u{1B}[m" ? nil : sequence }
        }
      }
    }
  }

  // MARK: Tables

  /// Rows of cells in columns as wide as their widest cell (by visible width), separated by `separator`;
  /// `rightAligned` columns are padded on the left (amounts and rates). Trailing spaces are trimmed.
  public static func table(
    _ rows: [[String]], indent: String = "", rightAligned: Set<Int> = [], separator: String = "  "
  ) -> [String] {
    guard let columns = rows.map(\.count).max(), columns > 0 else { return [] }
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], width(cell)) }
    }
    return rows.map { row in
      var line = indent
      for (index, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[index] - width(cell))
        if index > 0 { line += separator }
        line += rightAligned.contains(index) ? padding + cell : cell + padding
      }
      return trimmingTrailingSpaces(line)
    }
  }

  /// The visible width of the widest line.
  public static func widest(_ lines: [String]) -> Int { lines.map { width($0) }.max() ?? 0 }

  static func trimmingTrailingSpaces(_ text: String) -> String {
    var copy = Substring(text)
    while copy.last == " " { copy.removeLast() }
    return String(copy)
  }
}
