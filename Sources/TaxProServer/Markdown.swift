import TaxProCore

/// Markdown for hovers, completion documentation and signature help. The core hands over structured
/// documentation; how it looks in an editor is decided here.
enum Markdown {
  static func codeBlock(_ code: String) -> String { "```taxpro\n\(code)\n```" }

  static func documentation(_ documentation: Documentation) -> String {
    var parts: [String] = []
    if !documentation.summary.isEmpty { parts.append(documentation.summary) }
    if let definition = documentation.definition { parts.append("**Definition:** " + definition) }
    if let instruction = documentation.instruction { parts.append("**How to use it:** " + instruction) }
    if let tip = documentation.tip { parts.append("**Tip:** " + tip) }
    for note in documentation.notes where !note.isEmpty { parts.append("**Note:** " + note) }
    for example in documentation.examples { parts.append("Example: `" + example + "`") }
    if !documentation.references.isEmpty {
      parts.append("**References:**\n" + documentation.references.map { "- " + $0 }.joined(separator: "\n"))
    }
    return parts.joined(separator: "\n\n")
  }

  static func hover(_ info: HoverInfo) -> String {
    var parts = [codeBlock(info.code)]
    if let documentation = info.documentation, !documentation.isEmpty { parts.append(self.documentation(documentation)) }
    if let value = info.value {
      if value.lines.count == 1 {
        parts.append("**\(value.caption):** `\(value.lines[0])`")
      } else {
        parts.append("**\(value.caption):**\n" + codeBlock(value.lines.joined(separator: "\n")))
      }
    }
    for note in info.notes { parts.append("_\(note)_") }
    return parts.joined(separator: "\n\n---\n\n")
  }
}
