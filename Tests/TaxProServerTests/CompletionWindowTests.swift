import Foundation
import TaxProCore
import Testing

@testable import TaxProServer

struct CompletionWindowTests {
  static let text = """
    ## A formula.
    formula first(x: Money): Money =
      let y = x * 2
      y

    let constant = first($1)

    test "t" {
      first($1) == $2
    }
    formula second(z: Money): Money = z + fi
    """

  func window(around needle: String, offset: Int = 0) -> String {
    let bytes = Array(Self.text.utf8)
    let position = Array(Self.text.utf8).firstRange(of: Array(needle.utf8))!.lowerBound + offset
    return String(decoding: bytes[LanguageServer.declarationWindow(bytes, around: position)], as: UTF8.self)
  }

  @Test func theWindowIsTheDeclarationAroundTheCursor() {
    #expect(window(around: "y\n\nlet") == "formula first(x: Money): Money =\n  let y = x * 2\n  y\n")
    #expect(window(around: "first($1) ==") == "test \"t\" {\n  first($1) == $2\n}")
    #expect(window(around: "+ fi", offset: 4) == "formula second(z: Money): Money = z + fi")
    #expect(window(around: "constant") == "let constant = first($1)\n")
  }

  @Test func completionInTheWindowMatchesCompletionInTheWholeText() {
    let program = Checker.check([Parser.parse(SourceFile(id: FileID(0), name: "t.tax", text: Self.text))])
    let bytes = Array(Self.text.utf8)
    for offset in [bytes.count, 60, 75, 120] {
      let whole = CompletionEngine.complete(CompletionQuery(text: Self.text, offset: offset), in: program)
      let range = LanguageServer.declarationWindow(bytes, around: offset)
      let part = CompletionEngine.complete(
        CompletionQuery(text: String(decoding: bytes[range], as: UTF8.self), offset: offset - range.lowerBound),
        in: program)
      #expect(whole.candidates.map(\.label) == part.candidates.map(\.label), "at \(offset)")
      #expect(whole.range == (part.range.lowerBound + range.lowerBound)..<(part.range.upperBound + range.lowerBound))
    }
  }

  @Test func codeFencesAreRemovedAsFoundationWould() {
    var random = SystemRandomNumberGenerator()
    let pieces = ["```taxpro\n", "\n```", "```", "taxpro", "\n", "x", "`", "é"]
    for _ in 0..<2_000 {
      let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }
        .joined()
      let expected = text.replacingOccurrences(of: "```taxpro\n", with: "").replacingOccurrences(of: "\n```", with: "")
      #expect(LanguageServer.withoutCodeFences(text) == expected, "\(text.debugDescription)")
    }
  }
}
