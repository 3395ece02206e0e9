import Foundation
import LanguageServerProtocol
import Testing

@testable import TaxProServer

/// Issue 11, item 8: `initialize` with a root of 100,000 files is answered at once, and the document the user opens
/// gets its diagnostics before the scan of that root has finished.
///
/// The server runs as it does in an editor, over a pair of pipes, on a connection of its own. The scan is held just
/// before it hands its result over (`LanguageServer.scanWillFinish`), so "before the scan finishes" does not depend on
/// how fast the disk is: the diagnostics must arrive while the scan observably cannot have finished, and the scan's
/// report must come only after it is let go.
struct LargeRootTests {
  static let opened = "let doubled = helper($10) * 2\n"
  static let sibling = "## Half.\nformula helper(x: Money): Money = x / 2\n"

  /// `root/dNNN/fNNNN.txt` (100 folders of 1,000 empty files) and two `.tax` files at the top.
  static func makeRoot() throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("large-root-\(UUID().uuidString)").path
    for folder in 0..<100 {
      let directory = root + "/d" + String(format: "%03d", folder)
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      for number in 0..<1000 {
        let descriptor = open(directory + "/f" + String(format: "%04d", number) + ".txt", O_CREAT | O_WRONLY, 0o644)
        try #require(descriptor >= 0)
        close(descriptor)
      }
    }
    try Data(opened.utf8).write(to: URL(fileURLWithPath: root + "/opened.tax"))
    try Data(sibling.utf8).write(to: URL(fileURLWithPath: root + "/sibling.tax"))
    return root
  }

  /// What the server sent, in order, read on a thread of its own; `wait(for:)` polls it.
  final class Received: @unchecked Sendable {
    private let condition = NSCondition()
    private var messages: [JSON] = []

    func append(_ message: JSON) {
      condition.lock()
      messages.append(message)
      condition.broadcast()
      condition.unlock()
    }

    var all: [JSON] {
      condition.lock()
      defer { condition.unlock() }
      return messages
    }

    /// The first message that `matches`, waiting for it up to `seconds`.
    func wait(seconds: Double = 60, for matches: (JSON) -> Bool) -> JSON? {
      let deadline = Date(timeIntervalSinceNow: seconds)
      condition.lock()
      defer { condition.unlock() }
      while true {
        if let found = messages.first(where: matches) { return found }
        if !condition.wait(until: deadline) { return messages.first(where: matches) }
      }
    }
  }

  /// Hands the server to the thread that serves it; only that thread touches it from then on.
  struct UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
  }

  /// A gate the scan waits at until the test opens it.
  final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var open = false
    private(set) var reached = false

    func pass() {
      condition.lock()
      reached = true
      while !open { condition.wait() }
      condition.unlock()
    }

    func release() {
      condition.lock()
      open = true
      condition.broadcast()
      condition.unlock()
    }

    var isReached: Bool {
      condition.lock()
      defer { condition.unlock() }
      return reached
    }
  }

  static func isScanReport(_ message: JSON) -> Bool {
    message["method"]?.stringValue == "window/logMessage"
      && message["params"]?["message"]?.stringValue?.hasPrefix("TaxPro: read ") == true
  }

  static func isDiagnostics(_ message: JSON, for uri: String) -> Bool {
    message["method"]?.stringValue == "textDocument/publishDiagnostics" && message["params"]?["uri"]?.stringValue == uri
  }

  @Test func aRootOf100000FilesIsAnsweredAtOnceAndTheOpenedDocumentFirst() throws {
    let root = try Self.makeRoot()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let toServer = Pipe()
    let fromServer = Pipe()
    let connection = Connection(
      input: FileDescriptorByteSource(fileDescriptor: toServer.fileHandleForReading.fileDescriptor),
      output: FileDescriptorByteSink(fileDescriptor: fromServer.fileHandleForWriting.fileDescriptor), log: { _ in })
    let server = LanguageServer(library: [], log: { _ in })
    let gate = Gate()
    server.scanWillFinish = { gate.pass() }
    let serving = Thread { [server = UncheckedBox(server)] in connection.run(handler: server.value) }
    serving.start()
    let received = Received()
    let reading = Thread {
      var reader = MessageReader(source: FileDescriptorByteSource(fileDescriptor: fromServer.fileHandleForReading.fileDescriptor))
      while case .message(let body) = try? reader.next() {
        if let message = try? JSON.parse(body) { received.append(message) }
      }
    }
    reading.start()
    defer {
      gate.release()
      try? toServer.fileHandleForWriting.close()
    }
    let clock = ContinuousClock()
    func send(_ message: JSON) throws {
      try toServer.fileHandleForWriting.write(contentsOf: MessageWriter.frame(message.serialized()))
    }
    func request(_ id: Int, _ method: String, _ params: JSON? = nil) throws {
      try send(RequestMessage(id: .integer(id), method: method, params: params).toJSON())
    }
    func notify(_ method: String, _ params: JSON? = nil) throws {
      try send(NotificationMessage(method: method, params: params).toJSON())
    }

    // The server is running before the clock starts: a request before `initialize` is refused.
    try request(0, "shutdown")
    #expect(received.wait { $0["id"]?.intValue == 0 }?["error"]?["code"]?.intValue == -32002)

    let rootURI = LSP.DocumentURI(filePath: root).stringValue
    let start = clock.now
    try request(1, "initialize", ["processId": .null, "rootUri": .string(rootURI), "capabilities": [:]])
    let answer = try #require(received.wait { $0["id"]?.intValue == 1 })
    let elapsed = clock.now - start
    #expect(answer["result"]?["capabilities"] != nil)
    #expect(elapsed < .milliseconds(100), "initialize took \(elapsed)")

    try notify("initialized", [:])
    let openedURI = LSP.DocumentURI(filePath: root + "/opened.tax").stringValue
    try notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(openedURI), "languageId": "taxpro", "version": 1, "text": .string(Self.opened)]])
    let diagnostics = try #require(received.wait { Self.isDiagnostics($0, for: openedURI) })
    // The scan is held: it cannot have finished, and has not reported.
    #expect(!received.all.contains(where: Self.isScanReport))
    // The neighbour's formula is known all the same: the opened file's folder is read when it is opened.
    #expect(diagnostics["params"]?["diagnostics"] == [])

    gate.release()
    let report = try #require(received.wait(for: Self.isScanReport))
    #expect(gate.isReached)
    let text = report["params"]?["message"]?.stringValue ?? ""
    #expect(text.contains("not read as a project (more than 100000 entries)"), "\(text)")
    // Only the files of the opened document's folder have diagnostics: none of the root's 100,000 others.
    let published = Set(
      received.all.filter { $0["method"]?.stringValue == "textDocument/publishDiagnostics" }
        .compactMap { $0["params"]?["uri"]?.stringValue })
    #expect(published.isSubset(of: [openedURI, LSP.DocumentURI(filePath: root + "/sibling.tax").stringValue]))

    try request(2, "shutdown")
    #expect(received.wait { $0["id"]?.intValue == 2 } != nil)
    try notify("exit")
  }
}
