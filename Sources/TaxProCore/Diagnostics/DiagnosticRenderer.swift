/// The roles of text in a rendered diagnostic; a front end maps them to colours (or to nothing).
public enum TextRole: Sendable {
  case error, warning, information, note, help, location, gutter, marker, emphasis, plain
}

/// Renders diagnostics as compilers do: `FILE:LINE:COL: error[CODE]: MESSAGE`, the source line, a caret underline, then
/// notes. The code (`type-mismatch`) is what `docs/LANGUAGE.md` lists, with an example of each.
///
/// The core only produces text; `style` decides how each role looks (ANSI colours in a terminal, nothing elsewhere).
public struct DiagnosticRenderer: Sendable {
  public var style: @Sendable (String, TextRole) -> String
  public var sources: [FileID: SourceFile]

  /// Columns to wrap notes at, under their `= help:` (a terminal's width); nil leaves each note one line, as logs,
  /// pipes and tests read it.
  public var width: Int?

  public init(
    sources: [FileID: SourceFile], style: @escaping @Sendable (String, TextRole) -> String = { text, _ in text },
    width: Int? = nil
  ) {
    self.sources = sources
    self.style = style
    self.width = width
  }

  public func render(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map(render).joined()
  }

  /// `FILE:LINE:COL`.
  public func location(_ span: Span) -> String {
    guard let source = sources[span.file] else { return "<unknown>" }
    let position = source.lineColumn(of: span.start)
    return "\(source.name):\(position.line):\(position.column)"
  }

  public func render(_ diagnostic: Diagnostic) -> String {
    let severityRole: TextRole =
      switch diagnostic.severity {
      case .error: .error
      case .warning: .warning
      case .information: .information
      }
    // Messages quote source text (names, strings, test names) and file names: their control characters are shown
    // as escapes, never sent to the terminal.
    var output = style(location(diagnostic.span).escapingControlCharacters() + ":", .location) + " "
    output += style("\(diagnostic.severity.rawValue)[\(diagnostic.code.rawValue)]:", severityRole) + " "
    output += style(diagnostic.message.escapingControlCharacters(lineBreaks: true), .emphasis) + "\n"
    let gutterWidth = gutter(for: [diagnostic.span] + diagnostic.notes.compactMap(\.span))
    output += snippet(diagnostic.span, gutterWidth: gutterWidth, role: severityRole)
    let pad = String(repeating: " ", count: gutterWidth + 1)
    for note in diagnostic.notes {
      let role: TextRole = note.kind == .note ? .note : .help
      let label = "= " + note.kind.rawValue + ":"
      let message = note.message.escapingControlCharacters(lineBreaks: true)
      if let width {
        let first = pad + style(label, role) + " "
        let rest = pad + String(repeating: " ", count: label.count + 1)
        output += TextLayout.wrap(message, width: width, first: first, rest: rest).joined(separator: "\n") + "\n"
      } else {
        output += pad + style(label, role) + " " + message + "\n"
      }
      if let span = note.span, span != diagnostic.span {
        output += pad + "  " + style("--> " + location(span).escapingControlCharacters(), .location) + "\n"
        output += snippet(span, gutterWidth: gutterWidth, role: role)
      }
    }
    return output
  }

  func gutter(for spans: [Span]) -> Int {
    let lines = spans.compactMap { span in sources[span.file].map { $0.lineIndex(of: span.start) + $0.firstLine } }
    return String(lines.max() ?? 1).count
  }

  /// The source line of a span with a caret underline.
  func snippet(_ span: Span, gutterWidth: Int, role: TextRole) -> String {
    guard let source = sources[span.file], !source.bytes.isEmpty || span.start == 0 else { return "" }
    let lineIndex = source.lineIndex(of: min(span.start, source.bytes.count))
    // The line's bytes without its line break, read in place: a line can be 50 MB long, and only a window of it is
    // shown.
    var lineStart = source.lineStarts[lineIndex]
    var lineEnd = lineIndex + 1 < source.lineStarts.count ? source.lineStarts[lineIndex + 1] : source.bytes.count
    while lineEnd > lineStart, source.bytes[lineEnd - 1] == 10 || source.bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
    let line = source.bytes[lineStart..<lineEnd]
    let lineLength = line.count
    var startInLine = max(0, min(span.start - lineStart, lineLength))
    var endInLine = max(startInLine, min(span.end - lineStart, lineLength))
    var lineBytes: [UInt8]
    var lineText: String
    // Long lines are shown as a window around the span.
    let window = 100
    if lineLength > window + 20 {
      var from = max(0, startInLine - 40)
      while from > 0, from < lineLength, line[lineStart + from] & 0xC0 == 0x80 { from -= 1 }
      var to = min(lineLength, max(from + window, min(endInLine, from + window)))
      while to < lineLength, line[lineStart + to] & 0xC0 == 0x80 { to += 1 }
      let prefix = from > 0 ? "…" : ""
      let suffix = to < lineLength ? "…" : ""
      let prefixBytes = Array(prefix.utf8)
      lineBytes = prefixBytes + Array(line[(lineStart + from)..<(lineStart + to)]) + Array(suffix.utf8)
      lineText = String(decoding: lineBytes, as: UTF8.self)
      lineStart += from - prefixBytes.count
      startInLine = max(0, min(span.start - lineStart, lineBytes.count - suffix.utf8.count))
      endInLine = max(startInLine, min(span.end - lineStart, lineBytes.count - suffix.utf8.count))
    } else {
      lineBytes = Array(line)
      lineText = String(decoding: lineBytes, as: UTF8.self)
    }
    // Columns on screen: one per scalar, tabs kept so the caret lines up under them, and a control character as wide
    // as the escape it is shown as (`\u{1B}`): a crafted line cannot drive the terminal.
    func width(_ scalar: Unicode.Scalar) -> Int { scalar.visibleEscape()?.count ?? 1 }
    var padding = ""
    for scalar in String(decoding: lineBytes[..<startInLine], as: UTF8.self).unicodeScalars {
      padding += scalar == "\t" ? "\t" : String(repeating: " ", count: width(scalar))
    }
    let markedWidth = max(
      1, String(decoding: lineBytes[startInLine..<endInLine], as: UTF8.self).unicodeScalars.reduce(0) { $0 + width($1) })
    lineText = lineText.escapingControlCharacters()
    let number = String(lineIndex + source.firstLine)
    let blankGutter = String(repeating: " ", count: gutterWidth + 1) + style("|", .gutter)
    var output = String(repeating: " ", count: gutterWidth - number.count) + style(number, .gutter) + " "
    output += style("|", .gutter) + " " + lineText + "\n"
    output += blankGutter + " " + padding + style(String(repeating: "^", count: markedWidth), role) + "\n"
    return output
  }
}
