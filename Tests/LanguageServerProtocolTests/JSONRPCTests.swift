import Testing

@testable import LanguageServerProtocol

@Suite struct ClassificationTests {
  func classify(_ text: String) -> IncomingMessage { IncomingMessage.parse(bytes(text)) }

  /// The reply an invalid message gets, serialized, or nil when it gets none.
  func reply(to text: String) -> JSON? {
    guard case .invalid(let invalid) = classify(text) else {
      Issue.record("\(text) should be invalid")
      return nil
    }
    return invalid.reply?.toJSON()
  }

  @Test func classifiesRequestsWithIntegerAndStringIds() {
    #expect(
      classify(#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"a":1}}"#)
        == .request(RequestMessage(id: 7, method: "textDocument/hover", params: ["a": 1])))
    #expect(
      classify(#"{"jsonrpc":"2.0","id":"abc","method":"shutdown"}"#)
        == .request(RequestMessage(id: "abc", method: "shutdown")))
    // Some clients send `"params": null` for parameterless requests.
    #expect(
      classify(#"{"jsonrpc":"2.0","id":1,"method":"shutdown","params":null}"#)
        == .request(RequestMessage(id: 1, method: "shutdown")))
  }

  @Test func classifiesNotifications() {
    #expect(
      classify(#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#)
        == .notification(NotificationMessage(method: "initialized", params: [:])))
    #expect(classify(#"{"jsonrpc":"2.0","method":"exit"}"#) == .notification(NotificationMessage(method: "exit")))
  }

