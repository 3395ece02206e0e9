/// A diagnostic's code and the text of its message. Every message TaxPro reports is made here, grouped by code, so that
/// a code's wording is seen (and kept consistent) in one place and no call site can invent a code.
public struct DiagnosticMessage: Hashable, Sendable {
  public let code: DiagnosticCode
  public let text: String

  init(_ code: DiagnosticCode, _ text: String) {
    self.code = code
    self.text = text
  }
}

extension DiagnosticMessage {
  // MARK: syntax

  static func expected(_ what: String, found: String) -> Self { Self(.syntax, "expected \(what), found \(found)") }
  static func expectedAtLineEnd(_ what: String, after previous: String) -> Self {
    Self(.syntax, "expected \(what) after \(previous) at the end of the line")
  }
  static func expectedName(_ what: String, foundKeyword found: String) -> Self {
    Self(.syntax, "expected \(what), found the keyword \(found)")
  }
  static func unexpected(_ found: String) -> Self { Self(.syntax, "unexpected \(found)") }
  static func unexpected(_ found: String, after what: String) -> Self { Self(.syntax, "unexpected \(found) after \(what)") }
  static func unexpected(_ found: String, in what: String) -> Self { Self(.syntax, "unexpected \(found) in \(what)") }
  static var lineAfterFormulaResult: Self {
    Self(.syntax, "a formula's body ends with one expression; this line is not part of it")
  }
  static func missingBody(afterLets: Bool) -> Self {
    Self(.syntax, afterLets ? "expected the formula's result after its let lines" : "expected the formula's body")
  }
  static func emptyBody(afterLets: Bool) -> Self {
    Self(.syntax, afterLets ? "the formula has no result after its let lines" : "the formula has no body")
  }
  static var yearNotWhole: Self { Self(.syntax, "a year is a whole number such as 2025") }
  /// `**` or `//`, from another language.
  static func notAnOperator(_ written: String) -> Self { Self(.syntax, "'\(written)' is not an operator") }
  /// `formula f(x: Money) -> Money`, from another language.
  static var arrowBeforeResultType: Self { Self(.syntax, "'->' does not start a result type") }
  /// `def half(x)`, from another language.
  static func foreignFormulaWord(_ word: String) -> Self { Self(.syntax, "'\(word)' does not declare a formula") }
  static var onlyNamesAreCalled: Self { Self(.syntax, "only formulas and built-in functions can be called") }

  // MARK: unexpected-character

  static var unexpectedBang: Self { Self(.unexpectedCharacter, "unexpected '!'") }
  /// `// note`, from another language.
  static var slashComment: Self { Self(.unexpectedCharacter, "'//' does not start a comment") }
  /// `&&` or `||`, from another language.
  static func unexpectedLogicalOperator(_ written: String) -> Self {
    Self(.unexpectedCharacter, "unexpected '\(written)'")
  }
  static func unexpectedCharacter(_ shown: String) -> Self { Self(.unexpectedCharacter, "unexpected character \(shown)") }

  // MARK: malformed-number, malformed-money, malformed-string

  static var misplacedUnderscore: Self { Self(.malformedNumber, "'_' must separate digits") }
  static var lettersAfterNumber: Self { Self(.malformedNumber, "unexpected characters after a number") }
  static var dollarWithoutAmount: Self { Self(.malformedMoney, "'$' must be followed by an amount") }
  static var mixedGrouping: Self {
    Self(.malformedMoney, "an amount uses either ',' or '_' to group digits, not both")
  }
  static var groupsOfThree: Self { Self(.malformedMoney, "commas in an amount must separate groups of three digits") }
  static var moreThanCents: Self { Self(.malformedMoney, "an amount of money has at most two decimals (whole cents)") }
  static var unknownEscape: Self { Self(.malformedString, "unknown escape sequence in text") }
  static var unclosedText: Self { Self(.malformedString, "text is not closed on its line") }

  // MARK: inexact-literal, number-too-large, chained-comparison, top-level-expression

  static func rateTimesNumber(_ shown: String) -> Self {
    Self(.rateTimesNumber, "a rate times a number is a rate: this is \(shown)")
  }
  static func leadingZeros(_ written: String) -> Self {
    Self(.leadingZeros, "the number '\(written)' starts with a zero")
  }
  static var inexactLiteral: Self {
    Self(
      .inexactLiteral,
      "this number has more digits than TaxPro keeps exactly (\(ExactDecimal.precision) significant digits)")
  }
  static var numberTooLarge: Self {
    Self(.numberTooLarge, "this number is too large (TaxPro's numbers stay below 10^100)")
  }
  static var chainedComparison: Self { Self(.chainedComparison, "comparisons cannot be chained") }
  static var topLevelExpression: Self {
    Self(.topLevelExpression, "an expression at the top level of a file has no effect")
  }

