extension LSP {
  /// The names of the token types and modifiers the server uses; tokens refer to them by index, so the legend
  /// is sent once in the capabilities and the token data stays a flat integer array.
  public struct SemanticTokensLegend: Hashable, Sendable, JSONConvertible {
    public var tokenTypes: [String]
    public var tokenModifiers: [String]

    public init(tokenTypes: [String], tokenModifiers: [String]) {
      self.tokenTypes = tokenTypes
      self.tokenModifiers = tokenModifiers
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SemanticTokensLegend")
      tokenTypes = try fields.decode("tokenTypes")
      tokenModifiers = try fields.decode("tokenModifiers")
    }

    public func toJSON() -> JSON { ["tokenTypes": tokenTypes.toJSON(), "tokenModifiers": tokenModifiers.toJSON()] }
  }

  /// The predefined token type names that themes know how to colour.
  public enum SemanticTokenTypes {
    public static let namespace = "namespace"
    public static let type = "type"
    public static let `class` = "class"
    public static let `enum` = "enum"
    public static let interface = "interface"
    public static let `struct` = "struct"
    public static let typeParameter = "typeParameter"
    public static let parameter = "parameter"
    public static let variable = "variable"
    public static let property = "property"
    public static let enumMember = "enumMember"
    public static let event = "event"
    public static let function = "function"
    public static let method = "method"
    public static let macro = "macro"
    public static let keyword = "keyword"
    public static let modifier = "modifier"
    public static let comment = "comment"
    public static let string = "string"
    public static let number = "number"
    public static let regexp = "regexp"
    public static let `operator` = "operator"
    public static let decorator = "decorator"
  }

  /// The predefined token modifier names.
  public enum SemanticTokenModifiers {
    public static let declaration = "declaration"
    public static let definition = "definition"
    public static let readonly = "readonly"
    public static let `static` = "static"
    public static let deprecated = "deprecated"
    public static let abstract = "abstract"
    public static let async = "async"
    public static let modification = "modification"
    public static let documentation = "documentation"
    public static let defaultLibrary = "defaultLibrary"
  }

  /// `textDocument/semanticTokens/range` params: tokens for the visible part only, for fast first paint.
  public struct SemanticTokensRangeParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var range: Range

    public init(textDocument: TextDocumentIdentifier, range: Range) {
      self.textDocument = textDocument
      self.range = range
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SemanticTokensRangeParams")
      textDocument = try fields.decode("textDocument")
      range = try fields.decode("range")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON(), "range": range.toJSON()] }
  }

  /// The result of `textDocument/semanticTokens/full` and `/range`: five integers per token, relative to the
  /// previous token. Build `data` with `SemanticTokensBuilder` rather than by hand.
  public struct SemanticTokens: Hashable, Sendable, JSONConvertible {
    public var resultId: String?
    public var data: [Int]

    public init(resultId: String? = nil, data: [Int]) {
      self.resultId = resultId
      self.data = data
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SemanticTokens")
      resultId = try fields.decodeIfPresent("resultId")
      data = try fields.decode("data")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("resultId", ifPresent: resultId)
      object.put("data", data)
      return .object(object)
    }
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

    /// Sorts the tokens and encodes them; `resultId` enables delta requests later.
    public func build(resultId: String? = nil) -> SemanticTokens {
      let sorted = tokens.sorted { ($0.line, $0.character) < ($1.line, $1.character) }
      var data: [Int] = []
      data.reserveCapacity(sorted.count * 5)
      var previousLine = 0
      var previousCharacter = 0
      for token in sorted {
        let deltaLine = token.line - previousLine
        let deltaStart = deltaLine == 0 ? token.character - previousCharacter : token.character
        data.append(contentsOf: [deltaLine, deltaStart, token.length, token.type, token.modifiers])
        previousLine = token.line
        previousCharacter = token.character
      }
      return SemanticTokens(resultId: resultId, data: data)
    }
  }
}
