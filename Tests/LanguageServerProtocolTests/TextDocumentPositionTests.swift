import Foundation
import Testing

import TestSupport
@testable import LanguageServerProtocol

/// Requests made of a document and a position are read from their usual shape without `Decodable`
/// (`TextDocumentPositionRequest`); through a `MessageTable` they must decode to the same value, and fail with the
/// same `InvalidParams` error, as `Decodable` alone, whatever the params hold.
@Suite struct TextDocumentPositionTests {
  /// Records the requests it is given; answers nothing.
  final class Recorder {
    var hovers: [LSP.HoverRequest] = []
    var completions: [LSP.CompletionRequest] = []

    func hover(_ request: LSP.HoverRequest) -> LSP.Hover? {
      hovers.append(request)
      return nil
    }

    func completion(_ request: LSP.CompletionRequest) -> LSP.CompletionList? {
      completions.append(request)
      return nil
    }
  }

  static var table: MessageTable<Recorder> {
    var table = MessageTable<Recorder>()
    table.on(LSP.HoverRequest.self, Recorder.hover)
    table.on(LSP.CompletionRequest.self, Recorder.completion)
    return table
  }

  /// Params of every shape near the usual one: members missing, `null`, of other kinds, negative, floats (integral
  /// or not), huge, URIs with escapes and non-ASCII text, extra members.
  static func randomParams(_ random: inout SeededGenerator) -> JSON {
    let numbers: [JSON?] = [nil, .null, 0, 7, 1_000_000, -1, .double(3), .double(3.5), .double(-0.0), "3", true,
                            .double(1e300), .integer(Int.max), .integer(Int.min), []]
    let uris: [JSON?] = [nil, .null, "file:///a.tax", "file:///d%C3%A9j%C3%A0/\u{E9}\"q\"\\n.tax", "", 5, ["x"],
                         "untitled:Untitled-1", "file:///\u{1F600}.tax"]
    func object(_ members: [(String, JSON?)]) -> JSON {
      var object = JSONObject()
      for (key, value) in members { if let value { object[key] = value } }
      if Int.random(in: 0..<4, using: &random) == 0 { object["extra"] = ["anything": [1, nil]] }
      return .object(object)
    }
    let document: JSON? = [
      nil, .null, "file:///a.tax", 3, object([("uri", uris.randomElement(using: &random) ?? nil)]),
      object([("uri", uris.randomElement(using: &random) ?? nil), ("version", 2)]),
    ].randomElement(using: &random) ?? nil
    let position: JSON? = [
      nil, .null, [1, 2],
      object([("line", numbers.randomElement(using: &random) ?? nil), ("character", numbers.randomElement(using: &random) ?? nil)]),
      object([("line", 4), ("character", numbers.randomElement(using: &random) ?? nil)]),
      object([("line", numbers.randomElement(using: &random) ?? nil), ("character", 2)]),
    ].randomElement(using: &random) ?? nil
    var members: [(String, JSON?)] = [("textDocument", document), ("position", position)]
    if Bool.random(using: &random) { members.reverse() }
    if Int.random(in: 0..<5, using: &random) == 0 { members.append(("context", ["triggerKind": 1])) }
    return object(members)
  }

