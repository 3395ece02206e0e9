import Foundation

/// Axis ticks at round values (steps of 1, 2 or 5 times a power of ten), as people draw them by hand.
///
/// Used by both charts so the terminal and the SVG agree on where `$50,000` goes.
public struct NiceScale: Equatable, Sendable {
  /// The tick values, ascending, evenly spaced by `step`.
  public let ticks: [Double]
  public let step: Double

  /// The first and last tick; they enclose `range`.
  public var lower: Double { ticks.first ?? 0 }
  public var upper: Double { ticks.last ?? 1 }

  /// Ticks enclosing `range` with about `targetCount` intervals (never fewer than one).
  ///
  /// A range of zero width (a flat series or a single point) is widened around its value so it still gets
  /// an axis; non-finite bounds give the unit range.
  public init(covering range: ClosedRange<Double>, targetCount: Int = 5) {
    var low = range.lowerBound
    var high = range.upperBound
    if !low.isFinite || !high.isFinite {
      low = 0
      high = 1
    }
    if high - low == 0 || !(high - low).isFinite {
      let spread = low == 0 ? 1 : abs(low) / 2
      low -= spread
      high += spread
      if !(high - low).isFinite {
        // Too large to widen (near the largest Double): one tick is all that can honestly be drawn.
        self.ticks = [range.lowerBound.isFinite ? range.lowerBound : 0]
        self.step = 1
        return
      }
    }
    let intervals = Double(max(1, targetCount))
    let (mantissa, exponent) = Self.niceStep(for: (high - low) / intervals)
    let step = Self.value(mantissa, exponent)
    let first = (low / step).rounded(.down)
    let last = (high / step).rounded(.up)
    var ticks: [Double] = []
    if last - first <= 1000 {
      var index = first
      while index <= last {
        ticks.append(Self.value(mantissa * index, exponent))
        index += 1
      }
    }
    self.step = step
    self.ticks = ticks.isEmpty ? [low, high] : ticks
  }

  /// The ticks that fall inside `range` (with a little tolerance for rounding), for axes that span exactly
  /// the data rather than the enclosing ticks.
  public func ticks(within range: ClosedRange<Double>) -> [Double] {
    let tolerance = step * 1e-9
    return ticks.filter { $0 >= range.lowerBound - tolerance && $0 <= range.upperBound + tolerance }
  }

  /// Rounds a raw step up to 1, 2 or 5 × 10^exponent, returned as mantissa and exponent so tick values can
  /// be computed without accumulating binary error.
  static func niceStep(for raw: Double) -> (mantissa: Double, exponent: Int) {
    guard raw.isFinite, raw > 0 else { return (1, 0) }
    var exponent = Int(log10(raw).rounded(.down))
    let fraction = raw / pow(10, Double(exponent))
    let mantissa: Double
    switch fraction {
    case ...1: mantissa = 1
    case ...2: mantissa = 2
    case ...5: mantissa = 5
    default:
      mantissa = 1
      exponent += 1
    }
    return (mantissa, exponent)
  }

  /// `mantissa × 10^exponent`, dividing for negative exponents so that 3 × 10⁻¹ is exactly the double 0.3.
  static func value(_ mantissa: Double, _ exponent: Int) -> Double {
    exponent >= 0 ? mantissa * pow(10, Double(exponent)) : mantissa / pow(10, Double(-exponent))
  }
}
