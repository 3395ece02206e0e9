import Testing

@testable import TaxProREPL

@Suite struct NiceScaleTests {
  @Test func moneyRange() {
    let scale = NiceScale(covering: 0...85_000, targetCount: 5)
    #expect(scale.step == 20_000)
    #expect(scale.ticks == [0, 20_000, 40_000, 60_000, 80_000, 100_000])
  }

  @Test func fractionalStepsAreExactDecimals() {
    let scale = NiceScale(covering: 0...1, targetCount: 5)
    #expect(scale.ticks == [0, 0.2, 0.4, 0.6, 0.8, 1])
    #expect(NiceScale(covering: 0.1...0.35, targetCount: 5).ticks == [0.1, 0.15, 0.2, 0.25, 0.3, 0.35])
  }

  @Test func negativeRanges() {
    let scale = NiceScale(covering: -3...7, targetCount: 5)
    #expect(scale.ticks == [-4, -2, 0, 2, 4, 6, 8])
  }

  @Test(arguments: [(0.07, 0.1), (0.7, 1), (1, 1), (1.5, 2), (2, 2), (3, 5), (5, 5), (7, 10), (12_000, 20_000)])
  func stepsAreOneTwoOrFive(raw: Double, nice: Double) {
    let (mantissa, exponent) = NiceScale.niceStep(for: raw)
    #expect(NiceScale.value(mantissa, exponent) == nice)
  }

  @Test func ticksEncloseTheRange() {
    for range in [0.0...1, 3...97, -1250...1250, 52_886...105_775, 0.001...0.002] {
      let scale = NiceScale(covering: range)
      #expect(scale.lower <= range.lowerBound)
      #expect(scale.upper >= range.upperBound)
      #expect(scale.ticks.count >= 2)
      #expect(scale.ticks.count <= 12)
    }
  }

  @Test func zeroWidthRangesAreWidened() {
    let flat = NiceScale(covering: 5_000...5_000)
    #expect(flat.lower < 5_000 && flat.upper > 5_000)
    let zero = NiceScale(covering: 0...0)
    #expect(zero.lower <= -1 && zero.upper >= 1)
  }

  @Test func extremeValuesNeverTrap() {
    _ = NiceScale(covering: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    _ = NiceScale(covering: Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
    _ = NiceScale(covering: 0...Double.leastNonzeroMagnitude)
    _ = NiceScale(covering: 1...1, targetCount: 0)
    _ = NiceScale(covering: 1e300...1e300 * 1.0000001, targetCount: 1_000_000)
  }

  @Test func ticksWithinTheData() {
    let scale = NiceScale(covering: 3...97, targetCount: 5)
    #expect(scale.ticks(within: 3...97) == [20, 40, 60, 80])
  }
}
