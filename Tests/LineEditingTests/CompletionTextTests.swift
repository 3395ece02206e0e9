import Testing

@testable import LineEditing

@Suite struct CompletionTextTests {
  @Test func commonPrefix() {
    #expect(CompletionText.commonPrefix([]) == "")
    #expect(CompletionText.commonPrefix(["income"]) == "income")
    #expect(CompletionText.commonPrefix(["income", "income_tax", "incomes"]) == "income")
    #expect(CompletionText.commonPrefix(["federal", "income"]) == "")
    #expect(CompletionText.commonPrefix(["café", "cafe"]) == "caf")
  }

  @Test func columnsReadDownwardsAndFitTheWidth() {
    let rows = CompletionText.columns(["a", "bb", "ccc", "d", "e"], width: 12)
    // Cells are 5 wide (longest 3 + gap 2), so 2 columns fit in 12; 3 rows read downwards.
    #expect(rows == ["a    d", "bb   e", "ccc"])
    for row in rows { #expect(row.count <= 12) }
  }

  @Test func columnsWithOneWideCandidateUseOneColumn() {
    #expect(CompletionText.columns(["short", String(repeating: "x", count: 100)], width: 40).count == 2)
    #expect(CompletionText.columns([], width: 80) == [])
    #expect(CompletionText.columns(["a", "b"], width: 0) == ["a", "b"])
  }

  @Test func uniqueKeepsFirstOrderAndDropsNul() {
    #expect(CompletionText.unique(["b", "a", "b", "x\u{0}y", "a"]) == ["b", "a"])
  }

  @Test func boundariesAndScalarCounts() {
    let bytes = Array("aé🍁".utf8)  // 1 + 2 + 4 bytes
    #expect(CompletionText.isBoundary(0, in: bytes))
    #expect(CompletionText.isBoundary(1, in: bytes))
    #expect(!CompletionText.isBoundary(2, in: bytes))
    #expect(CompletionText.isBoundary(3, in: bytes))
    #expect(!CompletionText.isBoundary(5, in: bytes))
    #expect(CompletionText.isBoundary(7, in: bytes))
    #expect(!CompletionText.isBoundary(8, in: bytes))
    #expect(!CompletionText.isBoundary(-1, in: bytes))
    #expect(CompletionText.scalarCount(bytes[...]) == 3)
    #expect(CompletionText.scalarCount(bytes[1..<3]) == 1)
  }

  @Test func promptEscapesAreBracketed() {
    #expect(CompletionText.bracketingEscapes("tax> ") == "tax> ")
    #expect(CompletionText.bracketingEscapes("\u{1B}[1;32mtax>\u{1B}[0m ") == "\u{1}\u{1B}[1;32m\u{1}tax>\u{1}\u{1B}[0m\u{1} ")
    // Stray markers from the caller would unbalance libedit's count, so they are dropped.
    #expect(CompletionText.bracketingEscapes("a\u{1}b") == "ab")
    // An escape at the very end is still closed.
    #expect(CompletionText.bracketingEscapes("x\u{1B}") == "x\u{1}\u{1B}\u{1}")
  }
}
