/// A program's occurrences in place order (file, then start), kept in blocks of a few hundred, each of one file and
/// with an offset that reading an occurrence applies.
///
/// Typing near the top of a large document moves every later occurrence in it. Kept in one array, a re-check copied
/// them all and moved each (a few hundred thousand in a 40,000-line file: most of a keystroke's work). In blocks, it
/// rebuilds only the blocks around the re-checked declarations and adds the edit's delta to the offset of each later
/// block of that file: work in proportion to the edit and to the number of blocks, not of occurrences.
struct OccurrenceList: Sendable {
  struct Block: Sendable {
    /// The file of every occurrence in the block.
    let file: FileID
    /// How far the block has moved since its occurrences were stored; applied to their spans, and to their
    /// definitions in the same file (a `let`'s: in the same declaration, so moved with it).
    var offset: Int32
    /// Stored where they were when the block was made.
    let items: [StoredOccurrence]
    /// The longest span among them.
    let longest: Int
    /// Whether they are in place order (always, from the checker).
    let ordered: Bool

    init(file: FileID, items: [StoredOccurrence]) {
      self.file = file
      self.offset = 0
      self.items = items
      var longest = 0
      var ordered = true
      var last = Int.min
      for item in items {
        longest = max(longest, item.span.length)
        if item.span.start < last || item.span.file != file { ordered = false }
        last = item.span.start
      }
      self.longest = longest
      self.ordered = ordered
    }

    /// The occurrence at `position` where it is now.
    @inline(__always) func item(_ position: Int) -> StoredOccurrence {
      let stored = items[position]
      guard offset != 0 else { return stored }
      var moved = stored
      moved.span = stored.span.shifted(by: Int(offset))
      if stored.definition.file == file && stored.definition != .nowhere {
        moved.definition = stored.definition.shifted(by: Int(offset))
      }
      return moved
    }

    /// The start of the occurrence at `position` where it is now.
    @inline(__always) func start(_ position: Int) -> Int { items[position].span.start + Int(offset) }

    /// The occurrences where they are now.
    var moved: [StoredOccurrence] { offset == 0 ? items : items.indices.map { item($0) } }
  }

  /// The most occurrences a block is made with.
  static let blockSize = 256

  private(set) var blocks: [Block] = []
  private(set) var count = 0

  init() {}

  /// The occurrences of `items`, which are in place order.
  init(_ items: [StoredOccurrence]) {
    append(contentsOf: items[...])
  }

  /// Adds `items`, in place order and after every occurrence already here, in blocks of one file each.
  private mutating func append(contentsOf items: ArraySlice<StoredOccurrence>) {
    var start = items.startIndex
    while start < items.endIndex {
      let file = items[start].span.file
      var end = start + 1
      while end < items.endIndex, items[end].span.file == file { end += 1 }
      // This file's run, split evenly into blocks of at most `blockSize`.
      let run = end - start
      let pieces = (run + Self.blockSize - 1) / Self.blockSize
      var low = start
      for piece in 0..<pieces {
        let high = start + run * (piece + 1) / pieces
        blocks.append(Block(file: file, items: Array(items[low..<high])))
        low = high
      }
      count += run
      start = end
    }
  }

  /// Every occurrence in place order, where it is now.
  var all: [StoredOccurrence] {
    var result: [StoredOccurrence] = []
    result.reserveCapacity(count)
    for block in blocks { result.append(contentsOf: block.moved) }
    return result
  }

  /// Calls `body` with each occurrence in place order, where it is now.
  func forEach(_ body: (StoredOccurrence) -> Void) {
    for block in blocks {
      for position in block.items.indices { body(block.item(position)) }
    }
  }

  /// The longest span of all.
  var longest: Int { blocks.reduce(0) { max($0, $1.longest) } }

  /// Whether every occurrence is in place order: each block is, and each starts where the one before ended.
  var isInPlaceOrder: Bool {
    for (index, block) in blocks.enumerated() {
      guard block.ordered else { return false }
      if index > 0 {
        let previous = blocks[index - 1]
        if previous.file > block.file
          || (previous.file == block.file && previous.start(previous.items.count - 1) > block.start(0))
        {
          return false
        }
      }
    }
    return true
  }

