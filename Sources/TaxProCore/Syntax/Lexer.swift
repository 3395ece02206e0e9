/// The tokens, comments and diagnostics of one source.
public struct LexedSource: Sendable {
  public var tokens: [Token]
  public var comments: [Comment]
  public var diagnostics: [Diagnostic]
  /// True when the lexer stopped before the end after too many errors (the tokens end there).
  public var stoppedEarly = false
}

/// Turns UTF-8 bytes into tokens. It never stops at a problem: a bad character or malformed literal becomes a diagnostic
/// (and an `invalid` token) and lexing goes on.
public struct Lexer {
  let source: SourceFile
  let bytes: [UInt8]
  var index = 0
  var lineStart = 0
  var atLineStart = true
  var lineIndent: Int32 = 0
  /// The tokens made so far, while `run` goes; then `tokens`.
  var made = TokenBuffer()
  var tokens: [Token] = []
  /// The statement-end rule, applied to each token as it is made (so the tokens are built once, in one array).
  var statementEnds = StatementEnds()
  var comments: [Comment] = []
  var diagnostics: [Diagnostic] = []
  /// Set when `maximumErrors` errors have been reported: lexing stops there, so that a file of 50 million stray
  /// characters costs 500 diagnostics rather than 50 million.
  var stoppedEarly = false
  /// Errors reported before the lexer gives up on the rest of the source.
  static let maximumErrors = 500
  /// `Vocabulary`'s tables, held here so that the lexer's loop reads them without a global's lazy check each time.
  let reservedWords = Vocabulary.reservedWords
  let symbols = Vocabulary.symbolTable
  let nameBytes = Lexer.nameByteTable

