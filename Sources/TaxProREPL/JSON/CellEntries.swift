import TaxProCore

/// A cell's lines grouped into entries as the prompt groups lines typed one by one: a `:command` is its line; code
/// runs on until the parser has a finished entry; blank lines between entries are skipped.
///
/// Two differences from the prompt, because a cell arrives whole: a blank line inside an unfinished entry is kept
/// in it rather than giving the entry up, and comment lines before an entry are part of it (so `##` documentation
/// stays with the formula below it). The JSON mode runs cells line by line through the REPL with these roles
/// (`role(of:pending:)`); the grouping is for the requests that only look (completion, inspection, is-complete).
struct CellEntries {
  struct Entry: Equatable {
    /// 0-based line numbers in the cell.
    var lines: Range<Int>
    var isCommand: Bool
    /// False only for the last entry, when the cell ends inside it.
    var isFinished: Bool
  }

  /// What a cell does with a line, given the lines of the entry so far.
  enum Role {
    /// A blank line between entries.
    case skip
    /// A blank line inside an entry, or a comment before one: kept for the entry.
    case hold
    /// A `:command` (comments before it are dropped).
    case command
    /// A line of code, which may finish the entry.
    case code
  }

  var lines: [String]
  var entries: [Entry] = []

  init(_ code: String) {
    lines = CellEntries.lines(of: code)
    var pending: [String] = []
    var start = 0
    for (index, line) in lines.enumerated() {
      if pending.isEmpty { start = index }
      switch CellEntries.role(of: line, pending: pending) {
      case .skip:
        continue
      case .hold:
        pending.append(line)
      case .command:
        pending = []
        entries.append(Entry(lines: index..<(index + 1), isCommand: true, isFinished: true))
      case .code:
        pending.append(line)
        if !Session.isIncomplete(pending.joined(separator: "\n")) {
          entries.append(Entry(lines: start..<(index + 1), isCommand: false, isFinished: true))
          pending = []
        }
      }
    }
    if !CellEntries.onlyNotes(pending) {
      entries.append(Entry(lines: start..<lines.count, isCommand: false, isFinished: false))
    }
  }

  static func role(of line: String, pending: [String]) -> Role {
    let text = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
    if text.isEmpty { return pending.isEmpty ? .skip : .hold }
    guard onlyNotes(pending) else { return .code }
    if text.hasPrefix(":") { return .command }
    return text.hasPrefix("#") ? .hold : .code
  }

  /// Whether lines held for an entry are only blank lines and comments (nothing to run).
  static func onlyNotes(_ lines: [String]) -> Bool {
    lines.allSatisfy { line in
      let text = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
      return text.isEmpty || text.hasPrefix("#")
    }
  }

  /// The lines of `code`, without their line breaks (`\n` or `\r\n`; split on scalars, since Swift reads `\r\n` as
  /// one character).
  static func lines(of code: String) -> [String] {
    var lines: [String] = []
    var current = String.UnicodeScalarView()
    for scalar in code.unicodeScalars {
      if scalar == "\n" {
        if current.last == "\r" { current.removeLast() }
        lines.append(String(current))
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    if current.last == "\r" { current.removeLast() }
    lines.append(String(current))
    return lines
  }

  /// Where each line starts in `code`, in scalars.
  static func lineStarts(of code: String) -> [Int] {
    var starts = [0]
    for (offset, scalar) in code.unicodeScalars.enumerated() where scalar == "\n" { starts.append(offset + 1) }
    return starts
  }

  /// The entry holding 0-based `line`, if the line is not blank between entries.
  func entry(containing line: Int) -> Entry? {
    entries.first { $0.lines.contains(line) }
  }

  func text(of entry: Entry) -> String {
    lines[entry.lines].joined(separator: "\n")
  }
}

/// Positions in text as the JSON mode's clients count them (Unicode scalars, as Python and Jupyter do) and as the
/// core does (UTF-8 bytes).
enum TextPosition {
  /// The UTF-8 offset of the `scalars`-th scalar of `text` (its end when beyond).
  static func utf8Offset(ofScalar scalars: Int, in text: String) -> Int {
    var offset = 0
    var count = 0
    for scalar in text.unicodeScalars {
      if count >= scalars { break }
      offset += UTF8.width(scalar)
      count += 1
    }
    return offset
  }

  /// How many scalars begin in the first `bytes` UTF-8 bytes of `text`.
  static func scalarOffset(ofUTF8 bytes: Int, in text: String) -> Int {
    var offset = 0
    var count = 0
    for scalar in text.unicodeScalars {
      if offset >= bytes { break }
      offset += UTF8.width(scalar)
      count += 1
    }
    return count
  }

  /// The 0-based line and the scalar column of scalar offset `cursor`, given where lines start; clamped to the text.
  static func lineAndColumn(ofScalar cursor: Int, lineStarts: [Int], lines: [String]) -> (line: Int, column: Int) {
    var line = 0
    while line + 1 < lineStarts.count, lineStarts[line + 1] <= cursor { line += 1 }
    let length = lines.indices.contains(line) ? lines[line].unicodeScalars.count : 0
    return (line, max(0, min(cursor - lineStarts[line], length)))
  }
}
