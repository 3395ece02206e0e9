import Foundation
import JSONValue
import LineEditing
import TaxProCore
import TaxProLibrary

/// `taxpro repl --json`: the REPL for programs (a Jupyter kernel, an editor), one JSON request per line on standard
/// input, one JSON reply or event per line on standard output (docs/REPL_JSON.md).
///
/// Two threads. A reader takes each line as it arrives and answers at once what must not wait for a running
/// evaluation — `interrupt` (it raises the flag the evaluator polls, as Ctrl-C does) and `input` (an `:ask` waiting
/// for its answer) — and queues the rest. The calling thread, which has the large stack evaluation needs, runs the
/// queued requests one at a time in the `JSONSession`. SIGINT stops the running request too: it sets the same flag,
/// which is cleared before each request starts, so an interruption never reaches a request after the one it was
/// meant for.
public enum JSONMode {
  /// Runs until standard input ends (or `:quit`); returns the exit status.
  public static func run(
    session: Session, sources: SourceImporter, files: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int32 {
    let channel = RequestChannel(output: StandardOutputWriter())
    let configuration = REPL.Configuration(
      userFiles: UserFiles(environment: environment), color: false, width: { 100 }, handlesInterrupts: true)
    let jsonSession = JSONSession(
      session: session, sources: sources, configuration: configuration,
      readLine: { channel.askForInput(prompt: $0) }, isInterrupted: { Interrupts.isPending })
    let loaded = jsonSession.load(files)
    channel.write(ReadyEvent(info: jsonSession.info, outputs: loaded))
    let reader = Thread { channel.readRequests(from: STDIN_FILENO) }
    reader.stackSize = 1 << 20
    reader.start()
    while let (id, request) = channel.next() {
      channel.write(answer(request, id: id, in: jsonSession, channel: channel))
      channel.finished(id)
      if jsonSession.repl.quitRequested { break }
    }
    return 0
  }

  /// Runs one queued request.
  static func answer(
    _ request: QueuedRequest, id: RequestID, in session: JSONSession, channel: RequestChannel
  ) -> any Encodable {
    switch request {
    case .execute(let execute):
      let (status, outputs, quit) = session.execute(execute.code, stopOnError: execute.stopOnError ?? true)
      Interrupts.clear()
      return ExecuteReply(
        id: id, status: status, outputs: outputs, year: session.session.year, quit: quit ? true : nil)
    case .cancelledBeforeStart:
      return ExecuteReply(
        id: id, status: .cancelled, outputs: [OutputItem(.cancelled, text: "cancelled")], year: session.session.year)
    case .complete(let complete):
      let (matches, start, end) = session.complete(complete.code, cursor: complete.cursor)
      return CompleteReply(id: id, status: .ok, matches: matches, start: start, end: end)
    case .inspect(let inspect):
      guard let hover = session.inspect(inspect.code, cursor: inspect.cursor) else {
        return InspectReply(id: id, status: .ok, found: false)
      }
      return InspectReply(
        id: id, status: .ok, found: true, code: hover.code,
        value: hover.value.map { HoverValueData(caption: $0.caption, lines: $0.lines) },
        documentation: hover.documentation.flatMap { $0.isEmpty ? nil : DocumentationData($0) }, notes: hover.notes,
        markdown: hover.markdown, text: hover.plainText)
    case .isComplete(let isComplete):
      let (completeness, indent) = session.isComplete(isComplete.code)
      return IsCompleteReply(id: id, status: .ok, completeness: completeness, indent: indent)
    case .info:
      return InfoReply(id: id, status: .ok, info: session.info)
    }
  }
}

/// A request the worker runs; `interrupt` and `input` never queue.
enum QueuedRequest {
  case execute(ExecuteRequest)
  /// An `execute` interrupted before it started: answered as cancelled without running.
  case cancelledBeforeStart
  case complete(CompleteRequest)
  case inspect(InspectRequest)
  case isComplete(IsCompleteRequest)
  case info
}

/// Where replies go: standard output, whole lines, one writer at a time.
struct StandardOutputWriter: Sendable {
  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes(StandardOutput.write)
  }
}

/// What the reader and the worker share: the queue, which request runs, and an `:ask` waiting for its answer.
final class RequestChannel: @unchecked Sendable {
  private let condition = NSCondition()
  private var queue: [(RequestID, QueuedRequest)] = []
  private var inputEnded = false
  private var running: RequestID?
  /// An input asked for by the running request, and its answer once it came.
  private var waitingForInput = false
  private var inputAnswer: LineInput?
  private let output: StandardOutputWriter
  /// Replies are written as the language server's messages and `explain --json` are: encoded to a `JSON` value and
  /// serialized by `JSONValue`'s one writer (members in the order the types declare them).
  private let encoder = JSONValueEncoder()

  init(output: StandardOutputWriter) {
    self.output = output
  }

  /// Writes one message as one line. A message that cannot be encoded (it never should) is replaced by a reply
  /// saying so, so that the client is not left waiting.
  func write(_ message: any Encodable) {
    condition.lock()
    defer { condition.unlock() }
    var bytes: [UInt8]
    do {
      bytes = try encoder.encode(message).serialized()
    } catch {
      let failure = InvalidReply(id: nil, message: "a reply could not be written: \(error)")
      bytes = (try? encoder.encode(failure).serialized()) ?? []
    }
    bytes.append(10)
    output.write(bytes)
  }

