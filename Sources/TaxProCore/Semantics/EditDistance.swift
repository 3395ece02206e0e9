/// "Did you mean" suggestions by edit distance, in bounded work.
///
/// A name is compared only with candidates whose length is within the distance limit (at most 3) of its own, and
/// whose letters could be that close (a bitmask of the bytes in each: every edit changes at most two of its bits);
/// the distance itself is computed in a band around the diagonal and abandoned once it must exceed the limit, so one
/// comparison costs O(length × limit). Each lookup also has a budget of work (candidates looked at and table cells
/// computed: about 2,000 plus 16 per character of the name), after which it answers with the best candidate found so
/// far: a file of 10,000 unknown names, or a name of 100,000 characters next to another as long, is checked in time
/// linear in its size.
///
/// Candidates are taken in a fixed order (nearest lengths first, then by name), so the answer never depends on the
/// order in which the candidates were given, or on how much of a program was checked again after an edit.
enum Suggestions {
  /// Edit distance counting insertions, deletions, substitutions and swaps of neighbours (`Monye` → `Money` is one
  /// edit), giving up (returning `limit + 1`) as soon as it must exceed `limit`. Only the cells within `limit` of the
  /// diagonal are computed.
  static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
    let n = a.count
    let m = b.count
    if abs(n - m) > limit { return limit + 1 }
    if n == 0 { return m }
    if m == 0 { return n }
    let big = limit + 1
    return a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (m + 1)) { buffer -> Int in
          guard let base = buffer.baseAddress else { return big }
          var beforePrevious = base
          var previous = base + (m + 1)
          var current = base + 2 * (m + 1)
          for j in 0...m {
            previous[j] = j <= limit ? j : big
            beforePrevious[j] = big
            current[j] = big
          }
          for i in 1...n {
            let low = max(1, i - limit)
            let high = min(m, i + limit)
            current[low - 1] = low == 1 ? (i <= limit ? i : big) : big
            var rowMinimum = current[low - 1]
            for j in low...high {
              let cost = a[i - 1] == b[j - 1] ? 0 : 1
              var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
              if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, beforePrevious[j - 2] + 1)
              }
              value = min(value, big)
              current[j] = value
              rowMinimum = min(rowMinimum, value)
            }
            // The next row reads the cell just right of this row's band: outside it, the distance exceeds the limit.
            if high < m { current[high + 1] = big }
            if rowMinimum > limit { return big }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
          }
          return min(previous[m], big)
        }
      }
    }
  }

  /// The limit for a name: a third of its length, from 1 to 3 edits.
  static func limit(for length: Int) -> Int { max(1, min(3, length / 3)) }

  /// The bytes present in a name, folded into 64 bits. One edit changes at most two bits, so two names whose masks
  /// differ in more than twice the limit are too far apart to compare.
  static func mask(_ bytes: [UInt8]) -> UInt64 {
    var mask: UInt64 = 0
    for byte in bytes { mask |= 1 << UInt64(byte & 63) }
    return mask
  }

  /// The closest candidate, if it is close enough to be a likely typo. A difference of case alone always matches.
  static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    var search = Search(name)
    var entries: [String] = []
    for candidate in candidates where candidate != name {
      if candidate.lowercased() == search.lowered {
        if search.caseMatch.map({ candidate < $0 }) ?? true { search.caseMatch = candidate }
        continue
      }
      // The length filter first: most candidates go no further.
      if abs(candidate.utf8.count - search.target.count) > search.limit { continue }
      entries.append(candidate)
    }
    if let match = search.caseMatch { return match }
    entries.sort { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
    search.consider(SuggestionIndex.Bucket(entries))
    return search.best?.name
  }

  /// The closest among the names of `index` and `others` (a scope's few local names).
  static func closest(to name: String, in index: SuggestionIndex, and others: [String] = []) -> String? {
    var search = Search(name)
    if let match = index.caseMatch(search.lowered, excluding: name) { search.caseMatch = match }
    var local: [String] = []
    for candidate in others where candidate != name {
      if candidate.lowercased() == search.lowered {
        if search.caseMatch.map({ candidate < $0 }) ?? true { search.caseMatch = candidate }
      } else if abs(candidate.utf8.count - search.target.count) <= search.limit {
        local.append(candidate)
      }
    }
    if let match = search.caseMatch { return match }
    local.sort { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
    search.consider(SuggestionIndex.Bucket(local))
    for length in search.lengths {
      if let bucket = index.bucket(ofLength: length) { search.consider(bucket) }
    }
    return search.best?.name
  }

  /// One lookup: the name, its limit, the best candidate so far and the work left.
  struct Search {
    let target: [UInt8]
    let lowered: String
    let limit: Int
    let mask: UInt64
    var caseMatch: String?
    var best: (name: String, distance: Int)?
    /// Cells of the distance table this lookup may still compute.
    var budget: Int

    init(_ name: String) {
      target = Array(name.utf8)
      lowered = name.lowercased()
      limit = Suggestions.limit(for: target.count)
      mask = Suggestions.mask(target)
      budget = 2_048 + 16 * target.count
    }

    /// Candidate lengths, nearest first.
    var lengths: [Int] {
      var result = [target.count]
      for delta in 1...limit {
        result.append(target.count - delta)
        result.append(target.count + delta)
      }
      return result.filter { $0 >= 0 }
    }

    mutating func consider(_ bucket: SuggestionIndex.Bucket) {
      let masks = bucket.masks
      let allowed = 2 * limit
      for position in masks.indices {
        // Every candidate looked at costs a unit, and a distance its table's cells. The masks lie apart, so that
        // rejecting a candidate touches no string.
        budget -= 1
        guard budget > 0 else { return }
        guard (mask ^ masks[position]).nonzeroBitCount <= allowed else { continue }
        let name = bucket.names[position]
        let bytes = bucket.bytes[position]
        // Only a candidate that would win is worth the work: closer, or as close and first by name.
        var bound = limit
        if let best {
          guard best.distance > 1 || name < best.name else { continue }
          bound = name < best.name ? best.distance : best.distance - 1
        }
        guard abs(bytes.count - target.count) <= bound else { continue }
        budget -= min(target.count, bytes.count) * (2 * bound + 1)
        let distance = Suggestions.distance(target, bytes, limit: bound)
        // Distance 0 is the name itself.
        if distance > 0 && distance <= bound { best = (name, distance) }
      }
    }
  }
}

