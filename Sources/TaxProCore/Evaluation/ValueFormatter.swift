/// Prints values the way the brief's table says: `$1,234.56`, `-$12.00`, `13%`, `15.0198%`, `0.333333333333`, `2.5`.
public enum ValueFormatter {
  /// Significant digits shown for a `Number` that is not exact (`:digits` and `--digits` choose others).
  public static let numberDigits = 12
  /// Decimals of a percentage shown for a `Rate`.
  public static let rateDecimals = 4

  /// The value as TaxPro shows it; `digits` is how many significant digits a Number that is not exact shows.
  public static func format(_ value: Value, digits: Int = numberDigits) -> String {
    switch value {
    case .money(let amount): money(amount)
    case .rate(let rate): self.rate(rate)
    case .number(let number): self.number(number, digits: digits)
    case .bool(let flag): flag ? "true" : "false"
    case .text(let text): text
    case .province(let code): code
    case .brackets(let table): brackets(table)
    }
  }

  /// Appends the UTF-8 of `format(value)` to `output`; amounts of money are written digit by digit without
  /// intermediate strings (a CSV file of a million rows prints a million of them).
  public static func write(_ value: Value, to output: inout [UInt8]) {
    if case .money(let amount) = value, writeMoney(amount, to: &output) { return }
    output.append(contentsOf: format(value).utf8)
  }

  /// `money(amount)` appended to `output`, for amounts below 2^64 cents; false (and nothing written) for others.
  static func writeMoney(_ amount: ExactDecimal, to output: inout [UInt8]) -> Bool {
    let rounded = amount.rounded(places: 2, .halfAwayFromZero)
    // Rounded to two places, the exponent is -2 or more: the value is magnitude × 10^(exponent + 2) cents.
    let shift = rounded.exponent + 2
    guard rounded.magnitude >> 64 == 0, shift >= 0, shift < powersOfTen64.count else { return false }
    let (cents, overflow) = UInt64(truncatingIfNeeded: rounded.magnitude).multipliedReportingOverflow(
      by: powersOfTen64[shift])
    guard !overflow else { return false }
    // Written backwards into a buffer on the stack (2^64 cents take at most 28 bytes with the sign, `$`, the point and
    // the commas), two digits at a time, then appended at once.
    var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    withUnsafeMutableBytes(of: &buffer) { raw in
      let pairs = digitPairs.utf8Start
      var position = raw.count
      func put(_ byte: UInt8) {
        position -= 1
        raw[position] = byte
      }
      func putPair(_ value: UInt64) {
        position -= 2
        raw[position] = pairs[Int(value) * 2]
        raw[position + 1] = pairs[Int(value) * 2 + 1]
      }
      putPair(cents % 100)
      put(UInt8(ascii: "."))
      var rest = cents / 100
      while rest >= 1000 {
        let group = rest % 1000
        rest /= 1000
        putPair(group % 100)
        put(UInt8(48 + group / 100))
        put(UInt8(ascii: ","))
      }
      if rest >= 100 {
        putPair(rest % 100)
        put(UInt8(48 + rest / 100))
      } else if rest >= 10 {
        putPair(rest)
      } else {
        put(UInt8(48 + rest))
      }
      put(UInt8(ascii: "$"))
      if rounded.isNegative { put(UInt8(ascii: "-")) }
      output.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
    }
    return true
  }

  /// "00" to "99", for writing two digits at once.
  static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// `$85,000.00`, `-$12.00`.
  public static func money(_ amount: ExactDecimal) -> String {
    var bytes: [UInt8] = []
    if writeMoney(amount, to: &bytes) { return String(decoding: bytes, as: UTF8.self) }
    return moneyGeneral(amount)
  }

  /// `money` for any amount, through strings (kept as the reference of the fast path).
  static func moneyGeneral(_ amount: ExactDecimal) -> String {
    // A zero written with a positive exponent (`ExactDecimal(significand: 0, exponent: 3)`) is still `$0.00`.
    let cents = amount.isZero ? .zero : amount.rounded(places: 2, .halfAwayFromZero)
    let plain = fixed(cents.absoluteValue, decimals: 2)
    let parts = plain.split(separator: ".", maxSplits: 1)
    let integer = groupThousands(String(parts[0]))
    let fraction = parts.count > 1 ? String(parts[1]) : "00"
    return (cents.isNegative ? "-$" : "$") + integer + "." + fraction
  }

  /// `13%`, `15.0198%`, `-2.5%`: the percentage in full when it has at most four decimals and is exact, so that it
  /// reads back as the same rate. Any other shows its first four decimals, cut off rather than rounded, and the mark
  /// Numbers get: `33.3333…%` (`1/3` as a rate), `432.1942…%` (`(1 + 5%)^30`), `0.0000…%` (a rate below a
  /// millionth of a percent); `≈ 25%` when the digits shown are all it has but it was rounded on the way.
  public static func rate(_ fraction: ExactDecimal) -> String {
    let percent = (try? fraction.scaled(byPowerOfTen: 2)) ?? fraction
    let cut = percent.rounded(places: rateDecimals, .towardZero).marked(inexact: false)
    if cut != percent {
      let shown = fixed(cut.absoluteValue, decimals: rateDecimals)
      return (percent.isNegative ? "-" : "") + shown + "…%"
    }
    return (percent.isInexact ? "≈ " : "") + trimmed(cut) + "%"
  }