  /// 1 for each byte that continues a name (a letter, a digit or `_`), else 0: one load per byte of a name, where the
  /// three range tests took thirteen instructions. Made once and never freed.
  nonisolated(unsafe) static let nameByteTable: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 { table[byte] = isIdentifierPart(UInt8(byte)) ? 1 : 0 }
    return UnsafePointer(table)
  }()

  public init(source: SourceFile) {
    self.source = source
    self.bytes = source.bytes
  }

  public static func lex(_ source: SourceFile) -> LexedSource {
    var lexer = Lexer(source: source)
    lexer.run()
    return LexedSource(
      tokens: lexer.tokens, comments: lexer.comments, diagnostics: lexer.diagnostics, stoppedEarly: lexer.stoppedEarly)
  }

  /// Lexes the lines in `range` alone, as part of a re-parse (`Parser.reparse`): `range` starts at the start of a line
  /// and ends just after a token, where the end-of-input token is put.
  static func lex(_ source: SourceFile, lines range: Range<Int>) -> LexedSource {
    var lexer = Lexer(source: source)
    lexer.index = range.lowerBound
    lexer.lineStart = range.lowerBound
    lexer.run(upTo: range.upperBound)
    return LexedSource(
      tokens: lexer.tokens, comments: lexer.comments, diagnostics: lexer.diagnostics, stoppedEarly: lexer.stoppedEarly)
  }

  func span(_ start: Int, _ end: Int) -> Span { Span(file: source.id, start: start, end: end) }

  mutating func error(
    _ message: DiagnosticMessage, _ start: Int, _ end: Int, notes: [DiagnosticNote] = [], fixes: [Fix] = []
  ) {
    if stoppedEarly { return }
    if diagnostics.count >= Lexer.maximumErrors {
      stoppedEarly = true
      diagnostics.append(
        .error(.tooManyErrorsReading, at: span(start, max(start, end))))
      return
    }
    diagnostics.append(.error(message, at: span(start, end), notes: notes, fixes: fixes))
  }

  /// Appends a token; `word` is the declaration a name at the left margin may start (`declarationWord`).
  @inline(__always) mutating func add(_ kind: TokenKind, _ start: Int, word: TokenKind? = nil) {
    let column = Lexer.offset32(start - lineStart)
    if atLineStart { lineIndent = column }
    let token = Token(
      kind: kind, start: Lexer.offset32(start), end: Lexer.offset32(index), column: column, startsLine: atLineStart,
      lineIndent: lineIndent)
    if statementEnds.passesThrough(token) {
      made.append(token)
    } else {
      statementEnds.append(token, word: word, to: &made)
    }
    atLineStart = false
  }

  /// An offset or a column as a token holds it: none is negative, and those of a source of 2 GiB or more are cut to
  /// `Int32.max` (`run` stops reading there).
  @inline(__always) static func offset32(_ value: Int) -> Int32 { Int32(truncatingIfNeeded: min(value, Int(Int32.max))) }

  /// The contextual keyword that starts a top-level declaration (`test`, `province`, `parameters`) spelled by
  /// `bytes[start..<end]`, if any: at the left margin it may begin one (`StatementEnds` decides by the next token).
  func declarationWord(_ start: Int, _ end: Int) -> TokenKind? {
    func matches(_ word: StaticString) -> Bool {
      guard word.utf8CodeUnitCount == end - start else { return false }
      let pointer = word.utf8Start
      for offset in 0..<(end - start) where bytes[start + offset] != pointer[offset] { return false }
      return true
    }
    switch bytes[start] {
    case UInt8(ascii: "t"): return matches("test") ? .kwTest : nil
    case UInt8(ascii: "p"):
      if matches("province") { return .kwProvince }
      return matches("parameters") ? .kwParameters : nil
    default: return nil
    }
  }

  func peek(_ offset: Int = 0) -> UInt8 {
    let position = index + offset
    return position < bytes.count ? bytes[position] : 0
  }

  /// Whether `byte` is an ASCII digit.
  public static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
  static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
  }
  static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

  /// Lexes from `index` to `end` (the whole source unless a re-parse asks for some lines).
  mutating func run(upTo end: Int? = nil) {
    let limit = end ?? bytes.count
    // Formula files have about one token per five bytes; reserving more than that costs only address space (pages
    // never written are never given memory), while growing the buffer would copy every token made so far. The tokens
    // are made in place, in the array's own storage, rather than copied into it at the end (a copy of 4.6 bytes of
    // tokens per byte of source); only a source with more tokens than that spills into a buffer of its own.
    var spilled = false
    let array = [Token](unsafeUninitializedCapacity: max(0, limit - index) / 3 + 16) { buffer, count in
      made = TokenBuffer(in: buffer)
      lexAll(limit)
      if made.ownsStorage {
        spilled = true
        count = 0
      } else {
        count = made.count
      }
    }
    tokens = spilled ? made.array() : array
    made.free()
  }

  /// `run`'s work, the tokens going to `made`.
  mutating func lexAll(_ limit: Int) {
    // Skip a byte-order mark.
    if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    // Token offsets are 32-bit: a source of 2 GiB or more is read up to there.
    let readable = min(limit, Int(Int32.max) - 8)
    let source = bytes
    source.withUnsafeBufferPointer { buffer in scan(buffer, limit: min(limit, buffer.count), readable: readable) }
    if readable < limit && !stoppedEarly {
      error(.tooLarge, index, index)
      stoppedEarly = true
    }
    statementEnds.append(
      Token(
        kind: .endOfFile, start: Int32(clamping: limit), end: Int32(clamping: limit),
        column: Int32(clamping: index - lineStart), startsLine: true, lineIndent: 0),
      to: &made)
  }

  /// The loop of `run` over the source's bytes (`buffer`, `limit` at most its count): line breaks, spaces, names,
  /// keywords and one- or two-byte symbols are read here, byte by byte without bounds checks (every index read is
  /// below `limit`); comments, literals and anything unusual by the methods that say what is wrong with them.
  mutating func scan(_ buffer: UnsafeBufferPointer<UInt8>, limit: Int, readable: Int) {
    let punctuation = symbols.ascii
    let stop = min(readable, limit)
    while index < stop && !stoppedEarly {
      let byte = buffer[index]
      if byte == 32 || byte == 9 || byte == 12 {
        index += 1
        while index < stop, buffer[index] == 32 { index += 1 }
        continue
      }
      if byte == 10 {
        index += 1
        lineStart = index
        atLineStart = true
        continue
      }
      if (byte | 0x20) &- 97 < 26 || byte == 95 {
        let start = index
        var end = index + 1
        while end < limit, nameBytes[Int(buffer[end])] != 0 { end += 1 }
        index = end
        if let kind = reservedWords.kind(buffer, start, end) {
          add(kind, start)
        } else {
          add(.identifier, start, word: atLineStart && start == lineStart ? declarationWord(start, end) : nil)
        }
        continue
      }
      // An ASCII symbol of one byte, or of two (`<=`, `->`, `..`): by table.
      let entry = punctuation[Int(byte)]
      if entry != 0 {
        let start = index
        if entry & 0x80 != 0, index + 1 < buffer.count, buffer[index + 1] == symbols.second[Int(byte)],
          let kind = symbols.pair[Int(byte)]
        {
          index += 2
          add(kind, start)
          continue
        }
        if entry & 0x7F != 0, let kind = symbols.single[Int(byte)] {
          if byte == UInt8(ascii: "/"), atLineStart, index + 1 < buffer.count, buffer[index + 1] == byte {
            lexSlashComment(buffer)
            continue
          }
          index += 1
          add(kind, start)
          continue
        }
      }
      switch byte {
      case 13:
        // "\r\n" is one line break (the "\n" ends the line); a lone "\r" is one too, as in the line table.
        index += 1
        if index < buffer.count, buffer[index] == 10 { continue }
        lineStart = index
        atLineStart = true
      case UInt8(ascii: "#"):
        lexComment(buffer)
      case _ where Lexer.isDigit(byte):
        lexNumber()
      case UInt8(ascii: "$"):
        lexMoney()
      case UInt8(ascii: "\""):
        lexString()
      default:
        lexPunctuation(byte)
      }
    }
  }

  mutating func lexComment(_ buffer: UnsafeBufferPointer<UInt8>) {
    let start = index
    let ownLine = atLineStart
    var contentStart = index + 1
    let isDocumentation = index + 1 < buffer.count && buffer[index + 1] == UInt8(ascii: "#")
    if isDocumentation { contentStart += 1 }
    index = Lexer.lineEnd(in: buffer, from: index, withoutReturns: !source.containsCarriageReturn)
    let end = index
    if contentStart < end, buffer[contentStart] == 32 { contentStart += 1 }
    let text = contentStart < end
      ? String(decoding: UnsafeBufferPointer(rebasing: buffer[contentStart..<end]), as: UTF8.self) : ""
    comments.append(
      Comment(span: span(start, end), isDocumentation: isDocumentation, text: text, ownLine: ownLine))
  }

  /// `// note` first on a line, as other languages write a comment: reported with the fix to `#`, and read as the
  /// comment it was meant to be, so the line costs one error.
  mutating func lexSlashComment(_ buffer: UnsafeBufferPointer<UInt8>) {
    let start = index
    error(
      .slashComment, start, start + 2, notes: [DiagnosticNote(.help, "a comment starts with '#'")],
      fixes: [Fix(title: "Write '#'", replacements: [TextReplacement(span: span(start, start + 2), text: "#")])])
    // The second '/' stands for the '#': the comment's text starts after it.
    index += 1
    lexComment(buffer)
  }

  /// The offset of the first "\n" or "\r" at or after `start` in `buffer`, or its count: eight bytes at a time, or
  /// with `memchr` for "\n" alone when the source has no "\r" (`withoutReturns`).
  static func lineEnd(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, withoutReturns: Bool = false) -> Int {
    if withoutReturns, ByteWords.isAvailable {
      return ByteWords.firstIndex(of: 10, in: buffer, from: start) ?? buffer.count
    }
    var index = start
    if let base = buffer.baseAddress {
      while index + 8 <= buffer.count, !ByteWords.containsLineBreak(ByteWords.word(base, at: index)) { index += 8 }
    }
    while index < buffer.count, buffer[index] != 10, buffer[index] != 13 { index += 1 }
    return index
  }

  /// Digits with `_` separators; returns whether any separator was misplaced.
  mutating func scanDigits() {
    while index < bytes.count, Lexer.isDigit(bytes[index]) || bytes[index] == 95 { index += 1 }
  }

  /// Where digits grouped by commas end when the digits at `firstGroup` are their first group: 1 to 3 digits, then
  /// `,ddd` once or more, as in `85,000` (read as the numbers 85 and 000, a `$` forgotten or eaten by a shell); nil
  /// when they are not.
  public static func groupedDigitsEnd(in bytes: [UInt8], firstGroup: Range<Int>) -> Int? {
    guard firstGroup.lowerBound >= 0, firstGroup.upperBound <= bytes.count, !firstGroup.isEmpty, firstGroup.count <= 3,
      bytes[firstGroup].allSatisfy(isDigit)
    else { return nil }
    var end = firstGroup.upperBound
    while end + 3 < bytes.count, bytes[end] == UInt8(ascii: ","), bytes[(end + 1)...(end + 3)].allSatisfy(isDigit),
      end + 4 == bytes.count || !isDigit(bytes[end + 4])
    {
      end += 4
    }
    return end > firstGroup.upperBound ? end : nil
  }

  /// Why a number may start with a zero: digits grouped with commas (`max(1,000)` is `max(1, 000)`), or a shell
  /// that replaced `$1` in `"$100"`.
  func leadingZerosNote(_ start: Int) -> DiagnosticNote {
    let comma = UInt8(ascii: ",")
    var first = start - 1
    if first > 0, bytes[first] == comma, Lexer.isDigit(bytes[first - 1]) {
      while first > 0, Lexer.isDigit(bytes[first - 1]) || bytes[first - 1] == comma { first -= 1 }
      var end = index
      while end + 1 < bytes.count, bytes[end] == comma, Lexer.isDigit(bytes[end + 1]) {
        end += 1
        while end < bytes.count, Lexer.isDigit(bytes[end]) { end += 1 }
      }
      let groups = bytes[first..<end].split(separator: comma).map { String(decoding: $0, as: UTF8.self) }
      return DiagnosticNote(
        .note,
        "in '\(groups.joined(separator: ","))' the ',' separates numbers; a number is written without commas: "
          + "\(groups.joined()) or \(groups.joined(separator: "_")) (only amounts of money group digits with commas)")
    }
    return DiagnosticNote(
      .note,
      "a shell replaces $1 inside double quotes: \"$100\" reaches TaxPro as \"00\"; put the expression in single quotes ('$100 + 15%')"
    )
  }

  mutating func lexNumber() {
    let start = index
    scanDigits()
    if peek() == UInt8(ascii: "."), Lexer.isDigit(peek(1)) {
      index += 1
      scanDigits()
    }
    checkUnderscores(start, index)
    // Scientific notation, as TaxPro prints very large and very small numbers: `1.2e39`, `2.5E-3`.
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      let signed = peek(1) == UInt8(ascii: "-") || peek(1) == UInt8(ascii: "+")
      if Lexer.isDigit(peek(signed ? 2 : 1)) {
        index += signed ? 2 : 1
        while index < bytes.count, Lexer.isDigit(bytes[index]) { index += 1 }
      }
    }
    if bytes[start] == UInt8(ascii: "0"), start + 1 < index, Lexer.isDigit(bytes[start + 1]), !stoppedEarly,
      diagnostics.count < Lexer.maximumErrors
    {
      let written = String(decoding: bytes[start..<index], as: UTF8.self)
      diagnostics.append(Diagnostic(.leadingZeros(written), at: span(start, index), notes: [leadingZerosNote(start)]))
    }
    if peek() == UInt8(ascii: "%") {
      index += 1
      add(.rate, start)
    } else {
      add(.number, start)
    }
    rejectGlued(start)
  }

  /// `_` must sit between digits.
  mutating func checkUnderscores(_ start: Int, _ end: Int) {
    var position = start
    while position < end {
      if bytes[position] == 95 {
        let before = position > start ? bytes[position - 1] : 0
        let after = position + 1 < end ? bytes[position + 1] : 0
        if !Lexer.isDigit(before) || !Lexer.isDigit(after) {
          error(.misplacedUnderscore, position, position + 1)
          return
        }
      }
      position += 1
    }
  }

  /// A literal directly followed by letters (`12abc`) is reported once, and the letters are swallowed.
  mutating func rejectGlued(_ start: Int) {
    guard index < bytes.count, Lexer.isIdentifierPart(bytes[index]) || bytes[index] == UInt8(ascii: "$") else {
      return
    }
    let glued = index
    while index < bytes.count, Lexer.isIdentifierPart(bytes[index]) { index += 1 }
    if index == glued { index += 1 }
    if let written = scaled(start, glued) {
      error(
        .lettersAfterNumber, glued, index,
        notes: [DiagnosticNote(.help, "did you mean '\(written)'? Amounts are written out in full")],
        fixes: [Fix(title: "Write '\(written)'", replacements: [TextReplacement(span: span(start, index), text: written)])])
    } else {
      error(.lettersAfterNumber, glued, index)
    }
  }

  /// `85k`, `$1.5M`, `2bn` written out (`85000`, `$1,500,000`, `2000000000`): the scale letters other calculators
  /// take after the number from `start`, whose letters start at `glued` and end at `index`; nil for other letters.
  func scaled(_ start: Int, _ glued: Int) -> String? {
    let zeros: Int
    switch String(decoding: bytes[glued..<index], as: UTF8.self).lowercased() {
    case "k": zeros = 3
    case "m", "mm": zeros = 6
    case "b", "bn": zeros = 9
    default: return nil
    }
    let isMoney = bytes[start] == UInt8(ascii: "$")
    let written = bytes[(isMoney ? start + 1 : start)..<glued].filter { $0 != UInt8(ascii: ",") && $0 != 95 }
    let parts = written.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count <= 2, let integer = parts.first, !integer.isEmpty,
      written.allSatisfy({ Lexer.isDigit($0) || $0 == UInt8(ascii: ".") })
    else { return nil }
    let fraction = parts.count == 2 ? Array(parts[1]) : []
    let moved = fraction.prefix(zeros) + Array(repeating: UInt8(ascii: "0"), count: max(0, zeros - fraction.count))
    var whole = Array(integer + moved).drop { $0 == UInt8(ascii: "0") }
    if whole.isEmpty { whole = [UInt8(ascii: "0")] }
    let rest = fraction.dropFirst(zeros)
    if !isMoney {
      return String(decoding: whole, as: UTF8.self) + (rest.isEmpty ? "" : "." + String(decoding: rest, as: UTF8.self))
    }
    guard rest.count <= 2 else { return nil }
    var grouped = ""
    for (offset, digit) in whole.enumerated() {
      if offset > 0, (whole.count - offset) % 3 == 0 { grouped += "," }
      grouped.append(Character(UnicodeScalar(digit)))
    }
    let cents = rest.isEmpty ? "" : "." + String(decoding: rest, as: UTF8.self) + (rest.count == 1 ? "0" : "")
    return "$" + grouped + cents
  }

  mutating func lexMoney() {
    let start = index
    index += 1
    guard Lexer.isDigit(peek()) else {
      // `$-5`: the minus goes before the dollar sign.
      var help = "write amounts like $85,000 or $0.50"
      if peek() == UInt8(ascii: "-"), Lexer.isDigit(peek(1)) {
        var end = index + 1
        while end < bytes.count, Lexer.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ",") || bytes[end] == UInt8(ascii: ".") {
          end += 1
        }
        help = "a negative amount is written with the minus first: -$" + String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
      } else if peek() == UInt8(ascii: "."), Lexer.isDigit(peek(1)) {
        var end = index + 1
        while end < bytes.count, Lexer.isDigit(bytes[end]) { end += 1 }
        help = "an amount starts with a digit: $0" + String(decoding: bytes[index..<end], as: UTF8.self)
        // The invalid token takes the digits too, so `.50` is not read as a member name after it.
        error(.dollarWithoutAmount, start, index, notes: [DiagnosticNote(.help, help)])
        index = end
        add(.invalid, start)
        return
      }
      error(.dollarWithoutAmount, start, index, notes: [DiagnosticNote(.help, help)])
      add(.invalid, start)
      return
    }
    let digitsStart = index
    // Integer part: digits, '_' and ',' separators. Of the groups of digits between commas, only the first one's
    // length and whether every later one has three digits matter.
    var currentGroup = 0
    var groups = 0
    var firstGroup = 0
    var laterGroupsOfThree = true
    var sawComma = false
    var sawUnderscore = false
    while index < bytes.count {
      let byte = bytes[index]
      if Lexer.isDigit(byte) {
        currentGroup += 1
      } else if byte == 95 {
        sawUnderscore = true
      } else if byte == UInt8(ascii: ","), Lexer.isDigit(peek(1)) {
        sawComma = true
        if groups == 0 { firstGroup = currentGroup } else if currentGroup != 3 { laterGroupsOfThree = false }
        groups += 1
        currentGroup = 0
      } else {
        break
      }
      index += 1
    }
    if groups == 0 { firstGroup = currentGroup } else if currentGroup != 3 { laterGroupsOfThree = false }
    var fractionDigits = 0
    if peek() == UInt8(ascii: "."), Lexer.isDigit(peek(1)) {
      index += 1
      while index < bytes.count, Lexer.isDigit(bytes[index]) || bytes[index] == 95 {
        if Lexer.isDigit(bytes[index]) { fractionDigits += 1 }
        index += 1
      }
    }
    checkUnderscores(digitsStart, index)
    if sawComma && sawUnderscore {
      error(
        .mixedGrouping, start, index,
        notes: [DiagnosticNote(.help, "write it like $1,234,567 or $1_234_567")])
    } else if sawComma {
      if !(firstGroup >= 1 && firstGroup <= 3 && laterGroupsOfThree) {
        let digits = source.text(of: span(digitsStart, index)).filter { $0 != "," && $0 != "_" }
        let suggestion = "$" + Lexer.groupThousands(digits)
        error(
          .groupsOfThree, start, index,
          notes: [DiagnosticNote(.help, "did you mean '\(suggestion)'?")],
          fixes: [
            Fix(
              title: "Write '\(suggestion)'",
              replacements: [TextReplacement(span: span(start, index), text: suggestion)])
          ])
      }
    }
    if fractionDigits > 2 {
      error(
        .moreThanCents, start, index,
        notes: [DiagnosticNote(.note, "amounts are kept in whole cents, as on a tax form")])
    }
    add(.money, start)
    rejectGlued(start)
  }

  /// `1234567.5` → `1,234,567.5`.
  static func groupThousands(_ digits: String) -> String {
    let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integer = Array(parts[0])
    var grouped = ""
    for (position, character) in integer.enumerated() {
      if position > 0, (integer.count - position) % 3 == 0 { grouped.append(",") }
      grouped.append(character)
    }
    if parts.count > 1 { grouped += "." + parts[1] }
    return grouped
  }

  mutating func lexString() {
    let start = index
    index += 1
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        add(.string, start)
        return
      }
      if byte == 10 || byte == 13 { break }
      if byte == UInt8(ascii: "\\") {
        let next = peek(1)
        if next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") || next == UInt8(ascii: "n")
          || next == UInt8(ascii: "t")
        {
          index += 2
          continue
        }
        error(.unknownEscape, index, min(index + 2, bytes.count),
          notes: [DiagnosticNote(.help, "the escapes are \\\", \\\\, \\n and \\t")])
        index += next == 10 || next == 13 || next == 0 ? 1 : 2
        continue
      }
      index += 1
    }
    error(.unclosedText, start, index,
      notes: [DiagnosticNote(.help, "add a closing '\"'")])
    add(.string, start)
  }

  /// An operator or punctuation (`Vocabulary.symbols`), the longest that fits.
  mutating func lexPunctuation(_ byte: UInt8) {
    let start = index
    let second = symbols.second[Int(byte)]
    if second != 0, peek(1) == second, let kind = symbols.pair[Int(byte)] {
      index += 2
      add(kind, start)
    } else if let kind = symbols.single[Int(byte)] {
      index += 1
      add(kind, start)
    } else if byte >= 0x80,
      let symbol = symbols.unicode.first(where: { symbol in
        symbol.bytes.indices.allSatisfy { peek($0) == symbol.bytes[$0] }
      })
    {
      index += symbol.bytes.count
      add(symbol.kind, start)
    } else if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "|") {
      lexLogicalOperator(byte)
    } else if byte == UInt8(ascii: "!") {
      index += 1
      error(.unexpectedBang, start, index,
        notes: [DiagnosticNote(.help, "write 'not' for negation and '!=' for 'not equal'")],
        fixes: [Fix(title: "Write 'not '", replacements: [TextReplacement(span: span(start, index), text: "not ")])])
      // Read on as 'not', so the rest of the line makes sense.
      add(.kwNot, start)
    } else {
      lexUnexpected(start)
    }
  }

  /// `&&`, `||`, `&` or `|`, as other languages write `and` and `or`: one error for the pair, with the word to write,
  /// and read on as that word, so the rest of the line makes sense.
  mutating func lexLogicalOperator(_ byte: UInt8) {
    let start = index
    index += 1
    if index < bytes.count, bytes[index] == byte { index += 1 }
    let word = byte == UInt8(ascii: "&") ? "and" : "or"
    let written = String(decoding: bytes[start..<index], as: UTF8.self)
    // The word needs spaces around it where the operator had none (`a&&b`).
    let spaceBefore = start > 0 && !Lexer.isSpace(bytes[start - 1]) ? " " : ""
    let spaceAfter = index < bytes.count && !Lexer.isSpace(bytes[index]) ? " " : ""
    error(
      .unexpectedLogicalOperator(written), start, index,
      notes: [DiagnosticNote(.help, "write '\(word)'")],
      fixes: [
        Fix(
          title: "Write '\(word)'",
          replacements: [TextReplacement(span: span(start, index), text: spaceBefore + word + spaceAfter)])
      ])
    add(byte == UInt8(ascii: "&") ? .kwAnd : .kwOr, start)
  }

  /// A space, tab, line break or form feed.
  static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 12 }

  mutating func lexUnexpected(_ start: Int) {
    // Swallow one whole UTF-8 scalar (or one invalid byte).
    let byte = bytes[index]
    var length = 1
    if byte >= 0xF0 { length = 4 } else if byte >= 0xE0 { length = 3 } else if byte >= 0xC0 { length = 2 }
    index = min(index + length, bytes.count)
    var continuation = start + 1
    while continuation < index, bytes[continuation] & 0xC0 == 0x80 { continuation += 1 }
    if continuation < index { index = continuation }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    // A rate shown cut (`33.3333…%`): its `%` belongs to the mark, rather than being a second error.
    if text == "\u{2026}", index < bytes.count, bytes[index] == UInt8(ascii: "%") { index += 1 }
    var notes: [DiagnosticNote] = []
    switch text {
    case "%":
      // `10 % 3`: the remainder, as other languages write it, when an operand follows.
      var next = index
      while next < bytes.count, bytes[next] == 32 || bytes[next] == 9 { next += 1 }
      if next < bytes.count, Lexer.isIdentifierPart(bytes[next]) || bytes[next] == UInt8(ascii: "$")
        || bytes[next] == UInt8(ascii: "(")
      {
        notes.append(DiagnosticNote(.help, "the remainder of a division is written with 'mod', like 10 mod 3"))
      }
      notes.append(DiagnosticNote(.help, "a rate is written with its number, like 13%"))
    case "\u{2026}", "\u{2248}":
      notes.append(DiagnosticNote(.help, "'…' and '≈' mark a value shown rounded; use ans for the value itself"))
    case "'": notes.append(DiagnosticNote(.help, "text is written in double quotes"))
    case "\u{00B7}", "\u{2715}", "\u{2217}": notes.append(DiagnosticNote(.help, "write '*' (or '×') to multiply"))
    default: break
    }
    let shown = text.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 || $0.value > 160 }
      ? "'\(text)'" : "byte 0x" + String(bytes[start], radix: 16)
    error(.unexpectedCharacter(shown), start, index, notes: notes)
    add(.invalid, start)
  }
}