  // MARK: too-deep, too-many-operators, too-many-errors, too-large

  static var tooDeep: Self {
    Self(.tooDeep, "this expression is nested too deeply (more than \(Parser.maximumDepth) levels)")
  }
  static var tooManyOperators: Self {
    Self(.tooManyOperators, "this expression has more than \(Parser.maximumOperators) operators")
  }
  static var tooManyErrorsReading: Self { Self(.tooManyErrors, "too many errors; stopped reading here") }
  static var tooManyErrorsReporting: Self { Self(.tooManyErrors, "too many errors; stopped reporting") }
  static func notUTF8(_ byte: UInt8, count: Int) -> Self {
    let hex = String(byte, radix: 16, uppercase: true)
    guard count > 1 else {
      return Self(.notUTF8, "not valid UTF-8 (byte 0x\(hex)): read as the replacement character U+FFFD")
    }
    return Self(
      .notUTF8,
      "not valid UTF-8 (byte 0x\(hex); \(count) places in all): each read as the replacement character U+FFFD")
  }
  static var tooLarge: Self { Self(.tooLarge, "this source is too large (2 GiB or more); the rest is not read") }

  // MARK: unknown-name, unknown-type, unknown-member, unknown-argument

  static func unknownName(_ name: String) -> Self { Self(.unknownName, "unknown name '\(name)'") }
  static func unknownFormula(_ name: String) -> Self { Self(.unknownName, "unknown formula '\(name)'") }
  static func unknownJurisdiction(_ code: String) -> Self { Self(.unknownName, "unknown jurisdiction '\(code)'") }
  static var noFederal: Self {
    Self(.unknownName, "there are no federal parameters (no 'federal' declaration is loaded)")
  }
  static func unknownType(_ name: String) -> Self { Self(.unknownType, "unknown type '\(name)'") }
  static var noProvinceInterface: Self {
    Self(.unknownMember, "a Province value has no parameters here: no 'parameters Province' interface is loaded")
  }
  static func hasNoParameters(_ type: TaxType) -> Self {
    Self(.unknownMember, "\(type) has no parameters; only provinces and federal do")
  }
  static func noParameter(_ owner: String, _ member: String) -> Self {
    Self(.unknownMember, "\(owner) has no parameter '\(member)'")
  }
  static func noArgumentNamed(_ formula: String, _ label: String) -> Self {
    Self(.unknownArgument, "'\(formula)' has no parameter '\(label)'")
  }
  static var builtinLabels: Self { Self(.unknownArgument, "built-in functions take positional arguments only") }

  // MARK: type-mismatch

