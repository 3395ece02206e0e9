import Testing

@testable import TaxProCore

/// The byte-wise fast paths of documentation parsing against the character-wise rules they replace.
@Suite struct DocumentationTests {
  /// The character-wise reading of one line, as it was written before the byte-wise fast path.
  static func reference(_ rawLine: String) -> (line: String, field: Documentation.Field?, rest: String) {
    func trim(_ text: Substring, _ set: Set<Character>) -> String {
      var start = text.startIndex
      var end = text.endIndex
      while start < end, set.contains(text[start]) { start = text.index(after: start) }
      while end > start, set.contains(text[text.index(before: end)]) { end = text.index(before: end) }
      return String(text[start..<end])
    }
    let spaces: Set<Character> = [" ", "\t", "\r"]
    let line = trim(rawLine[...], spaces)
    if let colon = line.firstIndex(of: ":"), let known = Documentation.fieldKeys[line[..<colon].lowercased()] {
      return (line, known, trim(line[line.index(after: colon)...], spaces))
    }
    return (line, nil, line)
  }

  static let lines: [String] = [
    "", " ", "Plain summary.", "  definition:  Each bracket. ", "TIP: shout", "Instructions:x", "reference:",
    "note : not a key", "topic: Income / Income tax", "a: b: c", "tip:\tTabbed\t", "\r tip: carriage\r",
    "sOuRcE: https://example.com/a:b", "instructionsx: too long a key", "définition: accented key",
    "tip: après", "tip: a\u{301} combining", " \u{301}tip: combining after a space", ":\u{301} colon with a mark",
    "tip\r\n: crlf", "example: 1 + 1 == 2", "Parts: w = a + b", "\u{212A}ey: the Kelvin sign", "references:   many   ",
  ]

  @Test(arguments: lines)
  func fieldSplittingAgreesWithTheCharacterRules(_ line: String) {
    let fast = Documentation.splitField(line)
    let slow = Self.reference(line)
    #expect(fast.line == slow.line)
    #expect(fast.field == slow.field)
    #expect(fast.rest == slow.rest)
  }

  @Test(arguments: ["", " x ", "\n x\n ", "x\r\n", "\r\n", " \u{301}", "\u{600} ", "abc", "  \t\r"])
  func trimmingAgreesWithTheCharacterRules(_ text: String) {
    for set in [" \t\r", "\n "] {
      let characters = Set(set)
      var start = text.startIndex
      var end = text.endIndex
      while start < end, characters.contains(text[start]) { start = text.index(after: start) }
      while end > start, characters.contains(text[text.index(before: end)]) { end = text.index(before: end) }
      #expect(text.trimmingCharacters(in: set) == String(text[start..<end]))
    }
  }

  @Test func emptyDocumentationAllocatesNothingAndCopiesShareStorage() {
    var documentation = Documentation()
    #expect(documentation.isEmpty)
    guard case .read(let fields) = documentation.storage else {
      Issue.record("an empty documentation is not read from lines")
      return
    }
    #expect(fields.isEmpty)
    #expect(documentation == Documentation())
    documentation.tip = "Save early."
    let copy = documentation
    documentation.tip = "Save often."
    #expect(copy.tip == "Save early.")
    #expect(documentation.tip == "Save often.")
    #expect(!documentation.isEmpty)
  }

  @Test func parsedFieldsAreKept() {
    let parsed = Documentation.parse(
      lines: ["Tax on income.", "", "definition: Each bracket's rate", "applies to its part.", "topic: Income / Tax",
        "reference: https://a", "reference: https://b", "note: one", "continued", "parts: whole = a", "+ b"],
      span: nil)
    #expect(parsed.summary == "Tax on income.")
    #expect(parsed.definition == "Each bracket's rate applies to its part.")
    #expect(parsed.topic == ["Income", "Tax"])
    #expect(parsed.references == ["https://a", "https://b"])
    #expect(parsed.notes == ["one continued"])
    #expect(parsed.parts == "whole = a + b")
    #expect(!Documentation.parse(lines: ["parts: w = a"], span: nil).isEmpty)
  }