/// The one rule for line breaks: which of them end statements. `grammar/taxpro_postlex.py` implements the same rule
/// for the Lark grammar (tests compare the two parsers). A line break ends a statement when
/// - it is not inside parentheses (inside `{ }` it counts again, even within parentheses),
/// - the token before it can end a statement and the token after it can begin one, and
/// - the token after it is not a `-` or `.` indented further than the line where the statement began (such a line
///   continues the expression above).
/// A statement begins at the start of the input, after `{`, and after a line break that ends a statement.
/// A declaration at the left margin closes whatever parentheses and braces are open: `formula` or `let`, and
/// `test "…"`, `province XX`, `parameters Name`, `federal "…"` or `federal {` (from the token after the word on).
/// Line breaks are "\n", "\r\n" and a lone "\r", as in `SourceFile.lineStarts`.
///
/// The lexer applies it token by token as it makes them: each token is appended to `result`, after a `newline` token
/// when the line break before it ends a statement.
struct StatementEnds {
  var nesting: [TokenKind] = []
  var statementIndent: Int32 = 0
  var startsStatement = true
  /// `test`, `province`, `parameters` or `federal` just seen at the left margin: the next token says whether it starts
  /// a declaration.
  var pendingDeclaration: TokenKind? = nil

  /// Whether the rule has nothing to do for `token`, which `append` would only append: a token after others on its
  /// line, not a bracket, neither starting a statement nor coming after a declaration's word (most tokens; the lexer
  /// appends those itself, without the call).
  @inline(__always) func passesThrough(_ token: Token) -> Bool {
    !token.startsLine && !startsStatement && pendingDeclaration == nil
      && (token.kind.rawValue < TokenKind.leftParen.rawValue || token.kind.rawValue > TokenKind.rightBrace.rawValue)
  }

