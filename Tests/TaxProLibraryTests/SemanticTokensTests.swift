import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `SemanticTokens.tokens` finds each name's occurrence by halving and merges the comments into the tokens; it must
/// answer exactly as its first form did, with a dictionary of the occurrences by start and a sort of everything.
@Suite struct SemanticTokensTests {
  static func reference(
    source: SourceFile, comments: [TaxProCore.Comment], index: SymbolIndex?, program: Program?, libraryFiles: Set<FileID>
  ) -> [SemanticToken] {
    let lexed = Lexer.lex(source).tokens
    var byStart: [Int: SymbolOccurrence] = [:]
    for occurrence in index?.occurrences(in: source.id) ?? [] { byStart[occurrence.span.start] = occurrence }
    var result: [SemanticToken] = []
    func add(_ start: Int, _ end: Int, _ kind: SemanticTokenKind, _ modifiers: Int = 0) {
      result.append(SemanticToken(span: Span(file: source.id, start: start, end: end), kind: kind, modifiers: modifiers))
    }
    for (position, token) in lexed.enumerated() {
      let (start, end) = (Int(token.start), Int(token.end))
      switch token.kind {
      case .endOfFile, .newline, .invalid: continue
      case .number, .money, .rate: add(start, end, .number)
      case .string: add(start, end, .string)
      case .identifier:
        if Parser.contextualKeyword(at: position, in: lexed, bytes: source.bytes) != nil {
          add(start, end, .keyword)
        } else if let occurrence = byStart[start], occurrence.span.end == end {
          let (kind, modifiers) = SemanticTokens.classify(occurrence, program: program, libraryFiles: libraryFiles)
          add(start, end, kind, modifiers)
        }
      default: add(start, end, token.kind.isKeyword ? .keyword : .operator)
      }
    }
    for comment in comments {
      add(comment.span.start, comment.span.end, .comment, comment.isDocumentation ? SemanticTokenModifier.documentation.bit : 0)
    }
    return result.sorted { $0.span.start < $1.span.start }
  }

  static func same(_ a: [SemanticToken], _ b: [SemanticToken]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.span == $1.span && $0.kind == $1.kind && $0.modifiers == $1.modifiers }
  }

  /// The library, the examples, and the examples cut and spliced at random (broken code, names left unresolved).
  @Test func theTokensAreTheFirstFormsTokens() throws {
    var trees = StandardLibraryTests.program(includeTests: true).trees
    let libraryFiles = Set(trees.map(\.source.id))
    var texts = try EditScenarios.examples().map(\.text)
    var random = SeededGenerator(seed: 7)
    texts += EditScenarios.spliced(texts.prefix(6), cuts: 8, longest: 12, using: &random).map {
      $0 + "\n## trailing\nformula tail(x: Money) = x # end"
    }
    for (offset, text) in texts.enumerated() {
      trees.append(Parser.parse(SourceFile(id: FileID(1_000 + offset), name: "t\(offset).tax", text: text)))
    }
    let program = Checker.check(trees)
    let index = SymbolIndex(program)
    var compared = 0
    for tree in program.trees {
      for (index, program) in [(Optional(index), Optional(program)), (nil, nil)] {
        let fast = SemanticTokens.tokens(
          source: tree.source, comments: tree.comments, index: index, program: program, libraryFiles: libraryFiles)
        let slow = Self.reference(
          source: tree.source, comments: tree.comments, index: index, program: program, libraryFiles: libraryFiles)
        #expect(Self.same(fast, slow), "\(tree.source.name)")
        compared += fast.count
      }
    }
    #expect(compared > 20_000)
  }

  /// Comments out of order (as no parse leaves them) are sorted in with the tokens, as before.
  @Test func commentsOutOfOrderAreSortedIn() {
    let source = SourceFile(id: FileID(0), name: "c.tax", text: "# one\nlet a = 1 # two\n## three\nlet b = a\n")
    let tree = Parser.parse(source)
    let comments = Array(tree.comments.reversed())
    #expect(comments.count == 3)
    let fast = SemanticTokens.tokens(source: source, comments: comments, index: nil, program: nil)
    let slow = Self.reference(source: source, comments: comments, index: nil, program: nil, libraryFiles: [])
    #expect(Self.same(fast, slow))
    #expect(zip(fast.dropFirst(), fast).allSatisfy { $0.span.start >= $1.span.start })
  }
}
