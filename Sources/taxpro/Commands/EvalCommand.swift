import TaxProCore

/// `taxpro eval EXPR [FILE…]`, and `eval --csv FILE` (`Batch`).
struct EvalCommand: Command {
  static let help = CommandHelp(
    name: "eval", summary: "the value of an expression, or one for each row of a CSV file",
    discussion: """
      Prints the value of EXPR, with the standard library and the FILEs loaded. EXPR may also be declarations \
      (let, formula) or test blocks, which are run. With --csv, EXPR is checked once and evaluated for each row of \
      the file (- for standard input; a pipe or FIFO is read once a program writes to it), one result per line; the \
      row's columns are names in EXPR. A column's type comes from its header when written name:Type (income:Money), \
      otherwise from its first value, and its values are literals of that type (a Money column may leave out the $). \
      The file is strict RFC 4180: a row with more or fewer fields than the header, or a value that is not of its \
      column's type, is an error naming its line. The results are an RFC 4180 column (a cell with a comma, a quote \
      or a line break is quoted); a Text cell starting with =, +, -, @ gets a leading ' so a spreadsheet does not run \
      it, unless --raw.
      """,
    arguments: [.expression(example: "'$1,234.56 * 13%'"), .formulaFiles],
    options: [.csv, .raw, .year, .digits],
    examples: [
      HelpEntry(name: "taxpro eval '$1,234.56 * 13%'", meaning: "$160.49"),
      HelpEntry(
        name: "taxpro eval --csv incomes.csv 'tax(ON.income_tax, income)'",
        meaning: "Ontario's tax on the income in each row of incomes.csv"),
    ])

  var expression: String
  var inputs: ProgramInputs
  var csv: String?
  var raw: Bool
  /// Significant digits of a Number that is not exact.
  var digits: Int

  init(_ arguments: ParsedArguments) throws(UsageError) {
    expression = arguments.positionals[0]
    inputs = try ProgramInputs(arguments, after: 1)
    csv = arguments.value(.csv)
    raw = arguments.has(.raw)
    digits = try arguments.integer(.digits, in: 1...ExactDecimal.precision) ?? ValueFormatter.numberDigits
  }

  func validate() throws(UsageError) {
    if raw && csv == nil { throw UsageError(message: "--raw goes with --csv") }
  }

  func run() throws(UsageError) -> Int32 {
    if let csv {
      return try Batch.run(csvPath: csv, expression: expression, files: inputs.files, year: inputs.year, raw: raw)
    }
    // Only the library the expression reaches, when that gives a value; anything else (an error, a test run) is
    // given by the whole library, so its messages and suggestions are the whole library's.
    if let reached = try Commands.reachedSession(inputs.files, year: inputs.year, expression: expression) {
      KeptUntilExit.keep(reached)
      let outcome = reached.submit(expression, name: "<expr>")
      switch outcome {
      case .value, .defined, .nothing: return report(outcome, in: reached)
      case .tested, .incomplete, .failed: break
      }
    }
    guard let session = try inputs.session() else { return 1 }
    KeptUntilExit.keep(session)
    return report(session.submit(expression, name: "<expr>"), in: session)
  }

  /// Prints an outcome of the expression; the exit status.
  func report(_ outcome: SessionOutcome, in session: Session) -> Int32 {
    if !session.warnings.isEmpty { Output.writeError(Output.renderer(session.sources).render(session.warnings)) }
    switch outcome {
    case .value(let value):
      Output.write(ValueFormatter.format(value, digits: digits) + "\n")
      return 0
    case .defined(let definitions):
      for definition in definitions { Output.write("\(definition.name) = \(definition.detail)\n") }
      return 0
    case .tested(let outcomes):
      return Commands.report(outcomes, session.sources)
    case .nothing:
      return 0
    case .incomplete:
      Commands.reportIncomplete(expression, name: "<expr>", in: session)
      return 1
    case .failed(let diagnostics):
      Commands.reportFailure(diagnostics, of: expression, in: session)
      return 1
    }
  }
}

extension OptionSpec {
  static let digits = OptionSpec(
    name: "--digits", valueName: "N", valueKind: .number,
    summary: "significant digits shown of a number that is not exact, like 1/3 (default 12; exact ones show all)")
  static let csv = OptionSpec(
    name: "--csv", valueName: "FILE", valueKind: .file(extensions: ["csv"]),
    summary: "evaluate EXPR once for each row of FILE, whose columns are names in EXPR")
  static let raw = OptionSpec(
    name: "--raw", summary: "with --csv: Text cells as they are, without a ' before = + - @ (which guards spreadsheets)")
}
