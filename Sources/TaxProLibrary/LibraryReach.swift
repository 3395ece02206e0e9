#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of the standard library's files a one-shot command needs: those declaring a name that the user's text
/// mentions, and transitively those declaring a name that a needed file mentions (plus the `parameters` interfaces
/// once a jurisdiction is needed). `taxpro eval '1+1'` then parses and checks no library file at all, and
/// `taxpro eval 'tax(ON.income_tax, $50,000)'` only `ON.tax` and `interfaces.tax`, instead of the whole library at
/// every start.
///
/// It reads bytes, not tokens: a word is a run of `[A-Za-z_][A-Za-z0-9_]*` outside comments and text literals (the
/// lexer's rules for both), and a file declares the word after `formula`, `province` or `parameters`, after `let`
/// at the start of a line (an indented `let` is a formula's own), and `federal` when a `{` or a name in quotes
/// follows. Mentions over-approximate (a member name, a keyword), so a file declaring a name the text means is never
/// left out; an extra file only costs its parse. A declaration the scan misses (a top-level `let` written indented)
/// leaves a name unknown: the check fails, and the front end then checks against the whole library
/// (`Commands.reachedSession`), so what the user sees is always what the whole library gives.
public enum LibraryReach {
  /// What one text declares and mentions.
  struct Scan {
    var declared: [String] = []
    var mentioned: Set<String> = []
    var declaresJurisdiction = false
    var declaresInterface = false
    /// The numbers after `year`: a jurisdiction's years (and a test's year).
    var years: [Int] = []
  }

  /// The positions in `library` of the files that `texts` (the user's expression and files) reach, in order, and the
  /// latest year any of the library's jurisdictions has figures for (nil when none has).
  public static func files(_ library: [LibraryFile], reachedFrom texts: [String]) -> (
    positions: [Int], latestYear: Int?
  ) {
    // Declarations of every library file (mentions only of those reached: collecting them costs more).
    var declaring: [String: [Int]] = [:]
    var interfaces: [Int] = []
    var jurisdictions: Set<Int> = []
    var latestYear: Int? = nil
    for (position, file) in library.enumerated() {
      let scan = self.scan(file.text, mentions: false)
      for name in scan.declared { declaring[name, default: []].append(position) }
      if scan.declaresInterface { interfaces.append(position) }
      if scan.declaresJurisdiction {
        jurisdictions.insert(position)
        if let latest = scan.years.max() { latestYear = max(latestYear ?? latest, latest) }
      }
    }
    var included = Array(repeating: false, count: library.count)
    var pending: [String] = []
    var seen: Set<String> = []
    var interfacesAdded = false
    func add(_ words: Set<String>) {
      for word in words where seen.insert(word).inserted { pending.append(word) }
    }
    func include(_ position: Int) {
      guard !included[position] else { return }
      included[position] = true
      add(scan(library[position].text, mentions: true).mentioned)
    }
    for text in texts { add(scan(text, mentions: true).mentioned) }
    while true {
      while let word = pending.popLast() {
        for position in declaring[word] ?? [] { include(position) }
      }
      // A jurisdiction is checked against its interface: one needed brings the interfaces.
      guard !interfacesAdded, included.indices.contains(where: { included[$0] && jurisdictions.contains($0) }) else {
        break
      }
      interfacesAdded = true
      for position in interfaces { include(position) }
    }
    return (included.indices.filter { included[$0] }, latestYear)
  }

  /// The declarations (and, when asked, the mentions) of one text.
  static func scan(_ text: String, mentions: Bool) -> Scan {
    var text = text
    return text.withUTF8 { scan($0, mentions: mentions) }
  }

  /// The position of the first `\n` or `\r` at or after `start`, or the end.
  static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress, start < bytes.count else { return bytes.count }
    let rest = bytes.count - start
    let newline = memchr(base + start, 10, rest).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? bytes.count
    let limit = newline - start
    guard limit > 0 else { return newline }
    // A lone `\r` ends a line too (the lexer's rule).
    return memchr(base + start, 13, limit).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? newline
  }

  static func scan(_ bytes: UnsafeBufferPointer<UInt8>, mentions: Bool) -> Scan {
    var result = Scan()
    let count = bytes.count
    var index = 0
    /// The word before the current one, when it introduces a declaration.
    enum Previous { case none, declares, province, interface, federal, year }
    var previous = Previous.none
    func isStart(_ byte: UInt8) -> Bool { (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95 }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    func equals(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
      guard end - start == word.utf8CodeUnitCount else { return false }
      let pointer = word.utf8Start
      for offset in 0..<(end - start) where bytes[start + offset] != pointer[offset] { return false }
      return true
    }
    func string(_ start: Int, _ end: Int) -> String {
      String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
    while index < count {
      let byte = bytes[index]
      if byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12 {
        index += 1
        continue
      }
      if byte == UInt8(ascii: "#") {
        // Most of the library is comments: found by the C library's vectorised search, not byte by byte.
        index = lineEnd(bytes, from: index)
        continue
      }
      if byte == UInt8(ascii: "\"") {
        if previous == .federal { result.declared.append("federal") }
        previous = .none
        index += 1
        while index < count {
          let inner = bytes[index]
          if inner == UInt8(ascii: "\"") || inner == 10 || inner == 13 { break }
          index += inner == UInt8(ascii: "\\") && index + 1 < count && bytes[index + 1] != 10 && bytes[index + 1] != 13
            ? 2 : 1
        }
        if index < count, bytes[index] == UInt8(ascii: "\"") { index += 1 }
        continue
      }
      if isStart(byte) {
        let start = index
        index += 1
        while index < count, isStart(bytes[index]) || isDigit(bytes[index]) { index += 1 }
        if previous == .declares || previous == .province || previous == .interface {
          if previous == .province { result.declaresJurisdiction = true }
          if previous == .interface { result.declaresInterface = true }
          result.declared.append(string(start, index))
          if mentions { result.mentioned.insert(string(start, index)) }
          previous = .none
          continue
        }
        // A top-level `let` starts its line (the parser's declaration boundary); an indented one is a formula's.
        let atLineStart = start == 0 || bytes[start - 1] == 10 || bytes[start - 1] == 13
        if equals(start, index, "formula") || (atLineStart && equals(start, index, "let")) {
          previous = .declares
        } else if equals(start, index, "province") {
          previous = .province
        } else if equals(start, index, "parameters") {
          previous = .interface
        } else if equals(start, index, "federal") {
          previous = .federal
        } else if equals(start, index, "year") {
          previous = .year
        } else {
          previous = .none
        }
        // A keyword is a mention too (`province` and `year` are names elsewhere): over-approximating is harmless.
        if mentions { result.mentioned.insert(string(start, index)) }
        continue
      }
      if isDigit(byte) {
        let start = index
        while index < count, isDigit(bytes[index]) { index += 1 }
        if previous == .year, index - start <= 6 {
          var year = 0
          for digit in bytes[start..<index] { year = year * 10 + Int(digit - 48) }
          result.years.append(year)
        }
        previous = .none
        continue
      }
      if byte == UInt8(ascii: "{") && previous == .federal {
        result.declared.append("federal")
        result.declaresJurisdiction = true
      }
      previous = .none
      index += 1
    }
    return result
  }
}
