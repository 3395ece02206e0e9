/// Reads a CSV field (or any short text) as a value of a given type, the way `taxpro eval --csv` reads its rows, with
/// exactly the language's literal rules: a Money field is a money literal (`$1,234.56`, `$85_000`; the `$` may be left
/// out since the column says Money), a Rate a rate literal (`13%`), a Number a number literal (`2.5`, `1_000`), each
/// optionally preceded by `-`; `true` or `false`; a province code; or any text. So `$1,00` (a group of two digits),
/// `$0.005` and `85000.999` (more than two decimals), `+3`, and numbers of more than 34 significant digits are
/// refused, as they are in a formula file, rather than rounded or read some other way.
///
/// The reference is `literal(_:as:)`, which runs the language's own lexer on the text. A file of a million rows is read
/// field by field from its bytes: amounts and numbers of the usual shapes (digits, commas in groups of three, at most
/// two decimals for money) and province codes are read without building strings, and give exactly — to the decimal's
/// representation — what the reference gives; anything else goes to the reference.
public struct FieldParser: Sendable {
  /// The province codes and their values, with their bytes packed into an integer for a quick match.
  let provinces: Set<String>
  let provinceKeys: [UInt64]
  let provinceValues: [Value]

  public init(provinces: [String]) {
    self.provinces = Set(provinces)
    var keys: [UInt64] = []
    var values: [Value] = []
    for code in provinces {
      let bytes = Array(code.utf8)
      guard let key = Self.packed(bytes[...]) else { continue }
      keys.append(key)
      values.append(.province(code))
    }
    provinceKeys = keys
    provinceValues = values
  }

  /// Up to 7 ASCII bytes in one integer (with the count, so that no two byte strings share a key); nil otherwise.
  static func packed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64? {
    guard bytes.count >= 1, bytes.count <= 7 else { return nil }
    var key = UInt64(bytes.count)
    for byte in bytes {
      guard byte < 0x80 else { return nil }
      key = key << 8 | UInt64(byte)
    }
    return key
  }

  /// A field's bytes as a value of `type`, or nil when they are not one. Spaces and tabs around the field are ignored
  /// (other Unicode spaces too, as the string path trims them).
  public func parse(_ field: UnsafeBufferPointer<UInt8>, as type: TaxType) -> Value? {
    switch type {
    case .money:
      if let amount = Self.plainDecimal(field, money: true) { return .money(amount) }
    case .number:
      if let number = Self.plainDecimal(field, money: false) { return .number(number) }
    case .province:
      if let key = Self.packed(Self.trimmingASCIISpaces(field)) {
        for index in provinceKeys.indices where provinceKeys[index] == key { return provinceValues[index] }
      }
    default:
      break
    }
    return parse(String(decoding: field, as: UTF8.self).trimmingFieldSpaces, as: type)
  }

  /// The field without the spaces and tabs around it.
  @inline(__always)
  static func trimmingASCIISpaces(_ field: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = field.count
    while start < end, field[start] == 32 || field[start] == 9 { start += 1 }
    while end > start, field[end - 1] == 32 || field[end - 1] == 9 { end -= 1 }
    return UnsafeBufferPointer(rebasing: field[start..<end])
  }

