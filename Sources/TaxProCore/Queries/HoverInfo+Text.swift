/// A hover as text, for front ends that show it whole: Markdown, or plain text for one that renders none (the
/// language server's hovers for such a client: Emacs without markdown-mode shows hovers raw, often in the one-line
/// echo area; the REPL's JSON mode gives both).
///
/// Both put the declaration first and the value for the year right after it, before the documentation: the value is
/// what a hover over `ON.credit_rate` is for, and a front end that shows only the first lines must not cut it off.
extension HoverInfo {
  /// For front ends that describe things of their own the way hovers describe the language's (a REPL command).
  public init(span: Span, code: String, documentation: Documentation?, notes: [String]) {
    self.init(span: span, code: code, documentation: documentation, value: nil, notes: notes)
  }

  /// The parts separated by rules. Written into one string as it goes (a hover is asked for at every pause of the
  /// mouse): an array of parts joined at the end made each part twice.
  public var markdown: String {
    let rule = "\n\n---\n\n"
    var text = "```taxpro\n"
    text += code
    text += "\n```"
    if let value {
      text += rule + "**"
      text += value.caption
      if value.lines.count == 1 {
        text += ":** `"
        text += value.lines[0]
        text += "`"
      } else {
        text += ":**\n```taxpro\n"
        text += value.lines.joined(separator: "\n")
        text += "\n```"
      }
    }
    if let documentation, !documentation.isEmpty {
      text += rule
      text += documentation.markdown
    }
    for note in notes {
      text += rule + "_"
      text += note
      text += "_"
    }
    return text
  }

  /// No Markdown syntax at all: the declaration, the value on the line after it, then the documentation with its
  /// labels written out, each part after a blank line.
  public var plainText: String {
    var parts = [code]
    if let value {
      if value.lines.count == 1 {
        parts[0] += "\n\(value.caption): \(value.lines[0])"
      } else {
        parts[0] += "\n\(value.caption):\n" + value.lines.map { "  " + $0 }.joined(separator: "\n")
      }
    }
    if let documentation, !documentation.isEmpty { parts.append(documentation.plainText) }
    if !notes.isEmpty { parts.append(notes.joined(separator: "\n")) }
    return parts.joined(separator: "\n\n")
  }
}

extension Documentation {
  /// The summary, then each field after its label, in the order `markdown` gives them.
  public var plainText: String {
    let fields = self.fields
    var parts: [String] = []
    if !fields.summary.isEmpty { parts.append(fields.summary) }
    if let definition = fields.definition { parts.append("Definition: " + definition) }
    if let instruction = fields.instruction { parts.append("Inputs: " + instruction) }
    if let tip = fields.tip { parts.append("Tip: " + tip) }
    for note in fields.notes where !note.isEmpty { parts.append("Note: " + note) }
    if !fields.examples.isEmpty {
      parts.append("Example:\n" + fields.examples.map { "    " + $0 }.joined(separator: "\n"))
    }
    if !fields.topic.isEmpty { parts.append("Topic: " + fields.topic.joined(separator: " / ")) }
    if !fields.references.isEmpty {
      parts.append("References:\n" + fields.references.map { "- " + $0 }.joined(separator: "\n"))
    }
    return parts.joined(separator: "\n\n")
  }
}
