import TaxProCore

/// A hover's text, in the format the client shows: Markdown, or plain text for a client that renders no Markdown
/// (Emacs without markdown-mode shows hovers raw, often in the one-line echo area).
///
/// Both put the declaration first and the value for the year right after it, before the documentation: the value is
/// what a hover over `ON.credit_rate` is for, and a client that shows only the first lines must not cut it off.
/// Documentation itself is rendered by the core (`Documentation.markdown`) for Markdown, the same way completion shows
/// it; its plain form is written here.
enum HoverText {
  static func codeBlock(_ code: String) -> String { "```taxpro\n\(code)\n```" }

  static func markdown(_ info: HoverInfo) -> String {
    var parts = [codeBlock(info.code)]
    if let value = info.value {
      if value.lines.count == 1 {
        parts.append("**\(value.caption):** `\(value.lines[0])`")
      } else {
        parts.append("**\(value.caption):**\n" + codeBlock(value.lines.joined(separator: "\n")))
      }
    }
    if let documentation = info.documentation, !documentation.isEmpty { parts.append(documentation.markdown) }
    for note in info.notes { parts.append("_\(note)_") }
    return parts.joined(separator: "\n\n---\n\n")
  }

  /// No Markdown syntax at all: the declaration, the value on the line after it, then the documentation with its
  /// labels written out, each part after a blank line.
  static func plainText(_ info: HoverInfo) -> String {
    var parts = [info.code]
    if let value = info.value {
      if value.lines.count == 1 {
        parts[0] += "\n\(value.caption): \(value.lines[0])"
      } else {
        parts[0] += "\n\(value.caption):\n" + value.lines.map { "  " + $0 }.joined(separator: "\n")
      }
    }
    if let documentation = info.documentation, !documentation.isEmpty { parts.append(plainText(documentation)) }
    if !info.notes.isEmpty { parts.append(info.notes.joined(separator: "\n")) }
    return parts.joined(separator: "\n\n")
  }

  /// The summary, then each field after its label, as `Documentation.markdown` orders them.
  static func plainText(_ documentation: Documentation) -> String {
    var parts: [String] = []
    if !documentation.summary.isEmpty { parts.append(documentation.summary) }
    if let definition = documentation.definition { parts.append("Definition: " + definition) }
    if let instruction = documentation.instruction { parts.append("Inputs: " + instruction) }
    if let tip = documentation.tip { parts.append("Tip: " + tip) }
    for note in documentation.notes where !note.isEmpty { parts.append("Note: " + note) }
    if !documentation.examples.isEmpty {
      parts.append("Example:\n" + documentation.examples.map { "    " + $0 }.joined(separator: "\n"))
    }
    if !documentation.topic.isEmpty { parts.append("Topic: " + documentation.topic.joined(separator: " / ")) }
    if !documentation.references.isEmpty {
      parts.append("References:\n" + documentation.references.map { "- " + $0 }.joined(separator: "\n"))
    }
    return parts.joined(separator: "\n\n")
  }
}
