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
}