  @Test func classifiesResponses() {
    #expect(
      classify(#"{"jsonrpc":"2.0","id":3,"result":null}"#)
        == .response(ResponseMessage(id: 3, result: .success(.null))))
    #expect(
      classify(#"{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"no","data":[1]}}"#)
        == .response(
          ResponseMessage(id: "x", error: ResponseError(code: .methodNotFound, message: "no", data: [1]))))
    #expect(
      classify(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}"#)
        == .response(ResponseMessage(id: nil, error: ResponseError(code: .parseError, message: "bad"))))
  }

  @Test func malformedJSONGetsAParseErrorWithNullId() {
    let answer = reply(to: #"{"jsonrpc":"2.0","id":1,"method":"x""#)
    #expect(answer?["id"] == .null)
    #expect(answer?["error"]?["code"] == -32700)
    #expect(answer?["jsonrpc"] == "2.0")
    #expect(answer?["result"] == nil)
  }

  @Test func invalidRequestsAreAnsweredWithTheirIdWhenItCanBeRead() {
    let cases: [(String, JSON)] = [
      (#"[1,2]"#, .null),
      (#""hello""#, .null),
      (#"{"id":4,"method":"x"}"#, 4),
      (#"{"jsonrpc":"1.0","id":4,"method":"x"}"#, 4),
      (#"{"jsonrpc":"2.0","id":5,"method":17}"#, 5),
      (#"{"jsonrpc":"2.0","id":"s","method":"x","params":"text"}"#, "s"),
      (#"{"jsonrpc":"2.0","id":{"a":1},"method":"x"}"#, .null),
      (#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#, .null),
      (#"{"jsonrpc":"2.0","id":null,"method":"x"}"#, .null),
      (#"{"jsonrpc":"2.0","method":17}"#, .null),
      (#"{"jsonrpc":"2.0"}"#, .null),
      (#"{}"#, .null),
    ]
    for (text, id) in cases {
      let answer = reply(to: text)
      #expect(answer?["id"] == id, "\(text)")
      #expect(answer?["error"]?["code"] == -32600, "\(text)")
    }
  }

  @Test func malformedResponsesAreNotAnswered() {
    for text in [
      #"{"jsonrpc":"2.0","id":1}"#,
      #"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}"#,
      #"{"jsonrpc":"2.0","id":1,"error":{"code":"x"}}"#,
      #"{"jsonrpc":"2.0","id":[],"result":1}"#,
      #"{"id":1,"result":1}"#,
    ] {
      guard case .invalid(let invalid) = classify(text) else {
        Issue.record("\(text) should be invalid")
        continue
      }
      #expect(invalid.reply == nil, "\(text)")
    }
  }

  @Test func responsesSerializeResultOrErrorButNeverBoth() throws {
    #expect(
      ResponseMessage(id: 1, result: .success(.null)).toJSON().serializedString()
        == #"{"jsonrpc":"2.0","id":1,"result":null}"#)
    #expect(
      ResponseMessage(id: "a", error: .requestCancelled).toJSON().serializedString()
        == #"{"jsonrpc":"2.0","id":"a","error":{"code":-32800,"message":"Request cancelled"}}"#)
    #expect(
      ResponseMessage(id: nil, error: ResponseError(code: .invalidRequest, message: "m")).toJSON().serializedString()
        == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"m"}}"#)
  }

  @Test func standardErrorCodes() {
    #expect(ErrorCode.parseError.rawValue == -32700)
    #expect(ErrorCode.invalidRequest.rawValue == -32600)
    #expect(ErrorCode.methodNotFound.rawValue == -32601)
    #expect(ErrorCode.invalidParams.rawValue == -32602)
    #expect(ErrorCode.internalError.rawValue == -32603)
    #expect(ErrorCode.serverNotInitialized.rawValue == -32002)
    #expect(ErrorCode.requestCancelled.rawValue == -32800)
    #expect(ErrorCode.contentModified.rawValue == -32801)
  }

  @Test func decodingParamsReportsInvalidParamsWithAPath() {
    let request = RequestMessage(
      id: 1, method: "textDocument/hover",
      params: ["textDocument": ["uri": "file:///a.tax"], "position": ["line": "3", "character": 1]])
    #expect(throws: ResponseError.invalidParams("position.line: expected integer, found string")) {
      try request.decodeParams(LSP.HoverRequest.self)
    }
    let missing = RequestMessage(id: 1, method: "textDocument/hover")
    #expect(throws: ResponseError.self) { try missing.decodeParams(LSP.HoverRequest.self) }
    do {
      _ = try missing.decodeParams(LSP.HoverRequest.self)
    } catch {
      #expect(error.code == .invalidParams)
    }
  }
}

@Suite struct LifecycleTests {
  @Test func requestsBeforeInitializeAreRefused() {
    var lifecycle = ServerLifecycle()
    #expect(lifecycle.admit(request: "textDocument/hover")?.code == .serverNotInitialized)
    #expect(lifecycle.admit(notification: "textDocument/didOpen") == false)
    #expect(lifecycle.admit(request: "initialize") == nil)
    #expect(lifecycle.state == .running)
    #expect(lifecycle.admit(request: "initialize")?.code == .invalidRequest)
    #expect(lifecycle.admit(request: "textDocument/hover") == nil)
    let admitted = lifecycle.admit(notification: "textDocument/didOpen")
    #expect(admitted)
  }

  @Test func shutdownThenExitExitsWithZero() {
    var lifecycle = ServerLifecycle()
    _ = lifecycle.admit(request: "initialize")
    #expect(lifecycle.admit(request: "shutdown") == nil)
    #expect(lifecycle.admit(request: "textDocument/hover")?.code == .invalidRequest)
    #expect(lifecycle.admit(notification: "textDocument/didChange") == false)
    let exitAdmitted = lifecycle.admit(notification: "exit")
    #expect(exitAdmitted)
    #expect(lifecycle.state == .exited)
    #expect(lifecycle.exitCode == 0)
  }

  @Test func exitWithoutShutdownExitsWithOne() {
    var lifecycle = ServerLifecycle()
    let exitAdmitted = lifecycle.admit(notification: "exit")
    #expect(exitAdmitted)
    #expect(lifecycle.exitCode == 1)
  }
}
