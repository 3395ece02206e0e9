import Testing

@testable import TaxProCore

/// The one table of words and symbols is what the lexer reads, and every built-in's declaration is what the checker
/// enforces and the tools show.
struct VocabularyTests {
  static func kinds(_ text: String) -> [TokenKind] {
    Lexer.lex(SourceFile(id: FileID(0), name: "t.tax", text: text)).tokens.map(\.kind).filter { $0 != .endOfFile }
  }

  @Test func everySymbolLexesAsItself() {
    for symbol in Vocabulary.symbols {
      #expect(Self.kinds(symbol.spelling) == [symbol.kind], "\(symbol.spelling)")
      #expect(symbol.kind.spelling == symbol.spelling)
      // Between names too, where no space separates it.
      #expect(Self.kinds("a\(symbol.spelling)b") == [.identifier, symbol.kind, .identifier], "\(symbol.spelling)")
    }
  }

  @Test func everyTypographicSignLexesAsItsOperator() {
    for alias in Vocabulary.symbolAliases {
      #expect(Self.kinds(alias.spelling) == [alias.kind], "\(alias.spelling)")
      #expect(Self.kinds("a\(alias.spelling)b") == [.identifier, alias.kind, .identifier], "\(alias.spelling)")
      // Messages and the formatter spell the kind the ASCII way.
      #expect(alias.kind.spelling != alias.spelling)
    }
  }

  @Test func typeNamesAreTheWritableTypesSpellings() {
    for type in TaxType.writable {
      #expect(TaxType(name: type.description) == type)
      #expect(TaxType(name: type.description.lowercased()) == nil)
      #expect(TaxType(name: type.description + "s") == nil)
    }
    for other in [TaxType.federal, .error] { #expect(TaxType(name: other.description) == nil) }
    #expect(TaxType(name: "") == nil)
  }

  @Test func reservedWordsAreTheirKeywordAndContextualOnesAreNames() {
    for keyword in Vocabulary.keywords {
      #expect(Self.kinds(keyword.spelling) == [keyword.isReserved ? keyword.kind : .identifier], "\(keyword.spelling)")
      #expect(keyword.kind.spelling == keyword.spelling)
      #expect(keyword.kind.isKeyword)
      // A longer or shorter name is not the keyword.
      #expect(Self.kinds(keyword.spelling + "s") == [.identifier])
      #expect(Self.kinds(String(keyword.spelling.dropLast())).allSatisfy { $0 == .identifier })
    }
    #expect(Set(Vocabulary.keywords.map(\.spelling)).count == Vocabulary.keywords.count)
  }

  @Test func everyKeywordAndSymbolKindIsInTheTable() {
    for raw in TokenKind.kwFormula.rawValue...TokenKind.arrow.rawValue {
      guard let kind = TokenKind(rawValue: raw) else { continue }
      #expect(!kind.spelling.isEmpty, "\(kind)")
    }
  }

  @Test func everyBinaryOperatorIsFoundByItsToken() {
    let found = Set(Vocabulary.binaryOperators.compactMap { $0 })
    #expect(found == Set(BinaryOperator.allCases))
  }

  @Test func builtinSignaturesComeFromTheirDeclarations() {
    #expect(Builtin.min.declaration.signature == "min(x: T, …): T")
    #expect(Builtin.round.declaration.signature == "round(x: T, places: Number = 0): T")
    #expect(Builtin.tax.declaration.signature == "tax(b: Brackets, amount: Money): Money")
    #expect(Builtin.min.declaration.arity == 1...Int.max)
    #expect(Builtin.round.declaration.arity == 1...2)
    #expect(Builtin.clamp.declaration.arity == 3...3)
    for builtin in Builtin.allCases {
      #expect(builtin.declaration.name == builtin.name)
      #expect(!builtin.declaration.summary.isEmpty)
    }
  }

  @Test func theCheckerEnforcesEachDeclaration() {
    // Each built-in called with the right types checks; with one argument too many or too few it does not.
    let program = Checker.check([])
    for builtin in Builtin.allCases {
      let declaration = builtin.declaration
      func argument(_ type: BuiltinDeclaration.ValueType) -> String {
        switch type {
        case .numeric: "$1"
        case .exactly(.brackets): "brackets { $0 -> 10% }"
        case .exactly(.number): "2"
        case .exactly(.money): "$5"
        case .exactly(let other): "\(other)"
        }
      }
      let arguments = declaration.parameters.map { argument($0.type) }
      let good = "\(builtin.name)(\(arguments.joined(separator: ", ")))"
      #expect(Self.check(good, program).isEmpty, "\(good)")
      if declaration.arity.lowerBound > 0 {
        let few = "\(builtin.name)(\(arguments.prefix(declaration.arity.lowerBound - 1).joined(separator: ", ")))"
        #expect(Self.check(few, program) == [.wrongArgumentCount], "\(few)")
      }
      if !declaration.isVariadic {
        let many = "\(builtin.name)(\((arguments + ["$1"]).joined(separator: ", ")))"
        #expect(Self.check(many, program) == [.wrongArgumentCount], "\(many)")
      }
      let wrong = "\(builtin.name)(\((["true"] + arguments.dropFirst()).joined(separator: ", ")))"
      #expect(Self.check(wrong, program) == [.typeMismatch], "\(wrong)")
    }
  }

  static func check(_ text: String, _ program: Program) -> [DiagnosticCode] {
    let source = SourceFile(id: FileID(1), name: "<expr>", text: text)
    let tree = Parser.parse(source, mode: .interactive)
    guard case .expression(let expression)? = tree.declarations.first else { return tree.diagnostics.map(\.code) }
    return Checker.check(expression, source: source, against: program).1.map(\.code)
  }
}
