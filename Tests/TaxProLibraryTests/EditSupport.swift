import Foundation

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// Documents to edit and the edits a person (or a fuzzer) makes to them.
enum EditScenarios {
  /// The repository's `examples/*.tax`, by name.
  static func examples() throws -> [(name: String, text: String)] {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples")
    return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tax") }.sorted()
      .map { ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)) }
  }

  /// Each text with `cuts` runs of 1 to `longest` bytes taken out at random places: broken code, names left
  /// unresolved, UTF-8 cut in the middle of a character.
  static func spliced(
    _ texts: some Sequence<String>, cuts: Int, longest: Int, using random: inout some RandomNumberGenerator
  ) -> [String] {
    texts.map { text in
      var bytes = Array(text.utf8)
      for _ in 0..<cuts where bytes.count > 2 {
        let cut = Int.random(in: 0..<bytes.count, using: &random)
        bytes.removeSubrange(cut..<min(bytes.count, cut + Int.random(in: 1...longest, using: &random)))
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  static let provinces = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]

  /// `count` formulas like the benchmark's (each calling the one before), with tests and constants between them.
  static func formulas(_ count: Int) -> String {
    var lines: [String] = []
    for i in 0..<count {
      let province = provinces[i % provinces.count]
      let call = i > 0 ? " + f\(i - 1)(income, rate, n) / 100" : ""
      lines.append("## Formula \(i): a generated mix of arithmetic on money, rates and numbers.")
      lines.append("formula f\(i)(income: Money, rate: Rate, n: Number): Money =")
      lines.append("  let base = income * rate + $\((i * 37) % 1000).\(String(format: "%02d", i % 100)) * n - \(i % 7 + 1)% * income")
      lines.append("  max(base - $\(i % 500).25, $0) + tax(\(province).income_tax, income) / \(i % 11 + 2)\(call)")
      if i % 9 == 4 {
        lines.append("")
        lines.append("let c\(i) = f\(i)($50,000, 5%, 2)")
      }
      if i % 13 == 6 {
        lines.append("# A plain comment.")
        lines.append("test \"f\(i) is positive\" {")
        lines.append("  let x = f\(i)($85,000, 10%, 1)")
        lines.append("  x > $0")
        lines.append("}")
      }
      if i % 17 == 8 {
        // An error in a formula with a written result type, and a formula whose result type is inferred.
        lines.append("formula h\(i)(x: Money) =")
        lines.append("  x * 2 + c4")
        lines.append("formula g\(i)(x: Money = $10, rate: Rate in 0%..100% = 5%): Money =")
        lines.append("  if x > $100 then x * rate else brackets {")
        lines.append("    $0 -> 5%")
        lines.append("    $1,000 -> 10%")
        lines.append("  }.rate")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static let snippets = [
    "(", ")", "{", "}", "\n", "\nformula ", "\nlet ", " + ", " - ", "\n  - ", "\n  .", "$1,23", "5%", "\"", "##",
    "# x", "\n## doc\n", "if ", " then ", " else ", "brackets {", "\ntest \"t\" {", "\nprovince ZZ \"Z\" {",
    "year 2025 {", ",", ":", "=", "->", "..", "ON.", "federal.", "12abc", "\r\n", "\t", "!", "\u{2212}", "é", "x:",
    " Money", "parameters Province {", "f1(", "formula", "let", "1", "0", "$", "income", "f2", "\n\n", "## note: x\n",
    "\r", "\nfederal {", "\nfederal \"F\" {", "\n## doc\nlet ", "\nparameters P {", "\ntest \"u\" year 2025 {", " +\n",
  ]

  /// One random edit of `text`: a replaced, deleted or inserted range, mostly small, sometimes a digit swapped as a
  /// person editing a figure would.
  static func edit(_ text: [UInt8], using random: inout SeededGenerator) -> (Range<Int>, [UInt8]) {
    let position = text.isEmpty ? 0 : Int.random(in: 0...text.count, using: &random)
    let choice = Int.random(in: 0..<100, using: &random)
    if choice < 25, let digit = text.indices.dropFirst(position).first(where: { text[$0] >= 48 && text[$0] <= 57 }) {
      return (digit..<(digit + 1), [UInt8(48 + Int.random(in: 0...9, using: &random))])
    }
    if choice < 45 {
      let end = min(text.count, position + Int.random(in: 1...30, using: &random))
      return (position..<end, [])
    }
    if choice < 85 {
      return (position..<position, Array(snippets.randomElement(using: &random)!.utf8))
    }
    // A line moved: cut it and paste it elsewhere is two edits; one paste here.
    let end = min(text.count, position + Int.random(in: 1...200, using: &random))
    let target = Int.random(in: 0...text.count, using: &random)
    return (target..<target, Array(text[position..<end]))
  }

  /// `steps` versions of `text`, each one random edit (`edit`) of the one before, as a source holds them: an edit that
  /// splits a character is repaired before the next is made. The same seed gives the same versions.
  static func versions(of text: String, seed: UInt64, steps: Int) -> [[UInt8]] {
    var random = SeededGenerator(seed: seed)
    var bytes = Array(text.utf8)
    var versions: [[UInt8]] = []
    for _ in 0..<steps {
      let (range, replacement) = edit(bytes, using: &random)
      bytes.replaceSubrange(range, with: replacement)
      bytes = SourceFile(id: FileID(0), name: "doc.tax", bytes: bytes).bytes
      versions.append(bytes)
    }
    return versions
  }

  /// The edit the language server hands `Parser.reparse` for `range` ← `replacement`, just made to `text`: none (it
  /// compares the texts) on every third step, the replaced range as the editor sent it (not the smallest: the
  /// replacement may repeat what it replaced) on another, and on the rest a second edit made to `text` too, both as
  /// one (`SourceEdit.then`), as a burst of keystrokes checked once.
  static func knownEdit(
    _ step: Int, _ range: Range<Int>, _ replacement: [UInt8], _ text: inout [UInt8],
    using random: inout SeededGenerator
  ) -> SourceEdit? {
    let first = SourceEdit(start: range.lowerBound, oldEnd: range.upperBound, newEnd: range.lowerBound + replacement.count)
    switch step % 3 {
    case 0: return nil
    case 1: return first
    default:
      let (next, nextReplacement) = edit(text, using: &random)
      text.replaceSubrange(next, with: nextReplacement)
      return first.then(
        SourceEdit(start: next.lowerBound, oldEnd: next.upperBound, newEnd: next.lowerBound + nextReplacement.count))
    }
  }

  /// `edit`, if the texts are what it was made on: a random edit may split a character, and a source repairs what
  /// is then not UTF-8 (an editor's edits never split one: its ranges are between characters).
  static func sent(_ edit: SourceEdit?, _ old: SourceFile, _ new: SourceFile) -> SourceEdit? {
    edit.flatMap { $0.describes(old.bytes, new.bytes) ? $0 : nil }
  }
}
