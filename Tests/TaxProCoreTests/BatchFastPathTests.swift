import Foundation
import Testing

@testable import TaxProCore
import TestSupport

/// The fast paths of batch evaluation hold to the general ones, down to the decimal's representation: `tax()` on a
/// prepared table against `BracketMath`, and CSV fields read from bytes against the string path.
@Suite struct BatchFastPathTests {
  static func same(_ a: ExactDecimal, _ b: ExactDecimal) -> Bool { FastPathTests.same(a, b) }

  /// An amount of money written in one of the ways values reach `tax()`: whole cents at exponent -2, whole dollars at
  /// exponent 0 or above (`round($x, -3)`), zero with any exponent.
  static func money(cents: Int, _ generator: inout SeededGenerator) -> ExactDecimal {
    if cents == 0 {
      return ExactDecimal(negative: false, magnitude: 0, exponent: Int.random(in: -2...2, using: &generator))
    }
    var magnitude = UInt128(cents.magnitude)
    var exponent = -2
    // Now and then the same value with its trailing zeros taken out of the magnitude.
    if Bool.random(using: &generator) {
      while magnitude % 10 == 0 && exponent < 6 {
        magnitude /= 10
        exponent += 1
      }
    }
    return ExactDecimal(negative: cents < 0, magnitude: magnitude, exponent: exponent)
  }

  /// A rate as percent literals, computations and divisions make them: `13%` (13e-2), `5.05%` (505e-4), `0.5%`,
  /// `200%` written as 2 or 200e-2, zero, trailing zeros, and now and then one with 34 digits (`10% / 3`).
  static func rate(_ generator: inout SeededGenerator) throws -> ExactDecimal {
    switch Int.random(in: 0..<12, using: &generator) {
    case 0: return .zero
    case 1: return ExactDecimal(significand: Int.random(in: 1...9, using: &generator), exponent: -3)
    case 2: return ExactDecimal(significand: Int.random(in: 1...3, using: &generator), exponent: 0)
    case 3: return ExactDecimal(significand: Int.random(in: 1...300, using: &generator) * 100, exponent: -4)
    case 4: return try ExactDecimal(significand: Int.random(in: 1...30, using: &generator), exponent: -2)
      .divided(by: ExactDecimal(3))
    case 5: return ExactDecimal(significand: Int.random(in: 1...999_999, using: &generator), exponent: -8)
    default: return ExactDecimal(significand: Int.random(in: 0...3_000, using: &generator), exponent: -4)
    }
  }

