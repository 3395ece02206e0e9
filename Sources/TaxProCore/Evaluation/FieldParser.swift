/// Reads a CSV field (or any short text) as a value of a given type, the way `taxpro eval --csv` reads its rows:
/// `$1,234.56` or `1234.56` for Money (rounded to the cent), `13%` for a Rate, `2.5` for a Number, `true`, a province
/// code, or any text.
///
/// A file of a million rows is read field by field from its bytes: ASCII fields of the usual shapes (digits, one
/// point, separators; a known province code) are read without building strings, and give exactly — to the decimal's
/// representation — what the general path (`parse(_: String, as:)`, kept as the reference) gives.
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

  /// Up to 8 ASCII bytes in one integer (with the count, so that no two byte strings share a key); nil otherwise.
  static func packed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64? {
    guard bytes.count >= 1, bytes.count <= 7 else { return nil }
    var key = UInt64(bytes.count)
    for byte in bytes {
      guard byte < 0x80 else { return nil }
      key = key << 8 | UInt64(byte)
    }
    return key
  }

  /// A field's bytes as a value of `type`, or nil when they are not one. Spaces and tabs around the field are ignored;
  /// a field with non-ASCII bytes is read as a string (whose trimming knows Unicode's spaces).
  public func parse(_ field: UnsafeBufferPointer<UInt8>, as type: TaxType) -> Value? {
    switch type {
    case .money:
      if let amount = Self.plainMoney(field) { return .money(amount) }
    case .province:
      if let key = Self.packed(Self.trimmingASCIISpaces(field)) {
        for index in provinceKeys.indices where provinceKeys[index] == key { return provinceValues[index] }
      }
    default:
      break
    }
    return parseGeneral(field, as: type)
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

  /// The usual shape of an amount in one pass — spaces, an optional `-`, an optional `$`, digits with at most one
  /// point and any `,` and `_`, spaces — as `parseGeneral` reads it; nil for anything else (which it then reads).
  @inline(__always)
  static func plainMoney(_ field: UnsafeBufferPointer<UInt8>) -> ExactDecimal? {
    var index = 0
    let count = field.count
    while index < count, field[index] == 32 || field[index] == 9 { index += 1 }
    var negative = false
    if index < count, field[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    if index < count, field[index] == UInt8(ascii: "$") { index += 1 }
    var magnitude: UInt64 = 0
    var exponent = 0
    var kept = 0
    var digits = 0
    var seenPoint = false
    while index < count {
      let byte = field[index]
      let digit = byte &- 48
      if digit < 10 {
        digits += 1
        if kept != 0 || digit != 0 {
          guard kept < 19 else { return nil }
          magnitude = magnitude &* 10 &+ UInt64(digit)
          kept += 1
          if seenPoint { exponent -= 1 }
        } else if seenPoint {
          // Leading zeros are not kept; after the point they still move the exponent.
          exponent -= 1
        }
      } else if byte == UInt8(ascii: ".") {
        guard !seenPoint else { return nil }
        seenPoint = true
      } else if byte != UInt8(ascii: ",") && byte != UInt8(ascii: "_") {
        break
      }
      index += 1
    }
    while index < count {
      guard field[index] == 32 || field[index] == 9 else { return nil }
      index += 1
    }
    guard digits > 0, exponent >= -60 else { return nil }
    if magnitude == 0 { return .zero }
    let value = ExactDecimal(negative: negative, magnitude: UInt128(magnitude), exponent: exponent)
    return exponent >= -2 ? value : value.rounded(places: 2, .halfAwayFromZero)
  }

  /// `parse(_:as:)` for every type and shape.
  func parseGeneral(_ field: UnsafeBufferPointer<UInt8>, as type: TaxType) -> Value? {
    var start = 0
    var end = field.count
    for byte in field where byte >= 0x80 {
      return parse(String(decoding: field, as: UTF8.self).trimmingFieldSpaces, as: type)
    }
    while start < end, field[start] == 32 || field[start] == 9 { start += 1 }
    while end > start, field[end - 1] == 32 || field[end - 1] == 9 { end -= 1 }
    let bytes = UnsafeBufferPointer(rebasing: field[start..<end])
    switch type {
    case .money:
      var index = 0
      var negative = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
        negative = true
        index += 1
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "$") { index += 1 }
      let digits = UnsafeBufferPointer(rebasing: bytes[index...])
      guard let value = Self.plainDecimal(digits, ignoringCommas: true) ?? Self.decimal(digits, ignoringCommas: true)
      else { return nil }
      return .money((negative ? -value : value).rounded(places: 2, .halfAwayFromZero))
    case .rate:
      guard let last = bytes.last, last == UInt8(ascii: "%") else { return nil }
      let digits = UnsafeBufferPointer(rebasing: bytes.dropLast())
      guard
        let value = Self.plainDecimal(digits, ignoringCommas: false, ignoringUnderscores: false)
          ?? Self.decimal(digits, ignoringCommas: false, ignoringUnderscores: false),
        let fraction = try? value.scaled(byPowerOfTen: -2)
      else { return nil }
      return .rate(fraction)
    case .number:
      return (Self.plainDecimal(bytes, ignoringCommas: false) ?? Self.decimal(bytes, ignoringCommas: false))
        .map { .number($0) }
    case .province:
      if let key = Self.packed(bytes) {
        for index in provinceKeys.indices where provinceKeys[index] == key { return provinceValues[index] }
      }
      return parse(String(decoding: bytes, as: UTF8.self), as: type)
    default:
      return parse(String(decoding: bytes, as: UTF8.self), as: type)
    }
  }

  /// The usual shape of a number — digits, at most one point, the ignored separators, at most 19 significant digits,
  /// no sign — read in 64 bits, exactly as `ExactDecimal.parse(digits:)` reads it; nil for anything else (which
  /// `decimal` then reads, or refuses).
  @inline(__always)
  static func plainDecimal(
    _ bytes: UnsafeBufferPointer<UInt8>, ignoringCommas: Bool, ignoringUnderscores: Bool = true
  ) -> ExactDecimal? {
    var magnitude: UInt64 = 0
    var exponent = 0
    var kept = 0
    var digits = 0
    var seenPoint = false
    for byte in bytes {
      let digit = byte &- 48
      if digit < 10 {
        digits += 1
        if kept == 0 && digit == 0 {
          // Leading zeros are not kept; after the point they still move the exponent.
          if seenPoint { exponent -= 1 }
          continue
        }
        guard kept < 19 else { return nil }
        magnitude = magnitude &* 10 &+ UInt64(digit)
        kept += 1
        if seenPoint { exponent -= 1 }
      } else if byte == UInt8(ascii: ".") {
        guard !seenPoint else { return nil }
        seenPoint = true
      } else if !((ignoringCommas && byte == UInt8(ascii: ",")) || (ignoringUnderscores && byte == UInt8(ascii: "_"))) {
        return nil
      }
    }
    // Far below the point `ExactDecimal` would make the value zero; leave that to the general path.
    guard digits > 0, exponent >= -60 else { return nil }
    if magnitude == 0 { return .zero }
    return ExactDecimal(negative: false, magnitude: UInt128(magnitude), exponent: exponent)
  }

  /// What `ExactDecimal(String)` makes of ASCII bytes once `,` (when asked) and `_` are taken out: an optional sign,
  /// digits and at most one point.
  static func decimal(
    _ bytes: UnsafeBufferPointer<UInt8>, ignoringCommas: Bool, ignoringUnderscores: Bool = true
  ) -> ExactDecimal? {
    func ignored(_ byte: UInt8) -> Bool {
      (ignoringCommas && byte == UInt8(ascii: ",")) || (ignoringUnderscores && byte == UInt8(ascii: "_"))
    }
    var index = 0
    while index < bytes.count, ignored(bytes[index]) { index += 1 }
    var negative = false
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    var digits = 0
    var points = 0
    for byte in bytes[index...] where !ignored(byte) {
      if byte == UInt8(ascii: ".") {
        points += 1
      } else if byte >= 48 && byte <= 57 {
        digits += 1
      } else {
        return nil
      }
    }
    guard digits > 0, points <= 1,
      let parsed = try? ExactDecimal.parse(digits: UnsafeBufferPointer(rebasing: bytes[index...]))
    else { return nil }
    return negative ? -parsed.value : parsed.value
  }

  /// A field's text (already trimmed) as a value of `type`: the general path, through strings.
  public func parse(_ text: String, as type: TaxType) -> Value? {
    switch type {
    case .money:
      var digits = Substring(text)
      var negative = false
      if digits.hasPrefix("-") {
        negative = true
        digits = digits.dropFirst()
      }
      if digits.hasPrefix("$") { digits = digits.dropFirst() }
      let cleaned = digits.filter { $0 != "," && $0 != "_" }
      guard let value = ExactDecimal(cleaned) else { return nil }
      return .money((negative ? -value : value).rounded(places: 2, .halfAwayFromZero))
    case .rate:
      guard text.hasSuffix("%"), let value = ExactDecimal(String(text.dropLast())),
        let fraction = try? value.scaled(byPowerOfTen: -2)
      else { return nil }
      return .rate(fraction)
    case .number:
      return ExactDecimal(text.replacingOccurrences("_", with: "")).map { .number($0) }
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
