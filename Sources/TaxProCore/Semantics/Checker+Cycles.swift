extension Checker {
  /// What `node` depends on (possibly with repeats).
  func successors(of node: GlobalNode) -> [GlobalNode] {
    switch node {
    case .formula(let index): index < formulaEdges.count ? formulaEdges[index] : []
    case .constant(let index): index < constantEdges.count ? constantEdges[index] : []
    case .parameter: parameterEdges[node] ?? []
    }
  }

  /// Reports every cycle among formulas, constants and parameters (Tarjan's algorithm on integer ids, iterative: a
  /// chain of 100,000 formulas must not overflow the stack). Only declarations that depend on something can be on a
  /// cycle, so only they get ids. Which cycle is found first does not matter: diagnostics are sorted by place.
  func findCycles() {
    let formulaCount = formulaEdges.count
    let constantCount = constantEdges.count
    var parameterIDs: [GlobalNode: Int] = [:]
    var parameters: [GlobalNode] = []
    for node in parameterEdges.keys {
      parameterIDs[node] = formulaCount + constantCount + parameters.count
      parameters.append(node)
    }
    let count = formulaCount + constantCount + parameters.count
    func node(_ id: Int) -> GlobalNode {
      if id < formulaCount { return .formula(id) }
      if id < formulaCount + constantCount { return .constant(id - formulaCount) }
      return parameters[id - formulaCount - constantCount]
    }
    func id(_ node: GlobalNode) -> Int? {
      switch node {
      case .formula(let index): index < formulaCount && !formulaEdges[index].isEmpty ? index : nil
      case .constant(let index):
        index < constantCount && !constantEdges[index].isEmpty ? formulaCount + index : nil
      case .parameter: parameterIDs.isEmpty ? nil : parameterIDs[node]
      }
    }
    // Successor ids of every node that has some; nodes without successors are never on a cycle.
    var adjacency = [[Int32]](repeating: [], count: count)
    var hasEdges = false
    for source in 0..<count {
      let targets = successors(of: node(source))
      if targets.isEmpty { continue }
      var list: [Int32] = []
      list.reserveCapacity(targets.count)
      for target in targets { if let id = id(target) { list.append(Int32(id)) } }
      if !list.isEmpty { hasEdges = true }
      adjacency[source] = list
    }
    guard hasEdges else { return }
    var indexOf = [Int32](repeating: -1, count: count)
    var lowLink = [Int32](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int32] = []
    var counter: Int32 = 0
    var components: [[GlobalNode]] = []
    // Each frame: a node and how many of its successors have been visited.
    var work: [(node: Int, next: Int)] = []
    for root in 0..<count where indexOf[root] < 0 && !adjacency[root].isEmpty {
      func push(_ node: Int) {
        indexOf[node] = counter
        lowLink[node] = counter
        counter += 1
        stack.append(Int32(node))
        onStack[node] = true
        work.append((node, 0))
      }
      push(root)
      while let frame = work.last {
        let current = frame.node
        if frame.next < adjacency[current].count {
          work[work.count - 1].next += 1
          let next = Int(adjacency[current][frame.next])
          if indexOf[next] < 0 {
            push(next)
          } else if onStack[next] {
            lowLink[current] = min(lowLink[current], indexOf[next])
          }
          continue
        }
        work.removeLast()
        if let parent = work.last {
          lowLink[parent.node] = min(lowLink[parent.node], lowLink[current])
        }
        if lowLink[current] == indexOf[current] {
          var component: [Int] = []
          while let member = stack.popLast() {
            onStack[Int(member)] = false
            component.append(Int(member))
            if Int(member) == current { break }
          }
          let selfLoop = component.count == 1 && adjacency[current].contains(Int32(current))
          if component.count > 1 || selfLoop { components.append(component.map(node)) }
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
      let successors = self.successors(of: current).filter { members.contains($0) }.sorted { describe($0) < describe($1) }
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
    case .formula: what = "the formula '\(describe(start))'"
    case .constant: what = "the constant '\(describe(start))'"
    case .parameter: what = "the parameter \(describe(start))"
    }
    error(.dependsOnItself(what), at: location, notes: notes)
    // Callers of a cyclic formula must not be evaluated: mark the members as having errors.
    for node in component {
      if case .formula(let index) = node, var info = formula(at: index) {
        info.hasErrors = true
        setFormula(index, info)
      }
    }
  }
}
