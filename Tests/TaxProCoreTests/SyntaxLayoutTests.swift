import Testing

@testable import TaxProCore

/// The sizes of the syntax tree's most numerous values, as reached: a file of 100,000 formulas holds a million
/// expressions, and every byte of one is a megabyte of `taxpro check`'s peak. A change that makes one larger fails
/// here, and should say why it is worth it.
struct SyntaxLayoutTests {
  @Test func anExpressionHoldsANumberInPlaceAndBoxesTheRest() {
    // The largest case held in place is a number's decimal (26 bytes), the case's tag in bits it does not use, then
    // the span's 12 bytes (at 28: a span is aligned to 4).
    #expect(MemoryLayout<ExactDecimal>.size == 26)
    #expect(MemoryLayout<ExpressionKind>.size == 26)
    #expect(MemoryLayout<Expression>.size == 40)
    #expect(MemoryLayout<Expression>.stride == 40)
  }

  @Test func anArgumentKeepsItsRareLabelOutOfLine() {
    #expect(MemoryLayout<Argument>.stride == 48)
  }
}
