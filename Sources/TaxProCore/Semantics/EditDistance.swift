/// "Did you mean" suggestions by edit distance.
enum Suggestions {
  /// Edit distance counting insertions, deletions, substitutions and swaps of neighbours (`Monye` → `Money` is one
  /// edit), giving up (returning `limit + 1`) as soon as it must exceed `limit`.
  static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = current[0]
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
        rowMinimum = min(rowMinimum, current[j])
      }
      if rowMinimum > limit { return limit + 1 }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }

  /// The closest candidate, if it is close enough to be a likely typo. A difference of case alone always matches.
  static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    let target = Array(name.utf8)
    let lowered = name.lowercased()
    let limit = max(1, min(3, target.count / 3))
    var bestName: String? = nil
    var bestDistance = Int.max
    for candidate in candidates where candidate != name {
      if candidate.lowercased() == lowered { return candidate }
      let distance = distance(target, Array(candidate.utf8), limit: limit)
      guard distance <= limit else { continue }
      if distance < bestDistance || (distance == bestDistance && candidate < (bestName ?? candidate)) {
        bestName = candidate
        bestDistance = distance
      }
    }
    return bestName
  }
}