  /// `word`: the declaration keyword a name at the left margin spells (`Lexer.declarationWord`), if any.
  mutating func append(_ token: Token, word: TokenKind? = nil, to result: inout TokenBuffer) {
    // A declaration at the start of a line can never be inside brackets: an unclosed one above must not swallow the
    // rest of the file.
    if token.startsLine && token.column == 0 && (token.kind == .kwFormula || token.kind == .kwLet) && !nesting.isEmpty {
      nesting.removeAll(keepingCapacity: true)
    }
    if let pending = pendingDeclaration {
      pendingDeclaration = nil
      let starts: Bool
      switch pending {
      case .kwTest: starts = token.kind == .string
      case .kwProvince, .kwParameters: starts = token.kind == .identifier
      default: starts = token.kind == .string || token.kind == .leftBrace  // federal
      }
      if starts { nesting.removeAll(keepingCapacity: true) }
    }
    if token.startsLine && token.column == 0 {
      pendingDeclaration = token.kind == .kwFederal ? .kwFederal : word
    }
    if startsStatement {
      statementIndent = token.lineIndent
      startsStatement = false
    }
    if token.startsLine, let previous = result.last, nesting.last != .leftParen, previous.kind.canEndStatement,
      token.kind.canStartStatement,
      !((token.kind == .minus || token.kind == .dot) && token.column > statementIndent)
    {
      result.append(
        Token(
          kind: .newline, start: previous.end, end: previous.end, column: 0, startsLine: false,
          lineIndent: previous.lineIndent))
      statementIndent = token.lineIndent
    }
    switch token.kind {
    case .leftParen: nesting.append(.leftParen)
    case .leftBrace:
      nesting.append(.leftBrace)
      startsStatement = true
    case .rightParen:
      // Usually the innermost bracket is the one closed: removed without the search.
      if nesting.last == .leftParen {
        nesting.removeLast()
      } else if let index = nesting.lastIndex(of: .leftParen), !nesting[index...].contains(.leftBrace) {
        nesting.removeSubrange(index...)
      }
    case .rightBrace:
      if nesting.last == .leftBrace {
        nesting.removeLast()
      } else if let index = nesting.lastIndex(of: .leftBrace) {
        nesting.removeSubrange(index...)
      }
    default: break
    }
    result.append(token)
  }
}