  /// A table with 0 to 8 rows, thresholds rising from a start that may be negative or zero.
  static func table(_ generator: inout SeededGenerator) throws -> (BracketTable, [Int]) {
    var cents = Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: -500_000...0, using: &generator) : 0
    var rows: [BracketRowValue] = []
    var thresholds: [Int] = []
    for _ in 0..<Int.random(in: 0...8, using: &generator) {
      rows.append(BracketRowValue(threshold: money(cents: cents, &generator), rate: try rate(&generator)))
      thresholds.append(cents)
      // Gaps from a cent to $100,000; round dollars half the time.
      var gap = Int.random(in: 1...10_000_000, using: &generator)
      if Bool.random(using: &generator) { gap = max(100, gap / 100 * 100) }
      cents += gap
    }
    return (BracketTable(rows: rows), thresholds)
  }

  /// Amounts that matter for a table: at, just below and just above each threshold, inside brackets, negative, zero.
  static func amounts(_ thresholds: [Int], _ generator: inout SeededGenerator) -> [Int] {
    var amounts = [0, -1, 1, -Int.random(in: 1...10_000_000, using: &generator)]
    for threshold in thresholds {
      amounts += [threshold - 1, threshold, threshold + 1, threshold + Int.random(in: 2...5_000_000, using: &generator)]
    }
    return amounts
  }

  @Test func taxOnAPreparedTableIsTheGeneralPathsToTheRepresentation() throws {
    var generator = SeededGenerator(seed: 2025)
    var prepared = 0
    var fast = 0
    var ties = 0
    for _ in 0..<3_000 {
      let (table, thresholds) = try Self.table(&generator)
      guard let preparedTable = PreparedBrackets(table) else {
        // Only tables with a rate beyond 16 digits are refused here (thresholds rise and are small).
        #expect(table.rows.contains { $0.rate.magnitude > PreparedBrackets.maxRate })
        continue
      }
      prepared += 1
      for cents in Self.amounts(thresholds, &generator) {
        let amount = Self.money(cents: cents, &generator)
        let general = try BracketMath.value(of: .tax, table, amount: amount)
        guard let total = preparedTable.tax(amount) else {
          Issue.record("\(amount) on \(table.rows) took the general path")
          continue
        }
        fast += 1
        #expect(Self.same(total, general), "\(amount) on \(table.rows): \(total) against \(general)")
        // A half cent in the exact sum: a tie, rounded away from zero.
        let exact = try BracketMath.compute(table, amount: amount).exactTotal
        if let thousandths = try? exact.scaled(byPowerOfTen: 3), thousandths.isInteger,
          let value = thousandths.intValue, value % 10 == 5
        {
          ties += 1
        }
      }
    }
    #expect(prepared > 2_000)
    #expect(fast > 30_000)
    #expect(ties > 50, "ties seen: \(ties)")
  }

  @Test func halfCentTiesRoundAwayFromZero() throws {
    // 50% of an odd number of cents is a half cent; above $1.00, 5.05% of 10¢ is 0.505¢.
    let table = BracketTable(rows: [
      BracketRowValue(threshold: .zero, rate: ExactDecimal(significand: 50, exponent: -2)),
      BracketRowValue(threshold: ExactDecimal(significand: 100, exponent: -2), rate: ExactDecimal(significand: 505, exponent: -4)),
    ])
    let prepared = try #require(PreparedBrackets(table))
    for (cents, expected) in [(1, 1), (3, 2), (99, 50), (100, 50), (110, 51), (190, 55), (200, 55), (-7, 0)] {
      let amount = ExactDecimal(significand: cents, exponent: -2)
      let total = try #require(prepared.tax(amount))
      #expect(total == ExactDecimal(significand: expected, exponent: -2), "\(cents)¢ → \(total)")
      #expect(Self.same(total, try BracketMath.value(of: .tax, table, amount: amount)))
    }
  }

  @Test func amountsAndTablesBeyondTheBoundsTakeTheGeneralPath() throws {
    let rate = ExactDecimal(significand: 15, exponent: -2)
    let table = BracketTable(rows: [BracketRowValue(threshold: .zero, rate: rate)])
    let prepared = try #require(PreparedBrackets(table))
    let limit = ExactDecimal(significand: Int(PreparedBrackets.maxCents), exponent: -2)
    #expect(prepared.tax(limit) != nil)
    for amount in [
      try limit.adding(ExactDecimal(significand: 1, exponent: -2)),
      ExactDecimal(significand: 1, exponent: 60),
      ExactDecimal(significand: -1, exponent: 90),
      // Not a whole number of cents.
      ExactDecimal(significand: 1, exponent: -3),
    ] {
      #expect(prepared.tax(amount) == nil, "\(amount)")
    }
    // Negative rates, unordered or huge thresholds, rates of more than 16 digits or 18 decimals: not prepared.
    let refused: [[BracketRowValue]] = [
      [BracketRowValue(threshold: .zero, rate: ExactDecimal(significand: -1, exponent: -2))],
      [
        BracketRowValue(threshold: ExactDecimal(100), rate: rate), BracketRowValue(threshold: ExactDecimal(100), rate: rate),
      ],
      [
        BracketRowValue(threshold: ExactDecimal(100), rate: rate), BracketRowValue(threshold: ExactDecimal(50), rate: rate),
      ],
      [BracketRowValue(threshold: ExactDecimal(significand: 1, exponent: 14), rate: rate)],
      [BracketRowValue(threshold: ExactDecimal(significand: 1, exponent: -3), rate: rate)],
      [BracketRowValue(threshold: .zero, rate: try ExactDecimal(1).divided(by: ExactDecimal(3)))],
      [BracketRowValue(threshold: .zero, rate: ExactDecimal(significand: 1, exponent: -19))],
    ]
    for rows in refused {
      #expect(PreparedBrackets(BracketTable(rows: rows)) == nil, "\(rows)")
    }
    // The largest amounts and rates taken still agree with the general path: the most decimals, and the largest rate.
    let lowest = ExactDecimal(significand: -Int(PreparedBrackets.maxCents), exponent: -2)
    let steep = [
      BracketTable(rows: [
        BracketRowValue(threshold: lowest, rate: ExactDecimal(significand: 9_999_999_999_999_999, exponent: -18)),
        BracketRowValue(threshold: .zero, rate: ExactDecimal(significand: 1, exponent: -18)),
      ]),
      BracketTable(rows: [
        BracketRowValue(threshold: lowest, rate: ExactDecimal(significand: 10_000_000_000_000_000, exponent: 0)),
        BracketRowValue(threshold: limit, rate: ExactDecimal(significand: 1, exponent: 0)),
      ]),
    ]
    for table in steep {
      let prepared = try #require(PreparedBrackets(table))
      for amount in [limit, -limit, .zero, ExactDecimal(significand: 1, exponent: -2), ExactDecimal(significand: 1, exponent: 10)] {
        let total = try #require(prepared.tax(amount))
        #expect(Self.same(total, try BracketMath.value(of: .tax, table, amount: amount)), "\(amount)")
      }
    }
  }

  // MARK: Fields

  static let parser = FieldParser(provinces: ["AB", "ON", "QC", "YT"])

  /// Reads `text` as the batch reads a field: from its bytes.
  static func parse(_ text: String, as type: TaxType) -> Value? {
    Array(text.utf8).withUnsafeBufferPointer { parser.parse($0, as: type) }
  }

  /// What the string path makes of the field: trimmed by Foundation, then read.
  static func reference(_ text: String, as type: TaxType) -> Value? {
    parser.parse(text.trimmingCharacters(in: .whitespaces), as: type)
  }

  static func sameValue(_ a: Value?, _ b: Value?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (.money(let x)?, .money(let y)?), (.rate(let x)?, .rate(let y)?), (.number(let x)?, .number(let y)?):
      same(x, y)
    case (let x?, let y?): x == y && x.type == y.type
    default: false
    }
  }

  @Test func fieldsReadFromBytesAreTheStringPathsToTheRepresentation() {
    var generator = SeededGenerator(seed: 99)
    let pieces = ["0", "1", "5", "9", "00", "12", "345", ",", "_", ".", "-", "+", "$", "%", " ", "\t", "e", "ON", "x"]
    var parsed = 0
    for _ in 0..<60_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...9, using: &generator) {
        text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      for type in [TaxType.money, .rate, .number, .province, .bool, .text] {
        let value = Self.parse(text, as: type)
        if value != nil { parsed += 1 }
        #expect(Self.sameValue(value, Self.reference(text, as: type)), "\(type) '\(text)'")
      }
    }
    // Realistic fields: amounts with up to 25 digits and any number of decimals.
    for _ in 0..<20_000 {
      let whole = String((0..<Int.random(in: 1...25, using: &generator)).map { _ in
        Character(String(Int.random(in: 0...9, using: &generator)))
      })
      let fraction = String((0..<Int.random(in: 0...4, using: &generator)).map { _ in
        Character(String(Int.random(in: 0...9, using: &generator)))
      })
      let text = (Bool.random(using: &generator) ? "-$" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
      for type in [TaxType.money, .number] {
        #expect(Self.sameValue(Self.parse(text, as: type), Self.reference(text, as: type)), "\(type) '\(text)'")
      }
      #expect(Self.sameValue(Self.parse(text + "%", as: .rate), Self.reference(text + "%", as: .rate)), "'\(text)%'")
    }
    #expect(parsed > 50_000)
  }

  /// What the language makes of `text` written as an expression (for Money with a `$` put in when it has none): the
  /// value when it is one literal, or a minus and one literal, that parses without a diagnostic (but the leading-zeros
  /// warning); nil otherwise.
  static func languageValue(_ text: String, as type: TaxType) -> Value? {
    var written = text
    if type == .money {
      let negative = written.hasPrefix("-")
      let body = negative ? String(written.dropFirst()) : written
      written = (negative ? "-" : "") + (body.hasPrefix("$") ? body : "$" + body)
    }
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "", text: written), mode: .interactive)
    // A leading zero (`007`) is only a warning in the language, about shells; a field may have one.
    guard tree.diagnostics.allSatisfy({ $0.code == .leadingZeros }), tree.comments.isEmpty, tree.declarations.count == 1,
      case .expression(let expression) = tree.declarations[0]
    else { return nil }
    var literal = expression
    var negative = false
    if case .unary(.negate, let operand, _) = expression.kind {
      literal = operand
      negative = true
    }
    // The whole text is the literal (no space between the minus and it, as in a field).
    guard literal.span.end == written.utf8.count, !negative || literal.span.start == 1 else { return nil }
    switch (literal.kind, type) {
    case (.money(let value), .money): return .money(negative ? -value : value)
    case (.rate(let value), .rate): return .rate(negative ? -value : value)
    case (.number(let value), .number): return .number(negative ? -value : value)
    default: return nil
    }
  }

  /// Typed columns take exactly the language's literals: what a formula file accepts, with the same value, and
  /// nothing else (`"$1,00"`, `$0.005`, `$12.345`, `85000.999`, `+3` and 35 significant digits are refused).
  @Test func typedFieldsFollowTheLanguagesLiteralRules() {
    var generator = SeededGenerator(seed: 4180)
    let pieces = ["0", "1", "5", "9", "00", "12", "345", "999", ",", ",", "_", ".", ".", "-", "+", "$", "%", "e", "x"]
    var accepted = 0
    for _ in 0..<30_000 {
      var text = ""
      for _ in 0..<Int.random(in: 1...8, using: &generator) {
        text += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      for type in [TaxType.money, .rate, .number] {
        let field = Self.parse(text, as: type)
        if field != nil { accepted += 1 }
        #expect(Self.sameValue(field, Self.languageValue(text, as: type)), "\(type) '\(text)'")
      }
    }
    #expect(accepted > 3_000)
    for (text, type) in [
      ("$1,00", TaxType.money), ("$0.005", .money), ("$12.345", .money), ("85000.999", .money), ("+3", .number),
      ("1" + String(repeating: "2", count: 34), .number), ("$1,000_000", .money), ("5%", .number), ("1,000", .number),
    ] {
      #expect(Self.parse(text, as: type) == nil, "'\(text)' read as \(type)")
    }
    #expect(Self.parse("$85,000.99", as: .money) == .money(ExactDecimal(significand: 8_500_099, exponent: -2)))
    #expect(Self.parse("85000.9", as: .money) == .money(ExactDecimal(significand: 850_009, exponent: -1)))
    #expect(Self.parser.rejection("$1,00", as: .money) == "commas in an amount must separate groups of three digits")
    #expect(Self.parser.rejection("$0.005", as: .money)?.contains("at most two decimals") == true)
  }

  @Test func fieldsWithOtherSpacesAreTrimmedLikeFoundationDoes() {
    let spaces = [
      "\u{A0}", "\u{1680}", "\u{2003}", "\u{202F}", "\u{3000}", "\u{200B}", "\u{FEFF}", "\u{85}", "\u{2028}", "\u{180E}",
      "\u{301}", "é", " ", "\t",
    ]
    var generator = SeededGenerator(seed: 5)
    for _ in 0..<5_000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...3, using: &generator) { text += spaces[Int.random(in: 0..<spaces.count, using: &generator)] }
      text += ["$12.50", "ON", "7%", "3", "true", "Ann"][Int.random(in: 0..<6, using: &generator)]
      for _ in 0..<Int.random(in: 0...3, using: &generator) { text += spaces[Int.random(in: 0..<spaces.count, using: &generator)] }
      #expect(text.trimmingFieldSpaces == text.trimmingCharacters(in: .whitespaces), "\(Array(text.unicodeScalars))")
      for type in [TaxType.money, .rate, .number, .province, .bool, .text] {
        #expect(Self.sameValue(Self.parse(text, as: type), Self.reference(text, as: type)), "\(type) '\(text)'")
      }
    }
  }
}
