/// The kinds of token. Their spellings, and which keywords are reserved, are in `Vocabulary`; type names such as
/// `Money` are ordinary identifiers.
public enum TokenKind: UInt8, Sendable {
  case identifier, number, money, rate, string
  // Keywords.
  case kwFormula, kwLet, kwTest, kwParameters, kwProvince, kwFederal, kwYear, kwBrackets
  case kwIf, kwThen, kwElse, kwAnd, kwOr, kwNot, kwIn, kwMod, kwOf, kwTrue, kwFalse
  // Punctuation and operators.
  case plus, minus, star, slash, leftParen, rightParen, leftBrace, rightBrace, comma, colon, dot, dotDot
  case equal, equalEqual, bangEqual, less, lessEqual, greater, greaterEqual, arrow, caret
  /// A line break that ends a statement (see `StatementEnds`, in `Lexer.swift`); other line breaks produce no token.
  case newline
  /// A character or literal the lexer could not make sense of (already reported).
  case invalid
  case endOfFile

  public var isKeyword: Bool { rawValue >= TokenKind.kwFormula.rawValue && rawValue <= TokenKind.kwFalse.rawValue }

  /// A token that can end a statement: a line break after it may end the statement.
  var canEndStatement: Bool {
    switch self {
    case .identifier, .number, .money, .rate, .string, .rightParen, .rightBrace, .kwTrue, .kwFalse, .kwFederal,
      .invalid:
      true
    default: false
    }
  }

  /// A token that can begin a statement: a line break before it may end the statement before. Binary operators other
  /// than `-`, `then` and `else` cannot, so a line starting with one continues the line above.
  var canStartStatement: Bool {
    switch self {
    case .identifier, .number, .money, .rate, .string, .leftParen, .minus, .dot, .kwNot, .kwIf, .kwLet, .kwFormula,
      .kwBrackets, .kwFederal, .kwTrue, .kwFalse, .invalid:
      true
    default: false
    }
  }

  /// How the parser names this token in messages.
  public var displayName: String {
    switch self {
    case .identifier: "a name"
    case .number: "a number"
    case .money: "an amount of money"
    case .rate: "a rate"
    case .string: "a text"
    case .invalid: "an invalid token"
    case .newline: "the end of the line"
    case .endOfFile: "the end of the input"
    default: "'\(spelling)'"
    }
  }

  /// The fixed spelling of keywords and punctuation (`Vocabulary`); empty for names, literals and the like.
  public var spelling: String { Vocabulary.spellings[Int(rawValue)] }
}

/// One token: its kind, its bytes, and where its line starts (for the layout rule that continues expressions).
///
/// A large file has millions of tokens, so the 32-bit fields come first and the two one-byte ones last: 20 bytes
/// apart in an array rather than 24.
public struct Token: Sendable {
  public var start: Int32
  public var end: Int32
  /// Byte column of the token within its line (0-based).
  public var column: Int32
  /// Indentation (byte columns) of the token's line.
  public var lineIndent: Int32
  public var kind: TokenKind
  /// True for the first token on its line.
  public var startsLine: Bool

  public init(kind: TokenKind, start: Int32, end: Int32, column: Int32, startsLine: Bool, lineIndent: Int32) {
    self.kind = kind
    self.start = start
    self.end = end
    self.column = column
    self.startsLine = startsLine
    self.lineIndent = lineIndent
  }

  public var range: Range<Int> { Int(start)..<Int(end) }
}

/// A `#` or `##` comment, kept beside the tokens for documentation, formatting and highlighting.
public struct Comment: Sendable {
  public var span: Span
  public var isDocumentation: Bool
  /// The text after `#` or `##` and one optional space.
  public var text: String
  /// True when the comment is the only thing on its line.
  public var ownLine: Bool
}