  /// The general form: `the amount of 'tax' must be Money, but this is Number`.
  static func mustBe(_ role: String, _ expected: TaxType, found: TaxType) -> Self {
    Self(.typeMismatch, "\(role) must be \(expected), but this is \(found)")
  }
  static func arithmetic(_ op: BinaryOperator, _ left: TaxType, _ right: TaxType) -> Self {
    switch op {
    case .add: Self(.typeMismatch, "cannot add \(left) and \(right)")
    case .subtract: Self(.typeMismatch, "cannot subtract \(right) from \(left)")
    case .multiply: Self(.typeMismatch, "cannot multiply \(left) by \(right)")
    case .power: Self(.typeMismatch, "cannot raise \(left) to a power of \(right)")
    case .modulo: Self(.typeMismatch, "cannot take the remainder of \(left) divided by \(right)")
    case .of: Self(.typeMismatch, "cannot take \(left) of \(right)")
    default: Self(.typeMismatch, "cannot divide \(left) by \(right)")
    }
  }
  static func cannotNegate(_ type: TaxType) -> Self { Self(.typeMismatch, "cannot negate \(type)") }
  static func notNeedsBool(_ found: TaxType) -> Self {
    Self(.typeMismatch, "'not' needs true or false, but this is \(found)")
  }
  static func logicNeedsBool(_ op: BinaryOperator, _ found: TaxType) -> Self {
    Self(.typeMismatch, "'\(op.rawValue)' needs true or false on both sides, but this is \(found)")
  }
  static func cannotCompare(_ left: TaxType, _ right: TaxType) -> Self {
    Self(.typeMismatch, "cannot compare \(left) with \(right)")
  }
  static func orderNeedsNumbers(_ op: BinaryOperator, _ found: TaxType) -> Self {
    Self(.typeMismatch, "'\(op.rawValue)' compares Money, Rate or Number, not \(found)")
  }
  /// `bracket tables cannot be compared`, `'federal' cannot be compared`.
  static func notComparable(_ what: String) -> Self { Self(.typeMismatch, "\(what) cannot be compared") }
  static func conditionNotBool(_ found: TaxType) -> Self {
    Self(.typeMismatch, "the condition of 'if' must be true or false, but this is \(found)")
  }
  static func branchesDiffer(_ thenType: TaxType, _ elseType: TaxType) -> Self {
    Self(.typeMismatch, "the branches of 'if' give different types: \(thenType) and \(elseType)")
  }
  static func testCheckNotBool(_ found: TaxType) -> Self {
    Self(.typeMismatch, "a test's check must be true or false, but this is \(found)")
  }
  static func resultMismatch(_ formula: String, declared: TaxType, found: TaxType) -> Self {
    Self(.typeMismatch, "'\(formula)' is declared to give \(declared), but its result is \(found)")
  }
  static func declaredAs(_ name: String, declared: TaxType, found: TaxType) -> Self {
    Self(.typeMismatch, "'\(name)' is declared as \(declared), but its value is \(found)")
  }
  static var formulaGivesFederal: Self { Self(.typeMismatch, "a formula cannot give 'federal' itself") }
  static var parameterIsFederal: Self { Self(.typeMismatch, "a parameter cannot be 'federal' itself") }
  static var federalNeedsParameter: Self {
    Self(.typeMismatch, "'federal' can only be used with one of its parameters, like federal.income_tax")
  }
  static func parameterTypeChanges(
    _ jurisdiction: String, _ name: String, _ type: TaxType, in year: Int, was firstType: TaxType, in firstYear: Int
  ) -> Self {
    Self(.typeMismatch, "\(jurisdiction).\(name) is \(type) in \(year) but \(firstType) in \(firstYear)")
  }
  static func builtinNeedsNumber(_ builtin: String, found: TaxType) -> Self {
    Self(.typeMismatch, "'\(builtin)' works on Money, Rate or Number, but this is \(found)")
  }
  static func builtinArgumentsDiffer(_ builtin: String, first: TaxType, found: TaxType) -> Self {
    Self(.typeMismatch, "the arguments of '\(builtin)' must all be \(first), but this is \(found)")
  }

  // MARK: not-a-value, not-callable

  static var federalNotAValue: Self {
    Self(.notAValue, "'federal' is not a value; use one of its parameters, like federal.income_tax")
  }
  /// The evaluator's shorter form (only reachable through a program that did not check).
  static var federalNotAValueAtRun: Self { Self(.notAValue, "'federal' is not a value; use one of its parameters") }
  static func formulaNotAValue(_ name: String) -> Self {
    Self(.notAValue, "'\(name)' is a formula; call it with its arguments")
  }
  static func typeNotAValue(_ name: String) -> Self { Self(.notAValue, "'\(name)' is a type, not a value") }
  static func valueNotCallable(_ name: String) -> Self { Self(.notCallable, "'\(name)' is a value, not a formula") }
  static func typeNotCallable(_ name: String) -> Self {
    Self(.notCallable, "'\(name)' is a type, and types cannot be called")
  }

  // MARK: duplicate-definition, duplicate-argument

  static func alreadyDefined(_ name: String) -> Self { Self(.duplicateDefinition, "'\(name)' is already defined") }
  static func builtinRedefined(_ name: String) -> Self {
    Self(.duplicateDefinition, "'\(name)' is a built-in function and cannot be redefined")
  }
  static func typeRedefined(_ name: String) -> Self { Self(.duplicateDefinition, "'\(name)' is the name of a type") }
  static var ansReserved: Self { Self(.duplicateDefinition, "'ans' is reserved for the last result in the REPL") }
  static var ansRedefined: Self { Self(.duplicateDefinition, "'ans' is the last result and cannot be redefined") }
  static func notALetName(_ name: String) -> Self {
    Self(.duplicateDefinition, "'\(name)' is already defined and cannot be a 'let' name")
  }
  static func interfaceRedefined(_ name: String) -> Self {
    Self(.duplicateDefinition, "the interface '\(name)' is already defined")
  }
  static func memberRedefined(_ member: String, of interface: String) -> Self {
    Self(.duplicateDefinition, "'\(member)' is already a parameter of \(interface)")
  }
  static func parameterRedeclared(_ name: String) -> Self {
    Self(.duplicateDefinition, "the parameter '\(name)' is already declared")
  }
  static func letRedefined(_ name: String) -> Self {
    Self(.duplicateDefinition, "'\(name)' is already defined in this body")
  }
  static func yearRedefined(_ jurisdiction: String, _ year: Int) -> Self {
    Self(.duplicateDefinition, "\(jurisdiction) already has figures for \(year)")
  }
  static func figureRedefined(_ jurisdiction: String, _ year: Int, _ name: String) -> Self {
    Self(.duplicateDefinition, "\(jurisdiction) \(year) already defines '\(name)'")
  }
  static var nameIsFullName: Self {
    Self(.duplicateDefinition, "'name' is the jurisdiction's full name, given after its code")
  }
  static func givenTwice(_ parameter: String) -> Self { Self(.duplicateArgument, "'\(parameter)' is given twice") }

