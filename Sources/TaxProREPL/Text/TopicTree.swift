import TaxProCore

/// The `## topic:` paths of a program's formulas and parameter interfaces, as a tree for browsing.
struct TopicTree {
  final class Node {
    var name: String
    var children: [Node] = []
    /// Formula names, and `parameters Province` style entries for interfaces.
    var entries: [String] = []

    init(name: String) {
      self.name = name
    }

    func child(_ name: String) -> Node {
      if let existing = children.first(where: { $0.name == name }) { return existing }
      let node = Node(name: name)
      children.append(node)
      return node
    }

    /// Every entry here and below.
    var allEntries: [String] { entries + children.flatMap(\.allEntries) }
  }

  let root = Node(name: "")

  init(program: Program) {
    for formula in program.formulas.sorted(by: { $0.name < $1.name }) where !formula.documentation.topic.isEmpty {
      add(formula.name, at: formula.documentation.topic)
    }
    for interface in program.interfaces.values.sorted(by: { $0.name < $1.name })
    where !interface.documentation.topic.isEmpty {
      add("parameters " + interface.name, at: interface.documentation.topic)
    }
    for constant in program.constants.sorted(by: { $0.name < $1.name }) where !constant.documentation.topic.isEmpty {
      add(constant.name, at: constant.documentation.topic)
    }
  }

  private func add(_ entry: String, at path: [String]) {
    var node = root
    for part in path { node = node.child(part) }
    node.entries.append(entry)
  }

  var isEmpty: Bool { root.children.isEmpty }

  /// Indented lines: each topic with the names filed directly under it.
  func render(style: REPLStyle, width: Int) -> [String] {
    var lines: [String] = []
    func walk(_ node: Node, depth: Int) {
      for child in node.children.sorted(by: { $0.name < $1.name }) {
        let indent = String(repeating: "  ", count: depth)
        let heading = indent + style(child.name, .heading)
        if child.entries.isEmpty {
          lines.append(heading)
        } else {
          lines += TextLayout.wrap(
            child.entries.joined(separator: ", "), width: width, first: heading + ": ", rest: indent + "    ")
        }
        walk(child, depth: depth + 1)
      }
    }
    walk(root, depth: 0)
    return lines
  }

  /// The topic a query names: a whole path (`Income / Income tax`), or one topic's name (`Income tax`), ignoring case.
  func find(_ query: String) -> (path: [String], node: Node)? {
    let wanted = query.split(separator: "/").map { $0.trimmed.lowercased() }.filter { !$0.isEmpty }
    guard !wanted.isEmpty else { return nil }
    var found: (path: [String], node: Node)? = nil
    func walk(_ node: Node, path: [String]) {
      for child in node.children {
        let childPath = path + [child.name]
        let lowered = childPath.map { $0.lowercased() }
        if found == nil, lowered.count >= wanted.count, Array(lowered.suffix(wanted.count)) == wanted {
          found = (childPath, child)
        }
        walk(child, path: childPath)
      }
    }
    walk(root, path: [])
    return found
  }

  /// Every topic's path, for completion.
  var paths: [String] {
    var result: [String] = []
    func walk(_ node: Node, path: [String]) {
      for child in node.children {
        let childPath = path + [child.name]
        result.append(childPath.joined(separator: " / "))
        walk(child, path: childPath)
      }
    }
    walk(root, path: [])
    return result
  }
}