/// The lexer's tokens while it makes them: a buffer it appends to without the checks an array's append makes for each
/// token (that the array is not shared, and has room), which were a fifth of the lexer's work. `Lexer.run` gives it
/// the uninitialized storage of the array the tokens end in; when that is full, the tokens move to storage of the
/// buffer's own (`ownsStorage`), which `Lexer.run` makes the array of at the end and frees.
struct TokenBuffer {
  var base: UnsafeMutablePointer<Token>? = nil
  var count = 0
  var capacity = 0
  /// Whether `base` is storage this buffer allocated (and `free` deallocates), rather than storage it was given.
  private(set) var ownsStorage = false

  init() {}

  /// A buffer writing into `storage` (uninitialized), which it does not own.
  init(in storage: UnsafeMutableBufferPointer<Token>) {
    base = storage.baseAddress
    capacity = base == nil ? 0 : storage.count
  }

  @inline(never) mutating func reserve(_ minimum: Int) {
    guard minimum > capacity else { return }
    let grown = UnsafeMutablePointer<Token>.allocate(capacity: minimum)
    if let base {
      grown.moveInitialize(from: base, count: count)
      if ownsStorage { base.deallocate() }
    }
    base = grown
    capacity = minimum
    ownsStorage = true
  }

  @inline(__always) mutating func append(_ token: Token) {
    if count == capacity { reserve(max(16, capacity * 2)) }
    guard let base else { return }
    (base + count).initialize(to: token)
    count += 1
  }

  var last: Token? { count > 0 ? base.map { $0[count - 1] } : nil }

  func array() -> [Token] {
    guard let base else { return [] }
    return Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// Deallocates storage of its own, and forgets storage it was given.
  mutating func free() {
    if ownsStorage { base?.deallocate() }
    base = nil
    count = 0
    capacity = 0
    ownsStorage = false
  }
}
