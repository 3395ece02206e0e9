import Testing

@testable import TaxProCore
import TestSupport

/// Source text echoed to a terminal shows its control characters as escapes (issue 15: a crafted `.tax` file set the
/// terminal's title through a diagnostic).
@Suite struct ControlCharacterTests {
  static let hostile = "\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}\u{202E}"

  @Test func controlCharactersBecomeVisibleEscapes() {
    #expect(Self.hostile.escapingControlCharacters() == "\\u{1B}]0;pwned\\u{7}\\u{1B}[2J\\u{9B}\\u{202E}")
    #expect("tab\tand\nline".escapingControlCharacters() == "tab\tand\\nline")
    #expect("tab\tand\nline".escapingControlCharacters(tabs: false, lineBreaks: true) == "tab\\tand\nline")
    let plain = "Québec 🍁 — $1,234.56 … “quoted”"
    #expect(plain.escapingControlCharacters() == plain)
  }

  /// The quick look at the bytes finds exactly the scalars that are escaped: every scalar up to U+2FFF (all the
  /// one-, two- and three-byte forms the look reads), alone and inside text, with each setting of tabs and breaks.
  @Test func theLookAtTheBytesFindsExactlyWhatIsEscaped() {
    for value in UInt32(0)...0x2FFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      for (tabs, lineBreaks) in [(true, false), (false, true)] {
        let escaped = String.needsEscape(scalar, tabs: tabs, lineBreaks: lineBreaks)
        for text in [String(scalar), "é — " + String(scalar) + " x"] {
          let changed = text.escapingControlCharacters(tabs: tabs, lineBreaks: lineBreaks) != text
          #expect(changed == escaped, "U+\(String(value, radix: 16))")
        }
      }
    }
  }

  @Test func diagnosticsShowTheSourceLineEscapedWithTheCaretInPlace() {
    let text = "let t = \"\u{1B}[2J\" + 1\n"
    let source = SourceFile(id: FileID(0), name: "crafted\u{7}.tax", text: text)
    let start = text.utf8.count - 2  // the `1`
    let diagnostic = Diagnostic.error(
      DiagnosticMessage(.typeMismatch, "cannot add Text \"\u{1B}[2J\" and Number"),
      at: Span(file: source.id, start: start, end: start + 1), notes: [DiagnosticNote(.note, "text \u{1B}]0;x\u{7}")])
    let rendered = DiagnosticRenderer(sources: [source.id: source]).render([diagnostic])
    #expect(!rendered.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0].hasPrefix("crafted\\u{7}.tax:1:"))
    #expect(lines[0].hasSuffix(": error[type-mismatch]: cannot add Text \"\\u{1B}[2J\" and Number"))
    #expect(lines[1] == "1 | let t = \"\\u{1B}[2J\" + 1")
    // The caret stands under the `1`, after the escape's six columns.
    let caret = lines[2].firstIndex(of: "^").map { lines[2].distance(from: lines[2].startIndex, to: $0) }
    let one = lines[1].lastIndex(of: "1").map { lines[1].distance(from: lines[1].startIndex, to: $0) }
    #expect(caret != nil && caret == one)
    #expect(lines[3].hasSuffix("= note: text \\u{1B}]0;x\\u{7}"))
  }

  @Test func explanationsShowSourceTextValuesAndDocumentationEscaped() throws {
    let text = """
      ## Doubles \u{1B}[31mit.
      ## definition: twice \u{7}
      formula f(a: Money, label: Text): Money =
        let shown = label
        a * 2
      let t = "x\u{1B}[2Jy"

      """
    let tree = Parser.parse(SourceFile(id: FileID(0), name: "crafted.tax", text: text))
    #expect(tree.diagnostics.isEmpty)
    let program = onLargeStack { Checker.check([tree]) }
    for expression in ["f($5, t)", "t"] {
      let explained = CodeLenses.explain(expression, program: program, year: nil)
      guard case .success(let output) = explained else {
        Issue.record("\(expression) was not explained")
        continue
      }
      #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(expression)")
      #expect(output.contains("\\u{1B}"), "\(expression): \(output)")
    }
  }
}
