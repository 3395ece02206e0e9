import Testing

@testable import TaxProREPL

/// The table of `:commands` is the one list: names are unambiguous, help and handlers agree on what a command takes,
/// and every command is reachable from what `:help` and Tab show.
@Suite struct REPLCommandTableTests {
  @Test func namesAndAliasesAreUnambiguous() {
    let words = REPLCommand.allCases.flatMap { [$0.rawValue] + $0.entry.aliases }
    #expect(Set(words).count == words.count, "\(words)")
    for command in REPLCommand.allCases {
      #expect(REPLCommand(named: command.rawValue) == command)
      for alias in command.entry.aliases { #expect(REPLCommand(named: alias) == command) }
    }
    #expect(REPLCommand(named: "nothing") == nil)
  }

  @Test func aCommandTakesAnArgumentExactlyWhenItsUsageShowsOne() {
    for command in REPLCommand.allCases {
      let entry = command.entry
      switch entry.run {
      case .plain: #expect(entry.usage.isEmpty && entry.argument.isNone, "\(command)")
      case .text: #expect(!entry.usage.isEmpty, "\(command)")
      }
      #expect(!entry.summary.isEmpty)
    }
  }

  @Test func everyCommandIsInTheHelpOverview() throws {
    let repl = try REPLHarness(lines: [":help"])
    repl.run()
    for command in REPLCommand.allCases {
      #expect(repl.text.contains(":" + command.rawValue), "\(command)")
    }
  }

  @Test func aCommandThatTakesNothingRefusesText() throws {
    let repl = try REPLHarness(lines: [":topics now", ":reload everything", ":quit soon", "1 + 1"])
    repl.run()
    #expect(repl.errors.contains(":topics takes nothing after its name, not 'now'"))
    #expect(repl.errors.contains(":reload takes nothing after its name, not 'everything'"))
    // `:quit soon` did not quit: the next line ran.
    #expect(repl.text.hasSuffix("2\n"))
  }
}

@Suite struct REPLCommandArgumentTests {
  @Test func aCommandThatNeedsAnArgumentSaysItsUsage() throws {
    let repl = try REPLHarness(lines: [":type", ":lesson   ", ":search", ":ask", ":year", ":help"])
    repl.run()
    for usage in ["usage: :type EXPR", "usage: :search WORDS", "usage: :ask FORMULA"] {
      #expect(repl.errors.contains(usage + "\n"), "\(usage)")
    }
    // :lesson alone lists the lessons.
    #expect(!repl.errors.contains("usage: :lesson"))
    #expect(repl.text.contains("Lessons\n  brackets"))
    #expect(repl.text.contains(":help :type says more"))
    // An optional argument may be left out.
    #expect(!repl.errors.contains("usage: :year"))
    #expect(repl.text.contains("the tax year is 2025"))
    #expect(!repl.errors.contains("usage: :help"))
    #expect(repl.text.contains("Tab completes"))
  }
}

extension CommandArgument {
  var isNone: Bool { if case .none = self { true } else { false } }
}