  /// Hover and completion show what a figure leaves out right after what it is, before the definition and tips.
  @Test func markdownPutsTheNotesRightAfterTheSummary() {
    let documentation = Documentation.parse(
      lines: [
        "Take-home pay.", "definition: Salary less tax.", "tip: Compare two salaries.", "note: An estimate.",
        "note: Leaves out other income.",
      ], span: nil)
    let parts = documentation.markdown.components(separatedBy: "\n\n")
    #expect(Array(parts.prefix(4)) == [
      "Take-home pay.", "**Note.** An estimate.", "**Note.** Leaves out other income.", "**Definition.** Salary less tax.",
    ])
  }

  /// Lines made of keys in any case, spaces, tabs, carriage returns, colons and non-ASCII letters, read by the
  /// byte-wise fast path and by the character rules.
  @Test func generatedLinesSplitAsTheCharacterRulesSay() {
    var generator = SystemRandomNumberGenerator()
    let keys = Array(Documentation.fieldKeys.keys) + ["", "tips", "partss", "Formula 7", "é", "a b", "x"]
    let fillers = ["", " ", "\t", "\r", " \t", "é", "\u{301}", ":", " : "]
    for _ in 0..<2_000 {
      var key = keys.randomElement(using: &generator) ?? ""
      key = String(key.map { Bool.random(using: &generator) ? Character($0.uppercased()) : $0 })
      let line = (fillers.randomElement(using: &generator) ?? "") + key + (Bool.random(using: &generator) ? ":" : "")
        + (fillers.randomElement(using: &generator) ?? "") + (["text", "w = a + b", "", "après"].randomElement() ?? "")
        + (fillers.randomElement(using: &generator) ?? "")
      let fast = Documentation.splitField(line)
      let slow = Self.reference(line)
      #expect(fast.line == slow.line && fast.field == slow.field && fast.rest == slow.rest, "\(line.debugDescription)")
    }
  }

  /// The reading of a block as it was written before its fields were gathered in local variables: each line set
  /// through the public properties, each text rebuilt whole.
  static func referenceBlock(_ lines: [String]) -> Documentation {
    var documentation = Documentation()
    var current = Documentation.Field.summary
    func append(_ existing: String?, _ text: String) -> String {
      guard let existing, !existing.isEmpty else { return text }
      return text.isEmpty ? existing + "\n" : (existing.hasSuffix("\n") ? existing + text : existing + " " + text)
    }
    for rawLine in lines {
      let (line, field, rest) = reference(rawLine)
      if let field {
        current = field
        switch field {
        case .summary: break
        case .definition: documentation.definition = append(documentation.definition, rest)
        case .instruction: documentation.instruction = append(documentation.instruction, rest)
        case .tip: documentation.tip = append(documentation.tip, rest)
        case .topic: documentation.topic = rest.split(separator: "/").map { trimmed(String($0)) }.filter { !$0.isEmpty }
        case .reference: if !rest.isEmpty { documentation.references.append(rest) }
        case .note: documentation.notes.append(rest)
        case .example: documentation.examples.append(rest)
        case .parts: documentation.parts = append(documentation.parts, rest)
        }
        continue
      }
      switch current {
      case .summary: documentation.summary = append(documentation.summary, line)
      case .definition: documentation.definition = append(documentation.definition, line)
      case .instruction: documentation.instruction = append(documentation.instruction, line)
      case .tip: documentation.tip = append(documentation.tip, line)
      case .topic: break
      case .reference: if !line.isEmpty { documentation.references.append(line) }
      case .note:
        if let last = documentation.notes.indices.last {
          documentation.notes[last] = append(documentation.notes[last], line)
        }
      case .example: if !line.isEmpty { documentation.examples.append(line) }
      case .parts: documentation.parts = append(documentation.parts, line)
      }
    }
    var start = documentation.summary.startIndex
    var end = documentation.summary.endIndex
    let ends: Set<Character> = ["\n", " "]
    while start < end, ends.contains(documentation.summary[start]) { start = documentation.summary.index(after: start) }
    while end > start, ends.contains(documentation.summary[documentation.summary.index(before: end)]) {
      end = documentation.summary.index(before: end)
    }
    documentation.summary = String(documentation.summary[start..<end])
    return documentation
  }

  static func trimmed(_ text: String) -> String {
    let spaces: Set<Character> = [" ", "\t", "\r"]
    var start = text.startIndex
    var end = text.endIndex
    while start < end, spaces.contains(text[start]) { start = text.index(after: start) }
    while end > start, spaces.contains(text[text.index(before: end)]) { end = text.index(before: end) }
    return String(text[start..<end])
  }

  /// Blocks of fields, continuations, empty lines and repeated keys read as the line-by-line rules read them: every
  /// field, set or unset, empty or not.
  @Test func blocksReadAsTheLineByLineRulesRead() {
    var generator = SystemRandomNumberGenerator()
    let keys = ["", "", "", "definition: ", "Instructions:", "tip:", "topic: ", "reference: ", "source:", "note:",
      "example: ", "parts: ", "Formula 3: "]
    let texts = ["", "", " ", "Each bracket.", "a/b / c", "w = a + b", " après ", "\u{301}x", "tip", "\r", "  + b"]
    for _ in 0..<3_000 {
      let lines = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
        (keys.randomElement(using: &generator) ?? "") + (texts.randomElement(using: &generator) ?? "")
      }
      let parsed = Documentation.parse(lines: lines, span: nil)
      let expected = Self.referenceBlock(lines)
      #expect(parsed == expected, "\(lines.debugDescription)")
      #expect(parsed.isEmpty == expected.isEmpty, "\(lines.debugDescription)")
    }
  }

  /// The summary is trimmed of spaces and line breaks at its ends whether or not the trimming was skipped.
  @Test func summariesAreTrimmed() {
    let pieces = ["", " ", "\n", "Tax.", " Tax. ", "\r\n", "é ", "tip: t", "x\n", " \u{301}"]
    for first in pieces {
      for second in pieces {
        let summary = Documentation.parse(lines: [first, second], span: nil).summary
        #expect(summary == summary.trimmingCharacters(in: "\n "), "\([first, second].debugDescription)")
      }
    }
  }

  /// `Parser.documentation(before:)` against a line-by-line reading of generated sources: blocks of one and many
  /// lines, `\n` and `\r\n`, tabs and spaces before `##`, non-ASCII text, `parts:` lines, plain comments between.
  @Test func documentationBlocksAgreeWithALineByLineReading() {
    var generator = SystemRandomNumberGenerator()
    let texts = [
      "Summary text.", "parts: whole = a + b", "tip: Keep receipts.", "TIP:\tShout", "définition: é", "note : no key",
      "", "  spaced  ", "a:b", "Formula 3: x", "Parts: w = a", "+ b", "références: x", "\u{301}mark",
    ]
    for _ in 0..<200 {
      var text = ""
      var expected: [Documentation] = []
      for index in 0..<Int.random(in: 1...6, using: &generator) {
        let newline = Bool.random(using: &generator) ? "\n" : "\r\n"
        if Int.random(in: 0..<4, using: &generator) == 0 { text += "# plain" + newline }
        if Int.random(in: 0..<4, using: &generator) == 0 { text += newline }
        var lines: [String] = []
        var start = -1
        var end = -1
        for _ in 0..<Int.random(in: 0...4, using: &generator) {
          text += ["", " ", "\t"].randomElement(using: &generator) ?? ""
          if start < 0 { start = text.utf8.count }
          let line = texts.randomElement(using: &generator) ?? ""
          let space = Bool.random(using: &generator) ? " " : ""
          text += "##" + space + line
          end = text.utf8.count
          lines.append(space.isEmpty && line.hasPrefix(" ") ? String(line.dropFirst()) : line)
          text += newline
        }
        text += "formula f\(index)(x: Money): Money = x" + newline
        expected.append(
          lines.isEmpty
            ? Documentation()
            : Documentation.parse(lines: lines, span: Span(file: FileID(0), start: start, end: end)))
      }
      let tree = Parser.parse(SourceFile(id: FileID(0), name: "t.tax", text: text))
      let found = tree.declarations.compactMap { declaration -> Documentation? in
        if case .formula(let formula) = declaration { return formula.documentation }
        return nil
      }
      #expect(found == expected, "\(text.debugDescription)")
    }
  }

  /// The documentation of `lines` as the parser leaves it: unread until asked for.
  static func unread(_ lines: [String], at start: Int = 10) -> Documentation {
    Documentation.unread(lines: lines, span: Span(file: FileID(0), start: start, end: start + 40))
  }

  static func isUnread(_ documentation: Documentation) -> Bool {
    if case .unread = documentation.storage { return true }
    return false
  }

  @Test func aBlockOfSeveralLinesIsReadWhenFirstAskedFor() {
    let text = "## Tax on income.\n## tip: Keep receipts.\nformula f(x: Money): Money = x\n"
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "t.tax", text: text))
    guard case .formula(let formula) = tree.declarations.first else {
      Issue.record("no formula parsed")
      return
    }
    let documentation = formula.documentation
    #expect(Self.isUnread(documentation))
    // The span is there without reading the lines; the fields are those of `parse`.
    #expect(documentation.span == Span(file: FileID(0), start: 0, end: 40))
    #expect(documentation.summary == "Tax on income.")
    #expect(documentation.tip == "Keep receipts.")
    #expect(documentation == Documentation.parse(lines: ["Tax on income.", "tip: Keep receipts."], span: documentation.span))
    // A change reads the lines first, and leaves the original as it was.
    var changed = documentation
    changed.tip = "Keep every receipt."
    #expect(!Self.isUnread(changed))
    #expect(changed.summary == "Tax on income.")
    #expect(changed.tip == "Keep every receipt.")
    #expect(documentation.tip == "Keep receipts.")
    #expect(changed != documentation)
  }

  @Test func unreadBlocksCompareAsTheirFields() {
    let lines = ["Tax on income.", "", "more"]
    #expect(Self.unread(lines) == Self.unread(lines))
    #expect(Self.unread(lines) != Self.unread(lines, at: 11))
    // Blocks at different places differ without being read.
    let (here, there) = (Self.unread(lines), Self.unread(["Other."], at: 11))
    #expect(here != there)
    for documentation in [here, there] {
      guard case .unread(let unread) = documentation.storage else { continue }
      #expect(unread.readFields == nil)
    }
    #expect(Self.unread(lines) != Self.unread(["Tax on income.", "more"]))
    // Lines that differ only in blanks a reading trims are equal documentation.
    #expect(Self.unread(["Tax on income.", "tip: x"]) == Self.unread(["Tax on income. ", "tip:   x"]))
    let read = Documentation.parse(lines: lines, span: Span(file: FileID(0), start: 10, end: 50))
    #expect(Self.unread(lines) == read)
    #expect(read == Self.unread(lines))
    #expect(Self.unread(["", " "]).isEmpty)
    #expect(!Self.unread(["", "x"]).isEmpty)
  }

  @Test func shiftingAnUnreadBlockMovesItsSpanAndKeepsItUnread() {
    let documentation = Self.unread(["Tax on income.", "tip: t"])
    let shifted = documentation.shifted(by: 5)
    #expect(Self.isUnread(shifted))
    #expect(shifted.span == Span(file: FileID(0), start: 15, end: 55))
    #expect(shifted.tip == "t")
    // Once read, it moves as read fields.
    let again = shifted.shifted(by: -5)
    #expect(!Self.isUnread(again))
    #expect(again == documentation)
    #expect(again.span == documentation.span)
  }

  /// `Unread.mayHaveParts` is false only for blocks whose reading has no `parts:` line: checked on every pairing of
  /// lines that start with the key or nearly do.
  @Test func aBlockWithoutAPossiblePartsLineHasNone() {
    let lines = [
      "Summary.", "parts: w = a + b", "  Parts:w = a", "\tPARTS: w", "\r parts: w", "parts : w", "part: w", "partsx: w",
      "parts", "parts:", "pärts: w", "\u{212A}parts: w", "tip: parts: w", "", "  ", "x parts: w", "+ b",
    ]
    for first in lines {
      for second in lines {
        let block = [first, second]
        let unread = Documentation.Unread(lines: block, span: nil)
        let read = Documentation.parse(lines: block, span: nil)
        if !unread.mayHaveParts { #expect(read.parts == nil, "\(block)") }
        if read.parts != nil { #expect(Self.unread(block).parts == read.parts, "\(block)") }
      }
    }
    #expect(!Documentation.Unread(lines: ["Summary.", "tip: parts: w", "part: w"], span: nil).mayHaveParts)
    #expect(Documentation.Unread(lines: ["Summary.", " pArTs: w"], span: nil).mayHaveParts)
  }

  @Test func documentationIsOneReference() {
    #expect(MemoryLayout<Documentation>.size == MemoryLayout<Int>.size)
  }
}