extension Suggestions {
  /// Names that contain `name` as whole words (`cpp` in `cpp_contribution`, `income_tax` in `foreign_income_tax`) or
  /// start with its letters once the underscores are gone (`takehome` → `take_home_pay`, from three letters): what to offer when no name
  /// is a likely typo of it. Shortest first, then by name; at most `count`, from at most `budget` names looked at,
  /// so the answer depends only on the names, and a file of many unknown names stays linear.
  static func related(to name: String, in index: SuggestionIndex, count: Int = 3, budget: Int = 4_000) -> [String] {
    let underscore = UInt8(ascii: "_")
    func squashed(_ bytes: some Sequence<UInt8>) -> [UInt8] {
      bytes.compactMap { $0 == underscore ? nil : ($0 >= 65 && $0 <= 90 ? $0 + 32 : $0) }
    }
    let letters = squashed(name.utf8)
    // Two letters start too many names to be a hint; as a whole word (`ei` in `ei_premium`) they are one.
    guard letters.count >= 2 else { return [] }
    let byPrefix = letters.count >= 3
    let word = [underscore] + Array(name.utf8) + [underscore]
    var found: [String] = []
    var looked = 0
    for length in index.lengths where length > name.utf8.count || (length == name.utf8.count && length > letters.count)
    {
      guard let bucket = index.bucket(ofLength: length) else { continue }
      for (candidate, bytes) in zip(bucket.names, bucket.bytes) {
        looked += 1
        if looked > budget { return found }
        if (byPrefix && squashed(bytes).starts(with: letters)) || ([underscore] + bytes + [underscore]).contains(word) {
          found.append(candidate)
          if found.count == count { return found }
        }
      }
    }
    return found
  }
}

/// Names to suggest from, grouped by length (each group sorted by name) with their bytes and masks, built once per
/// check for the names every scope sees (formulas, constants, provinces, predefined values).
final class SuggestionIndex {
  /// Names of one length, sorted, with their bytes and masks in arrays of their own.
  struct Bucket {
    var names: [String] = []
    var bytes: [[UInt8]] = []
    var masks: [UInt64] = []

    init(_ sortedNames: [String]) {
      for name in sortedNames {
        let utf8 = Array(name.utf8)
        names.append(name)
        bytes.append(utf8)
        masks.append(Suggestions.mask(utf8))
      }
    }
  }

  private var byLength: [Int: Bucket] = [:]
  /// The lengths that have names, shortest first.
  private(set) var lengths: [Int] = []
  /// Lowercased name → the names with that spelling, for "a difference of case alone".
  private var byLowercase: [String: [String]] = [:]

  init(_ names: some Sequence<String>) {
    var grouped: [Int: [String]] = [:]
    for name in Set(names) {
      grouped[name.utf8.count, default: []].append(name)
      byLowercase[name.lowercased(), default: []].append(name)
    }
    for (length, group) in grouped { byLength[length] = Bucket(group.sorted()) }
    lengths = byLength.keys.sorted()
  }

  func bucket(ofLength length: Int) -> Bucket? { byLength[length] }

  /// The first by name of the names that differ from `name` only in case.
  func caseMatch(_ lowered: String, excluding name: String) -> String? {
    byLowercase[lowered]?.filter { $0 != name }.min()
  }
}
