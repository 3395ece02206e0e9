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
    let repl = try REPLHarness(lines: [
      ":type", ":lesson   ", ":search", ":ask", ":year", ":help", ":explain", ":explain full", ":profile",
    ])
    repl.run()
    // `[full] EXPR` still needs the expression; `[NAME [VALUE]]` needs nothing.
    for usage in [
      "usage: :type EXPR", "usage: :search WORDS", "usage: :ask FORMULA", "usage: :explain [full] EXPR",
    ] {
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
    #expect(repl.errors.components(separatedBy: "usage: :explain [full] EXPR").count == 3)
    #expect(!repl.errors.contains("not-an-expression"))
    #expect(!repl.errors.contains("usage: :profile"))
  }

  @Test func explainFullOfAValueNamedFull() throws {
    let repl = try REPLHarness(lines: ["let full = $5", ":explain full"])
    repl.run()
    #expect(repl.errors.isEmpty)
    #expect(repl.text.contains("$5.00"))
  }

  @Test func whetherAUsageNeedsAnArgument() {
    func needs(_ usage: String) -> Bool {
      CommandInfo(command: .help, usage: usage, summary: "", run: .text(REPL.helpCommand)).needsArgument
    }
    #expect(needs("EXPR") && needs("[full] EXPR") && needs("EXPR over NAME from A to B [--svg FILE]"))
    #expect(!needs("") && !needs("[NAME]") && !needs("[NAME [VALUE]]") && !needs("[TOPIC [more]]"))
  }
}

extension CommandArgument {
  var isNone: Bool { if case .none = self { true } else { false } }
}
