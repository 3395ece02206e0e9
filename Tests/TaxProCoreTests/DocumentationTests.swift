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
    #expect(documentation.storage.isEmpty)
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
}