  @Test func theUsualShapeReadsAsDecodableReadsIt() throws {
    var random = SeededGenerator(seed: 16)
    let connection = Connection(input: MemoryByteSource([]), output: MemoryByteSink())
    var fast = 0
    let table = Self.table
    for index in 0..<4_000 {
      // A third of them in the usual shape, with any URI and any non-negative numbers.
      let params: JSON =
        index % 3 == 0
        ? [
          "textDocument": ["uri": .string(["file:///a.tax", "file:///\u{E9}\"q\".tax", ""][index % 9 / 3])],
          "position": [
            "line": .integer(Int.random(in: 0...Int.max, using: &random) >> (index % 64)),
            "character": .integer(index),
          ],
        ]
        : Self.randomParams(&random)
      if textDocumentPosition(in: params) != nil { fast += 1 }
      let message = RequestMessage(id: .integer(index), method: "textDocument/hover", params: params)
      let context = RequestContext(id: message.id, method: message.method, connection: connection)
      let recorder = Recorder()
      let expected = Result { () throws(ResponseError) in try message.decodeParams(LSP.HoverRequest.self) }
      let actual = Result { try table.result(message, by: recorder, context: context) }
      switch (expected, actual) {
      case (.success(let request), .success):
        #expect(recorder.hovers == [request], "\(params.serializedString())")
      case (.failure(let error), .failure(let thrown)):
        #expect(thrown as? ResponseError == error, "\(params.serializedString())")
      default:
        Issue.record("\(params.serializedString()): Decodable gave \(expected), the table \(actual)")
      }
      // Completion takes the same path.
      let completion = RequestMessage(id: .integer(index), method: "textDocument/completion", params: params)
      let expectedCompletion = Result { () throws(ResponseError) in try completion.decodeParams(LSP.CompletionRequest.self) }
      let actualCompletion = Result { try table.result(completion, by: recorder, context: context) }
      #expect((try? expectedCompletion.get()).map { [$0] } ?? [] == recorder.completions)
      if case .failure(let error) = expectedCompletion {
        #expect(throws: error) { try actualCompletion.get() }
      }
    }
    // Both paths were taken often.
    #expect(fast > 1_333 && fast < 3_800)
  }

  @Test func everyPositionRequestTakesTheUsualShape() throws {
    let params: JSON = ["textDocument": ["uri": "file:///a.tax"], "position": ["line": 3, "character": 4]]
    let parts = try #require(textDocumentPosition(in: params))
    #expect(try LSP.DefinitionRequest.request(as: LSP.DefinitionRequest.self, parts)
      == RequestMessage(id: 1, method: "", params: params).decodeParams(LSP.DefinitionRequest.self))
    #expect(try LSP.SignatureHelpRequest.request(as: LSP.SignatureHelpRequest.self, parts)
      == RequestMessage(id: 1, method: "", params: params).decodeParams(LSP.SignatureHelpRequest.self))
    #expect(try LSP.PrepareRenameRequest.request(as: LSP.PrepareRenameRequest.self, parts)
      == RequestMessage(id: 1, method: "", params: params).decodeParams(LSP.PrepareRenameRequest.self))
    #expect(try LSP.DocumentHighlightRequest.request(as: LSP.DocumentHighlightRequest.self, parts)
      == RequestMessage(id: 1, method: "", params: params).decodeParams(LSP.DocumentHighlightRequest.self))
    #expect(LSP.HoverRequest.request(as: LSP.DefinitionRequest.self, parts) == nil)
  }
}

extension TextDocumentPositionTests {
  /// The list the table looks requests up in names each conforming request once.
  @Test func theListNamesEachPositionRequest() {
    let names = textDocumentPositionRequests.map { String(describing: $0) }
    #expect(Set(names).count == names.count)
    #expect(names.count == 6)
    #expect(names.contains(String(describing: LSP.HoverRequest.self)))
    #expect(names.contains(String(describing: LSP.CompletionRequest.self)))
  }
}

/// `MessageType.decodesLeniently` says what `is any LenientDecodable.Type` says, without the runtime's look-up.
@Suite struct DecodesLenientlyTests {
  static func agrees<M: MessageType>(_ type: M.Type) -> Bool { M.decodesLeniently == (M.self is any LenientDecodable.Type) }

  @Test func agreesWithTheConformance() {
    #expect(LSP.InitializeRequest.decodesLeniently)
    #expect(!LSP.HoverRequest.decodesLeniently)
    #expect(Self.agrees(LSP.InitializeRequest.self))
    #expect(Self.agrees(LSP.HoverRequest.self))
    #expect(Self.agrees(LSP.CompletionRequest.self))
    #expect(Self.agrees(LSP.ShutdownRequest.self))
    #expect(Self.agrees(LSP.DidOpenTextDocumentNotification.self))
  }
}
