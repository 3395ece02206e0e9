import Testing

@testable import TaxProCore

/// Text is laid out by what the reader sees: escape codes take no column, wide characters two, and lines break at
/// spaces only, unless one word is wider than the line.
@Suite struct TextLayoutTests {
  static let bold = "\u{1B}[1m"
  static let reset = "\u{1B}[0m"
  static let prose =
    "Income tax is charged in slices. A bracket is a range of income with its own rate, and a threshold is where the next bracket starts."

  @Test func widthCountsWhatIsSeen() {
    #expect(TextLayout.width("tax") == 3)
    #expect(TextLayout.width(Self.bold + "tax" + Self.reset) == 3)
    #expect(TextLayout.width("税金") == 4)
    #expect(TextLayout.width("e\u{301}") == 1)
    #expect(TextLayout.plain(Self.bold + "tax" + Self.reset) == "tax")
  }

  @Test(arguments: [20, 33, 50, 80])
  func wrappingBreaksOnlyAtSpacesAndFitsTheWidth(_ width: Int) {
    for colored in [false, true] {
      // With colour, every other word is bold: the escape codes must not count towards the width.
      let words = Self.prose.split(separator: " ").enumerated().map { index, word in
        colored && index % 2 == 0 ? Self.bold + word + Self.reset : String(word)
      }
      let lines = TextLayout.wrap(words.joined(separator: " "), width: width, first: "  ", rest: "    ")
      for line in lines { #expect(TextLayout.width(line) <= width, "\(TextLayout.width(line)): \(line)") }
      // Every word is whole, in order: only spaces became line breaks.
      #expect(lines.map(TextLayout.plain).joined(separator: " ").split(separator: " ") == Self.prose.split(separator: " "))
      // With colour, a line is as full as without it: the line breaks are the same.
      if colored {
        #expect(lines.map(TextLayout.plain) == TextLayout.wrap(Self.prose, width: width, first: "  ", rest: "    "))
      }
    }
  }

  @Test func colourOpenAtABreakIsClosedAndReopenedAfterTheIndentation() {
    let lines = TextLayout.wrap(Self.bold + "one two three four" + Self.reset, width: 12, first: "  ", rest: "  ")
    #expect(lines.count == 2)
    #expect(lines[0].hasSuffix(Self.reset))
    #expect(lines[1].hasPrefix("  " + Self.bold))
  }

  @Test func aWordWiderThanTheLineIsBrokenAtAPunctuationMark() {
    let lines = TextLayout.wrap("see /usr/local/share/taxpro/library/federal.tax", width: 24)
    for line in lines { #expect(TextLayout.width(line) <= 24) }
    #expect(lines.joined().replacingOccurrences(of: " ", with: "") == "see/usr/local/share/taxpro/library/federal.tax")
    // The path moves to a line of its own and breaks after a slash, never inside a name.
    #expect(lines.first == "see")
    #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasSuffix("/") || $0.hasSuffix(".") })
  }

  @Test func tablesLineUpByVisibleWidth() {
    let lines = TextLayout.table(
      [["", "marginal"], [Self.bold + "federal" + Self.reset, "20.5%"], ["Ontario", "9.15%"]], rightAligned: [1])
    #expect(Set(lines.map { TextLayout.width($0) }).count == 1)
    #expect(lines.map { TextLayout.plain($0) } == ["         marginal", "federal     20.5%", "Ontario     9.15%"])
  }

  /// A diagnostic's notes at a terminal wrap at its width under their `= help:`, in colour too; with no width (a pipe,
  /// a log) each note stays one line, word for word the same.
  @Test(arguments: [40, 60, 90])
  func diagnosticNotesWrapUnderTheirLabel(width: Int) {
    let source = SourceFile(id: FileID(0), name: "f.tax", text: "let x = income_tax\n")
    let diagnostic = Diagnostic.error(
      DiagnosticMessage(.unknownName, "unknown name 'income_tax'"), at: Span(file: source.id, start: 8, end: 18),
      notes: [DiagnosticNote(.help, Self.prose)])
    let plain = DiagnosticRenderer(sources: [source.id: source]).render([diagnostic])
    let unwrapped = plain.split(separator: "\n").map(String.init).filter { $0.contains("= help:") }
    #expect(unwrapped == ["  = help: " + Self.prose])
    let colour: @Sendable (String, TextRole) -> String = { text, _ in TextLayoutTests.bold + text + TextLayoutTests.reset }
    for style in [nil, colour] {
      let renderer = style.map { DiagnosticRenderer(sources: [source.id: source], style: $0, width: width) }
        ?? DiagnosticRenderer(sources: [source.id: source], width: width)
      let lines = renderer.render([diagnostic]).split(separator: "\n").map { TextLayout.plain(String($0)) }
      guard let first = lines.firstIndex(where: { $0.hasPrefix("  = help: ") }) else {
        Issue.record("no help line")
        continue
      }
      let note = lines[first...]
      #expect(note.count > 1)
      #expect(note.allSatisfy { TextLayout.width($0) <= width })
      #expect(note.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 10)) && $0.dropFirst(10).first != " " })
      #expect(note.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: " ") == "= help: " + Self.prose)
    }
  }
}
