/// The words and symbols of the language in one table: the lexer recognises keywords and operators from it,
/// completion offers and documents keywords from it, token spellings (in messages, the formatter) come from it, and
/// `taxpro vocabulary` prints it for the test that holds the editor grammars, `grammar/taxpro.lark` and the fuzz
/// dictionary to it. Types are `TaxType.writable`; built-in functions are `Builtin`, each declared once.
public enum Vocabulary {
  /// Where completion offers a keyword.
  public enum Placement: Sendable {
    /// At the start of a line at the top level: `formula`, `let`, `test`, …
    case declaration
    /// Where an expression can start: `if`, `not`, `brackets`, `true`, `false`.
    case expression
    /// After a complete operand: `and`, `or`, `then`, `else`.
    case infix
    /// At the start of a line in a jurisdiction: `year`.
    case yearBlock
    /// Never offered as a keyword (`federal` is offered as a jurisdiction; `in` follows a parameter's type).
    case none
  }

  public struct Keyword: Sendable {
    public let spelling: String
    public let kind: TokenKind
    /// Reserved everywhere, or a keyword only where its construct starts (`province XX`, `parameters Name {`,
    /// `test "…"`, `year 2025`) and an ordinary name elsewhere.
    public let isReserved: Bool
    public let placement: Placement
    /// Completion's one line about it.
    public let help: String?
  }

  public static let keywords: [Keyword] = [
    Keyword(
      spelling: "formula", kind: .kwFormula, isReserved: true, placement: .declaration,
      help: "Declares a formula: `formula name(income: Money): Money = …`"),
    Keyword(
      spelling: "let", kind: .kwLet, isReserved: true, placement: .declaration,
      help: "Names a value: `let name = expression`"),
    Keyword(
      spelling: "test", kind: .kwTest, isReserved: false, placement: .declaration,
      help: "A block of checks: `test \"name\" { expression == expected }`"),
    Keyword(
      spelling: "parameters", kind: .kwParameters, isReserved: false, placement: .declaration,
      help: "Declares what every jurisdiction must define: `parameters Province { … }`"),
    Keyword(
      spelling: "province", kind: .kwProvince, isReserved: false, placement: .declaration,
      help: "Declares a province or territory and its figures by year: `province ON \"Ontario\" { year 2025 { … } }`"),
    Keyword(spelling: "federal", kind: .kwFederal, isReserved: true, placement: .none, help: nil),
    Keyword(
      spelling: "year", kind: .kwYear, isReserved: false, placement: .yearBlock,
      help: "The figures of one tax year: `year 2025 { name = value }`"),
    Keyword(
      spelling: "brackets", kind: .kwBrackets, isReserved: true, placement: .expression,
      help: "A bracket table: `brackets { $0 -> 15%  $57,375 -> 20.5% }`"),
    Keyword(
      spelling: "if", kind: .kwIf, isReserved: true, placement: .expression,
      help: "`if condition then value else other`"),
    Keyword(
      spelling: "then", kind: .kwThen, isReserved: true, placement: .infix,
      help: "The value when the `if` condition is true"),
    Keyword(
      spelling: "else", kind: .kwElse, isReserved: true, placement: .infix,
      help: "The value when the `if` condition is false"),
    Keyword(spelling: "and", kind: .kwAnd, isReserved: true, placement: .infix, help: "True when both sides are true"),
    Keyword(spelling: "or", kind: .kwOr, isReserved: true, placement: .infix, help: "True when either side is true"),
    Keyword(
      spelling: "not", kind: .kwNot, isReserved: true, placement: .expression,
      help: "`not condition`: true when the condition is false"),
    Keyword(spelling: "in", kind: .kwIn, isReserved: true, placement: .none, help: nil),
    Keyword(
      spelling: "mod", kind: .kwMod, isReserved: true, placement: .infix,
      help: "The remainder of a division, with the sign of the divisor: `10 mod 3` is 1, `-7 mod 3` is 2"),
    Keyword(
      spelling: "of", kind: .kwOf, isReserved: true, placement: .infix,
      help: "A rate of an amount: `10% of $200` is `$200 * 10%`, $20.00"),
    Keyword(spelling: "true", kind: .kwTrue, isReserved: true, placement: .expression, help: nil),
    Keyword(spelling: "false", kind: .kwFalse, isReserved: true, placement: .expression, help: nil),
  ]