  /// The usual shapes in one pass: spaces, an optional `-`, for money an optional `$`, digits (for money in groups of
  /// three separated by commas), an optional point with one or more digits (for money at most two), spaces; at most 19
  /// significant digits. The value is what `ExactDecimal.parse(digits:)` makes of the same digits. Nil for anything
  /// else, which the reference then reads or refuses.
  @inline(__always)
  static func plainDecimal(_ field: UnsafeBufferPointer<UInt8>, money: Bool) -> ExactDecimal? {
    var index = 0
    let count = field.count
    while index < count, field[index] == 32 || field[index] == 9 { index += 1 }
    var negative = false
    if index < count, field[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    if money, index < count, field[index] == UInt8(ascii: "$") { index += 1 }
    var magnitude: UInt64 = 0
    var exponent = 0
    var kept = 0
    // The integer part: the length of the current group of digits and of the first one, and whether commas came.
    var group = 0
    var firstGroup = -1
    while index < count {
      let byte = field[index]
      let digit = byte &- 48
      if digit < 10 {
        group += 1
        if kept != 0 || digit != 0 {
          guard kept < 19 else { return nil }
          magnitude = magnitude &* 10 &+ UInt64(digit)
          kept += 1
        }
      } else if money && byte == UInt8(ascii: ",") {
        if firstGroup < 0 {
          guard group >= 1 && group <= 3 else { return nil }
          firstGroup = group
        } else if group != 3 {
          return nil
        }
        group = 0
      } else {
        break
      }
      index += 1
    }
    guard group > 0, firstGroup < 0 || group == 3 else { return nil }
    if index < count, field[index] == UInt8(ascii: ".") {
      index += 1
      var decimals = 0
      while index < count {
        let digit = field[index] &- 48
        guard digit < 10 else { break }
        decimals += 1
        exponent -= 1
        if kept != 0 || digit != 0 {
          guard kept < 19 else { return nil }
          magnitude = magnitude &* 10 &+ UInt64(digit)
          kept += 1
        }
        index += 1
      }
      guard decimals > 0, !money || decimals <= 2 else { return nil }
    }
    while index < count {
      guard field[index] == 32 || field[index] == 9 else { return nil }
      index += 1
    }
    if magnitude == 0 { return .zero }
    // Far below the point the decimal's range ends; leave that to the reference.
    guard exponent >= -60 else { return nil }
    return ExactDecimal(negative: negative, magnitude: UInt128(magnitude), exponent: exponent)
  }

  /// A field's text (already trimmed) as a value of `type`: the reference path.
  public func parse(_ text: String, as type: TaxType) -> Value? {
    switch type {
    case .money, .rate, .number:
      return Self.literal(text, as: type).value
    case .bool:
      return text == "true" ? .bool(true) : (text == "false" ? .bool(false) : nil)
    case .province:
      return provinces.contains(text) ? .province(text) : nil
    case .text:
      return .text(text)
    case .brackets, .federal, .error:
      return nil
    }
  }

  /// Why `text` (trimmed) is not a value of `type`, in the words of the language's own diagnostic when it has one
  /// ("commas in an amount must separate groups of three digits"); nil when there is nothing more to say than that
  /// it is not one.
  public func rejection(_ text: String, as type: TaxType) -> String? {
    switch type {
    case .money, .rate, .number: return Self.literal(text, as: type).reason
    default: return nil
    }
  }

  /// `text` as a literal of `type` (Money, Rate or Number), optionally preceded by `-`, read by the language's lexer
  /// and valued as the parser values literals; or why it is not one.
  static func literal(_ text: String, as type: TaxType) -> (value: Value?, reason: String?) {
    var body = Substring(text)
    var negative = false
    if body.hasPrefix("-") {
      negative = true
      body = body.dropFirst()
    }
    let kind: TokenKind
    var written = String(body)
    switch type {
    case .money:
      kind = .money
      if !written.hasPrefix("$") { written = "$" + written }
    case .rate: kind = .rate
    case .number: kind = .number
    default: return (nil, nil)
    }
    let source = SourceFile(id: FileID(0), name: "", text: written)
    let lexed = Lexer.lex(source)
    // Warnings (a leading zero, `007`) do not make a field wrong; the literal's errors do.
    if let problem = lexed.diagnostics.first(where: { $0.severity == .error }) {
      // The lexer's word on a literal that starts as one (`$1,00`, `$0.005`); `abc` is just not an amount.
      let start = body.utf8.first ?? 0
      let startsAsLiteral = (start >= 48 && start <= 57) || (type == .money && start == UInt8(ascii: "$"))
      return (nil, startsAsLiteral ? problem.message : nil)
    }
    let tokens = lexed.tokens.filter { $0.kind != .endOfFile && $0.kind != .newline }
    guard lexed.comments.isEmpty, tokens.count == 1, let token = tokens.first, token.kind == kind, token.start == 0,
      Int(token.end) == source.bytes.count
    else { return (nil, nil) }
    // The parser's reading of the token: its digits, separators, `$` and `%` aside.
    let digits = source.bytes[(kind == .money ? 1 : 0)..<Int(token.end)]
    let value: ExactDecimal
    do {
      let parsed = try ExactDecimal.parse(scientific: digits)
      guard parsed.isExact else {
        return (nil, "it has more digits than TaxPro keeps exactly (\(ExactDecimal.precision) significant digits)")
      }
      value = negative ? -parsed.value : parsed.value
    } catch {
      return (nil, "it is too large (TaxPro's numbers stay below 10^100)")
    }
    switch kind {
    case .money: return (.money(value.rounded(places: 2, .halfAwayFromZero)), nil)
    case .rate: return (.rate((try? value.scaled(byPowerOfTen: -2)) ?? .zero), nil)
    default: return (.number(value), nil)
    }
  }
}

extension String {
  /// The string without the spaces around it, as Foundation's `trimmingCharacters(in: .whitespaces)` gives it (the
  /// core does not import Foundation): the scalars of general category Zs, the tab and U+200B, one by one.
  var trimmingFieldSpaces: String {
    let scalars = unicodeScalars
    let isSpace: (Unicode.Scalar) -> Bool = {
      $0.value == 9 || $0.value == 0x200B || $0.properties.generalCategory == .spaceSeparator
    }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }
}
