/// Documentation as Markdown, the format LSP clients render in completion and hover; shared by completion and any
/// front end that shows documentation with Markdown.
extension Documentation {
  /// Summary and notes (the limits of what it computes), then each field under a bold label, in the order a learner
  /// reads them.
  public var markdown: String {
    let fields = self.fields
    var parts: [String] = []
    if !fields.summary.isEmpty { parts.append(fields.summary) }
    // What the figure leaves out or estimates comes next to what it is, not after the tips.
    for note in fields.notes where !note.isEmpty { parts.append("**Note.** " + note) }
    if let definition = fields.definition { parts.append("**Definition.** " + definition) }
    if let instruction = fields.instruction { parts.append("**Inputs.** " + instruction) }
    if let tip = fields.tip { parts.append("**Tip.** " + tip) }
    if !fields.examples.isEmpty {
      parts.append("**Example.**\n" + fields.examples.map { "    " + $0 }.joined(separator: "\n"))
    }
    if !fields.topic.isEmpty { parts.append("*Topic: " + fields.topic.joined(separator: " / ") + "*") }
    if !fields.references.isEmpty {
      parts.append("**References.**\n" + fields.references.map { "- " + $0 }.joined(separator: "\n"))
    }
    return parts.joined(separator: "\n\n")
  }
}

extension FormulaInfo {
  /// The signature as code, the documentation, and each parameter with its range, default and documentation.
  public var markdown: String {
    var parts = ["```taxpro\n" + signature + "\n```"]
    let documentation = self.documentation.markdown
    if !documentation.isEmpty { parts.append(documentation) }
    let parameterLines = self.parameters.map { parameter -> String in
      var line = "- `\(parameter.name): \(parameter.type)`"
      if let range = parameter.rangeText { line += ", from \(range.replacingOccurrences("..", with: " to "))" }
      if let defaultText = parameter.defaultText { line += ", default `\(defaultText)`" }
      let summary = parameter.documentation.summary
      if !summary.isEmpty { line += " — " + summary.replacingOccurrences("\n", with: " ") }
      return line
    }
    if !parameterLines.isEmpty { parts.append("**Parameters.**\n" + parameterLines.joined(separator: "\n")) }
    return parts.joined(separator: "\n\n")
  }
}

extension JurisdictionInfo {
  /// The full name, the years with figures and the documentation.
  public var markdown: String {
    var parts = ["**\(fullName)** (`\(code)`)"]
    let years = sortedYears.map(String.init).joined(separator: ", ")
    if !years.isEmpty { parts.append("Figures for " + years + ".") }
    let documentation = self.documentation.markdown
    if !documentation.isEmpty { parts.append(documentation) }
    return parts.joined(separator: "\n\n")
  }
}
