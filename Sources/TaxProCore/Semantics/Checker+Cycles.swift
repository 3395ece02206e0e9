extension Checker {
  /// Reports every cycle among formulas, constants and parameters (Tarjan's algorithm, iterative: a chain of 100,000
  /// formulas must not overflow the stack).
  func findCycles() {
    var indexOf: [GlobalNode: Int] = [:]
    var lowLink: [GlobalNode: Int] = [:]
    var onStack: Set<GlobalNode> = []
    var stack: [GlobalNode] = []
    var counter = 0
    var components: [[GlobalNode]] = []
    // Sorted by name (each name built once, not once per comparison).
    let nodes = edges.keys.map { (describe($0), $0) }.sorted { $0.0 < $1.0 }.map(\.1)
    for root in nodes where indexOf[root] == nil {
      // Each frame: the node and the remaining successors to visit.
      var work: [(GlobalNode, [GlobalNode])] = []
      func push(_ node: GlobalNode) {
        indexOf[node] = counter
        lowLink[node] = counter
        counter += 1
        stack.append(node)
        onStack.insert(node)
        work.append((node, Array(edges[node] ?? [])))
      }
      push(root)
      while let (node, remaining) = work.popLast() {
        var successors = remaining
        if let next = successors.popLast() {
          work.append((node, successors))
          if indexOf[next] == nil {
            push(next)
          } else if onStack.contains(next) {
            lowLink[node] = min(lowLink[node] ?? 0, indexOf[next] ?? 0)
          }
          continue
        }
        if let parent = work.last {
          lowLink[parent.0] = min(lowLink[parent.0] ?? 0, lowLink[node] ?? 0)
        }
        if lowLink[node] == indexOf[node] {
          var component: [GlobalNode] = []
          while let member = stack.popLast() {
            onStack.remove(member)
            component.append(member)
            if member == node { break }
          }
          let selfLoop = component.count == 1 && (edges[node]?.contains(node) ?? false)
          if component.count > 1 || selfLoop { components.append(component) }
        }
      }
    }
    for component in components {
      reportCycle(component)
    }
  }

  func describe(_ node: GlobalNode) -> String {
    switch node {
    case .formula(let index): formulaDeclarations[index].name.name
    case .constant(let index): constantDeclarations[index].binding.name.name
    case .parameter(let jurisdiction, let name): "\(jurisdiction).\(name)"
    }
  }

  func span(of node: GlobalNode) -> Span? {
    switch node {
    case .formula(let index): formulaDeclarations[index].name.span
    case .constant(let index): constantDeclarations[index].binding.name.span
    case .parameter(let jurisdiction, let name):
      definitionSyntax(jurisdiction).keys.sorted().compactMap { definitionSyntax(jurisdiction)[$0]?[name]?.name.span }.first
    }
  }

  func reportCycle(_ component: [GlobalNode]) {
    // Order the cycle by following edges from the alphabetically first member.
    let members = Set(component)
    guard let start = component.min(by: { describe($0) < describe($1) }) else { return }
    var path = [start]
    var current = start
    while path.count <= component.count {
      let successors = (edges[current] ?? []).filter { members.contains($0) }.sorted { describe($0) < describe($1) }
      guard let next = successors.first(where: { !path.contains($0) }) ?? successors.first else { break }
      path.append(next)
      if next == start { break }
      current = next
    }
    if path.last != start { path.append(start) }
    let text = path.map(describe).joined(separator: " → ")
    guard let location = span(of: start) else { return }
    var notes = [DiagnosticNote(.note, "the cycle: \(text)")]
    for node in component where node != start {
      if let other = span(of: node) { notes.append(DiagnosticNote(.note, "'\(describe(node))' is part of it", span: other)) }
    }
    let what: String
    switch start {
    case .formula: what = "the formula '\(describe(start))' depends on itself"
    case .constant: what = "the constant '\(describe(start))' depends on itself"
    case .parameter: what = "the parameter \(describe(start)) depends on itself"
    }
    error("cycle", what, at: location, notes: notes)
    // Callers of a cyclic formula must not be evaluated: mark the members as having errors.
    for node in component {
      if case .formula(let index) = node, formulas[index] != nil { formulas[index]?.hasErrors = true }
    }
  }
}
