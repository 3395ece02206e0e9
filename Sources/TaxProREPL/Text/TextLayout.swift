/// Wrapping prose to the terminal, so documentation reads as paragraphs rather than as the lines it was written in.
/// Public for the command line's `--help`.
public enum TextLayout {
  /// Words of `text` in lines no wider than `width`, the first prefixed with `first`, the rest with `rest`.
  /// Line breaks in `text` are kept as paragraph breaks; a word longer than the width gets a line of its own.
  public static func wrap(_ text: String, width: Int, first: String = "", rest: String? = nil) -> [String] {
    let rest = rest ?? String(repeating: " ", count: first.count)
    var lines: [String] = []
    var prefix = first
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = prefix
      var lineHasWord = false
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        if lineHasWord && line.count + 1 + word.count > width {
          lines.append(line)
          line = rest
          lineHasWord = false
        }
        line += (lineHasWord ? " " : "") + word
        lineHasWord = true
      }
      lines.append(lineHasWord ? line : line.trimmingTrailingSpaces)
      prefix = rest
    }
    return lines
  }

  /// `label` then text wrapped under it: `  Tip: Because the credit…`.
  static func labelled(_ label: String, _ text: String, width: Int, indent: String) -> [String] {
    wrap(text, width: width, first: indent + label + " ", rest: indent + "  ")
  }

  /// Rows of cells in columns as wide as their widest cell, separated by two spaces.
  public static func table(_ rows: [[String]], indent: String = "") -> [String] {
    guard let columns = rows.map(\.count).max(), columns > 0 else { return [] }
    var widths = Array(repeating: 0, count: columns)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return rows.map { row in
      var line = indent
      for (index, cell) in row.enumerated() {
        let isLast = index == row.count - 1
        line += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
      }
      return line
    }
  }
}

extension String {
  var trimmingTrailingSpaces: String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }

}

extension StringProtocol {
  /// Without leading and trailing white space.
  var trimmed: String {
    var copy = Substring(self)
    while let first = copy.first, first.isWhitespace { copy.removeFirst() }
    while let last = copy.last, last.isWhitespace { copy.removeLast() }
    return String(copy)
  }
}
