/// A problem in the `Content-Length` framing that the reader skipped over.
///
/// None of these stop the reader: after reporting one it resynchronizes on the next `Content-Length:` header, so
/// a single corrupted frame costs one message, not the session.
public enum FramingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A header line that is not `Name: value`; carries the start of the line for the log.
  case invalidHeader(String)
  /// A header block that ended without a `Content-Length`.
  case missingContentLength
  /// A `Content-Length` whose value is not a decimal number.
  case invalidContentLength(String)
  /// A `Content-Length` beyond `MessageReader.maximumContentLength`, refused rather than buffered.
  case contentLengthTooLarge(Int)
  /// Input ended in the middle of a header block.
  case truncatedHeader
  /// Input ended before the announced number of body bytes arrived.
  case truncatedBody(expected: Int, received: Int)

  public var description: String {
    switch self {
    case .invalidHeader(let line): return "invalid header line \"\(line)\""
    case .missingContentLength: return "header block without Content-Length"
    case .invalidContentLength(let value): return "invalid Content-Length \"\(value)\""
    case .contentLengthTooLarge(let length): return "Content-Length \(length) exceeds the limit"
    case .truncatedHeader: return "input ended inside a header block"
    case .truncatedBody(let expected, let received):
      return "input ended after \(received) of \(expected) body bytes"
    }
  }
}

/// Splits a byte stream into LSP message bodies using the base protocol's header framing:
/// `Content-Length: N\r\n` (other headers, such as `Content-Type`, are ignored; names are case-insensitive),
/// a blank line, then exactly N bytes.
///
/// The reader is lenient where leniency is harmless (bare `\n` line endings, blank lines between frames) and
/// recovers where it is not: on any framing problem it reports a `FramingError` and then skips ahead to the
/// next `Content-Length:` it can find, which also repairs a frame whose announced length was too short.
/// It is a value type used from one thread; `Connection` owns one on its reader thread.
public struct MessageReader<Source: ByteSource> {
  /// What one call to `next()` produced.
  public enum Event: Sendable, Equatable {
    /// A complete body, not yet parsed as JSON.
    case message([UInt8])
    /// A skipped problem; reading can continue.
    case framingError(FramingError)
    /// The input ended cleanly (or after a reported truncation); further calls keep returning this.
    case endOfInput
  }

  /// Larger bodies are refused; 256 MiB is far beyond any document a client will open, yet bounded.
  public var maximumContentLength = 256 * 1024 * 1024
  /// A header block longer than this is garbage; it bounds memory when a peer sends bytes without newlines.
  public var maximumHeaderLength = 16 * 1024

  private var source: Source
  private var buffer: [UInt8] = []
  /// Bytes before this index have been consumed.
  private var start = 0
  private var sourceEnded = false
  /// Set after a framing problem: skip input until the next `Content-Length:`.
  private var resynchronizing = false
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

  private static var marker: [UInt8] { Array("content-length:".utf8) }

  /// The reader takes ownership of the source; nothing else should read from it afterwards, or frames tear.
  public init(source: Source) {
    self.source = source
  }