  // MARK: argument-order, wrong-argument-count, missing-argument

  static var positionalAfterNamed: Self { Self(.argumentOrder, "a positional argument cannot follow a named one") }
  /// `'tax' takes 2 arguments, but 3 were given`.
  static func argumentCount(_ callee: String, takes expected: String, given: Int) -> Self {
    Self(
      .wrongArgumentCount, "'\(callee)' takes \(expected), but \(given) \(given == 1 ? "was" : "were") given")
  }
  /// `missing argument 'income' (Money) in the call to 'provincial_tax'`.
  static func missingArguments(_ described: [String], in formula: String) -> Self {
    Self(
      .missingArgument,
      "missing \(described.count == 1 ? "argument" : "arguments") \(described.joined(separator: ", ")) in the call to '\(formula)'"
    )
  }
  static func missingArgumentAtRun(_ parameter: String) -> Self {
    Self(.missingArgument, "missing argument '\(parameter)'")
  }

  // MARK: invalid-range, empty-brackets, unordered-brackets

  static func rangeNotNumeric(_ parameter: String, _ type: TaxType) -> Self {
    Self(.invalidRange, "only Money, Rate and Number parameters can have a range; '\(parameter)' is \(type)")
  }
  static var emptyBrackets: Self { Self(.emptyBrackets, "a bracket table needs at least one row: threshold -> rate") }
  static func unorderedBrackets(_ threshold: ExactDecimal, after previous: ExactDecimal) -> Self {
    Self(
      .unorderedBrackets,
      "bracket thresholds must go up, but \(ValueFormatter.money(threshold)) is not above \(ValueFormatter.money(previous))"
    )
  }

  // MARK: cycle, inference-too-deep

  /// `what`: `the formula 'a'`, `the constant 'e'`, `the parameter ON.x`.
  static func dependsOnItself(_ what: String) -> Self { Self(.cycle, "\(what) depends on itself") }
  static func resultNotInferred(_ formula: String) -> Self {
    Self(
      .inferenceTooDeep,
      "cannot infer the result type of '\(formula)' here: too many formulas without a declared result type depend on each other"
    )
  }
  static var constantNotInferred: Self {
    Self(.inferenceTooDeep, "cannot infer the type of this constant here: too many nested inferences")
  }
  static func parameterNotInferred(_ jurisdiction: String, _ name: String) -> Self {
    Self(.inferenceTooDeep, "cannot infer the type of \(jurisdiction).\(name) here: too many nested inferences")
  }

  // MARK: no-years, missing-parameter, not-an-expression

  static func noYears(_ jurisdiction: String) -> Self {
    Self(.noYears, "\(jurisdiction) has no figures: add a 'year 2025 { … }' block")
  }
  /// `ON 2025 does not define 'credit_rate', which every province must define`.
  static func missingParameter(_ jurisdiction: String, _ year: Int, _ name: String, requiredOf what: String) -> Self {
    Self(.missingParameter, "\(jurisdiction) \(year) does not define '\(name)', which \(what) must define")
  }
  public static var expectedOneExpression: Self { Self(.notAnExpression, "expected one expression") }

  // MARK: division-by-zero, overflow, out-of-range, no-figures

