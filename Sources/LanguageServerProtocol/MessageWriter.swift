import Foundation

/// Writes framed messages to a sink, one complete frame per call, from any thread.
///
/// Responses (from the worker) and notifications (from anywhere, e.g. a diagnostics publisher) can be sent
/// concurrently; the lock guarantees their frames never interleave on the wire, and building header and body
/// into one buffer means one `write` per message in the common case.
public final class MessageWriter: Sendable {
  private let sink: any ByteSink
  private let lock = NSLock()

  /// All writes to `sink` must go through this writer, or its one-frame-at-a-time guarantee is lost.
  public init(sink: some ByteSink) {
    self.sink = sink
  }

  /// Whether the reader of the output is known to be gone (see `ByteSink.isClosedByPeer`).
  public var isClosedByPeer: Bool { sink.isClosedByPeer }

  /// Frames and writes a JSON value.
  public func write(_ json: JSON) throws {
    try write(body: json.serialized())
  }

  /// Frames and writes an already serialized body.
  public func write(body: [UInt8]) throws {
    let frame = MessageWriter.frame(body)
    lock.lock()
    defer { lock.unlock() }
    try frame.withUnsafeBytes { try sink.write($0) }
  }

  /// The bytes of one frame: `Content-Length: N\r\n\r\n` followed by the body. Public so tests and clients can
  /// produce input for a `MessageReader`.
  public static func frame(_ body: [UInt8]) -> [UInt8] {
    var frame = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    frame.append(contentsOf: body)
    return frame
  }
}
