import TaxProCore

/// Markdown for hovers. Documentation itself is rendered by the core (`Documentation.markdown`), the same way
/// completion shows it.
enum Markdown {
  static func codeBlock(_ code: String) -> String { "```taxpro\n\(code)\n```" }

  static func hover(_ info: HoverInfo) -> String {
    var parts = [codeBlock(info.code)]
    if let documentation = info.documentation, !documentation.isEmpty { parts.append(documentation.markdown) }
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
