import Foundation
import Testing

@testable import LineEditing

@Suite struct TerminalTests {
  @Test func colourIsOnOnlyForATerminalWithoutOptOut() {
    #expect(Terminal.colorEnabled(noColorFlag: false, environment: ["TERM": "xterm"], outputIsTerminal: true))
    #expect(!Terminal.colorEnabled(noColorFlag: true, environment: [:], outputIsTerminal: true))
    #expect(!Terminal.colorEnabled(noColorFlag: false, environment: [:], outputIsTerminal: false))
    #expect(!Terminal.colorEnabled(noColorFlag: false, environment: ["TERM": "dumb"], outputIsTerminal: true))
  }

  @Test(arguments: ["1", "", "0", "false"])
  func noColorSetToAnythingTurnsColourOff(value: String) {
    #expect(!Terminal.colorEnabled(noColorFlag: false, environment: ["NO_COLOR": value], outputIsTerminal: true))
  }

  @Test func noColorFlagIsReadFromArguments() {
    #expect(!Terminal.colorEnabled(arguments: ["taxpro", "--no-color"], environment: ["TERM": "xterm"]))
  }

  @Test func widthFallsBackToColumnsThenEighty() {
    #expect(Terminal.width(fromColumnsVariable: "132") == 132)
    #expect(Terminal.width(fromColumnsVariable: nil) == 80)
    #expect(Terminal.width(fromColumnsVariable: "wide") == 80)
    #expect(Terminal.width(fromColumnsVariable: "0") == 80)
    #expect(Terminal.width(fromColumnsVariable: "-5") == 80)
  }

  @Test func widthOfANonTerminalUsesTheFallback() {
    // -1 is never an open descriptor, so the ioctl fails.
    #expect(Terminal.width(of: -1, environment: ["COLUMNS": "100"]) == 100)
    #expect(Terminal.width(of: -1, environment: [:]) == 80)
  }

  @Test func nonDescriptorIsNotATerminal() {
    #expect(!Terminal.isTerminal(-1))
  }
}

@Suite(.serialized) struct InterruptTests {
  @Test func flagIsTakenOnce() {
    Interrupts.clear()
    #expect(!Interrupts.isPending)
    Interrupts.raise()
    #expect(Interrupts.isPending)
    #expect(Interrupts.take())
    #expect(!Interrupts.take())
  }

  @Test func clearDropsAPendingInterrupt() {
    Interrupts.raise()
    Interrupts.clear()
    #expect(!Interrupts.isPending)
  }

  /// A Ctrl-C that arrives before the wait for a key begins must end the wait at once (it used to leave `read()`
  /// blocked with the flag set), and input must end it too.
  @Test func waitingForInputEndsOnCtrlCOrInput() throws {
    Interrupts.install()
    var fds: [Int32] = [-1, -1]
    #expect(pipe(&fds) == 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    Interrupts.clear()
    // SIGINT while nobody waits: the handler sets the flag (and wakes any wait through its pipe).
    #expect(kill(getpid(), SIGINT) == 0)
    #expect(Interrupts.waitForInput(on: fds[0]) == .interrupted)
    Interrupts.clear()
    #expect(write(fds[1], "x", 1) == 1)
    // A wait after a taken Ctrl-C drains the stale wake-up and reports the input.
    #expect(Interrupts.waitForInput(on: fds[0]) == .input)
  }
}
