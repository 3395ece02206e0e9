import Foundation
import LanguageServerProtocol
import Testing

@testable import TaxProServer

/// Documentation without three backticks in a row is returned as it is, found eight bytes at a time; long texts
/// with fences and backticks at every alignment lose exactly the fences, as Foundation's replacing would.
struct CodeFenceTests {
  @Test func longTextsLoseExactlyTheirFences() {
    var random = SystemRandomNumberGenerator()
    let pieces = ["```taxpro\n", "\n```", "```", "``", "`", "taxpro", "\n", "a run of plain text", "é", "—", "x"]
    for _ in 0..<3_000 {
      let text = (0..<Int.random(in: 0...40, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }
        .joined()
      let expected = text.replacingOccurrences(of: "```taxpro\n", with: "").replacingOccurrences(of: "\n```", with: "")
      #expect(LanguageServer.withoutCodeFences(text) == expected, "\(text.debugDescription)")
    }
    for padding in 0..<20 {
      let text = String(repeating: "p", count: padding) + "```taxpro\nlet x = 1\n```" + String(repeating: "q", count: padding)
      #expect(LanguageServer.withoutCodeFences(text) == String(repeating: "p", count: padding) + "let x = 1"
        + String(repeating: "q", count: padding))
      let inline = String(repeating: "r", count: padding) + "`code` and ``more``"
      #expect(LanguageServer.withoutCodeFences(inline) == inline)
    }
  }
}

/// The completion documentation cache gives what rendering gives, for texts that share length and samples.
struct CompletionDocumentationTests {
  @Test func theCacheGivesWhatRenderingGives() {
    var cache = CompletionDocumentation()
    var random = SystemRandomNumberGenerator()
    var rendered = 0
    for _ in 0..<3_000 {
      // One character differs, outside the samples the hash reads: equal hashes, different texts.
      let varying = ["x", "y", "z", "\u{1B}", "é"].randomElement(using: &random) ?? "x"
      let place = Bool.random(using: &random) ? 30 : 70
      let text = String(repeating: "a", count: place) + varying + String(repeating: "a", count: 99 - place)
      let named = Bool.random(using: &random)
      let markdown = Bool.random(using: &random)
      let expected: LSP.StringOrMarkupContent =
        named ? .markupContent(.markdown(text + "\(markdown)")) : .string(text + "\(markdown)")
      let value = cache.value(for: text, named: named, markdown: markdown) {
        rendered += 1
        return expected
      }
      #expect(value == expected)
    }
    // 5 characters × 2 places × 4 settings.
    #expect(rendered == 40)
  }
}
