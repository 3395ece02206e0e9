import Testing

@testable import TaxProCore

/// `HoverInfo.markdown`, written into one string as it goes, is the text of its definition: the declaration in a
/// code block, then the value, the documentation and each note, each part after a rule.
@Suite struct HoverMarkdownTests {
  /// The definition: the parts, joined by rules.
  static func reference(_ info: HoverInfo) -> String {
    var parts = ["```taxpro\n\(info.code)\n```"]
    if let value = info.value {
      if value.lines.count == 1 {
        parts.append("**\(value.caption):** `\(value.lines[0])`")
      } else {
        parts.append("**\(value.caption):**\n```taxpro\n" + value.lines.joined(separator: "\n") + "\n```")
      }
    }
    if let documentation = info.documentation, !documentation.isEmpty { parts.append(documentation.markdown) }
    for note in info.notes { parts.append("_\(note)_") }
    return parts.joined(separator: "\n\n---\n\n")
  }

  @Test func everyShapeOfHover() {
    var documented = Documentation()
    documented.summary = "Tax owed to one province."
    documented.notes = ["Estimated."]
    documented.references = ["https://example.org"]
    let values: [HoverValue?] = [
      nil, HoverValue(caption: "ON.credit_rate in 2025", lines: ["5.05%"]),
      HoverValue(caption: "ON.income_tax in 2025", lines: ["$0.00 -> 5.05%", "$52,886.00 -> 9.15%"]),
      HoverValue(caption: "empty", lines: []),
    ]
    let span = Span(file: FileID(0), start: 0, end: 1)
    var count = 0
    for value in values {
      for documentation in [nil, Documentation(), documented] as [Documentation?] {
        for notes in [[], ["Figures for 2025, 2026."], ["First.", "Second."]] as [[String]] {
          let info = HoverInfo(span: span, code: "formula f(x: Money): Money", documentation: documentation,
            value: value, notes: notes)
          #expect(info.markdown == Self.reference(info))
          count += 1
        }
      }
    }
    #expect(count == 36)
  }
}
