/// Document outline and workspace symbol search, read from syntax trees so that they work while a file has errors.
public enum OutlineKind: Sendable, Equatable {
  case formula, parameter, local, constant, interface, member, jurisdiction, year, jurisdictionParameter, test
}

/// One node of a document outline.
public struct OutlineSymbol: Sendable {
  public var name: String
  public var detail: String?
  public var kind: OutlineKind
  /// The whole declaration.
  public var span: Span
  /// The name within it, which an editor selects.
  public var selectionSpan: Span
  public var children: [OutlineSymbol]
}

/// A symbol found by a workspace search, with the name of what contains it.
public struct WorkspaceSymbolMatch: Sendable {
  public var symbol: OutlineSymbol
  public var container: String?
}

/// Outline and search use the syntax trees, not the checked program, so a file with errors still has an outline.
public enum Symbols {
  /// The outline of one file: formulas (with parameters and `let`s), constants, interfaces (with members),
  /// jurisdictions (with years, and each year's parameters) and tests.
  public static func outline(_ tree: SyntaxTree) -> [OutlineSymbol] {
    tree.declarations.compactMap { outline($0, source: tree.source) }
  }

  static func outline(_ declaration: Declaration, source: SourceFile) -> OutlineSymbol? {
    switch declaration {
    case .formula(let formula):
      let parameters = formula.parameters.map { parameter in
        OutlineSymbol(
          name: parameter.name.name, detail: parameter.type.name, kind: .parameter, span: parameter.span,
          selectionSpan: parameter.name.span, children: [])
      }
      let lets = formula.lets.map { binding in
        OutlineSymbol(
          name: binding.name.name, detail: binding.type?.name, kind: .local, span: binding.span,
          selectionSpan: binding.name.span, children: [])
      }
      let list = formula.parameters.map { "\($0.name.name): \($0.type.name)" }.joined(separator: ", ")
      let detail = "(\(list))" + (formula.returnType.map { ": \($0.name)" } ?? "")
      return OutlineSymbol(
        name: formula.name.name, detail: detail, kind: .formula, span: formula.span,
        selectionSpan: formula.name.span, children: parameters + lets)
    case .constant(let constant):
      return OutlineSymbol(
        name: constant.binding.name.name, detail: constant.binding.type?.name, kind: .constant, span: constant.span,
        selectionSpan: constant.binding.name.span, children: [])
    case .interface(let interface):
      let members = interface.members.map { member in
        OutlineSymbol(
          name: member.name.name, detail: member.type.name, kind: .member, span: member.span,
          selectionSpan: member.name.span, children: [])
      }
      return OutlineSymbol(
        name: interface.name.name, detail: "parameters", kind: .interface, span: interface.span,
        selectionSpan: interface.name.span, children: members)
    case .jurisdiction(let jurisdiction):
      let years = jurisdiction.years.map { block in
        let definitions = block.definitions.map { definition in
          OutlineSymbol(
            name: definition.name.name, detail: summary(source.text(of: definition.value.span)),
            kind: .jurisdictionParameter, span: definition.span, selectionSpan: definition.name.span, children: [])
        }
        return OutlineSymbol(
          name: String(block.year), detail: nil, kind: .year, span: block.span, selectionSpan: block.yearSpan,
          children: definitions)
      }
      return OutlineSymbol(
        name: jurisdiction.code.name, detail: jurisdiction.fullName, kind: .jurisdiction, span: jurisdiction.span,
        selectionSpan: jurisdiction.code.span, children: years)
    case .test(let test):
      return OutlineSymbol(
        name: test.name, detail: test.year.map { "test, year \($0)" } ?? "test", kind: .test, span: test.span,
        selectionSpan: test.nameSpan, children: [])
    case .expression:
      return nil
    }
  }

  /// The first line of a value's text, shortened: `$12,747`, `brackets {…`.
  static func summary(_ text: String) -> String {
    let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let trimmed = firstLine.trimmingSpaces
    let limit = 40
    if trimmed.count > limit || text.contains("\n") {
      return String(trimmed.prefix(limit)) + "…"
    }
    return trimmed
  }

  /// Symbols of every tree whose name matches `query` (letters in order, ignoring case; empty matches all), best
  /// matches first: exact, then prefix, then substring, then scattered letters; shorter names first among equals,
  /// then the order of `trees` (the server puts the user's files before the library's).
  ///
  /// The work is one pass over the symbols with the query prepared once; a query longer than a name is rejected at a
  /// glance. `isCancelled` is asked every few hundred symbols: when it says yes, the search ends with what it found.
  public static func search(
    _ query: String, in trees: [SyntaxTree], limit: Int = 500, isCancelled: (() -> Bool)? = nil
  ) -> [WorkspaceSymbolMatch] {
    let needle = Needle(query)
    var scored: [(Int, WorkspaceSymbolMatch)] = []
    var visited = 0
    var cancelled = false
    func visit(_ symbol: OutlineSymbol, container: String?) {
      if cancelled { return }
      visited += 1
      if visited & 255 == 0, let isCancelled, isCancelled() {
        cancelled = true
        return
      }
      if symbol.kind != .parameter, symbol.kind != .local, symbol.kind != .year,
        let score = score(needle, symbol.name)
      {
        var flat = symbol
        flat.children = []
        scored.append((score, WorkspaceSymbolMatch(symbol: flat, container: container)))
      }
      let inner = symbol.kind == .year ? (container.map { $0 + " " } ?? "") + symbol.name : symbol.name
      for child in symbol.children { visit(child, container: inner) }
    }
    for tree in trees where !cancelled {
      for symbol in outline(tree) { visit(symbol, container: nil) }
    }
    return scored.enumerated().sorted { a, b in
      (a.element.0, a.element.1.symbol.name.count, a.offset) < (b.element.0, b.element.1.symbol.name.count, b.offset)
    }.prefix(limit).map(\.element.1)
  }

  /// A query prepared once for many names: lowercased, as scalars and as a string.
  struct Needle {
    let scalars: [Unicode.Scalar]
    let text: String

    init(_ query: String) {
      text = query.lowercased()
      scalars = Array(text.unicodeScalars)
    }
  }

  /// Lower is better; nil when the name does not match.
  static func score(_ needle: Needle, _ name: String) -> Int? {
    if needle.scalars.isEmpty { return 3 }
    // Lowercasing never makes a name shorter by more than it makes it longer: a query with more scalars than the
    // name has (lowercased) cannot be found in it.
    let lowered = name.lowercased()
    let haystack = Array(lowered.unicodeScalars)
    if needle.scalars.count > haystack.count { return nil }
    if haystack == needle.scalars { return 0 }
    if haystack.starts(with: needle.scalars) { return 1 }
    if lowered.contains(needle.text) { return 2 }
    var position = 0
    for scalar in haystack where position < needle.scalars.count && scalar == needle.scalars[position] { position += 1 }
    return position == needle.scalars.count ? 3 : nil
  }
}