  /// Returns the next body, framing problem, or the end of input. Throws only when the source itself fails.
  public mutating func next() throws -> Event {
    while true {
      if resynchronizing {
        if let found = findMarker() {
          start = found
          resynchronizing = false
        } else if sourceEnded {
          discardAll()
          return .endOfInput
        } else {
          // Keep just enough of the tail to match a marker that straddles two reads.
          start = max(start, buffer.count - (Self.marker.count - 1))
          try fill()
        }
        continue
      }
      switch scanHeaderBlock() {
      case .needMoreInput:
        if sourceEnded {
          let onlyWhitespace = buffer[start...].allSatisfy { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
          discardAll()
          return onlyWhitespace ? .endOfInput : .framingError(.truncatedHeader)
        }
        if buffer.count - start > maximumHeaderLength {
          let line = describeLine(from: start, to: min(buffer.count, start + 60))
          start += 1
          resynchronizing = true
          return .framingError(.invalidHeader(line))
        }
        try fill()
      case .garbage(let lineStart, let lineEnd):
        let line = describeLine(from: lineStart, to: min(lineEnd, lineStart + 60))
        // The garbage line cannot itself start with a valid Content-Length header, but a real header may
        // follow on the same line, as when the previous frame's length was too short.
        start = lineStart + 1
        resynchronizing = true
        return .framingError(.invalidHeader(line))
      case .complete(let contentLength, let bodyStart):
        start = bodyStart
        switch contentLength {
        case .missing:
          resynchronizing = true
          return .framingError(.missingContentLength)
        case .invalid(let text):
          resynchronizing = true
          return .framingError(.invalidContentLength(text))
        case .valid(let length):
          guard length <= maximumContentLength else {
            resynchronizing = true
            return .framingError(.contentLengthTooLarge(length))
          }
          return try readBody(length: length)
        }
      }
    }
  }

  // MARK: Body

  private mutating func readBody(length: Int) throws -> Event {
    if buffer.count - start < length, start > 0 { compact() }
    if buffer.capacity < start + length { buffer.reserveCapacity(start + length) }
    while buffer.count - start < length {
      if sourceEnded {
        let received = buffer.count - start
        discardAll()
        return .framingError(.truncatedBody(expected: length, received: received))
      }
      try fill()
    }
    let body = Array(buffer[start..<start + length])
    start += length
    return .message(body)
  }

  // MARK: Headers

  private enum ContentLength {
    case missing
    case invalid(String)
    case valid(Int)
  }

  private enum HeaderScan {
    case needMoreInput
    case garbage(lineStart: Int, lineEnd: Int)
    case complete(ContentLength, bodyStart: Int)
  }

  /// Scans from `start` for a complete header block. It rescans from the beginning after each read; header
  /// blocks are a few dozen bytes, so that costs less than keeping partial state.
  private mutating func scanHeaderBlock() -> HeaderScan {
    var position = start
    var contentLength = ContentLength.missing
    var sawHeader = false
    while true {
      guard let newline = buffer[position...].firstIndex(of: 0x0A) else { return .needMoreInput }
      var lineEnd = newline
      if lineEnd > position, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      if lineEnd == position {
        if sawHeader { return .complete(contentLength, bodyStart: newline + 1) }
        // A stray blank line between frames: consume it quietly.
        start = newline + 1
        position = newline + 1
        continue
      }
      guard let colon = headerNameEnd(from: position, to: lineEnd) else {
        return .garbage(lineStart: position, lineEnd: lineEnd)
      }
      sawHeader = true
      if isContentLengthName(from: position, to: colon) {
        contentLength = parseLength(from: colon + 1, to: lineEnd)
      }
      position = newline + 1
    }
  }

  /// The index of the colon ending a valid header name (an RFC 9110 token), or nil if the line is not a header.
  private func headerNameEnd(from lineStart: Int, to lineEnd: Int) -> Int? {
    var index = lineStart
    while index < lineEnd {
      let byte = buffer[index]
      if byte == UInt8(ascii: ":") { return index > lineStart ? index : nil }
      if !Self.isTokenByte(byte) { return nil }
      index += 1
    }
    return nil
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  private func isContentLengthName(from nameStart: Int, to nameEnd: Int) -> Bool {
    let name = Self.marker.dropLast()  // without the colon
    guard nameEnd - nameStart == name.count else { return false }
    return zip(buffer[nameStart..<nameEnd], name).allSatisfy { Self.lowercased($0) == $1 }
  }

  private func parseLength(from valueStart: Int, to valueEnd: Int) -> ContentLength {
    var lower = valueStart
    var upper = valueEnd
    while lower < upper, buffer[lower] == 0x20 || buffer[lower] == 0x09 { lower += 1 }
    while upper > lower, buffer[upper - 1] == 0x20 || buffer[upper - 1] == 0x09 { upper -= 1 }
    let digits = buffer[lower..<upper]
    let text = describeLine(from: lower, to: min(upper, lower + 40))
    guard !digits.isEmpty else { return .invalid(text) }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .invalid(text) }
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      // An overflowing length is certainly too large; saturate so the caller reports it as such.
      if overflow1 || overflow2 { return .valid(Int.max) }
      value = next
    }
    return .valid(value)
  }

  // MARK: Resynchronization

  /// Finds the next `Content-Length:` (case-insensitive) at or after `start`.
  private func findMarker() -> Int? {
    let marker = Self.marker
    guard buffer.count - start >= marker.count else { return nil }
    var index = start
    let last = buffer.count - marker.count
    while index <= last {
      if Self.lowercased(buffer[index]) == marker[0] {
        var matched = 1
        while matched < marker.count, Self.lowercased(buffer[index + matched]) == marker[matched] { matched += 1 }
        if matched == marker.count { return index }
      }
      index += 1
    }
    return nil
  }

  private static func lowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  // MARK: Buffer

  /// Reads once from the source into a reusable chunk and appends what arrived. Reading through a fixed chunk
  /// (rather than growing `buffer` and reading into its tail) keeps large bodies linear: a pipe hands over at
  /// most a page or so per read.
  private mutating func fill() throws {
    if start > 0, start >= buffer.count / 2 { compact() }
    let received = try chunk.withUnsafeMutableBytes { raw in try source.read(into: raw) }
    if received <= 0 {
      sourceEnded = true
    } else {
      buffer.append(contentsOf: chunk[0..<min(received, chunk.count)])
    }
  }

  private mutating func compact() {
    buffer.removeSubrange(0..<start)
    start = 0
  }

  private mutating func discardAll() {
    buffer.removeAll(keepingCapacity: false)
    start = 0
    sourceEnded = true
  }

  /// A printable excerpt of raw bytes for error messages; invalid UTF-8 is replaced, never trusted.
  private func describeLine(from lower: Int, to upper: Int) -> String {
    guard lower < upper else { return "" }
    return String(decoding: buffer[lower..<upper], as: UTF8.self)
  }
}
