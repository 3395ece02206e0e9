extension LSP {
  /// `textDocument/semanticTokens/full`: the tokens of the whole document.
  public struct DocumentSemanticTokensRequest: RequestType, Hashable {
    public static let method = "textDocument/semanticTokens/full"

    public static let capability: String? = "semanticTokensProvider"
    public typealias Response = SemanticTokens?

    public var textDocument: TextDocumentIdentifier
  }

  /// The names of the token types and modifiers the server uses; tokens refer to them by index, so the legend
  /// is sent once in the capabilities and the token data stays a flat integer array.
  public struct SemanticTokensLegend: Hashable, Sendable, Codable {
    public var tokenTypes: [String]
    public var tokenModifiers: [String]

    public init(tokenTypes: [String], tokenModifiers: [String]) {
      self.tokenTypes = tokenTypes
      self.tokenModifiers = tokenModifiers
    }
  }

  /// Predefined token type names, which themes know how to colour.
  public enum SemanticTokenTypes {
    public static let namespace = "namespace"
    public static let type = "type"
    public static let interface = "interface"
    public static let parameter = "parameter"
    public static let variable = "variable"
    public static let property = "property"
    public static let enumMember = "enumMember"
    public static let function = "function"
    public static let keyword = "keyword"
    public static let comment = "comment"
    public static let string = "string"
    public static let number = "number"
    public static let `operator` = "operator"
  }

  /// Predefined token modifier names.
  public enum SemanticTokenModifiers {
    public static let declaration = "declaration"
    public static let readonly = "readonly"
    public static let documentation = "documentation"
    public static let defaultLibrary = "defaultLibrary"
  }

  /// The result of `textDocument/semanticTokens/full`: five integers per token, relative to the previous token.
  /// Build `data` with `SemanticTokensBuilder` rather than by hand.
  public struct SemanticTokens: Hashable, Sendable, Codable {
    public var data: [Int]

    public init(data: [Int]) { self.data = data }
  }

  /// Turns tokens with absolute positions into the relative five-integer encoding.
  ///
  /// Tokens may be added in any order; `build()` sorts them, since getting the order wrong is the classic way to
  /// produce garbage colouring. A token must not span lines (split multi-line tokens per line).
  public struct SemanticTokensBuilder: Sendable {
    private struct Token {
      var line: Int
      var character: Int
      var length: Int
      var type: Int
      var modifiers: Int
    }

    private var tokens: [Token] = []

    public init() {}

    /// - Parameters:
    ///   - type: index into the legend's `tokenTypes`.
    ///   - modifiers: bit set of indices into the legend's `tokenModifiers`.
    public mutating func add(line: Int, character: Int, length: Int, type: Int, modifiers: Int = 0) {
      tokens.append(Token(line: line, character: character, length: length, type: type, modifiers: modifiers))
    }

    /// Sorts the tokens (unless they were added in order, as they usually are) and encodes them.
    public func build() -> SemanticTokens {
      func precedes(_ a: Token, _ b: Token) -> Bool { (a.line, a.character) < (b.line, b.character) }
      let inOrder = !zip(tokens.dropFirst(), tokens).contains { precedes($0, $1) }
      let sorted = inOrder ? tokens : tokens.sorted(by: precedes)
      var data: [Int] = []
      data.reserveCapacity(sorted.count * 5)
      var previousLine = 0
      var previousCharacter = 0
      // Five appends, not an array of five per token.
      for token in sorted {
        let deltaLine = token.line - previousLine
        data.append(deltaLine)
        data.append(deltaLine == 0 ? token.character - previousCharacter : token.character)
        data.append(token.length)
        data.append(token.type)
        data.append(token.modifiers)
        previousLine = token.line
        previousCharacter = token.character
      }
      return SemanticTokens(data: data)
    }
  }
}