  /// A Number as it is: every digit when it is exact (TaxPro keeps at most 34), so that what is shown is the value and
  /// reads back as it (`12345678901234`, `0.1`, `1.2e39`). A value that was rounded on the way (`1/3`, `sqrt(2)`, a
  /// product longer than 34 digits) shows its first `digits` significant digits, cut off rather than rounded, and a
  /// mark: `0.333333333333…`, or `≈ 1.21932631137e39` in scientific notation, or `≈ 2` when the digits shown are all
  /// it has. The whole part of a number below 10^34 is always shown in full. Scientific notation is used from 10^34 up
  /// and below 10^-6.
  public static func number(_ value: ExactDecimal, digits: Int = numberDigits) -> String {
    if value.isZero { return value.isInexact ? "≈ 0" : "0" }
    guard value.isInexact else { return plainOrScientific(value.trimmed) }
    let (all, exponent) = value.trimmed.digitsAndExponent
    let adjusted = exponent + all.count - 1
    // A whole part is never cut into zeros (`33333333333333…`, not `33333333333300…`).
    let wanted = adjusted < ExactDecimal.precision ? max(digits, adjusted + 1) : digits
    let shown = max(1, min(wanted, ExactDecimal.precision))
    let cut = value.rounded(places: shown - 1 - adjusted, .towardZero).trimmed.marked(inexact: false)
    let text = plainOrScientific(cut)
    if all.count <= shown { return "≈ " + text }
    return text.contains("e") ? "≈ " + text : text + "…"
  }

  /// Plain notation for magnitudes from 10^-6 to below 10^34, scientific (`1.2e39`, `2.5e-7`) beyond.
  static func plainOrScientific(_ value: ExactDecimal) -> String {
    let (digits, exponent) = value.digitsAndExponent
    let adjusted = exponent + digits.count - 1
    if adjusted >= ExactDecimal.precision || adjusted < -6 {
      var text = value.isNegative ? "-" : ""
      text += String(digits[0])
      if digits.count > 1 { text += "." + digits.dropFirst().map(String.init).joined() }
      return text + "e" + String(adjusted)
    }
    return trimmed(value)
  }

  /// Plain notation with trailing fractional zeros removed.
  static func trimmed(_ value: ExactDecimal) -> String {
    value.trimmed.description
  }

  /// Plain notation with exactly `decimals` fractional digits (the value must already be rounded).
  static func fixed(_ value: ExactDecimal, decimals: Int) -> String {
    let (digits, exponent) = value.rounded(places: decimals, .halfAwayFromZero).digitsAndExponent
    var all = digits.map { Character(String($0)) }
    var scale = -exponent
    while scale < decimals {
      all.append("0")
      scale += 1
    }
    while all.count <= decimals { all.insert("0", at: 0) }
    let split = all.count - decimals
    let integer = String(all[..<split])
    return decimals == 0 ? integer : integer + "." + String(all[split...])
  }

  static func groupThousands(_ integer: String) -> String {
    let characters = Array(integer)
    var result = ""
    result.reserveCapacity(characters.count + characters.count / 3)
    for (position, character) in characters.enumerated() {
      if position > 0 && (characters.count - position) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return result
  }

  /// A bracket table on one line: `brackets { $0 -> 5.05%, $52,886 -> 9.15% }`.
  public static func brackets(_ table: BracketTable) -> String {
    "brackets { " + table.rows.map { money($0.threshold) + " -> " + rate($0.rate) }.joined(separator: ", ") + " }"
  }

  /// Source text that evaluates to the value (for `ans`, fixes and saved inputs).
  public static func literal(_ value: Value) -> String {
    switch value {
    case .text(let text):
      "\"" + text.replacingOccurrences("\\", with: "\\\\").replacingOccurrences("\"", with: "\\\"") + "\""
    case .rate(let fraction):
      ((try? fraction.scaled(byPowerOfTen: 2)) ?? fraction).trimmed.description + "%"
    case .number(let number): plainOrScientific(number.trimmed)
    default: format(value)
    }
  }
}

extension String {
  /// Foundation-free replacement (the core does not import Foundation).
  func replacingOccurrences(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var remaining = self[...]
    while let range = remaining.range(of: target) {
      result += remaining[..<range.lowerBound]
      result += replacement
      remaining = remaining[range.upperBound...]
    }
    result += remaining
    return result
  }
}

extension Substring {
  func range(of target: String) -> Range<Substring.Index>? {
    guard let first = target.first else { return nil }
    var index = startIndex
    while index < endIndex {
      if self[index] == first, self[index...].hasPrefix(target) {
        return index..<self.index(index, offsetBy: target.count)
      }
      index = self.index(after: index)
    }
    return nil
  }
}