  static var divisionByZero: Self { Self(.divisionByZero, "division by zero") }
  static func noRealValue(_ why: String) -> Self { Self(.noRealValue, why) }
  static var overflow: Self { Self(.overflow, "the result is too large (TaxPro's numbers stay below 10^100)") }
  static func placesOutOfRange(_ shown: String) -> Self {
    Self(.outOfRange, "the number of places must be a whole number from -20 to 20, but it is \(shown)")
  }
  static func clampReversed(low: String, high: String) -> Self {
    Self(.outOfRange, "clamp's lowest value \(low) is above its highest \(high)")
  }
  static func argumentOutOfRange(_ parameter: String, of formula: String, range: String, value: String) -> Self {
    Self(.outOfRange, "'\(parameter)' of '\(formula)' must be from \(range), but it is \(value)")
  }
  static func noFigures(_ jurisdiction: String, _ year: Int) -> Self {
    Self(.noFigures, "\(jurisdiction) has no figures for \(year)")
  }
  static func noFigure(_ jurisdiction: String, _ name: String, _ year: Int) -> Self {
    Self(.noFigures, "\(jurisdiction) has no '\(name)' for \(year)")
  }

  // MARK: has-errors, step-limit, depth-limit, cancelled, internal

  static var expressionHasErrors: Self { Self(.hasErrors, "this expression has errors and cannot be evaluated") }
  static func formulaHasErrors(_ name: String) -> Self { Self(.hasErrors, "'\(name)' has errors and cannot be run") }
  static func stepLimit(_ steps: Int) -> Self {
    Self(.stepLimit, "the evaluation took more than \(steps) steps and was stopped")
  }
  static func depthLimit(_ depth: Int) -> Self {
    Self(.depthLimit, "the evaluation went more than \(depth) levels deep and was stopped")
  }
  static var evaluationCancelled: Self { Self(.cancelled, "the evaluation was cancelled") }
  public static var plotCancelled: Self { Self(.cancelled, "the plot was cancelled") }
  /// What the evaluator expected and did not get: a checked program never gets here.
  static func internalError(_ text: String) -> Self { Self(.internal, text) }

  // MARK: test-failed, test-has-errors

  /// `yearNote`: ` (2025)` when the test names no year of its own, or nothing.
  static func testFailed(_ name: String, yearNote: String) -> Self { Self(.testFailed, "test '\(name)'\(yearNote) failed") }
  static func testHasErrors(_ name: String) -> Self { Self(.testHasErrors, "test '\(name)' has errors and was not run") }

  // MARK: plot-range, plot-type

  public static func plotRangeTypes(_ lower: TaxType, _ upper: TaxType) -> Self {
    Self(
      .plotRange,
      "the range must run between two values of one type (Money, Rate or Number), but it is \(lower) to \(upper)")
  }
  public static func plotRangeOrder(_ lower: String, _ upper: String) -> Self {
    Self(.plotRange, "the range must go from a smaller to a larger value, but it is \(lower) to \(upper)")
  }
  public static func plotType(_ expression: String, _ type: TaxType) -> Self {
    Self(.plotType, "only Money, Rate and Number can be plotted, but '\(expression)' is \(type)")
  }

  // MARK: chart-parts, chart-type

  static var chartNeedsParts: Self {
    Self(.chartParts, "a chart needs parts: a formula call with Money let steps, or a list of named amounts")
  }
  static func noPartsIn(_ formula: String) -> Self {
    Self(.chartParts, "\(formula) has no Money let steps to show as parts")
  }
  static func partsDoNotAddUp(_ formula: String, parts: String, result: String, withResult: String) -> Self {
    Self(
      .chartParts,
      "the let steps of \(formula) add up to \(parts), which is not its result (\(result)), and with the result "
        + "(\(withResult)) they are none of its Money inputs")
  }
  static func declaredPartsDoNotAddUp(_ formula: String, whole: String, amount: String, parts: String) -> Self {
    Self(
      .chartParts,
      "the parts that \(formula)'s documentation names add up to \(parts), which is not \(whole) (\(amount))")
  }
  /// `code` is `chart-parts` when a chart finds it, `parts-line` when the file is checked.
  static func partsLineForm(_ formula: String, code: DiagnosticCode = .chartParts) -> Self {
    Self(code, "the 'parts:' line of \(formula)'s documentation must read WHOLE = PART + PART + …")
  }
  static func partsLineName(_ formula: String, _ name: String, code: DiagnosticCode = .chartParts) -> Self {
    Self(
      code,
      "the 'parts:' line of \(formula)'s documentation names '\(name)', which is not one of its Money let steps "
        + "or inputs")
  }
  static func negativePart(_ label: String, _ amount: String) -> Self {
    Self(.chartParts, "'\(label)' is \(amount); a part of a whole cannot be negative")
  }
  static func nothingToChart(_ whole: String) -> Self {
    Self(.chartParts, "the parts add up to \(whole): there is nothing to share out")
  }
  static func chartNotMoney(_ what: String, _ type: TaxType) -> Self {
    Self(.chartType, "only Money can be shared out in a chart, but \(what) is \(type)")
  }
}
