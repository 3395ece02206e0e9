import Foundation
import Testing

@testable import LanguageServerProtocol

/// Every input that once crashed the `lsp` fuzz target (`fuzz/regressions/lsp/`) replayed through what that target
/// checks: the input as one JSON text must survive serialization (numbers beyond Double's range become `null`), and
/// read as a framed stream it must end in messages, framing errors or the end of input.
@Suite struct FuzzRegressionTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fuzz/regressions/lsp")

  struct Bytes: ByteSource {
    let bytes: [UInt8]
    var position = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
      let count = min(buffer.count, bytes.count - position, 7)
      for index in 0..<count { buffer[index] = bytes[position + index] }
      position += count
      return count
    }
  }

  static func finite(_ json: JSON) -> JSON {
    switch json {
    case .double(let value) where !value.isFinite: return .null
    case .array(let elements): return .array(elements.map(finite))
    case .object(let object): return .object(JSONObject(object.members.map { ($0.key, finite($0.value)) }))
    default: return json
    }
  }

  @Test func everyInputThatOnceCrashedTheTargetIsHandled() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).sorted()
    #expect(!names.isEmpty)
    for name in names {
      let bytes = Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
      if let json = try? JSON.parse(bytes) {
        let again = try JSON.parse(json.serialized())
        #expect(again == Self.finite(json), "\(name)")
      }
      var reader = MessageReader(source: Bytes(bytes: bytes))
      reader.maximumContentLength = 1 << 20
      var ended = false
      for _ in 0..<10_000 {
        guard let event = try? reader.next() else { break }
        if case .endOfInput = event {
          ended = true
          break
        }
      }
      #expect(ended, "\(name)")
    }
  }
}
