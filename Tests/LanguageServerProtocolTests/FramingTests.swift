import Testing

@testable import LanguageServerProtocol
import TestSupport

/// Reads every event until the end of input; the bound guards the test against a reader that never ends.
func readAll(_ source: MemoryByteSource) throws -> [MessageReader<MemoryByteSource>.Event] {
  var reader = MessageReader(source: source)
  var events: [MessageReader<MemoryByteSource>.Event] = []
  for _ in 0..<10_000 {
    let event = try reader.next()
    events.append(event)
    if event == .endOfInput { return events }
  }
  Issue.record("the reader did not reach the end of input")
  return events
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

func frame(_ body: String) -> [UInt8] { MessageWriter.frame(bytes(body)) }

@Suite struct MessageReaderTests {
  let first = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#
  let second = #"{"jsonrpc":"2.0","method":"initialized","params":{"é":"😀"}}"#

  @Test func readsSeveralMessagesFromOneBuffer() throws {
    let events = try readAll(MemoryByteSource(frame(first) + frame(second) + frame("{}")))
    #expect(events == [.message(bytes(first)), .message(bytes(second)), .message(bytes("{}")), .endOfInput])
  }

  @Test(arguments: [1, 2, 3, 7, 16, 33])
  func reassemblesMessagesSplitAcrossReads(readSize: Int) throws {
    let events = try readAll(MemoryByteSource(frame(first) + frame(second), maximumReadSize: readSize))
    #expect(events == [.message(bytes(first)), .message(bytes(second)), .endOfInput])
  }

  @Test func splitsExactlyAtTheHeaderBoundary() throws {
    let whole = frame(first)
    let headerLength = whole.count - bytes(first).count
    let source = MemoryByteSource(chunks: [Array(whole[0..<headerLength - 2]), Array(whole[(headerLength - 2)...])])
    #expect(try readAll(source) == [.message(bytes(first)), .endOfInput])
  }

  @Test func ignoresOtherHeadersAndHeaderCase() throws {
    let input = bytes(
      "content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:   2  \r\nX-Other: 1\r\n\r\n{}")
    #expect(try readAll(MemoryByteSource(input)) == [.message(bytes("{}")), .endOfInput])
  }

  @Test func acceptsBareNewlinesAndBlankLinesBetweenFrames() throws {
    let input = bytes("Content-Length: 2\n\n{}\r\n\r\n") + frame(first)
    #expect(try readAll(MemoryByteSource(input)) == [.message(bytes("{}")), .message(bytes(first)), .endOfInput])
  }

  @Test func recoversFromGarbageBetweenFrames() throws {
    let input = frame(first) + bytes("this is not a header\r\n{\"junk\": 1}\r\n") + frame(second)
    let events = try readAll(MemoryByteSource(input, maximumReadSize: 5))
    #expect(events == [
      .message(bytes(first)), .framingError(.invalidHeader("this is not a header")), .message(bytes(second)),
      .endOfInput,
    ])
  }

  @Test func recoversFromGarbageWithoutNewlines() throws {
    let garbage = [UInt8](repeating: UInt8(ascii: "x"), count: 40_000)
    let events = try readAll(MemoryByteSource(garbage + frame(first), maximumReadSize: 4096))
    #expect(events.count == 3)
    if case .framingError(.invalidHeader)? = events.first {} else { Issue.record("expected a header error: \(events)") }
    #expect(events.dropFirst().first == .message(bytes(first)))
  }

  @Test func reportsAMissingContentLengthAndContinues() throws {
    let input = bytes("Content-Type: text/plain\r\n\r\n") + bytes(first) + frame(second)
    let events = try readAll(MemoryByteSource(input))
    #expect(events == [.framingError(.missingContentLength), .message(bytes(second)), .endOfInput])
  }

  @Test func reportsANonNumericContentLengthAndContinues() throws {
    let input = bytes("Content-Length: twelve\r\n\r\n") + bytes(first) + frame(second)
    let events = try readAll(MemoryByteSource(input))
    #expect(events == [.framingError(.invalidContentLength("twelve")), .message(bytes(second)), .endOfInput])
    let negative = try readAll(MemoryByteSource(bytes("Content-Length: -5\r\n\r\n") + frame(second)))
    #expect(negative == [.framingError(.invalidContentLength("-5")), .message(bytes(second)), .endOfInput])
  }

  @Test func resynchronizesAfterATooShortContentLength() throws {
    let body = bytes(first)
    let input = bytes("Content-Length: 10\r\n\r\n") + body + frame(second)
    let events = try readAll(MemoryByteSource(input))
    // The short frame yields a truncated body (which will fail to parse as JSON), the rest of it is skipped,
    // and the next frame is found again.
    #expect(events.first == .message(Array(body[0..<10])))
    #expect(events.dropFirst(2) == [.message(bytes(second)), .endOfInput])
  }

  @Test func refusesAHugeContentLength() throws {
    let input = bytes("Content-Length: 99999999999999999999999\r\n\r\n{}") + frame(second)
    let events = try readAll(MemoryByteSource(input))
    #expect(events == [.framingError(.contentLengthTooLarge(Int.max)), .message(bytes(second)), .endOfInput])
  }

  @Test func reportsEndOfInputInsideABody() throws {
    let whole = frame(first)
    let events = try readAll(MemoryByteSource(Array(whole[0..<(whole.count - 5)])))
    let bodyCount = bytes(first).count
    #expect(events == [.framingError(.truncatedBody(expected: bodyCount, received: bodyCount - 5)), .endOfInput])
  }

  @Test func reportsEndOfInputInsideAHeader() throws {
    #expect(try readAll(MemoryByteSource(bytes("Content-Len"))) == [.framingError(.truncatedHeader), .endOfInput])
  }

  @Test func endsCleanlyOnEmptyOrWhitespaceInput() throws {
    #expect(try readAll(MemoryByteSource([])) == [.endOfInput])
    #expect(try readAll(MemoryByteSource(frame("{}") + bytes("\r\n"))) == [.message(bytes("{}")), .endOfInput])
    var reader = MessageReader(source: MemoryByteSource([]))
    #expect(try reader.next() == .endOfInput)
    #expect(try reader.next() == .endOfInput)
  }

  @Test func readsALargeBodyInSmallPieces() throws {
    let text = String(repeating: "abcdefghij", count: 300_000)
    let body = #"{"text":""# + text + #""}"#
    let events = try readAll(MemoryByteSource(frame(body), maximumReadSize: 4000))
    #expect(events == [.message(bytes(body)), .endOfInput])
  }

  @Test func randomInputAlwaysTerminates() throws {
    var generator = SeededGenerator(seed: 99)
    let pieces: [[UInt8]] = [
      bytes("Content-Length: "), bytes("5"), bytes("\r\n"), bytes("\n"), bytes("{}"), bytes(":"),
      bytes("content-length:3"), frame("{}"), [0xFF, 0x00], bytes("abc"),
    ]
    for _ in 0..<500 {
      var input: [UInt8] = []
      for _ in 0..<Int(generator.next() % 12) { input += pieces[Int(generator.next() % UInt64(pieces.count))] }
      let readSize = Int(generator.next() % 8) + 1
      let events = try readAll(MemoryByteSource(input, maximumReadSize: readSize))
      #expect(events.last == .endOfInput)
    }
  }
}

@Suite struct MessageWriterTests {
  @Test func framesEachMessageWithItsByteLength() throws {
    let sink = MemoryByteSink()
    let writer = MessageWriter(sink: sink)
    try writer.write(["jsonrpc": "2.0", "method": "x", "params": ["s": "é"]])
    let body = bytes(#"{"jsonrpc":"2.0","method":"x","params":{"s":"é"}}"#)
    #expect(sink.bytes == bytes("Content-Length: \(body.count)\r\n\r\n") + body)
  }

  @Test func concurrentWritesNeverInterleave() async throws {
    let sink = MemoryByteSink()
    let writer = MessageWriter(sink: sink)
    let payload = String(repeating: "x", count: 5000)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for index in 0..<25 { try? writer.write(["task": .integer(task), "index": .integer(index), "p": .string(payload)]) }
        }
      }
    }
    let events = try readAll(MemoryByteSource(sink.bytes))
    #expect(events.count == 8 * 25 + 1)
    for event in events.dropLast() {
      guard case .message(let body) = event else {
        Issue.record("unexpected \(event)")
        continue
      }
      #expect(try JSON.parse(body)["p"] == .string(payload))
    }
  }
}
