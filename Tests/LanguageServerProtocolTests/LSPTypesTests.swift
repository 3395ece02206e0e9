import Foundation
import Testing

@testable import LanguageServerProtocol

/// Checks that `value` encodes to exactly the JSON written out by hand (keys in any order, no extra keys), and
/// that decoding that JSON gives the value back.
func expectEncoding<T: Codable & Equatable>(
  _ value: T, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let expectedJSON = try JSON.parse(expected)
  #expect(value.toJSON() == expectedJSON, sourceLocation: sourceLocation)
  #expect(try T(json: expectedJSON) == value, sourceLocation: sourceLocation)
}

let uri: LSP.DocumentURI = "file:///home/me/tax/ontario.tax"

func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> LSP.Range {
  LSP.Range(
    start: LSP.Position(line: startLine, character: startCharacter),
    end: LSP.Position(line: endLine, character: endCharacter))
}

@Suite struct LSPEncodingTests {
  @Test func basicStructures() throws {
    try expectEncoding(LSP.Position(line: 3, character: 14), #"{"line":3,"character":14}"#)
    try expectEncoding(range(1, 2, 3, 4), #"{"start":{"line":1,"character":2},"end":{"line":3,"character":4}}"#)
    try expectEncoding(
      LSP.Location(uri: uri, range: range(0, 0, 0, 5)),
      #"{"uri":"file:///home/me/tax/ontario.tax","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":5}}}"#
    )
    try expectEncoding(
      LSP.OptionalVersionedTextDocumentIdentifier(uri: uri, version: nil),
      #"{"uri":"file:///home/me/tax/ontario.tax","version":null}"#)
    try expectEncoding(
      LSP.TextDocumentItem(uri: uri, languageId: "taxpro", version: 1, text: "x = 1\n"),
      #"{"uri":"file:///home/me/tax/ontario.tax","languageId":"taxpro","version":1,"text":"x = 1\n"}"#)
  }

  @Test func diagnosticWithEverything() throws {
    let diagnostic = LSP.Diagnostic(
      range: range(2, 4, 2, 14), severity: .error, code: "E0102", source: "taxpro",
      message: "unknown name `income_tx`",
      relatedInformation: [
        LSP.DiagnosticRelatedInformation(
          location: LSP.Location(uri: uri, range: range(0, 0, 0, 10)), message: "did you mean `income_tax`?")
      ])
    try expectEncoding(
      diagnostic,
      """
      {
        "range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 14}},
        "severity": 1,
        "code": "E0102",
        "source": "taxpro",
        "message": "unknown name `income_tx`",
        "relatedInformation": [{
          "location": {"uri": "file:///home/me/tax/ontario.tax",
                       "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 10}}},
          "message": "did you mean `income_tax`?"
        }]
      }
      """)
  }

  @Test func optionalFieldsAreOmittedNotNull() throws {
    let minimal = LSP.Diagnostic(range: range(0, 0, 0, 1), message: "m")
    #expect(
      minimal.toJSON().serializedString()
        == #"{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"m"}"#)
    #expect(LSP.CompletionItem(label: "x").toJSON().serializedString() == #"{"label":"x"}"#)
    #expect(LSP.Hover(contents: .plaintext("t")).toJSON().serializedString() == #"{"contents":{"kind":"plaintext","value":"t"}}"#)
  }

  @Test func publishDiagnostics() throws {
    try expectEncoding(
      LSP.PublishDiagnosticsNotification(uri: uri, version: 3, diagnostics: []),
      #"{"uri":"file:///home/me/tax/ontario.tax","version":3,"diagnostics":[]}"#)
  }

  @Test func completionItemAndList() throws {
    let item = LSP.CompletionItem(
      label: "basic_personal_amount", kind: .constant, detail: "Money",
      documentation: .markupContent(.markdown("The **basic personal amount**.")), sortText: "0001",
      textEdit: LSP.TextEdit(range: range(5, 3, 5, 6), newText: "basic_personal_amount"))
    try expectEncoding(
      LSP.CompletionList(isIncomplete: false, items: [item]),
      """
      {"isIncomplete": false, "items": [{
        "label": "basic_personal_amount",
        "kind": 21,
        "detail": "Money",
        "documentation": {"kind": "markdown", "value": "The **basic personal amount**."},
        "sortText": "0001",
        "textEdit": {"range": {"start": {"line": 5, "character": 3}, "end": {"line": 5, "character": 6}},
                     "newText": "basic_personal_amount"}
      }]}
      """)
  }

  @Test func documentationIsAStringOrMarkup() throws {
    try expectEncoding(LSP.CompletionItem(label: "a", documentation: .string("plain")), #"{"label":"a","documentation":"plain"}"#)
    try expectEncoding(
      LSP.CompletionItem(label: "a", documentation: .markupContent(.plaintext("plain"))),
      #"{"label":"a","documentation":{"kind":"plaintext","value":"plain"}}"#)
  }

  @Test func hover() throws {
    try expectEncoding(
      LSP.Hover(contents: .markdown("`Money`"), range: range(0, 1, 0, 2)),
      #"{"contents":{"kind":"markdown","value":"`Money`"},"range":{"start":{"line":0,"character":1},"end":{"line":0,"character":2}}}"#
    )
  }

  @Test func signatureHelp() throws {
    let help = LSP.SignatureHelp(
      signatures: [
        LSP.SignatureInformation(
          label: "clamp(value: Money, low: Money, high: Money) -> Money",
          documentation: .markdown("Limits a value."),
          parameters: [
            LSP.ParameterInformation(label: LSP.ParameterLabel(start: 6, end: 18)),
            LSP.ParameterInformation(label: LSP.ParameterLabel(start: 20, end: 30), documentation: .plaintext("lower bound")),
          ])
      ], activeSignature: 0, activeParameter: 1)
    try expectEncoding(
      help,
      """
      {"signatures": [{
        "label": "clamp(value: Money, low: Money, high: Money) -> Money",
        "documentation": {"kind": "markdown", "value": "Limits a value."},
        "parameters": [{"label": [6, 18]},
                       {"label": [20, 30], "documentation": {"kind": "plaintext", "value": "lower bound"}}]
      }], "activeSignature": 0, "activeParameter": 1}
      """)
  }

  @Test func symbols() throws {
    let symbol = LSP.DocumentSymbol(
      name: "income_tax", detail: "Money", kind: .function, range: range(0, 0, 3, 1), selectionRange: range(0, 8, 0, 18),
      children: [LSP.DocumentSymbol(name: "rate", kind: .variable, range: range(1, 2, 1, 20), selectionRange: range(1, 2, 1, 6))])
    try expectEncoding(
      symbol,
      """
      {"name": "income_tax", "detail": "Money", "kind": 12,
       "range": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 1}},
       "selectionRange": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 18}},
       "children": [{"name": "rate", "kind": 13,
                     "range": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 20}},
                     "selectionRange": {"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 6}}}]}
      """)
    try expectEncoding(
      LSP.WorkspaceSymbol(name: "rate", kind: .constant, containerName: "ON", location: LSP.Location(uri: uri, range: range(1, 0, 1, 4))),
      """
      {"name": "rate", "kind": 14, "containerName": "ON",
       "location": {"uri": "file:///home/me/tax/ontario.tax",
                    "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 4}}}}
      """)
  }

  @Test func highlightsFoldingAndSelection() throws {
    try expectEncoding(
      LSP.DocumentHighlight(range: range(0, 0, 0, 3), kind: .write),
      #"{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":3}},"kind":3}"#)
    try expectEncoding(
      LSP.FoldingRange(startLine: 2, endLine: 9, kind: .comment),
      #"{"startLine":2,"endLine":9,"kind":"comment"}"#)
    let selection = LSP.SelectionRange(nested: [range(0, 4, 0, 6), range(0, 0, 0, 10)])
    try expectEncoding(
      try #require(selection),
      """
      {"range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 6}},
       "parent": {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 10}}}}
      """)
  }

  @Test func semanticTokensAreDeltaEncodedInOrder() throws {
    var builder = LSP.SemanticTokensBuilder()
    // Added out of order on purpose; the example from the specification's "relative positions" section.
    builder.add(line: 5, character: 2, length: 7, type: 2)
    builder.add(line: 2, character: 5, length: 3, type: 0, modifiers: 3)
    builder.add(line: 2, character: 10, length: 4, type: 1)
    let tokens = builder.build()
    #expect(tokens.data == [2, 5, 3, 0, 3, 0, 5, 4, 1, 0, 3, 2, 7, 2, 0])
    // Added in order, the same tokens encode the same; equal positions keep the order they were added in.
    var ordered = LSP.SemanticTokensBuilder()
    ordered.add(line: 2, character: 5, length: 3, type: 0, modifiers: 3)
    ordered.add(line: 2, character: 10, length: 4, type: 1)
    ordered.add(line: 5, character: 2, length: 7, type: 2)
    #expect(ordered.build() == tokens)
    var ties = LSP.SemanticTokensBuilder()
    ties.add(line: 3, character: 1, length: 1, type: 4)
    ties.add(line: 1, character: 0, length: 2, type: 5)
    ties.add(line: 3, character: 1, length: 1, type: 6)
    #expect(ties.build().data == [1, 0, 2, 5, 0, 2, 1, 1, 4, 0, 0, 0, 1, 6, 0])
    try expectEncoding(tokens, #"{"data":[2,5,3,0,3,0,5,4,1,0,3,2,7,2,0]}"#)
    try expectEncoding(
      LSP.SemanticTokensLegend(tokenTypes: ["function", "variable"], tokenModifiers: ["declaration"]),
      #"{"tokenTypes":["function","variable"],"tokenModifiers":["declaration"]}"#)
  }

  @Test func inlayHints() throws {
    try expectEncoding(
      LSP.InlayHint(
        position: LSP.Position(line: 4, character: 30), label: "= $1,234.56", kind: .type,
        tooltip: .markdown("evaluated for 2024"), paddingLeft: true),
      """
      {"position": {"line": 4, "character": 30}, "label": "= $1,234.56", "kind": 1,
       "tooltip": {"kind": "markdown", "value": "evaluated for 2024"}, "paddingLeft": true}
      """)
  }

  @Test func codeActionsLensesAndEdits() throws {
    let edit = LSP.WorkspaceEdit(changes: [uri: [LSP.TextEdit(range: range(2, 4, 2, 13), newText: "income_tax")]])
    try expectEncoding(
      LSP.CodeAction(title: "Replace with `income_tax`", kind: .quickFix, isPreferred: true, edit: edit),
      """
      {"title": "Replace with `income_tax`", "kind": "quickfix", "isPreferred": true,
       "edit": {"changes": {"file:///home/me/tax/ontario.tax": [
         {"range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 13}}, "newText": "income_tax"}]}}}
      """)
    try expectEncoding(
      LSP.CodeLens(range: range(7, 0, 7, 4), command: LSP.Command(title: "▶ Run test", command: "taxpro.runTest", arguments: ["t1"])),
      """
      {"range": {"start": {"line": 7, "character": 0}, "end": {"line": 7, "character": 4}},
       "command": {"title": "▶ Run test", "command": "taxpro.runTest", "arguments": ["t1"]}}
      """)
    let documentChanges = LSP.WorkspaceEdit(documentChanges: [
      LSP.TextDocumentEdit(
        textDocument: LSP.OptionalVersionedTextDocumentIdentifier(uri: uri, version: 4),
        edits: [LSP.TextEdit(range: range(0, 0, 0, 0), newText: "# header\n")]),
      LSP.TextDocumentEdit(
        textDocument: LSP.OptionalVersionedTextDocumentIdentifier(uri: "file:///tmp/x.tax", version: nil), edits: []),
    ])
    try expectEncoding(
      documentChanges,
      """
      {"documentChanges": [
        {"textDocument": {"uri": "file:///home/me/tax/ontario.tax", "version": 4},
         "edits": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "newText": "# header\\n"}]},
        {"textDocument": {"uri": "file:///tmp/x.tax", "version": null}, "edits": []}
      ]}
      """)
    let refactor = LSP.CodeActionKind(rawValue: "refactor")
    #expect(LSP.CodeActionKind(rawValue: "refactor.extract").isSubkind(of: refactor))
    #expect(!LSP.CodeActionKind(rawValue: "refactoring").isSubkind(of: refactor))
  }

  @Test func prepareRenameResults() throws {
    try expectEncoding(
      LSP.PrepareRenameResult(range: range(1, 2, 1, 5), placeholder: "tax"),
      #"{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":5}},"placeholder":"tax"}"#)
  }

  @Test func pullDiagnosticReports() throws {
    try expectEncoding(
      LSP.DocumentDiagnosticReport(
        kind: .full, resultId: "7", items: [LSP.Diagnostic(range: range(0, 0, 0, 1), severity: .warning, message: "w")],
        relatedDocuments: ["file:///lib.tax": .unchanged(resultId: "3")]),
      """
      {"kind": "full", "resultId": "7",
       "items": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "severity": 2, "message": "w"}],
       "relatedDocuments": {"file:///lib.tax": {"kind": "unchanged", "resultId": "3"}}}
      """)
    try expectEncoding(LSP.DocumentDiagnosticReport.unchanged(resultId: "9"), #"{"kind":"unchanged","resultId":"9"}"#)
  }

  @Test func capabilityOptions() throws {
    try expectEncoding(
      LSP.TextDocumentSyncOptions(openClose: true, change: .incremental), #"{"openClose":true,"change":2}"#)
    try expectEncoding(
      LSP.CompletionOptions(triggerCharacters: ["."], resolveProvider: false),
      #"{"triggerCharacters":["."],"resolveProvider":false}"#)
    try expectEncoding(LSP.SignatureHelpOptions(triggerCharacters: ["(", ","]), #"{"triggerCharacters":["(",","]}"#)
    try expectEncoding(LSP.CodeActionOptions(codeActionKinds: [.quickFix]), #"{"codeActionKinds":["quickfix"]}"#)
    try expectEncoding(LSP.ResolveOptions(resolveProvider: false), #"{"resolveProvider":false}"#)
    try expectEncoding(LSP.ResolveOptions(), #"{}"#)
    try expectEncoding(LSP.RenameOptions(prepareProvider: true), #"{"prepareProvider":true}"#)
    try expectEncoding(LSP.ExecuteCommandOptions(commands: ["taxpro.runTest"]), #"{"commands":["taxpro.runTest"]}"#)
    try expectEncoding(
      LSP.SemanticTokensOptions(legend: LSP.SemanticTokensLegend(tokenTypes: ["function"], tokenModifiers: []), full: true),
      #"{"legend":{"tokenTypes":["function"],"tokenModifiers":[]},"full":true}"#)
    try expectEncoding(
      LSP.DiagnosticOptions(interFileDependencies: true, workspaceDiagnostics: false),
      #"{"interFileDependencies":true,"workspaceDiagnostics":false}"#)
    try expectEncoding(
      LSP.InitializeResult(capabilities: ["hoverProvider": true], serverInfo: LSP.ServerInfo(name: "taxpro", version: "0.1")),
      #"{"capabilities":{"hoverProvider":true},"serverInfo":{"name":"taxpro","version":"0.1"}}"#)
  }

  @Test func formattingRequestsNeedTheirOptions() throws {
    try expectEncoding(
      LSP.DocumentFormattingRequest(
        textDocument: LSP.TextDocumentIdentifier(uri: uri), options: LSP.FormattingOptions(tabSize: 2, insertSpaces: true)),
      """
      {"textDocument": {"uri": "file:///home/me/tax/ontario.tax"}, "options": {"tabSize": 2, "insertSpaces": true}}
      """)
    #expect(throws: JSONDecodingError("missing required field", path: [.key("options")])) {
      try LSP.DocumentFormattingRequest(json: ["textDocument": ["uri": "file:///a.tax"]])
    }
  }
}

@Suite struct LSPDecodingTests {
  @Test func initializeFromATypicalClient() throws {
    let request = try LSP.InitializeRequest(
      json: JSON.parse(
        """
        {"processId": 4242, "clientInfo": {"name": "Visual Studio Code", "version": "1.95.0"}, "locale": "en-ca",
         "rootPath": "/home/me/tax", "rootUri": "file:///home/me/tax",
         "capabilities": {"general": {"positionEncodings": ["utf-16"]},
                          "workspace": {"workspaceEdit": {"documentChanges": true}, "diagnostics": {"refreshSupport": false}},
                          "textDocument": {"completion": {"completionItem": {"snippetSupport": true,
                                                                             "documentationFormat": ["markdown", "plaintext"]}},
                                           "hover": {"contentFormat": ["plaintext"]}, "diagnostic": {}}},
         "initializationOptions": {"year": 2024}, "trace": "off",
         "workspaceFolders": [{"uri": "file:///home/me/tax", "name": "tax"}]}
        """))
    #expect(request.rootUri == "file:///home/me/tax")
    #expect(request.rootPath == "/home/me/tax")
    #expect(request.initializationOptions == ["year": 2024])
    #expect(request.workspaceRoots == ["file:///home/me/tax"])
    let capabilities = try #require(request.capabilities)
    #expect(capabilities.workspace?.workspaceEdit?.documentChanges == true)
    #expect(capabilities.workspace?.diagnostics?.refreshSupport == false)
    #expect(capabilities.workspace?.inlayHint == nil)
    #expect(capabilities.textDocument?.completion?.completionItem?.documentationFormat == [.markdown, .plaintext])
    #expect(capabilities.textDocument?.hover?.contentFormat == [.plaintext])
    #expect(capabilities.textDocument?.diagnostic == LSP.ClientCapabilities.Diagnostic())
  }

  @Test func initializeWithNulls() throws {
    let request = try LSP.InitializeRequest(
      json: JSON.parse(#"{"processId": null, "rootUri": null, "capabilities": {}, "workspaceFolders": null}"#))
    #expect(request.rootUri == nil)
    #expect(request.workspaceRoots == [])
    #expect(request.capabilities == LSP.ClientCapabilities())
  }

  @Test func oddCapabilitiesCostOnlyThemselves() throws {
    let request = try LSP.InitializeRequest(
      json: JSON.parse(
        """
        {"rootUri": 7, "capabilities": {"workspace": {"workspaceEdit": {"documentChanges": "yes"},
                                                       "codeLens": {"refreshSupport": true}},
                                         "textDocument": {"hover": {"contentFormat": "markdown"}, "signatureHelp": 3}}}
        """))
    #expect(request.rootUri == nil)
    let capabilities = try #require(request.capabilities)
    #expect(capabilities.workspace?.workspaceEdit == LSP.ClientCapabilities.WorkspaceEditCapabilities())
    #expect(capabilities.workspace?.codeLens?.refreshSupport == true)
    #expect(capabilities.textDocument?.hover == LSP.ClientCapabilities.Hover())
    #expect(capabilities.textDocument?.signatureHelp == nil)
    // Lenience is the initialize request's: other requests are strict.
    #expect(throws: JSONDecodingError.self) { try LSP.HoverRequest(json: ["textDocument": ["uri": 7], "position": [:]]) }
  }

  @Test func didChangeWithIncrementalAndFullChanges() throws {
    let notification = try LSP.DidChangeTextDocumentNotification(
      json: JSON.parse(
        """
        {"textDocument": {"uri": "file:///a.tax", "version": 5}, "contentChanges": [
          {"range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 3}}, "rangeLength": 2, "text": "xy"},
          {"text": "whole document"}]}
        """))
    #expect(notification.textDocument == LSP.VersionedTextDocumentIdentifier(uri: "file:///a.tax", version: 5))
    #expect(notification.contentChanges == [
      LSP.TextDocumentContentChangeEvent(range: range(0, 1, 0, 3), text: "xy"),
      LSP.TextDocumentContentChangeEvent(text: "whole document"),
    ])
  }

  @Test func requestParams() throws {
    let completion = try LSP.CompletionRequest(
      json: JSON.parse(
        #"{"textDocument":{"uri":"file:///a.tax"},"position":{"line":1,"character":3},"context":{"triggerKind":2,"triggerCharacter":"."},"workDoneToken":"w"}"#
      ))
    #expect(completion.position == LSP.Position(line: 1, character: 3))
    let references = try LSP.ReferencesRequest(
      json: JSON.parse(#"{"textDocument":{"uri":"file:///a.tax"},"position":{"line":1,"character":3},"context":{"includeDeclaration":true}}"#))
    #expect(references.context.includeDeclaration)
    let rename = try LSP.RenameRequest(
      json: JSON.parse(#"{"textDocument":{"uri":"file:///a.tax"},"position":{"line":0,"character":0},"newName":"tax2"}"#))
    #expect(rename.newName == "tax2")
    let inlay = try LSP.InlayHintRequest(
      json: JSON.parse(#"{"textDocument":{"uri":"file:///a.tax"},"range":{"start":{"line":0,"character":0},"end":{"line":40,"character":0}}}"#))
    #expect(inlay.range.end.line == 40)
    let codeAction = try LSP.CodeActionRequest(
      json: JSON.parse(
        """
        {"textDocument": {"uri": "file:///a.tax"}, "range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 4}},
         "context": {"diagnostics": [{"range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 13}},
                                      "message": "unknown", "code": 102, "data": {"fix": "income_tax"}}],
                     "only": ["quickfix"], "triggerKind": 1}}
        """))
    #expect(codeAction.context.diagnostics.first?["data"]?["fix"] == "income_tax")
    #expect(codeAction.context.only == [.quickFix])
    let rangeFormatting = try LSP.DocumentRangeFormattingRequest(
      json: JSON.parse(
        #"{"textDocument":{"uri":"file:///a.tax"},"range":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}},"options":{"tabSize":4,"insertSpaces":false}}"#
      ))
    #expect(rangeFormatting.options.tabSize == 4)
    let watched = try LSP.DidChangeWatchedFilesNotification(json: JSON.parse(#"{"changes":[{"uri":"file:///b.tax","type":3}]}"#))
    #expect(watched.changes == [LSP.FileEvent(uri: "file:///b.tax", type: .deleted)])
    let configuration = try LSP.DidChangeConfigurationNotification(json: JSON.parse(#"{"settings":null}"#))
    #expect(configuration.settings == nil)
    let pull = try LSP.DocumentDiagnosticsRequest(json: JSON.parse(#"{"textDocument":{"uri":"file:///a.tax"},"previousResultId":"4"}"#))
    #expect(pull.previousResultId == "4")
  }

  @Test func unknownEnumerationValuesAreKept() throws {
    let item = try LSP.CompletionItem(json: JSON.parse(#"{"label":"x","kind":99}"#))
    #expect(item.kind == LSP.CompletionItemKind(rawValue: 99))
  }

  @Test(arguments: [
    (#"[]"#, "expected HoverRequest object, found array"),
    (#"{}"#, "textDocument: missing required field"),
    (#"{"textDocument":{"uri":1},"position":{"line":0,"character":0}}"#, "textDocument.uri: expected string, found integer"),
    (#"{"textDocument":{"uri":"u"},"position":{"line":-1,"character":0}}"#, "position.line: expected a non-negative integer"),
    (#"{"textDocument":{"uri":"u"},"position":{"line":0.5,"character":0}}"#, "position.line: expected integer, found number"),
    (#"{"textDocument":{"uri":"u"},"position":{"line":0}}"#, "position.character: missing required field"),
  ])
  func badParamsAreErrorsWithAPath(text: String, message: String) throws {
    let json = try JSON.parse(text)
    #expect(throws: JSONDecodingError.self) { try LSP.HoverRequest(json: json) }
    do {
      _ = try LSP.HoverRequest(json: json)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func nestedArrayErrorsNameTheIndex() throws {
    let json = try JSON.parse(
      #"{"textDocument":{"uri":"u","version":1},"contentChanges":[{"text":"a"},{"range":{"start":{"line":0,"character":0}},"text":"b"}]}"#)
    do {
      _ = try LSP.DidChangeTextDocumentNotification(json: json)
      Issue.record("decoding should fail")
    } catch {
      #expect(error.description == "contentChanges[1].range.end: missing required field")
    }
  }

  @Test func everyTypeRejectsEveryWrongShapeWithoutCrashing() {
    let shapes: [JSON] = [
      .null, true, 0, -1, 1.5, "s", [], [1, "x"], [:], ["uri": 1], ["range": "x"], ["label": []], ["kind": "full"],
      ["textDocument": [:], "position": [:]], ["start": ["line": 0, "character": 0]],
    ]
    let decoders: [(JSON) throws -> Void] = [
      { _ = try LSP.Position(json: $0) }, { _ = try LSP.Range(json: $0) }, { _ = try LSP.Location(json: $0) },
      { _ = try LSP.Diagnostic(json: $0) }, { _ = try LSP.CompletionItem(json: $0) },
      { _ = try LSP.CompletionRequest(json: $0) }, { _ = try LSP.Hover(json: $0) },
      { _ = try LSP.SignatureHelp(json: $0) }, { _ = try LSP.InlayHint(json: $0) },
      { _ = try LSP.CodeActionRequest(json: $0) }, { _ = try LSP.WorkspaceEdit(json: $0) },
      { _ = try LSP.DocumentSymbol(json: $0) }, { _ = try LSP.SelectionRange(json: $0) },
      { _ = try LSP.PrepareRenameResult(json: $0) }, { _ = try LSP.DocumentDiagnosticReport(json: $0) },
      { _ = try LSP.InitializeResult(json: $0) }, { _ = try LSP.InitializeRequest(json: $0) },
      { _ = try LSP.DidChangeTextDocumentNotification(json: $0) }, { _ = try LSP.DocumentFormattingRequest(json: $0) },
      { _ = try LSP.WorkspaceSymbol(json: $0) }, { _ = try LSP.CompletionItem(json: $0) },
    ]
    for decode in decoders {
      for shape in shapes {
        // Success or a decoding error are both fine; anything else (a crash, another error type) is not.
        do {
          try decode(shape)
        } catch {
          #expect(error is JSONDecodingError)
        }
      }
    }
  }

  @Test func documentURIConvertsFilePaths() {
    let uri = LSP.DocumentURI(filePath: "/home/me/my taxes/on.tax")
    #expect(uri.stringValue == "file:///home/me/my%20taxes/on.tax")
    #expect(uri.filePath == "/home/me/my taxes/on.tax")
    #expect(LSP.DocumentURI("untitled:Untitled-1").filePath == nil)
  }

  /// A path's URI is written byte by byte as Foundation's `URL` writes it: every printable ASCII character, text
  /// beyond ASCII, control characters, repeated slashes, a directory (which gets a slash at the end) and a relative path.
  @Test func documentURIsAreWrittenAsURLWritesThem() throws {
    let ascii = String(decoding: (32..<127).map { UInt8($0) }.filter { $0 != UInt8(ascii: "/") }, as: UTF8.self)
    let directory = FileManager.default.temporaryDirectory.path
    for path in [
      "/home/me/my taxes/on.tax", "/x/" + ascii, "/\u{E9}/\u{65E5}\u{672C}.tax", "/a%20b", "/a\u{1}b\u{7F}", "/", "//a//b/",
      directory, directory + "/", "/nonexistent/dir", "relative/on.tax", "/tmp/\u{1F600}",
    ] {
      #expect(LSP.DocumentURI(filePath: path).stringValue == URL(fileURLWithPath: path).absoluteString, "\(path)")
    }
  }
}

/// The language server sends its replies written in one pass (`serializedJSON()`): the same bytes as the tree.
@Suite struct LSPOnePassEncodingTests {
  func expectSameText(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) {
    let stream = String(decoding: value.serializedJSON(), as: UTF8.self)
    #expect(stream == value.toJSON().serializedString(), sourceLocation: sourceLocation)
  }

  @Test func repliesAreTheTreesBytes() {
    let edit = LSP.TextEdit(range: range(1, 2, 1, 4), newText: "ON")
    let items = (0..<5).map { index in
      LSP.CompletionItem(
        label: "item\(index)", kind: index % 2 == 0 ? .function : nil, detail: index == 1 ? nil : "(x: Money): Money",
        documentation: index == 3 ? .string("plain") : .markupContent(.markdown("```taxpro\nf\n```\n\n\u{1B} \"q\"")),
        sortText: "0\(index)", filterText: nil, textEdit: edit)
    }
    let list: LSP.CompletionList? = LSP.CompletionList(isIncomplete: true, items: items)
    expectSameText(list)
    expectSameText(LSP.CompletionList?.none)
    expectSameText(LSP.Hover(contents: .plaintext("é\n\t"), range: range(0, 0, 0, 3)))
    expectSameText(LSP.Hover(contents: .markdown("m")))
    // A dictionary inside (written through the tree, with its keys sorted).
    let changes: [LSP.DocumentURI: [LSP.TextEdit]] = [uri: [edit], "file:///a.tax": [edit, edit]]
    expectSameText([LSP.WorkspaceEdit(changes: changes), LSP.WorkspaceEdit(documentChanges: [])])
  }

  @Test func aResponseAroundASerializedResult() {
    for id in [RequestID.integer(7), .string("a\"b")] {
      let result = LSP.Hover(contents: .markdown("m"), range: range(0, 0, 0, 1))
      let spliced = ResponseMessage.serialized(id: id, result: result.serializedJSON())
      #expect(spliced == ResponseMessage(id: id, result: result).toJSON().serialized())
    }
  }
}
