import Foundation
import Testing

import TestSupport
@testable import LanguageServerProtocol

/// `initialize`, `didOpen` and `didChange` are read from their usual shape without `Decodable` (`UsualShapeReadable`);
/// through a `MessageTable` they must decode to the same value, and fail with the same error, as `Decodable` alone,
/// whatever the params hold.
@Suite struct UsualShapeTests {
  /// Records the messages it is given.
  final class Recorder {
    var initializes: [LSP.InitializeRequest] = []
    var opens: [LSP.DidOpenTextDocumentNotification] = []
    var changes: [LSP.DidChangeTextDocumentNotification] = []

    func initialize(_ request: LSP.InitializeRequest) -> LSP.InitializeResult {
      initializes.append(request)
      return LSP.InitializeResult(capabilities: [:])
    }

    func didOpen(_ notification: LSP.DidOpenTextDocumentNotification) { opens.append(notification) }
    func didChange(_ notification: LSP.DidChangeTextDocumentNotification) { changes.append(notification) }
  }

  static var table: MessageTable<Recorder> {
    var table = MessageTable<Recorder>()
    table.on(LSP.InitializeRequest.self, Recorder.initialize)
    table.on(LSP.DidOpenTextDocumentNotification.self, Recorder.didOpen)
    table.on(LSP.DidChangeTextDocumentNotification.self, Recorder.didChange)
    return table
  }

  /// One of `choices`, or (one time in `odd`) a value of some other kind (or none).
  static func pick(_ choices: [JSON?], odd: Int = 20, _ random: inout SeededGenerator) -> JSON? {
    let others: [JSON?] = [nil, .null, 3, .double(2), .double(2.5), -1, "x", true, [], ["a": 1], [nil, "y"]]
    if Int.random(in: 0..<odd, using: &random) == 0 { return others.randomElement(using: &random) ?? nil }
    return choices.randomElement(using: &random) ?? nil
  }

  /// An object of the members whose values are not nil, sometimes with one the readers do not know.
  static func object(_ members: [(String, JSON?)], _ random: inout SeededGenerator) -> JSON {
    var object = JSONObject()
    for (key, value) in members { if let value { object[key] = value } }
    if Int.random(in: 0..<4, using: &random) == 0 { object["extra"] = ["anything": [1, nil]] }
    return .object(object)
  }

  static let uris: [JSON?] = ["file:///a.tax", "file:///d%C3%A9j%C3%A0/\u{E9}\"q\"\\n.tax", "", "untitled:Untitled-1"]

  static func formats(_ random: inout SeededGenerator) -> JSON? {
    pick([["markdown", "plaintext"], ["plaintext"], [], ["markdown", 3]], &random)
  }

  static func flag(_ key: String, _ random: inout SeededGenerator) -> JSON? {
    pick([object([(key, pick([true, false, nil], &random))], &random)], &random)
  }

  static func capabilities(_ random: inout SeededGenerator) -> JSON? {
    let workspace = object(
      [
        ("workspaceEdit", flag("documentChanges", &random)),
        ("didChangeWatchedFiles", flag("dynamicRegistration", &random)),
        ("inlayHint", flag("refreshSupport", &random)), ("codeLens", flag("refreshSupport", &random)),
        ("diagnostics", flag("refreshSupport", &random)), ("configuration", true),
      ], &random)
    let completionItem = object([("documentationFormat", formats(&random)), ("snippetSupport", true)], &random)
    let signature = object([("documentationFormat", formats(&random))], &random)
    let textDocument = object(
      [
        ("completion", pick([object([("completionItem", pick([completionItem], &random))], &random)], &random)),
        ("hover", pick([object([("contentFormat", formats(&random))], &random)], &random)),
        ("signatureHelp", pick([object([("signatureInformation", pick([signature], &random))], &random)], &random)),
        ("diagnostic", flag("relatedDocumentSupport", &random)),
        ("synchronization", ["didSave": true]),
      ], &random)
    return pick(
      [object([("workspace", pick([workspace], &random)), ("textDocument", pick([textDocument], &random))], &random)],
      &random)
  }

  static func initializeParams(_ random: inout SeededGenerator) -> JSON? {
    let folder = object([("uri", pick(uris, &random)), ("name", pick(["a", "é"], &random))], &random)
    return pick(
      [
        object(
          [
            ("processId", 42), ("rootPath", pick(["/tmp/w", "", nil], &random)), ("rootUri", pick(uris + [nil], &random)),
            ("initializationOptions", pick([["taxpro": ["year": 2025]], nil, 7], &random)),
            ("capabilities", capabilities(&random)), ("workspaceFolders", pick([[folder], [], [folder, folder], nil], &random)),
            ("clientInfo", ["name": "Neovim"]),
          ], &random)
      ], odd: 20, &random)
  }

  static func position(_ random: inout SeededGenerator) -> JSON? {
    pick([object([("line", pick([0, 7, 1_000_000], &random)), ("character", pick([0, 3], &random))], &random)], &random)
  }

  static func didOpenParams(_ random: inout SeededGenerator) -> JSON? {
    let document = object(
      [
        ("uri", pick(uris, &random)), ("languageId", pick(["taxpro"], &random)), ("version", pick([0, 1, 99], &random)),
        ("text", pick(["let a = $1\n", "", "é\u{1}\"\n"], &random)),
      ], &random)
    return pick([object([("textDocument", pick([document], &random))], &random)], odd: 20, &random)
  }

