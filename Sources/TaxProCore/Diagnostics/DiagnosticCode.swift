/// Every diagnostic's stable code: the catalogue that `DiagnosticMessage` (the messages, in
/// `DiagnosticMessages.swift`), the command line (`error[type-mismatch]: …`), the language server (the LSP `code`) and
/// `docs/LANGUAGE.md` (one row per code, with an example that a test runs) all read.
///
/// The raw value is what tools see and rely on; a code is never renamed or reused. To add one: a case here, its
/// messages in `DiagnosticMessages.swift`, a row in `docs/LANGUAGE.md`.
public enum DiagnosticCode: String, CaseIterable, Sendable {
  // MARK: Reading the text (lexer and parser)
  /// A token that does not fit the grammar where it is: `expected ')'`, `unexpected 'then'`.
  case syntax
  case unexpectedCharacter = "unexpected-character"
  case malformedNumber = "malformed-number"
  case malformedMoney = "malformed-money"
  case malformedString = "malformed-string"
  /// A literal with more significant digits than the 34 kept: a warning; the value is rounded and marked inexact, so
  /// what is computed from it prints with a mark rather than as exact.
  case inexactLiteral = "inexact-literal"
  /// `15% * 200` typed as a calculation: a rate scaled by a number is a rate (3000%); `15% of 200` is 30.
  case rateTimesNumber = "rate-times-number"
  /// A number written with a leading zero (`00`, `0123`): most often what a shell left of `"$100"` after taking `$1`.
  case leadingZeros = "leading-zeros"
  case numberTooLarge = "number-too-large"
  case chainedComparison = "chained-comparison"
  case topLevelExpression = "top-level-expression"
  /// Nesting beyond `Parser.maximumDepth`.
  case tooDeep = "too-deep"
  /// More binary operators in one expression than `Parser.maximumOperators`: operators in a row are not nesting, but
  /// their number is bounded too.
  case tooManyOperators = "too-many-operators"
  /// The lexer or the parser stopped after 500 errors.
  case tooManyErrors = "too-many-errors"
  /// A source of 2 GiB or more.
  case tooLarge = "too-large"
  /// A file read from disk that is not valid UTF-8 (a Latin-1 `é`, say): a warning; each bad byte was read as U+FFFD.
  case notUTF8 = "not-utf8"

  // MARK: Checking
  case unknownName = "unknown-name"
  case unknownType = "unknown-type"
  case unknownMember = "unknown-member"
  case unknownArgument = "unknown-argument"
  case typeMismatch = "type-mismatch"
  case notAValue = "not-a-value"
  case notCallable = "not-callable"
  case duplicateDefinition = "duplicate-definition"
  case duplicateArgument = "duplicate-argument"
  case argumentOrder = "argument-order"
  case wrongArgumentCount = "wrong-argument-count"
  case missingArgument = "missing-argument"
  case invalidRange = "invalid-range"
  case emptyBrackets = "empty-brackets"
  case unorderedBrackets = "unordered-brackets"
  case cycle
  case inferenceTooDeep = "inference-too-deep"
  /// A jurisdiction declared without any `year` block: a warning.
  case noYears = "no-years"
  case missingParameter = "missing-parameter"
  /// Where one expression was expected (`taxpro explain`, the REPL's `:type`): a declaration, or two expressions.
  case notAnExpression = "not-an-expression"

  // MARK: Evaluating
  case divisionByZero = "division-by-zero"
  case overflow
  case outOfRange = "out-of-range"
  /// The square root or logarithm of a negative number, a negative number to a fractional power.
  case noRealValue = "no-real-value"
  case noFigures = "no-figures"
  /// Running what did not check: a formula with errors, an expression with errors.
  case hasErrors = "has-errors"
  case stepLimit = "step-limit"
  case depthLimit = "depth-limit"
  case cancelled
  /// The checker let through what the evaluator cannot run: a bug in TaxPro, never the user's mistake.
  case `internal`

  // MARK: Tests
  case testFailed = "test-failed"
  case testHasErrors = "test-has-errors"

  // MARK: Charts (the REPL's `:plot` and `:chart`, `taxpro plot` and `taxpro chart`)
  case plotRange = "plot-range"
  case plotType = "plot-type"
  /// `taxpro chart`, `:chart`: a result with no parts, or parts that do not add up to a whole or are negative.
  case chartParts = "chart-parts"
  /// `taxpro chart`, `:chart`: a result or part that is not Money.
  case chartType = "chart-type"
  /// A formula's `## parts:` line that does not read `WHOLE = PART + …` or names what is not one of its Money `let`
  /// steps (or, for the whole, inputs): a warning when the file is checked, since the formula still runs; a chart of
  /// it is a `chart-parts` error.
  case partsLine = "parts-line"

  /// How bad a diagnostic of this code is: everything is an error but a rounded literal, a number with leading zeros,
  /// a jurisdiction without figures, a documentation's wrong `parts:` line and a file that is not UTF-8, which the
  /// program can still run with.
  public var severity: Severity {
    self == .inexactLiteral || self == .noYears || self == .leadingZeros || self == .rateTimesNumber
      || self == .partsLine || self == .notUTF8 ? .warning : .error
  }
}
