/// A grid of on/off dots drawn as text, several dots per character cell.
///
/// Braille cells hold 2×4 dots and quadrant blocks 2×2; both are single-width characters in any
/// monospaced font, so a row of cells is exactly as wide as it is long.
struct DotCanvas {
  enum Cells {
    case braille
    case quadrants

    var size: (columns: Int, rows: Int) {
      switch self {
      case .braille: return (2, 4)
      case .quadrants: return (2, 2)
      }
    }
  }

  let cells: Cells
  let columns: Int
  let rows: Int
  private var dots: [Bool]

  init(cells: Cells, columns: Int, rows: Int) {
    self.cells = cells
    let columns = max(1, columns)
    let rows = max(1, rows)
    self.columns = columns
    self.rows = rows
    dots = Array(repeating: false, count: columns * cells.size.columns * rows * cells.size.rows)
  }

  var dotColumns: Int { columns * cells.size.columns }
  var dotRows: Int { rows * cells.size.rows }

  /// Sets one dot; positions off the canvas are ignored rather than trusted.
  mutating func set(_ x: Int, _ y: Int) {
    guard x >= 0, x < dotColumns, y >= 0, y < dotRows else { return }
    dots[y * dotColumns + x] = true
  }

  /// A straight line between two dots (Bresenham), so a steep segment has no holes.
  mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int)) {
    var x = start.x
    var y = start.y
    let dx = abs(end.x - x)
    let dy = -abs(end.y - y)
    let stepX = x < end.x ? 1 : -1
    let stepY = y < end.y ? 1 : -1
    var error = dx + dy
    while true {
      set(x, y)
      if x == end.x && y == end.y { break }
      let doubled = 2 * error
      if doubled >= dy {
        error += dy
        x += stepX
      }
      if doubled <= dx {
        error += dx
        y += stepY
      }
    }
  }

  /// One string of `columns` characters per cell row, top first.
  func renderRows() -> [String] {
    (0..<rows).map { row in
      String((0..<columns).map { character(column: $0, row: row) })
    }
  }

  private func isSet(_ x: Int, _ y: Int) -> Bool { dots[y * dotColumns + x] }

  private func character(column: Int, row: Int) -> Character {
    let x = column * cells.size.columns
    let y = row * cells.size.rows
    switch cells {
    case .braille:
      // Unicode numbers braille dots 1–3 and 7 down the left column, 4–6 and 8 down the right.
      let bits: [(dx: Int, dy: Int, bit: UInt32)] = [
        (0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (0, 3, 0x40),
        (1, 0, 0x08), (1, 1, 0x10), (1, 2, 0x20), (1, 3, 0x80),
      ]
      var value: UInt32 = 0
      for entry in bits where isSet(x + entry.dx, y + entry.dy) { value |= entry.bit }
      // An empty cell is a space, not U+2800: some fonts draw the blank braille pattern as faint dots.
      guard value != 0 else { return " " }
      return Character(Unicode.Scalar(0x2800 + value) ?? " ")
    case .quadrants:
      var mask = 0
      if isSet(x, y) { mask |= 1 }
      if isSet(x + 1, y) { mask |= 2 }
      if isSet(x, y + 1) { mask |= 4 }
      if isSet(x + 1, y + 1) { mask |= 8 }
      return Self.quadrantCharacters[mask]
    }
  }

  /// Indexed by top-left 1, top-right 2, bottom-left 4, bottom-right 8.
  private static let quadrantCharacters: [Character] = [
    " ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█",
  ]
}
