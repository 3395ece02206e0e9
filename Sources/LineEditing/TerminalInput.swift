#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The editor's input, read a byte at a time with a read that never blocks.
///
/// Ctrl-C makes the terminal driver discard the input it has not delivered yet. When it lands after a wait has
/// reported a byte and before the read that takes it, a blocking `read()` waits for a byte that is gone, with the
/// interrupt flag set and nothing to wake it: the signal may be handled on another thread, or before the read begins.
/// The REPL then hangs at its prompt until another key is pressed. So a terminal is read through a descriptor of its
/// own, opened on the same device with `O_NONBLOCK`: a read that finds nothing says so, and the caller waits again,
/// where the Ctrl-C is seen.
///
/// `O_NONBLOCK` is not set on standard input itself: that open file is shared with standard output (a terminal is
/// usually opened once and duplicated) and with the shell, whose reads and writes would then fail with `EAGAIN`.
struct TerminalInput {
  /// What one read gave.
  enum Read: Equatable {
    case byte(UInt8)
    /// End of input.
    case end
    /// Nothing to read now (the input the wait saw was discarded, say): wait again.
    case nothing
    /// A signal interrupted the read.
    case interrupted
    case failed
  }

  /// The descriptor the waits and reads use.
  let descriptor: Int32
  /// Whether `descriptor` was opened here (and is closed by `close()`).
  private let ownsDescriptor: Bool

  /// Reads `source`: a terminal through a new non-blocking descriptor on the same device, anything else (a pipe, a
  /// file) as it is, where input that arrived cannot be taken back. Falls back to `source` itself when the terminal
  /// cannot be opened again.
  init(source: Int32) {
    guard isatty(source) == 1 else {
      self.init(descriptor: source, ownsDescriptor: false)
      return
    }
    let reopened = open("/proc/self/fd/\(source)", O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    if reopened >= 0 {
      self.init(descriptor: reopened, ownsDescriptor: true)
    } else {
      self.init(descriptor: source, ownsDescriptor: false)
    }
  }

  private init(descriptor: Int32, ownsDescriptor: Bool) {
    self.descriptor = descriptor
    self.ownsDescriptor = ownsDescriptor
  }

  /// Whether reads never block (the descriptor is the terminal's own non-blocking one).
  var isNonBlocking: Bool { fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0 }

  /// One read of at most one byte; call it when a wait reported input.
  func read() -> Read {
    var byte: UInt8 = 0
    let result = Glibc.read(descriptor, &byte, 1)
    if result == 1 { return .byte(byte) }
    if result == 0 { return .end }
    switch errno {
    case EAGAIN, EWOULDBLOCK: return .nothing
    case EINTR: return .interrupted
    default: return .failed
    }
  }

  /// Closes the descriptor if it was opened here.
  func close() {
    if ownsDescriptor {
      _ = Glibc.close(descriptor)
    }
  }
}
