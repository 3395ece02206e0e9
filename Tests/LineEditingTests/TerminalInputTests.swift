import Dispatch
import Foundation
import Testing

@testable import LineEditing

/// A pseudo-terminal pair, closed at the end.
private final class PseudoTerminal: Sendable {
  let controller: Int32
  let terminal: Int32

  /// Linux's `TIOCSPTLCK` and `TIOCGPTN` (function-like macros, so not imported): unlock the terminal side, and ask
  /// its number. `posix_openpt` and friends are not in Swift's Glibc module either.
  private static let unlockRequest: UInt = 0x4004_5431
  private static let numberRequest: UInt = 0x8004_5430

  init?() {
    let controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    guard controller >= 0 else { return nil }
    var locked: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(controller, Self.unlockRequest, &locked) == 0, ioctl(controller, Self.numberRequest, &number) == 0
    else {
      close(controller)
      return nil
    }
    let terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard terminal >= 0 else {
      close(controller)
      return nil
    }
    // Raw, as libedit sets it while editing: each byte is input as soon as it arrives.
    var settings = termios()
    tcgetattr(terminal, &settings)
    cfmakeraw(&settings)
    tcsetattr(terminal, TCSANOW, &settings)
    self.controller = controller
    self.terminal = terminal
  }

  /// Types `text` at the terminal.
  func type(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(controller, $0.baseAddress, $0.count - 1) }
  }

  deinit {
    close(terminal)
    close(controller)
  }
}

/// `input.read()`; should it block, a key typed at `pair` two seconds later ends it, so a test fails instead of hanging.
private func readOnce(_ input: TerminalInput, typingLaterAt pair: PseudoTerminal) -> TerminalInput.Read {
  let finished = DispatchSemaphore(value: 0)
  let watchdogDone = DispatchSemaphore(value: 0)
  Thread {
    if finished.wait(timeout: .now() + 2) == .timedOut { pair.type("w") }
    watchdogDone.signal()
  }.start()
  let result = input.read()
  finished.signal()
  watchdogDone.wait()
  return result
}

/// Whether `descriptor` has input within `milliseconds`.
private func hasInput(_ descriptor: Int32, within milliseconds: Int32) -> Bool {
  var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
  return poll(&entry, 1, milliseconds) == 1
}

@Suite struct TerminalInputTests {
  @Test func aTerminalIsReadThroughANonBlockingDescriptorOfItsOwn() throws {
    let pair = try #require(PseudoTerminal())
    let input = TerminalInput(source: pair.terminal)
    defer { input.close() }
    #expect(input.descriptor != pair.terminal)
    #expect(input.isNonBlocking)
    // Standard input's own open file (shared with output and the shell) stays blocking.
    #expect(fcntl(pair.terminal, F_GETFL) & O_NONBLOCK == 0)
    pair.type("é")
    #expect(hasInput(input.descriptor, within: 2000))
    #expect(input.read() == .byte(0xC3))
    #expect(input.read() == .byte(0xA9))
    #expect(readOnce(input, typingLaterAt: pair) == .nothing)
  }

  /// The hang behind a lost Ctrl-C at the prompt: the wait reports a key, Ctrl-C makes the driver discard it (as
  /// `tcflush` does here), and the read that follows must come back instead of waiting for the next key.
  @Test func inputDiscardedAfterTheWaitIsNothingToReadNotAWait() throws {
    let pair = try #require(PseudoTerminal())
    let input = TerminalInput(source: pair.terminal)
    defer { input.close() }
    pair.type("1 + 2")
    #expect(hasInput(input.descriptor, within: 2000))
    tcflush(pair.terminal, TCIFLUSH)
    #expect(readOnce(input, typingLaterAt: pair) == .nothing)
  }

  @Test func aPipeIsReadAsItIs() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    let input = TerminalInput(source: ends[0])
    #expect(input.descriptor == ends[0])
    #expect(!input.isNonBlocking)
    _ = write(ends[1], "x", 1)
    #expect(input.read() == .byte(UInt8(ascii: "x")))
    close(ends[1])
    ends[1] = -1
    #expect(input.read() == .end)
  }
}
