/// The types of TaxPro values.
public enum TaxType: Hashable, Sendable, CustomStringConvertible {
  case money
  case rate
  case number
  case bool
  case text
  case province
  case brackets
  /// The type of `federal` itself: usable only with a parameter (`federal.income_tax`).
  case federal
  /// The type of an expression that already has an error; it fits anywhere, so one mistake is reported once.
  case error

  public var description: String {
    switch self {
    case .money: "Money"
    case .rate: "Rate"
    case .number: "Number"
    case .bool: "Bool"
    case .text: "Text"
    case .province: "Province"
    case .brackets: "Brackets"
    case .federal: "federal"
    case .error: "<error>"
    }
  }

  /// The type named in source, if any.
  public init?(name: String) {
    // Asked of every name declared, every annotation and every call's callee: a switch on the spelling, not a
    // description built and compared for each type. `writable`'s descriptions are these spellings
    // (`VocabularyTests.typeNamesAreTheWritableTypesSpellings` holds them together). Every spelling begins with a
    // capital and is told apart by its length first: a name that is no type's (most names declared) is then ruled
    // out without comparing strings, and a type's is compared with one or two.
    guard let first = name.utf8.first, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return nil }
    switch name.utf8.count {
    case 4:
      switch name {
      case "Rate": self = .rate
      case "Bool": self = .bool
      case "Text": self = .text
      default: return nil
      }
    case 5 where name == "Money": self = .money
    case 6 where name == "Number": self = .number
    case 8:
      switch name {
      case "Province": self = .province
      case "Brackets": self = .brackets
      default: return nil
      }
    default: return nil
    }
  }

  /// Every type a user can write (the language's type names), for the checker, completion, messages and
  /// `taxpro vocabulary`.
  public static let writable: [TaxType] = [.money, .rate, .number, .bool, .text, .province, .brackets]

  /// `Money, Rate, Number, Bool, Text, Province and Brackets`.
  static var writtenList: String {
    let names = writable.map(\.description)
    return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
  }

  /// Money, Rate and Number.
  public var isNumeric: Bool { self == .money || self == .rate || self == .number }
}
