import Testing

import TestSupport

@testable import LanguageServerProtocol

/// The replies that write themselves (`JSONWritable`) write exactly what `Codable` writes for them, so a member
/// missed or misnamed in a `writeJSON(to:)` fails here. Each type is checked with a value whose every optional is set
/// (checked by reflection, so a member added to a type later fails until its sample and writer have it) and with
/// its optionals left out.
@Suite struct JSONWritableTests {
  /// `value` written by itself, by `JSONStreamEncoder` and through the tree: all three must be equal.
  func expectSameBytes<T: JSONWritable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let written = String(decoding: value.writtenJSON(), as: UTF8.self)
    let streamed = String(decoding: try JSONStreamEncoder().encode(value), as: UTF8.self)
    #expect(written == streamed, sourceLocation: sourceLocation)
    #expect(written == value.toJSON().serializedString(), sourceLocation: sourceLocation)
  }

  /// The paths of the optionals left `nil` and the arrays left empty in `value`, at any depth (a `JSON` value is one
  /// member: its storage is not the protocol's).
  func unsetMembers(of value: Any, at path: String = "") -> [String] {
    if value is JSON { return [] }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first?.value else { return [path] }
      return unsetMembers(of: wrapped, at: path)
    }
    if mirror.displayStyle == .collection, mirror.children.isEmpty { return [path] }
    return mirror.children.flatMap { child in
      unsetMembers(of: child.value, at: path + "." + (child.label ?? "element"))
    }
  }

  static let markdown = LSP.MarkupContent(kind: .markdown, value: "**tax**(\"base\")\n\tline\u{1}é")
  static let position = LSP.Position(line: 12_345, character: 0)
  static let range = LSP.Range(start: position, end: LSP.Position(line: 12_346, character: 7))
  static let edit = LSP.TextEdit(range: range, newText: "income_tax(\"x\")")
  static let item = LSP.CompletionItem(
    label: "income_tax", kind: .function, detail: "(Money) -> Money", documentation: .markupContent(markdown),
    sortText: "0001", filterText: "income tax", textEdit: edit)

  /// Capabilities of every kind of JSON value, nested, with text that needs escaping.
  static let initializeResult = LSP.InitializeResult(
    capabilities: [
      "positionEncoding": "utf-16", "textDocumentSync": ["openClose": true, "change": 2],
      "completionProvider": ["triggerCharacters": [".", "\"", "\u{1}é"], "resolveProvider": false],
      "hoverProvider": true, "experimental": .null, "limits": ["depth": -12, "ratio": 0.25],
      "executeCommandProvider": ["commands": ["taxpro.explain"]],
    ],
    serverInfo: LSP.ServerInfo(name: "taxpro", version: "0.1.0"))

  /// Every options type a server announces, each with every member set (text that needs escaping among them).
  static let options: [any JSONWritable & Sendable] = [
    LSP.PositionEncodingKind.utf16,
    LSP.TextDocumentSyncOptions(openClose: true, change: .incremental),
    LSP.CompletionOptions(triggerCharacters: [".", "\"\u{1}é"], resolveProvider: false),
    LSP.SignatureHelpOptions(triggerCharacters: ["(", ","], retriggerCharacters: [","]),
    LSP.CodeActionOptions(codeActionKinds: [.quickFix, LSP.CodeActionKind(rawValue: "refactor.\"x\"")]),
    LSP.ResolveOptions(resolveProvider: true),
    LSP.RenameOptions(prepareProvider: false),
    LSP.ExecuteCommandOptions(commands: ["taxpro.runTest", "taxpro.explain"]),
    LSP.SemanticTokensOptions(
      legend: LSP.SemanticTokensLegend(tokenTypes: ["keyword", "function"], tokenModifiers: ["declaration"]), full: true),
    LSP.DiagnosticOptions(identifier: "taxpro", interFileDependencies: true, workspaceDiagnostics: false),
  ]

  static let diagnostic = LSP.Diagnostic(
    range: range, severity: .warning, code: "unused-\"binding\"", source: "taxpro", message: "never used\n\u{1}é",
    relatedInformation: [
      LSP.DiagnosticRelatedInformation(location: LSP.Location(uri: "file:///a%20b/c.tax", range: range), message: "here")
    ])
  static let publish = LSP.PublishDiagnosticsNotification(
    uri: "file:///a%20b/c.tax", version: 7, diagnostics: [diagnostic])

  @Test func everySampleSetsEveryMember() {
    let samples: [Any] = [
      Self.markdown, Self.range, Self.edit, Self.item, LSP.Hover(contents: Self.markdown, range: Self.range),
      LSP.CompletionList(isIncomplete: true, items: [Self.item]),
      LSP.Location(uri: "file:///a%20b/c.tax", range: Self.range), Self.initializeResult, Self.diagnostic, Self.publish,
    ] + Self.options
    for sample in samples {
      #expect(unsetMembers(of: sample) == [], "\(type(of: sample))")
    }
  }

  @Test func basicStructuresWriteWhatCodableWrites() throws {
    try expectSameBytes(Self.position)
    try expectSameBytes(LSP.Position(line: 0, character: 9))
    try expectSameBytes(Self.range)
    try expectSameBytes(LSP.Location(uri: "file:///a%20b/c.tax", range: Self.range))
    try expectSameBytes(Self.edit)
    try expectSameBytes(Self.markdown)
    try expectSameBytes(LSP.MarkupContent(kind: .plaintext, value: ""))
    try expectSameBytes(LSP.StringOrMarkupContent.string("plain \"text\""))
    try expectSameBytes(LSP.StringOrMarkupContent.markupContent(Self.markdown))
  }

  /// The options, as announced in the capabilities (`MessageTable`), and with their optionals left out.
  @Test func optionsWriteWhatCodableWrites() throws {
    func check(_ value: some JSONWritable) throws { try expectSameBytes(value) }
    for options in Self.options { try check(options) }
    try expectSameBytes(LSP.TextDocumentSyncOptions())
    try expectSameBytes(LSP.CompletionOptions())
    try expectSameBytes(LSP.SignatureHelpOptions())
    try expectSameBytes(LSP.CodeActionOptions())
    try expectSameBytes(LSP.ResolveOptions())
    try expectSameBytes(LSP.RenameOptions())
    try expectSameBytes(LSP.ExecuteCommandOptions(commands: []))
    try expectSameBytes(LSP.SemanticTokensOptions(legend: LSP.SemanticTokensLegend(tokenTypes: [], tokenModifiers: []), full: nil))
    try expectSameBytes(LSP.DiagnosticOptions(interFileDependencies: false, workspaceDiagnostics: true))
  }

  @Test func diagnosticsWriteWhatCodableWrites() throws {
    try expectSameBytes(Self.diagnostic)
    try expectSameBytes(LSP.Diagnostic(range: Self.range, message: ""))
    try expectSameBytes(Self.publish)
    try expectSameBytes(
      LSP.PublishDiagnosticsNotification(
        uri: "file:///x.tax", diagnostics: [Self.diagnostic, LSP.Diagnostic(range: Self.range, message: "x")]))
    try expectSameBytes(LSP.PublishDiagnosticsNotification(uri: "file:///x.tax", diagnostics: []))
  }

  /// A notification that writes itself is sent as the same message as through its tree (`Connection.send(_:)`).
  @Test func aNotificationThatWritesItselfIsSentAsThroughItsTree() throws {
    for notification in [Self.publish, LSP.PublishDiagnosticsNotification(uri: "file:///x.tax", diagnostics: [])] {
      let sink = MemoryByteSink()
      let connection = Connection(input: MemoryByteSource([]), output: sink)
      connection.send(notification)
      connection.send(notification: LSP.PublishDiagnosticsNotification.method, params: notification.toJSON())
      let bodies = try readAll(MemoryByteSource(sink.bytes)).compactMap { event -> [UInt8]? in
        if case .message(let body) = event { return body }
        return nil
      }
      #expect(bodies.count == 2)
      #expect(bodies.first == bodies.last)
      #expect(try JSON.parse(bodies[0])["params"] == notification.toJSON())
    }
  }

  @Test func initializeResultWritesWhatCodableWrites() throws {
    try expectSameBytes(Self.initializeResult)
    try expectSameBytes(LSP.InitializeResult(capabilities: [:]))
    try expectSameBytes(LSP.InitializeResult(capabilities: ["hoverProvider": true], serverInfo: LSP.ServerInfo(name: "t")))
  }

  @Test func hoverWritesWhatCodableWrites() throws {
    try expectSameBytes(LSP.Hover(contents: Self.markdown, range: Self.range))
    try expectSameBytes(LSP.Hover(contents: Self.markdown))
    try expectSameBytes(LSP.Hover?.none)
    try expectSameBytes(LSP.Hover?.some(LSP.Hover(contents: Self.markdown, range: Self.range)))
  }

  @Test func completionWritesWhatCodableWrites() throws {
    try expectSameBytes(Self.item)
    try expectSameBytes(LSP.CompletionItem(label: "ON"))
    try expectSameBytes(LSP.CompletionItem(label: "x", kind: LSP.CompletionItemKind(rawValue: 99), detail: "d"))
    try expectSameBytes(LSP.CompletionItem(label: "y", documentation: .string("docs")))
    let list = LSP.CompletionList(isIncomplete: false, items: [Self.item, LSP.CompletionItem(label: "ON"), Self.item])
    try expectSameBytes(list)
    try expectSameBytes(LSP.CompletionList(items: []))
    try expectSameBytes(LSP.CompletionList?.none)
    try expectSameBytes([LSP.Location(uri: "file:///x.tax", range: Self.range)])
    try expectSameBytes([LSP.Location]?.none)
  }

  static let symbol = LSP.DocumentSymbol(
    name: "income_tax", detail: "(income: Money): \"Money\"\u{1}é", kind: .function, range: range, selectionRange: range,
    children: [
      LSP.DocumentSymbol(
        name: "income", detail: "Money", kind: LSP.SymbolKind(rawValue: 99), range: range, selectionRange: range)
    ])
  static let lens = LSP.CodeLens(
    range: range,
    command: LSP.Command(
      title: "▶ run \"test\"", command: "taxpro.runTest", arguments: ["file:///a.tax", 3, ["nested": [true, .null]]]))

  /// The replies whose size grows with the document, with every member set and with the optionals left out.
  @Test func documentWideRepliesWriteWhatCodableWrites() throws {
    let samples: [Any] = [
      Self.symbol, Self.lens, LSP.SemanticTokens(data: [0, 5, 3, 1, 0, 1, 2, 4, 0, 3]),
      LSP.WorkspaceSymbol(name: "f", kind: .function, containerName: "a.tax", location: LSP.Location(uri: "file:///a.tax", range: Self.range)),
      LSP.FoldingRange(startLine: 1, endLine: 9, kind: .comment),
      LSP.DocumentHighlight(range: Self.range, kind: .write),
    ]
    for sample in samples {
      // A symbol's children are symbols: the last level has none.
      #expect(unsetMembers(of: sample) == (sample is LSP.DocumentSymbol ? [".children.element.children"] : []),
        "\(type(of: sample))")
    }
    try expectSameBytes(LSP.SemanticTokens(data: [0, 5, 3, 1, 0, 1, 2, 4, 0, 3, Int.max, -1]))
    try expectSameBytes(LSP.SemanticTokens(data: []))
    try expectSameBytes(LSP.SemanticTokens?.none)
    try expectSameBytes([Self.symbol, LSP.DocumentSymbol(name: "x", kind: .variable, range: Self.range, selectionRange: Self.range)])
    try expectSameBytes([LSP.DocumentSymbol]?.none)
    try expectSameBytes([
      LSP.WorkspaceSymbol(
        name: "f\"", kind: .function, containerName: "a.tax", location: LSP.Location(uri: "file:///a.tax", range: Self.range)),
      LSP.WorkspaceSymbol(name: "g", kind: .constant, location: LSP.Location(uri: "file:///b.tax", range: Self.range)),
    ])
    try expectSameBytes([
      LSP.FoldingRange(startLine: 1, endLine: 9, kind: .comment), LSP.FoldingRange(startLine: 0, endLine: 2),
      LSP.FoldingRange(startLine: 3, endLine: 4, kind: LSP.FoldingRangeKind(rawValue: "custom\"")),
    ])
    try expectSameBytes([LSP.DocumentHighlight(range: Self.range, kind: .write), LSP.DocumentHighlight(range: Self.range)])
    try expectSameBytes([Self.lens, LSP.CodeLens(range: Self.range), LSP.CodeLens(range: Self.range, command: LSP.Command(title: "t", command: "c"))])
    try expectSameBytes([LSP.CodeLens]?.none)
  }

  /// The table picks the writer by the response type: a hover's reply is the typed result's text, and a method it
  /// does not know is `MethodNotFound` on this path too.
  @Test func tableSerializesWithTheResponsesOwnWriter() throws {
    final class Handler {
      func hover(_ request: LSP.HoverRequest) -> LSP.Hover? {
        LSP.Hover(contents: JSONWritableTests.markdown, range: JSONWritableTests.range)
      }
    }
    var table = MessageTable<Handler>()
    table.on(LSP.HoverRequest.self, Handler.hover)
    let params: JSON = ["textDocument": ["uri": "file:///a.tax"], "position": ["line": 1, "character": 2]]
    let request = RequestMessage(id: .integer(1), method: LSP.HoverRequest.method, params: params)
    let connection = Connection(input: MemoryByteSource([]), output: MemoryByteSink())
    let context = RequestContext(id: .integer(1), method: request.method, connection: connection)
    let handler = Handler()
    let bytes = try table.serializedResult(request, by: handler, context: context)
    #expect(bytes == LSP.Hover(contents: Self.markdown, range: Self.range).writtenJSON())
    #expect(bytes == (try table.handle(request, by: handler, context: context)).serialized())
    let unknown = RequestMessage(id: .integer(2), method: "textDocument/unknown", params: nil)
    #expect(throws: ResponseError.self) { try table.serializedResult(unknown, by: handler, context: context) }
  }
}
