import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// Locations of many spans, converted file by file in text order (a long line is walked once, not per span).
  func locations(_ spans: [Span]) -> [LSP.Location] {
    var byFile: [FileID: [Int]] = [:]
    for (position, span) in spans.enumerated() { byFile[span.file, default: []].append(position) }
    var result = [LSP.Location?](repeating: nil, count: spans.count)
    for (file, positions) in byFile {
      guard let uri = workspace.uri(of: file), let map = lineMap(file) else { continue }
      let ranges = map.ranges(of: positions.map { spans[$0] })
      for (position, range) in zip(positions, ranges) { result[position] = LSP.Location(uri: uri, range: range) }
    }
    return result.compactMap { $0 }
  }

  func hover(_ request: LSP.HoverRequest) -> LSP.Hover? {
    guard let (id, source) = document(request.textDocument) else { return nil }
    let analysis = analysis(for: id)
    guard
      let info = Hover.info(
        at: source.offset(of: request.position), in: id, program: analysis.program, index: analysis.index, year: year)
    else { return nil }
    // Documentation comments and source text with their control characters as escapes, as in `markup`.
    let contents: LSP.MarkupContent =
      LanguageServer.markdown(in: client.textDocument?.hover?.contentFormat)
      ? .markdown(info.markdown.escapingControlCharacters(lineBreaks: true))
      : .plaintext(info.plainText.escapingControlCharacters(lineBreaks: true))
    return LSP.Hover(contents: contents, range: source.range(of: info.span))
  }

  func definition(_ request: LSP.DefinitionRequest) -> [LSP.Location]? {
    guard let (id, source) = document(request.textDocument) else { return nil }
    let analysis = analysis(for: id)
    let spans = Definition.locations(
      at: source.offset(of: request.position), in: id, program: analysis.program, index: analysis.index, year: year)
    let locations = self.locations(spans)
    return locations.isEmpty ? nil : locations
  }

  func references(_ request: LSP.ReferencesRequest) -> [LSP.Location]? {
    guard let (id, source) = document(request.textDocument) else { return nil }
    let analysis = analysis(for: id)
    let found = References.find(
      at: source.offset(of: request.position), in: id, index: analysis.index,
      includeDeclaration: request.context.includeDeclaration)
    return locations(found.map(\.span))
  }

  func highlights(_ request: LSP.DocumentHighlightRequest) -> [LSP.DocumentHighlight]? {
    guard let (id, source) = document(request.textDocument) else { return nil }
    let analysis = analysis(for: id)
    let found = References.highlights(at: source.offset(of: request.position), in: id, index: analysis.index)
    let ranges = source.ranges(of: found.map(\.span))
    return zip(found, ranges).map { highlight, range in
      LSP.DocumentHighlight(range: range, kind: highlight.isDefinition ? .write : .read)
    }
  }

  func prepareRename(_ request: LSP.PrepareRenameRequest) throws -> LSP.PrepareRenameResult? {
    let analysis = analysis()
    guard let (id, source) = document(request.textDocument) else { return nil }
    switch Rename.prepare(
      at: source.offset(of: request.position), in: id, program: analysis.program, index: analysis.index,
      isEditable: workspace.isEditable)
    {
    case .success(let occurrence):
      return LSP.PrepareRenameResult(range: source.range(of: occurrence.span), placeholder: source.text(of: occurrence.span))
    case .failure(let refusal):
      throw ResponseError(code: .requestFailed, message: refusal.message)
    }
  }

  func rename(_ request: LSP.RenameRequest) throws -> LSP.WorkspaceEdit? {
    let analysis = analysis()
    guard let (id, source) = document(request.textDocument) else { return nil }
    let result = Rename.edits(
      at: source.offset(of: request.position), in: id, newName: request.newName, program: analysis.program,
      index: analysis.index, isEditable: workspace.isEditable)
    switch result {
    case .failure(let refusal):
      throw ResponseError(code: .requestFailed, message: refusal.message)
    case .success(let replacements):
      return workspaceEdit(replacements, program: analysis.program)
    }
  }

  /// Groups replacements by document. Open documents are pinned to their version when the client can take
  /// `documentChanges`, so a stale edit is refused rather than applied to the wrong text.
  func workspaceEdit(_ replacements: [TextReplacement], program: Program) -> LSP.WorkspaceEdit {
    var grouped: [FileID: [TextReplacement]] = [:]
    for replacement in replacements { grouped[replacement.span.file, default: []].append(replacement) }
    var byFile: [FileID: [LSP.TextEdit]] = [:]
    for (file, list) in grouped {
      guard let source = sourceFile(file, program) else { continue }
      let ranges = source.ranges(of: list.map(\.span))
      byFile[file] = zip(list, ranges).map { LSP.TextEdit(range: $1, newText: $0.text) }
    }
    if client.workspace?.workspaceEdit?.documentChanges == true {
      let changes = byFile.keys.sorted().compactMap { id -> LSP.TextDocumentEdit? in
        guard let uri = workspace.uri(of: id), let edits = byFile[id] else { return nil }
        let version = workspace.sources[id]?.isOpen == true ? workspace.sources[id]?.version : nil
        return LSP.TextDocumentEdit(
          textDocument: LSP.OptionalVersionedTextDocumentIdentifier(uri: uri, version: version), edits: edits)
      }
      return LSP.WorkspaceEdit(documentChanges: changes)
    }
    var changes: [LSP.DocumentURI: [LSP.TextEdit]] = [:]
    for (id, edits) in byFile {
      if let uri = workspace.uri(of: id) { changes[uri] = edits }
    }
    return LSP.WorkspaceEdit(changes: changes)
  }

  func symbolKind(_ kind: OutlineKind) -> LSP.SymbolKind {
    switch kind {
    case .formula: .function
    case .parameter: .variable
    case .local: .variable
    case .constant: .constant
    case .interface: .interface
    case .member: .property
    case .jurisdiction: .namespace
    case .year: .namespace
    case .jurisdictionParameter: .property
    case .test: .method
    }
  }

  func documentSymbol(_ symbol: OutlineSymbol, source: LineMap) -> LSP.DocumentSymbol {
    var range = source.range(of: symbol.span)
    let selection = source.range(of: symbol.selectionSpan)
    // The protocol needs the name inside the declaration; widen the declaration if recovery made it odd.
    if selection.start < range.start { range.start = selection.start }
    if range.end < selection.end { range.end = selection.end }
    let children = symbol.children.map { documentSymbol($0, source: source) }
    return LSP.DocumentSymbol(
      name: symbol.name.isEmpty ? "(unnamed)" : symbol.name, detail: symbol.detail, kind: symbolKind(symbol.kind),
      range: range, selectionRange: selection, children: children.isEmpty ? nil : children)
  }

  func documentSymbols(_ request: LSP.DocumentSymbolRequest) -> [LSP.DocumentSymbol]? {
    guard let id = workspace.id(for: request.textDocument.uri), let tree = workspace.tree(id) else { return nil }
    let source = LineMap(tree.source)
    return Symbols.outline(tree).map { documentSymbol($0, source: source) }
  }

  /// The longest workspace-symbol query answered: longer than any name anyone types.
  static let maximumQueryLength = 1_000

  func workspaceSymbols(_ request: LSP.WorkspaceSymbolsRequest) throws -> [LSP.WorkspaceSymbol]? {
    guard request.query.unicodeScalars.count <= Self.maximumQueryLength else {
      throw ResponseError.invalidParams(
        "the query has \(request.query.unicodeScalars.count) characters; at most \(Self.maximumQueryLength) are searched")
    }
    takeScan(waitingAtMost: 60)
    let all = workspace.programTrees()
    let trees = all.filter { !workspace.isLibrary($0.source.id) } + all.filter { workspace.isLibrary($0.source.id) }
    let matches = Symbols.search(request.query, in: trees) { [self] in requestCancelled }
    try currentRequest?.checkCancellation()
    return matches.compactMap { match -> LSP.WorkspaceSymbol? in
      let span = match.symbol.selectionSpan
      guard let uri = workspace.uri(of: span.file), let source = lineMap(span.file) else { return nil }
      return LSP.WorkspaceSymbol(
        name: match.symbol.name.isEmpty ? "(unnamed)" : match.symbol.name, kind: symbolKind(match.symbol.kind),
        containerName: match.container, location: LSP.Location(uri: uri, range: source.range(of: span)))
    }
  }
}