  /// Operators and punctuation, one or two ASCII characters each.
  public static let symbols: [(spelling: String, kind: TokenKind)] = [
    ("+", .plus), ("-", .minus), ("*", .star), ("/", .slash), ("(", .leftParen), (")", .rightParen),
    ("{", .leftBrace), ("}", .rightBrace), (",", .comma), (":", .colon), (".", .dot), ("..", .dotDot),
    ("=", .equal), ("==", .equalEqual), ("!=", .bangEqual), ("<", .less), ("<=", .lessEqual), (">", .greater),
    (">=", .greaterEqual), ("->", .arrow), ("^", .caret),
  ]

  /// The typographic signs that explanations print and people copy, each read as the ASCII operator of its kind.
  public static let symbolAliases: [(spelling: String, kind: TokenKind)] = [
    ("\u{00D7}", .star), ("\u{00F7}", .slash), ("\u{2212}", .minus),
  ]

  /// Every keyword, symbol, type, built-in function and diagnostic code, a line each (`keyword formula reserved`,
  /// `symbol ->`, `type Money`, `builtin min min(x: T, …): T`, `diagnostic type-mismatch error`): what the hidden
  /// `taxpro vocabulary` prints for the tests of the editor grammars, `grammar/taxpro.lark`, the fuzz dictionary and
  /// `docs/LANGUAGE.md`.
  public static var listing: String {
    var lines = keywords.map { "keyword \($0.spelling) \($0.isReserved ? "reserved" : "contextual")" }
    lines += (symbols + symbolAliases).map { "symbol \($0.spelling)" }
    lines += TaxType.writable.map { "type \($0)" }
    lines += Builtin.allCases.map { "builtin \($0.name) \($0.declaration.signature)" }
    lines += DiagnosticCode.allCases.map { "diagnostic \($0.rawValue) \($0.severity.rawValue)" }
    lines += Documentation.fieldNames.map { "documentation \($0)" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The keyword spelled `word`, reserved or contextual.
  public static func keyword(_ word: String) -> Keyword? { keywords.first { $0.spelling == word } }

  /// The keyword of a token kind.
  public static func keyword(_ kind: TokenKind) -> Keyword? { keywords.first { $0.kind == kind } }

  /// Each token kind's fixed spelling (empty for names, literals and the like), by raw value.
  static let spellings: [String] = {
    var spellings = Array(repeating: "", count: Int(TokenKind.endOfFile.rawValue) + 1)
    for keyword in keywords { spellings[Int(keyword.kind.rawValue)] = keyword.spelling }
    for symbol in symbols where spellings[Int(symbol.kind.rawValue)].isEmpty {
      spellings[Int(symbol.kind.rawValue)] = symbol.spelling
    }
    return spellings
  }()

  /// The binary operator each token kind stands for, by raw value: matched by spelling, so an operator and its token
  /// cannot disagree.
  static let binaryOperators: [BinaryOperator?] = {
    var operators = [BinaryOperator?](repeating: nil, count: spellings.count)
    for op in BinaryOperator.allCases {
      if let index = spellings.firstIndex(of: op.rawValue) { operators[index] = op }
    }
    return operators
  }()

  /// The reserved words, for the lexer.
  static let reservedWords = WordTable(keywords.filter(\.isReserved).map { ($0.spelling, $0.kind) })
  /// The contextual keywords, for the parser (which decides by what follows whether a name is one).
  static let contextualWords = WordTable(keywords.filter { !$0.isReserved }.map { ($0.spelling, $0.kind) })
  /// The operators and punctuation, for the lexer.
  static let symbolTable = PunctuationTable(symbols + symbolAliases)
}

/// Words looked up by their bytes without making a string: asked of every name the lexer reads, so it must cost little
/// more than the name itself. Candidates are bucketed by length and first letter; a bucket holds one or two words.
struct WordTable: Sendable {
  /// Every word's bytes, one after another.
  let bytes: [UInt8]
  /// Per word, in bucket order: where its bytes start, its length and its kind.
  let words: [(start: Int32, length: Int32, kind: TokenKind)]
  /// `words[bucketStarts[b]..<bucketStarts[b + 1]]` is bucket `b`.
  let bucketStarts: [Int32]
  let longest: Int

  static func bucket(length: Int, first: UInt8) -> Int { length &* 32 &+ Int(first & 31) }

  init(_ entries: [(String, TokenKind)]) {
    let longest = entries.map(\.0.utf8.count).max() ?? 0
    let sorted = entries.sorted {
      Self.bucket(length: $0.0.utf8.count, first: $0.0.utf8.first ?? 0)
        < Self.bucket(length: $1.0.utf8.count, first: $1.0.utf8.first ?? 0)
    }
    var bytes: [UInt8] = []
    var words: [(start: Int32, length: Int32, kind: TokenKind)] = []
    var starts = [Int32](repeating: 0, count: Self.bucket(length: longest + 1, first: 0) + 1)
    for (word, kind) in sorted {
      words.append((Int32(bytes.count), Int32(word.utf8.count), kind))
      bytes += word.utf8
      starts[Self.bucket(length: word.utf8.count, first: word.utf8.first ?? 0) + 1] += 1
    }
    for index in starts.indices.dropFirst() { starts[index] += starts[index - 1] }
    self.bytes = bytes
    self.words = words
    self.bucketStarts = starts
    self.longest = longest
  }

  /// The kind of the word spelled by `source[start..<end]`, if it is one of the table's.
  func kind(_ source: [UInt8], _ start: Int, _ end: Int) -> TokenKind? {
    guard start >= 0, start <= end, end <= source.count else { return nil }
    return source.withUnsafeBufferPointer { kind($0, start, end) }
  }

  /// `kind` on the lexer's buffer; `start..<end` must be within it.
  @inline(__always) func kind(_ source: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> TokenKind? {
    let length = end - start
    guard length > 0, length <= longest else { return nil }
    let bucket = Self.bucket(length: length, first: source[start])
    var index = Int(bucketStarts[bucket])
    let stop = Int(bucketStarts[bucket + 1])
    while index < stop {
      let word = words[index]
      var offset = 0
      let wordStart = Int(word.start)
      while offset < length, bytes[wordStart + offset] == source[start + offset] { offset += 1 }
      if offset == length { return word.kind }
      index += 1
    }
    return nil
  }
}

/// Operators and punctuation by their first byte and, for two-character ones, their second.
struct PunctuationTable: Sendable {
  /// The one-character symbol each byte is, if any.
  let single: [TokenKind?]
  /// The byte that makes a two-character symbol after each byte (0 for none), and that symbol.
  let second: [UInt8]
  let pair: [TokenKind?]
  /// Symbols outside ASCII (`×`), by their UTF-8 bytes.
  let unicode: [(bytes: [UInt8], kind: TokenKind)]
  /// `single` and `second` in one byte per byte, for the lexer's loop: the single symbol's raw value plus one in the
  /// low seven bits (0 for none), and 0x80 when a two-character symbol starts with the byte.
  let ascii: [UInt8]

  init(_ symbols: [(spelling: String, kind: TokenKind)]) {
    var single = [TokenKind?](repeating: nil, count: 256)
    var second = [UInt8](repeating: 0, count: 256)
    var pair = [TokenKind?](repeating: nil, count: 256)
    var unicode: [(bytes: [UInt8], kind: TokenKind)] = []
    for symbol in symbols {
      let bytes = Array(symbol.spelling.utf8)
      if bytes.contains(where: { $0 >= 0x80 }) {
        unicode.append((bytes, symbol.kind))
      } else if bytes.count == 1 {
        single[Int(bytes[0])] = symbol.kind
      } else if bytes.count == 2 {
        // One two-character symbol per first character (a test lexes every symbol of the table as itself).
        second[Int(bytes[0])] = bytes[1]
        pair[Int(bytes[0])] = symbol.kind
      }
    }
    self.ascii = (0..<256).map { byte in
      (second[byte] != 0 ? 0x80 : 0) | (single[byte].map { $0.rawValue + 1 } ?? 0)
    }
    self.single = single
    self.second = second
    self.pair = pair
    self.unicode = unicode
  }
}