  // MARK: The worker's side

  /// The next request to run, waiting for one; nil when input has ended and nothing is left.
  func next() -> (RequestID, QueuedRequest)? {
    condition.lock()
    defer { condition.unlock() }
    while queue.isEmpty && !inputEnded { condition.wait() }
    guard !queue.isEmpty else { return nil }
    let (id, request) = queue.removeFirst()
    running = id
    // An interruption that came between requests was meant for an earlier one (the reader raises it only for the
    // running request; SIGINT comes whenever it is sent).
    Interrupts.clear()
    return (id, request)
  }

  func finished(_ id: RequestID) {
    condition.lock()
    defer { condition.unlock() }
    if running == id { running = nil }
  }

  /// For `:ask`: tells the client what is asked and waits for its `input` request (or the end of input, or an
  /// interruption).
  func askForInput(prompt: String) -> LineInput {
    condition.lock()
    guard let id = running, !inputEnded else {
      condition.unlock()
      return .endOfInput
    }
    // Waiting before the client is told, so that an answer that comes at once is taken.
    waitingForInput = true
    inputAnswer = nil
    condition.unlock()
    write(InputEvent(id: id, prompt: prompt))
    condition.lock()
    defer { condition.unlock() }
    while inputAnswer == nil && !inputEnded { condition.wait() }
    waitingForInput = false
    defer { inputAnswer = nil }
    return inputAnswer ?? .endOfInput
  }

  // MARK: The reader's side

  /// Reads request lines until standard input ends. Runs on its own thread, with SIGINT blocked so that the signal
  /// goes to the thread that evaluates.
  func readRequests(from descriptor: Int32) {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGINT)
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      pending.append(contentsOf: buffer[0..<count])
      while let newline = pending.firstIndex(of: 10) {
        let line = Array(pending[..<newline])
        pending.removeSubrange(...newline)
        receive(line)
      }
    }
    if !pending.isEmpty { receive(pending) }
    condition.lock()
    inputEnded = true
    condition.broadcast()
    condition.unlock()
  }

  /// One line from the client: answered here, or queued for the worker.
  func receive(_ line: [UInt8]) {
    guard line.contains(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { return }
    let data = Data(line)
    let decoder = JSONDecoder()
    let envelope: RequestEnvelope
    do {
      envelope = try decoder.decode(RequestEnvelope.self, from: data)
    } catch {
      let id = (try? decoder.decode(IDOnly.self, from: data))?.id
      write(InvalidReply(id: id, message: RequestChannel.describe(error, in: data)))
      return
    }
    let id = envelope.id
    do {
      switch envelope.request {
      case .interrupt:
        let target = try decoder.decode(InterruptRequest.self, from: data).target
        write(InterruptReply(id: id, status: .ok, interrupted: interrupt(target)))
      case .input:
        let input = try decoder.decode(InputRequest.self, from: data)
        write(InputReply(id: id, status: .ok, accepted: answerInput(input)))
      case .execute:
        enqueue(id, .execute(try decoder.decode(ExecuteRequest.self, from: data)))
      case .complete:
        enqueue(id, .complete(try decoder.decode(CompleteRequest.self, from: data)))
      case .inspect:
        enqueue(id, .inspect(try decoder.decode(InspectRequest.self, from: data)))
      case .isComplete:
        enqueue(id, .isComplete(try decoder.decode(IsCompleteRequest.self, from: data)))
      case .info:
        enqueue(id, .info)
      }
    } catch {
      write(InvalidReply(id: id, message: RequestChannel.describe(error, in: data)))
    }
  }

  func enqueue(_ id: RequestID, _ request: QueuedRequest) {
    condition.lock()
    queue.append((id, request))
    condition.broadcast()
    condition.unlock()
  }

  /// Stops `target` if it runs (the evaluator's flag; an `:ask` waiting gets Ctrl-C) or waits in the queue.
  func interrupt(_ target: RequestID) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if running == target {
      Interrupts.raise()
      if waitingForInput {
        inputAnswer = .interrupted
        condition.broadcast()
      }
      return true
    }
    // A queued `execute` is answered as cancelled; the other requests only look, and are answered anyway.
    guard let index = queue.firstIndex(where: { $0.0 == target }), case .execute = queue[index].1 else { return false }
    queue[index].1 = .cancelledBeforeStart
    return true
  }

  func answerInput(_ input: InputRequest) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard running == input.target, waitingForInput, inputAnswer == nil else { return false }
    inputAnswer = input.line.map(LineInput.line) ?? .endOfInput
    condition.broadcast()
    return true
  }

  /// A request that could not be read, in words for the client's developer.
  static func describe(_ error: any Error, in data: Data) -> String {
    let kinds = RequestEnvelope.Kind.allCases.map(\.rawValue).joined(separator: ", ")
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, let context):
      return "missing field '\(path(context.codingPath + [key]))'"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return "field '\(path(context.codingPath))': expected \(type)"
    case .dataCorrupted(let context):
      if context.codingPath.last?.stringValue == "request" {
        return "unknown request; the requests are \(kinds)"
      }
      if context.codingPath.isEmpty { return "not a JSON object on one line" }
      return "field '\(path(context.codingPath))': \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }

  private struct IDOnly: Decodable {
    var id: RequestID?
  }
}