  /// A place in the list: a block and a position in it (the position may be its end).
  struct Place: Equatable {
    var block: Int
    var position: Int
  }

  /// The first occurrence at or after `offset` of `file` (the end of the list when there is none).
  func firstPlace(atOrAfter file: FileID, _ offset: Int) -> Place {
    func before(_ block: Block, _ position: Int) -> Bool {
      block.file < file || (block.file == file && block.start(position) < offset)
    }
    // The first block whose last occurrence is not before the place; then the first in it.
    var low = 0
    var high = blocks.count
    while low < high {
      let middle = (low + high) / 2
      let block = blocks[middle]
      if before(block, block.items.count - 1) { low = middle + 1 } else { high = middle }
    }
    guard low < blocks.count else { return Place(block: blocks.count, position: 0) }
    let block = blocks[low]
    var first = 0
    var last = block.items.count
    while first < last {
      let middle = (first + last) / 2
      if before(block, middle) { first = middle + 1 } else { last = middle }
    }
    return Place(block: low, position: first)
  }

  /// The occurrence just before `place`, and its place; nil at the start of the list.
  func previous(_ place: Place) -> (Place, StoredOccurrence)? {
    var place = place
    while place.position == 0 {
      guard place.block > 0 else { return nil }
      place.block -= 1
      place.position = blocks[place.block].items.count
    }
    place.position -= 1
    return (place, blocks[place.block].item(place.position))
  }

  /// The list with the occurrences of `file` from `lower` up to `upper` (offsets in the old text, `upper` excluded)
  /// replaced by `replacement` (in place order, where they are in the new text), and every later occurrence of
  /// `file` moved by `delta`. Nil when a later occurrence starts before `oldEnd`, the end of the replaced text: the
  /// replacement then does not cover what the edit touched.
  func replacing(
    in file: FileID, from lower: Int, upTo upper: Int, with replacement: [StoredOccurrence], moving delta: Int,
    unchangedFrom oldEnd: Int
  ) -> OccurrenceList? {
    let first = firstPlace(atOrAfter: file, lower)
    let last = firstPlace(atOrAfter: file, upper)
    // The blocks rebuilt: from the one holding the first replaced occurrence to the one holding the first kept after
    // it (not that one when the kept occurrence starts it).
    let rebuiltStart = first.block
    let rebuiltEnd =
      last.position == 0 && last.block > rebuiltStart ? last.block : min(blocks.count, last.block + 1)
    var items: [StoredOccurrence] = []
    items.reserveCapacity(replacement.count + 2 * Self.blockSize)
    if rebuiltStart < rebuiltEnd {
      let block = blocks[rebuiltStart]
      for position in 0..<first.position { items.append(block.item(position)) }
    }
    items.append(contentsOf: replacement)
    if rebuiltStart < rebuiltEnd, rebuiltEnd - 1 == last.block {
      let block = blocks[last.block]
      for position in last.position..<block.items.count {
        var occurrence = block.item(position)
        if occurrence.span.file == file && delta != 0 {
          guard occurrence.span.start >= oldEnd else { return nil }
          occurrence.span = occurrence.span.shifted(by: delta)
          if occurrence.definition.file == file && occurrence.definition != .nowhere {
            occurrence.definition = occurrence.definition.shifted(by: delta)
          }
        }
        items.append(occurrence)
      }
    }
    var list = self
    let added = list.replaceBlocks(rebuiltStart..<rebuiltEnd, with: items[...])
    // Every later block of the file moves, lazily.
    var index = rebuiltStart + added
    while delta != 0, index < list.blocks.count, list.blocks[index].file == file {
      guard list.blocks[index].start(0) >= oldEnd else { return nil }
      list.blocks[index].offset = Int32(truncatingIfNeeded: Int(list.blocks[index].offset) + delta)
      index += 1
    }
    return list
  }

  /// Replaces the blocks of `range` with blocks made of `items` (in place order); returns how many were made.
  private mutating func replaceBlocks(_ range: Range<Int>, with items: ArraySlice<StoredOccurrence>) -> Int {
    var made = OccurrenceList()
    made.append(contentsOf: items)
    var removed = 0
    for block in blocks[range] { removed += block.items.count }
    blocks.replaceSubrange(range, with: made.blocks)
    count += made.count - removed
    return made.blocks.count
  }
}
