import Foundation

/// Where framed messages come from: standard input in production, an in-memory buffer in tests.
///
/// The reader asks for "up to n bytes" rather than "exactly n" because a pipe delivers whatever the client has
/// written so far; the framing layer is responsible for stitching partial reads together.
public protocol ByteSource {
  /// Blocks until at least one byte is available, then copies up to `buffer.count` bytes into `buffer`.
  /// Returns 0 only at the end of input.
  mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Where framed messages go. Implementations must write all bytes or throw; `MessageWriter` serializes calls,
/// so a sink does not need its own locking.
public protocol ByteSink: Sendable {
  func write(_ bytes: UnsafeRawBufferPointer) throws
  /// Whether whoever reads the sink is known to be gone (a pipe closed at the other end), so that nothing written
  /// will be read; false when that cannot be told.
  var isClosedByPeer: Bool { get }
}

extension ByteSink {
  public var isClosedByPeer: Bool { false }
}

/// A failed system call, with the `errno` it left behind.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
  public var operation: String
  public var errorNumber: Int32

  public init(_ operation: String, errorNumber: Int32) {
    self.operation = operation
    self.errorNumber = errorNumber
  }

  public var description: String { "\(operation) failed: \(String(cString: strerror(errorNumber)))" }
}

/// Reads a file descriptor with `read(2)` directly, bypassing `FileHandle` buffering and its exceptions, so that
/// a message is available to the reader as soon as the client's bytes arrive.
public struct FileDescriptorByteSource: ByteSource, Sendable {
  public let fileDescriptor: Int32

  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  /// The usual transport of a language server.
  public static var standardInput: FileDescriptorByteSource { FileDescriptorByteSource(fileDescriptor: 0) }

  public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
    while true {
      let count = Foundation.read(fileDescriptor, base, buffer.count)
      if count >= 0 { return count }
      let error = errno
      if error == EINTR { continue }
      if error == EAGAIN || error == EWOULDBLOCK {
        waitUntilReady(fileDescriptor, events: Int16(POLLIN))
        continue
      }
      throw SystemCallError("read", errorNumber: error)
    }
  }
}

/// Writes a file descriptor with `write(2)`, looping over partial writes that pipes may produce.
///
/// Writing to a pipe whose reader has gone raises `SIGPIPE`, which kills the process by default; a server
/// should ignore that signal (see `Connection.ignoreBrokenPipeSignal()`) so the failure surfaces as an error.
public struct FileDescriptorByteSink: ByteSink {
  public let fileDescriptor: Int32

  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  public static var standardOutput: FileDescriptorByteSink { FileDescriptorByteSink(fileDescriptor: 1) }

  /// A pipe whose reading end is closed polls as an error (`POLLERR`) or hang-up, without writing a byte.
  public var isClosedByPeer: Bool {
    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
    guard poll(&descriptor, 1, 0) > 0 else { return false }
    return descriptor.revents & Int16(POLLERR | POLLHUP) != 0
  }

  /// Retries on `EINTR` and waits on `EAGAIN`, so callers see only real failures such as `EPIPE`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    guard let base = bytes.baseAddress else { return }
    var written = 0
    while written < bytes.count {
      let count = Foundation.write(fileDescriptor, base + written, bytes.count - written)
      if count < 0 {
        let error = errno
        if error == EINTR { continue }
        if error == EAGAIN || error == EWOULDBLOCK {
          waitUntilReady(fileDescriptor, events: Int16(POLLOUT))
          continue
        }
        throw SystemCallError("write", errorNumber: error)
      }
      written += count
    }
  }
}

/// Blocks until a non-blocking descriptor is ready, instead of spinning on `EAGAIN`.
private func waitUntilReady(_ fileDescriptor: Int32, events: Int16) {
  var descriptor = pollfd(fd: fileDescriptor, events: events, revents: 0)
  _ = poll(&descriptor, 1, -1)
}

/// An in-memory source that hands out its bytes in chosen chunks, so tests can reproduce messages split
/// across reads at any point.
public struct MemoryByteSource: ByteSource, Sendable {
  private var chunks: [[UInt8]]
  private var chunkIndex = 0
  private var offset = 0

  /// Each chunk is delivered by separate reads (a read never spans two chunks).
  public init(chunks: [[UInt8]]) {
    self.chunks = chunks.filter { !$0.isEmpty }
  }

  /// Delivers `bytes` at most `maximumReadSize` bytes at a time.
  public init(_ bytes: [UInt8], maximumReadSize: Int = .max) {
    let size = max(1, maximumReadSize)
    var chunks: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
      let end = start + min(size, bytes.count - start)
      chunks.append(Array(bytes[start..<end]))
      start = end
    }
    self.init(chunks: chunks)
  }

  public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard chunkIndex < chunks.count, buffer.count > 0 else { return 0 }
    let chunk = chunks[chunkIndex]
    let count = min(buffer.count, chunk.count - offset)
    chunk.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<offset + count]))
    }
    offset += count
    if offset == chunk.count {
      chunkIndex += 1
      offset = 0
    }
    return count
  }
}

/// An in-memory sink for tests: collects everything written, safe to read from another thread.
public final class MemoryByteSink: ByteSink, @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [UInt8] = []

  public init() {}

  /// Appends under a lock, so a test can read `bytes` while a connection is still writing.
  public func write(_ bytes: UnsafeRawBufferPointer) throws {
    lock.lock()
    defer { lock.unlock() }
    storage.append(contentsOf: bytes)
  }

  /// Everything written so far.
  public var bytes: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}