  static func didChangeParams(_ random: inout SeededGenerator) -> JSON? {
    let range = object([("start", position(&random)), ("end", position(&random))], &random)
    let change = object([("range", pick([range, nil], &random)), ("text", pick(["7", "", "é"], &random))], &random)
    let document = object([("uri", pick(uris, &random)), ("version", pick([2, 3], &random))], &random)
    return pick(
      [
        object(
          [("textDocument", pick([document], &random)), ("contentChanges", pick([[change], [change, change], []], &random))],
          &random)
      ], odd: 20, &random)
  }

  /// Hands `message` to the table and expects what `Decodable` alone reads (the notification `recorded`, or an
  /// error); 1 when its params have the usual shape, else 0.
  static func handles<N: UsualShapeReadable & Equatable>(
    _ message: NotificationMessage, as type: N.Type, _ table: MessageTable<Recorder>, _ recorder: Recorder,
    _ connection: Connection, recorded: (Recorder) -> [N]
  ) throws -> Int {
    let expected = try? message.decodeParams(N.self)
    let threw = (try? table.handle(message, by: recorder, connection: connection)) == nil
    #expect(recorded(recorder) == (expected.map { [$0] } ?? []), "\(message.params?.serializedString() ?? "none")")
    #expect(threw == (expected == nil))
    return (try? N(usualParams: message.params)) == nil ? 0 : 1
  }

  @Test func theUsualShapeReadsAsDecodableReadsIt() throws {
    var random = SeededGenerator(seed: 18)
    let connection = Connection(input: MemoryByteSource([]), output: MemoryByteSink())
    let table = Self.table
    var usual = [0, 0, 0]
    for index in 0..<3_000 {
      let recorder = Recorder()
      // initialize: a request, decoded leniently.
      let initialize = RequestMessage(id: .integer(index), method: "initialize", params: Self.initializeParams(&random))
      if (try? LSP.InitializeRequest(usualParams: initialize.params)) != nil { usual[0] += 1 }
      let context = RequestContext(id: initialize.id, method: initialize.method, connection: connection)
      let expected = Result { () throws(ResponseError) in try initialize.decodeParams(LSP.InitializeRequest.self) }
      let actual = Result { try table.result(initialize, by: recorder, context: context) }
      switch (expected, actual) {
      case (.success(let request), .success):
        #expect(recorder.initializes == [request], "\(initialize.params?.serializedString() ?? "none")")
      case (.failure(let error), .failure(let thrown)):
        #expect(thrown as? ResponseError == error)
      default:
        Issue.record("\(initialize.params?.serializedString() ?? "none"): Decodable gave \(expected), the table \(actual)")
      }
      // didOpen and didChange: notifications, decoded strictly.
      usual[1] += try Self.handles(
        NotificationMessage(method: "textDocument/didOpen", params: Self.didOpenParams(&random)),
        as: LSP.DidOpenTextDocumentNotification.self, table, recorder, connection) { $0.opens }
      usual[2] += try Self.handles(
        NotificationMessage(method: "textDocument/didChange", params: Self.didChangeParams(&random)),
        as: LSP.DidChangeTextDocumentNotification.self, table, recorder, connection) { $0.changes }
    }
    // Both paths were taken often for each message.
    for count in usual { #expect(count > 300 && count < 2_900, "\(usual)") }
  }

  /// What editors send: Neovim's `initialize` (its capabilities cut to what the reader looks at, and some it does
  /// not) reads the usual way, to what `Decodable` reads.
  @Test func anEditorsInitializeTakesTheUsualShape() throws {
    let params = try JSON.parse(
      #"""
      {"processId":1234,"clientInfo":{"name":"Neovim","version":"0.11.0"},"rootPath":"/home/ada/taxes",
       "rootUri":"file:///home/ada/taxes","workspaceFolders":[{"uri":"file:///home/ada/taxes","name":"/home/ada/taxes"}],
       "initializationOptions":{"taxpro":{"year":2025,"inlayHints":false}},"trace":"off",
       "capabilities":{"general":{"positionEncodings":["utf-8","utf-16","utf-32"]},
        "workspace":{"applyEdit":true,"workspaceEdit":{"resourceOperations":["rename","create","delete"]},
         "didChangeWatchedFiles":{"dynamicRegistration":true,"relativePatternSupport":true},
         "inlayHint":{"refreshSupport":true},"codeLens":{"refreshSupport":true},"diagnostics":{"refreshSupport":true}},
        "textDocument":{"completion":{"dynamicRegistration":false,"completionItem":{"snippetSupport":false,
          "documentationFormat":["markdown","plaintext"]},"completionItemKind":{"valueSet":[1,2,3]}},
         "hover":{"dynamicRegistration":true,"contentFormat":["markdown","plaintext"]},
         "signatureHelp":{"signatureInformation":{"documentationFormat":["markdown","plaintext"],
          "activeParameterSupport":true}},
         "diagnostic":{"dynamicRegistration":false}}}}
      """#)
    let usual = try LSP.InitializeRequest(usualParams: params)
    #expect(usual == (try RequestMessage(id: 1, method: "initialize", params: params).decodeParams(LSP.InitializeRequest.self)))
    #expect(usual.capabilities?.textDocument?.hover?.contentFormat == [.markdown, .plaintext])
    #expect(usual.capabilities?.workspace?.diagnostics?.refreshSupport == true)
    #expect(usual.workspaceRoots == ["file:///home/ada/taxes"])
  }

  /// The list the table looks messages up in names each conforming message once.
  @Test func theListNamesEachMessageOnce() {
    let names = usualShapeMessages.map { String(describing: $0) }
    #expect(Set(names).count == names.count)
    #expect(names.count == 3)
  }
}
