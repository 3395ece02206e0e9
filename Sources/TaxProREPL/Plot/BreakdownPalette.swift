/// The colours and glyphs of a breakdown chart's parts, in order: the Okabe–Ito palette, chosen because people with
/// any common kind of colour blindness can still tell its colours apart. Without colour (`NO_COLOR`) each part has a
/// glyph of its own instead, so a stacked bar stays readable in black and white.
public enum BreakdownPalette {
  /// `#RRGGBB` for SVG.
  public static let hex = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"]
  /// The nearest colours of the 256-colour terminal palette, in the same order.
  static let ansi = [25, 214, 36, 175, 74, 166, 185, 246]
  /// Fill characters for terminals without colour, as different from each other as text allows.
  static let glyphs: [Character] = ["█", "▓", "▒", "░", "#", "=", "+", ":"]

  public static func hex(_ index: Int) -> String { hex[index % hex.count] }
  static func ansi(_ index: Int) -> Int { ansi[index % ansi.count] }
  static func glyph(_ index: Int) -> Character { glyphs[index % glyphs.count] }
}
