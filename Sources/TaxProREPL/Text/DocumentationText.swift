import TaxProCore

/// Documentation laid out for the terminal: the summary as a paragraph, then each field under its label.
struct DocumentationText {
  var style: REPLStyle
  var width: Int

  func render(
    _ documentation: Documentation, indent: String = "  ", summary: Bool = true, topic: Bool = true,
    skipping: Set<Field> = []
  ) -> [String] {
    var lines: [String] = []
    if summary, !documentation.summary.isEmpty {
      lines += TextLayout.wrap(documentation.summary, width: width, first: indent)
    }
    func field(_ kind: Field, _ label: String, _ text: String?) {
      guard let text, !text.isEmpty, !skipping.contains(kind) else { return }
      lines += TextLayout.labelled(style(label, .heading), text, width: width, indent: indent)
    }
    field(.definition, "Definition:", documentation.definition)
    field(.instruction, "Inputs:", documentation.instruction)
    field(.tip, "Tip:", documentation.tip)
    for note in documentation.notes { field(.note, "Note:", note) }
    for example in documentation.examples { field(.example, "Example:", example) }
    if topic, !documentation.topic.isEmpty {
      field(.topic, "Topic:", documentation.topic.joined(separator: " / "))
    }
    if !documentation.references.isEmpty, !skipping.contains(.reference) {
      lines.append(indent + style("References:", .heading))
      for reference in documentation.references {
        lines += TextLayout.wrap(reference, width: width, first: indent + "  ")
      }
    }
    return lines
  }

  enum Field: Hashable {
    case definition, instruction, tip, note, example, topic, reference
  }
}
