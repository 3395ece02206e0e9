import Foundation
import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// Token types in the order of `SemanticTokenKind`, modifiers in the order of `SemanticTokenModifier`; all are
  /// the specification's standard names, which themes already colour.
  static let legend = LSP.SemanticTokensLegend(
    tokenTypes: SemanticTokenKind.allCases.map { kind in
      switch kind {
      case .keyword: LSP.SemanticTokenTypes.keyword
      case .comment: LSP.SemanticTokenTypes.comment
      case .string: LSP.SemanticTokenTypes.string
      case .number: LSP.SemanticTokenTypes.number
      case .operator: LSP.SemanticTokenTypes.operator
      case .function: LSP.SemanticTokenTypes.function
      case .parameter: LSP.SemanticTokenTypes.parameter
      case .variable: LSP.SemanticTokenTypes.variable
      case .property: LSP.SemanticTokenTypes.property
      case .namespace: LSP.SemanticTokenTypes.namespace
      case .interface: LSP.SemanticTokenTypes.interface
      case .type: LSP.SemanticTokenTypes.type
      case .enumMember: LSP.SemanticTokenTypes.enumMember
      }
    },
    tokenModifiers: SemanticTokenModifier.allCases.map { modifier in
      switch modifier {
      case .declaration: LSP.SemanticTokenModifiers.declaration
      case .readonly: LSP.SemanticTokenModifiers.readonly
      case .defaultLibrary: LSP.SemanticTokenModifiers.defaultLibrary
      case .documentation: LSP.SemanticTokenModifiers.documentation
      }
    })

  func semanticTokens(_ request: LSP.DocumentSemanticTokensRequest) -> LSP.SemanticTokens? {
    guard let id = workspace.id(for: request.textDocument.uri), let tree = workspace.tree(id) else { return nil }
    let analysis = analysis(for: id)
    let source = LineMap(tree.source)
    let libraryFiles = Set((0..<workspace.libraryCount).map(FileID.init))
    let tokens = SemanticTokens.tokens(
      source: tree.source, comments: tree.comments, index: analysis.index, program: analysis.program,
      libraryFiles: libraryFiles)
    var builder = LSP.SemanticTokensBuilder()
    var cursor = source.cursor()
    for token in tokens {
      let start = cursor.position(of: token.span.start)
      let end = cursor.position(of: token.span.end)
      guard end.line == start.line, end.character > start.character else { continue }
      builder.add(
        line: start.line, character: start.character, length: end.character - start.character,
        type: token.kind.rawValue, modifiers: token.modifiers)
    }
    return builder.build()
  }

  func foldingRanges(_ request: LSP.FoldingRangeRequest) -> [LSP.FoldingRange]? {
    guard let id = workspace.id(for: request.textDocument.uri), let tree = workspace.tree(id) else { return nil }
    // The core counts lines by "\n" only; the protocol also by "\r": map through offsets.
    let source = LineMap(tree.source)
    let core = tree.source
    return Folding.regions(tree).compactMap { region -> LSP.FoldingRange? in
      guard region.startLine < core.lineStarts.count, region.endLine < core.lineStarts.count else { return nil }
      let start = source.line(of: core.lineStarts[region.startLine])
      let end = source.line(of: core.lineStarts[region.endLine])
      guard end > start else { return nil }
      return LSP.FoldingRange(startLine: start, endLine: end, kind: region.kind == .comment ? .comment : .region)
    }
  }

  func selectionRanges(_ request: LSP.SelectionRangeRequest) -> [LSP.SelectionRange]? {
    guard let id = workspace.id(for: request.textDocument.uri), let tree = workspace.tree(id) else { return nil }
    let source = LineMap(tree.source)
    return request.positions.map { position -> LSP.SelectionRange in
      let offset = source.offset(of: position)
      let ranges = SelectionRanges.ranges(at: offset, in: tree).map { source.range(of: $0) }
      // One answer per position, always: at worst the cursor itself.
      return LSP.SelectionRange(nested: ranges) ?? LSP.SelectionRange(range: LSP.Range(at: source.position(of: offset)))
    }
  }

  func inlayHints(_ request: LSP.InlayHintRequest, context: RequestContext) throws -> [LSP.InlayHint]? {
    guard configuration.inlayHints else { return [] }
    guard let (id, source) = document(request.textDocument) else { return nil }
    let analysis = analysis(for: id)
    let range = source.byteRange(of: request.range)
    let hints = InlayHints.hints(file: id, program: analysis.program, year: year, range: range)
    try context.checkCancellation()
    var cursor = source.cursor()
    return hints.map { hint in
      LSP.InlayHint(
        position: cursor.position(of: hint.offset), label: hint.label, kind: .type,
        tooltip: hint.tooltip.map(LSP.MarkupContent.plaintext), paddingLeft: true)
    }
  }

  func codeLenses(_ request: LSP.CodeLensRequest) -> [LSP.CodeLens]? {
    guard let (id, source) = document(request.textDocument) else { return nil }
    let analysis = analysis(for: id)
    return CodeLenses.lenses(file: id, program: analysis.program).map { lens in
      let command: LSP.Command
      switch lens.action {
      case .runTest(let name):
        command = LSP.Command(
          title: "▶ " + lens.title, command: "taxpro.runTest",
          arguments: [.string(request.textDocument.uri.stringValue), .string(name)])
      case .explain(let expression):
        command = LSP.Command(title: lens.title, command: "taxpro.explain", arguments: [.string(expression)])
      }
      return LSP.CodeLens(range: source.range(of: lens.span), command: command)
    }
  }

  func codeActions(_ request: LSP.CodeActionRequest) -> [LSP.CodeAction]? {
    if let only = request.context.only, !only.contains(where: { LSP.CodeActionKind.quickFix.isSubkind(of: $0) }) {
      return []
    }
    let analysis = analysis()
    guard let (id, source) = document(request.textDocument) else { return nil }
    let range = source.byteRange(of: request.range)
    let fixes = CodeActions.fixes(for: analysis.diagnostics[id] ?? [], in: id, range: range)
    var conversion = DiagnosticConversion(program: analysis.program, uris: workspace.uris)
    return fixes.map { fix in
      LSP.CodeAction(
        title: fix.title, kind: .quickFix,
        diagnostics: conversion.convert(fix.diagnostic).map { [$0] },
        isPreferred: fix.isPreferred ? true : nil,
        edit: workspaceEdit(fix.replacements, program: analysis.program))
    }
  }

  func signatureHelp(_ request: LSP.SignatureHelpRequest) -> LSP.SignatureHelp? {
    guard let (_, source) = document(request.textDocument) else { return nil }
    let offset = source.offset(of: request.position)
    guard let info = SignatureHelp.info(text: source.text, offset: offset, program: recentAnalysis().program) else {
      return nil
    }
    let markdown = LanguageServer.markdown(
      in: client.textDocument?.signatureHelp?.signatureInformation?.documentationFormat)
    let parameters = info.parameters.map { slot in
      LSP.ParameterInformation(
        label: LSP.ParameterLabel(
          start: LineMap.utf16Offset(info.label, byteOffset: slot.labelRange.lowerBound),
          end: LineMap.utf16Offset(info.label, byteOffset: slot.labelRange.upperBound)),
        documentation: slot.documentation.map { markup($0, markdown) })
    }
    let signature = LSP.SignatureInformation(
      label: info.label, documentation: info.documentation.map { markup($0, markdown) }, parameters: parameters,
      activeParameter: info.activeParameter)
    return LSP.SignatureHelp(signatures: [signature], activeSignature: 0, activeParameter: info.activeParameter)
  }

  // MARK: Commands

  /// `taxpro.runTest [uri, name]` and `taxpro.explain [expression]`: the result is the text `taxpro test` or
  /// `taxpro explain` would print; a one-line summary is also shown to the user, since clients running a lens's
  /// command throw the result away. They run with the background limits (2 million steps, as the tests the server
  /// runs on every change), and stop when the request is cancelled.
  func executeCommand(_ request: LSP.ExecuteCommandRequest, context: RequestContext) throws -> JSON {
    let connection = context.connection
    let arguments = request.arguments ?? []
    switch request.command {
    case "taxpro.runTest":
      guard arguments.count == 2, let uri = arguments[0].stringValue, let name = arguments[1].stringValue else {
        throw ResponseError.invalidParams("taxpro.runTest takes [document URI, test name]")
      }
      let analysis = analysis()
      guard let id = workspace.id(for: LSP.DocumentURI(uri)),
        let report = CodeLenses.runTest(
          named: name, in: id, program: analysis.program, year: year, limits: InlayHints.limits,
          isCancelled: { context.isCancelled })
      else {
        throw ResponseError(code: .requestFailed, message: "there is no test \"\(name)\" in \(uri)")
      }
      try context.checkCancellation()
      let summary = "test \"\(name)\" " + (report.passed ? "passed" : "failed")
      connection.send(LSP.ShowMessageNotification(type: report.passed ? .info : .error, message: summary))
      connection.send(LSP.LogMessageNotification(type: .log, message: report.text))
      return .string(report.text)
    case "taxpro.explain":
      guard let expression = arguments.first?.stringValue else {
        throw ResponseError.invalidParams("taxpro.explain takes [expression]")
      }
      let analysis = analysis()
      let holds = testHolds
      let explained = CodeLenses.explain(
        expression, program: analysis.program, year: year, limits: InlayHints.limits,
        isCancelled: {
          // Test-only (`testHolds`): the evaluation has started; it waits here until the request is cancelled.
          while holds && !context.isCancelled { Thread.sleep(forTimeInterval: 0.001) }
          return context.isCancelled
        })
      try context.checkCancellation()
      switch explained {
      case .success(let text):
        let firstLine = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? text
        connection.send(LSP.ShowMessageNotification(type: .info, message: firstLine))
        connection.send(LSP.LogMessageNotification(type: .log, message: text))
        return .string(text)
      case .failure(let failure):
        throw ResponseError(code: .requestFailed, message: failure.text)
      }
    default:
      throw ResponseError.invalidParams("unknown command '\(request.command)'; the commands are \(LanguageServer.commands.joined(separator: ", "))")
    }
  }
}
