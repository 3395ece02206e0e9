/// What a `##` block says about the declaration below it. Its fields (`summary`, `tip`, …) are those of `Fields`.
///
/// Every declaration, parameter and checked formula carries one, and most are empty, so the fields live in a
/// copy-on-write buffer: an empty value allocates nothing and a copy is one reference, not ten.
@dynamicMemberLookup
public struct Documentation: Sendable, Equatable {
  /// The fields. Almost every block is a summary alone, so the others are kept out of line, as a parameter's range
  /// and default are: the fields of a summary are its text, its span and one reference (40 bytes, not 130).
  public struct Fields: Sendable, Equatable {
    public var summary = ""
    /// Where the comment block is.
    public var span: Span?
    /// The fields besides the summary, when any is written.
    var others = OutOfLine<Others>()

    struct Others: OutOfLineFields, Equatable {
      var definition: String?
      var instruction: String?
      var tip: String?
      var topic: [String] = []
      var references: [String] = []
      var notes: [String] = []
      var examples: [String] = []
      var parts: String?

      var isEmpty: Bool {
        definition == nil && instruction == nil && tip == nil && topic.isEmpty && references.isEmpty && notes.isEmpty
          && examples.isEmpty && parts == nil
      }
    }

    @usableFromInline init() {}

    public var definition: String? {
      get { others.fields.definition }
      set { others.update { $0.definition = newValue } }
    }
    public var instruction: String? {
      get { others.fields.instruction }
      set { others.update { $0.instruction = newValue } }
    }
    public var tip: String? {
      get { others.fields.tip }
      set { others.update { $0.tip = newValue } }
    }
    /// The topic path, e.g. `["Income", "Investment income", "Dividends"]`.
    public var topic: [String] {
      get { others.fields.topic }
      set { others.update { $0.topic = newValue } }
    }
    public var references: [String] {
      get { others.fields.references }
      set { others.update { $0.references = newValue } }
    }
    public var notes: [String] {
      get { others.fields.notes }
      set { others.update { $0.notes = newValue } }
    }
    public var examples: [String] {
      get { others.fields.examples }
      set { others.update { $0.examples = newValue } }
    }
    /// A formula's breakdown when its `let` steps alone do not add up (a record-like formula that computes many
    /// lines and returns one, such as `return_summary`): `WHOLE = PART + PART + …`, names of its Money `let` steps
    /// (the whole may be a Money input). What `taxpro chart` draws of a call; see `Session.breakdown`.
    public var parts: String? {
      get { others.fields.parts }
      set { others.update { $0.parts = newValue } }
    }

  }

  /// The fields, or the lines they are read from when first asked for.
  enum Storage: Sendable {
    /// No element (nothing documented), or the one set of fields.
    case read([Fields])
    /// A block of several lines, not read yet (a block of one line is read as it is parsed, `parse(line:span:)`).
    case unread(Unread)
  }

  /// The lines of a `##` block, read into fields (`Documentation.parse(lines:span:)`) the first time anything but its
  /// span is asked for. Reading every block as it was parsed was nearly two fifths of parsing the standard library,
  /// whose blocks run to many lines, while only a hover, a completion's details or an explanation ever shows one.
  final class Unread: @unchecked Sendable {
    let lines: [String]
    let span: Span?
    /// The fields once read: set once, under `Unread.lock`.
    private var read: Fields?
    /// One lock for every block: a block is read once, in microseconds, so two threads rarely meet here.
    private static let lock = PlainLock()

    init(lines: [String], span: Span?) {
      self.lines = lines
      self.span = span
    }

    /// The fields, read on the first call.
    var fields: Fields {
      Unread.lock.withLock {
        if let read { return read }
        let made = Documentation.read(lines: lines, span: span)
        read = made
        return made
      }
    }

    /// The fields if they are read already.
    var readFields: Fields? { Unread.lock.withLock { read } }

    /// Whether a line may start a `parts:` field, without reading the block: false only when every line is ASCII
    /// and none starts (after blanks) with the key `parts:` in any case, as `splitASCIIField` finds keys.
    var mayHaveParts: Bool {
      for line in lines {
        let possible = line.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
          guard Documentation.isASCIIWithoutNewline(bytes) else { return true }
          var start = 0
          while start < bytes.count, bytes[start] == 32 || bytes[start] == 9 || bytes[start] == 13 { start += 1 }
          guard bytes.count - start >= 6, bytes[start + 5] == UInt8(ascii: ":") else { return false }
          return Documentation.fieldKey(UnsafeBufferPointer(rebasing: bytes[start..<(start + 5)])) == .parts
        }
        if possible ?? true { return true }
      }
      return false
    }
  }

  var storage: Storage = .read([])

  public init() {}

  init(_ fields: consuming Fields) { storage = .read([fields]) }

  /// The documentation of `lines`, read when first asked for (`Unread`).
  static func unread(lines: [String], span: Span?) -> Documentation {
    var documentation = Documentation()
    documentation.storage = .unread(Unread(lines: lines, span: span))
    return documentation
  }

  var fields: Fields {
    switch storage {
    case .read(let fields): fields.first ?? Fields()
    case .unread(let unread): unread.fields
    }
  }

  /// Where the comment block is, without reading it.
  public var span: Span? {
    get {
      switch storage {
      case .read(let fields): fields.first?.span
      case .unread(let unread): unread.span
      }
    }
    set { update { $0.span = newValue } }
  }

  /// The `parts:` field (`Fields.parts`), read only from a block that may have one (the checker asks of every formula).
  public var parts: String? {
    get {
      switch storage {
      case .read(let fields): fields.first?.parts
      case .unread(let unread): unread.mayHaveParts ? unread.fields.parts : nil
      }
    }
    set { update { $0.parts = newValue } }
  }

  mutating func update(_ body: (inout Fields) -> Void) {
    var value: [Fields]
    switch storage {
    case .read(let fields): value = fields
    case .unread(let unread): value = [unread.fields]
    }
    // The one reference to the fields goes first, so that `body` changes their buffers in place.
    storage = .read([])
    if value.isEmpty { value = [Fields()] }
    body(&value[0])
    storage = .read(value)
  }

  public subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
    get { fields[keyPath: field] }
    set { update { $0[keyPath: field] = newValue } }
  }

  public static func == (lhs: Documentation, rhs: Documentation) -> Bool {
    // The span is one of the fields: blocks at different places differ, read or not.
    guard lhs.span == rhs.span else { return false }
    // The same lines at the same place read the same: compared without reading them.
    if case .unread(let left) = lhs.storage, case .unread(let right) = rhs.storage,
      left === right || left.lines == right.lines
    {
      return true
    }
    return lhs.fields == rhs.fields
  }

  public var isEmpty: Bool {
    if case .read(let fields) = storage, fields.isEmpty { return true }
    let fields = self.fields
    return fields.summary.isEmpty && fields.others.isEmpty
  }

  enum Field { case summary, definition, instruction, tip, topic, reference, note, example, parts }

  /// The `key:` of each field as the editors highlight it (`taxpro vocabulary` lists them; `fieldKeys` also takes a
  /// few other spellings).
  public static let fieldNames = ["definition", "instruction", "tip", "topic", "reference", "note", "example", "parts"]

  static let fieldKeys: [String: Field] = [
    "definition": .definition, "instruction": .instruction, "instructions": .instruction, "tip": .tip,
    "topic": .topic, "reference": .reference, "references": .reference, "source": .reference, "note": .note,
    "example": .example, "parts": .parts,
  ]
  /// The longest key in `fieldKeys`, in bytes.
  static let longestKey = 12
  /// `fieldKeys` as bytes, for `splitASCIIField`: a key is matched where it is written, without building a lowercased
  /// string to look up for every `##` line that has a colon near its start (most summaries do: `Formula 12: …`).
  static let fieldKeyBytes: [(key: [UInt8], field: Field)] = fieldKeys.map { (Array($0.key.utf8), $0.value) }

  /// The field whose key is `bytes` (ASCII) in any case, if any.
  static func fieldKey(_ bytes: UnsafeBufferPointer<UInt8>) -> Field? {
    candidates: for (key, field) in fieldKeyBytes where key.count == bytes.count {
      for offset in 0..<key.count {
        let byte = bytes[offset]
        if (byte >= 65 && byte <= 90 ? byte + 32 : byte) != key[offset] { continue candidates }
      }
      return field
    }
    return nil
  }

  /// Reads the lines of a `##` block: leading lines are the summary; `key:` lines start fields; later lines continue them.
  ///
  /// The fields are gathered in local variables, each text grown in place, and stored once at the end. (Set one line at
  /// a time, every line copied the rarely set fields out of line and back, and rebuilt the text so far: documentation
  /// was half of parsing the standard library, whose blocks run to many lines.)
  public static func parse(lines: [String], span: Span?) -> Documentation {
    Documentation(read(lines: lines, span: span))
  }

  /// `parse(lines:span:)`'s fields.
  static func read(lines: [String], span: Span?) -> Fields {
    var summary = ""
    var others = Fields.Others()
    var current = Field.summary
    for rawLine in lines {
      let (line, field, rest) = splitField(rawLine)
      if let field {
        current = field
        switch field {
        case .summary: break
        case .definition: continueText(&others.definition, with: rest)
        case .instruction: continueText(&others.instruction, with: rest)
        case .tip: continueText(&others.tip, with: rest)
        case .topic:
          others.topic = rest.split(separator: "/").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        case .reference: if !rest.isEmpty { others.references.append(rest) }
        case .note: others.notes.append(rest)
        case .example: others.examples.append(rest)
        case .parts: continueText(&others.parts, with: rest)
        }
        continue
      }
      switch current {
      case .summary: continueText(&summary, with: line)
      case .definition: continueText(&others.definition, with: line)
      case .instruction: continueText(&others.instruction, with: line)
      case .tip: continueText(&others.tip, with: line)
      case .topic: break
      case .reference: if !line.isEmpty { others.references.append(line) }
      case .note:
        if !others.notes.isEmpty { continueText(&others.notes[others.notes.count - 1], with: line) }
      case .example:
        if !line.isEmpty { others.examples.append(line) }
      case .parts: continueText(&others.parts, with: line)
      }
    }
    // Trimming only when an end is a space or a line break (a `##` line is already trimmed, and has no line break).
    if let first = summary.utf8.first, let last = summary.utf8.last, first == 10 || first == 32 || last == 10 || last == 32 {
      summary = summary.trimmingCharacters(in: "\n ")
    }
    var documentation = Fields()
    documentation.summary = summary
    documentation.span = span
    documentation.others = OutOfLine(others)
    return documentation
  }

  /// Continues a field's text with the next line: after a space, or after nothing when the text so far ends a
  /// paragraph (a line break) or is empty; an empty line ends the paragraph with a line break.
  static func continueText(_ text: inout String, with line: String) {
    if text.isEmpty {
      text = line
    } else if line.isEmpty {
      text.append("\n")
    } else {
      if !text.hasSuffix("\n") { text.append(" ") }
      text.append(line)
    }
  }

  /// `continueText` for a field that may be unset: its first line sets it, even to an empty text.
  static func continueText(_ text: inout String?, with line: String) {
    guard var existing = text else {
      text = line
      return
    }
    // The optional's reference goes first, so that the text grows in its own buffer.
    text = nil
    continueText(&existing, with: line)
    text = existing
  }

  /// One line trimmed, and when it starts with a known `key:`, the field and the trimmed text after the colon.
  static func splitField(_ rawLine: String) -> (line: String, field: Field?, rest: String) {
    if let fast = rawLine.utf8.withContiguousStorageIfAvailable({ splitASCIIField($0, of: rawLine) }), let fast {
      return fast
    }
    let line = rawLine.trimmingSpaces
    // A key has at most `longestKey` characters, so only a colon among the first `longestKey + 1` can end one: the
    // search stops there rather than go through every character of the line.
    if let colon = line.prefix(longestKey + 1).firstIndex(of: ":"), let known = fieldKeys[line[..<colon].lowercased()] {
      return (line, known, String(line[line.index(after: colon)...]).trimmingSpaces)
    }
    return (line, nil, line)
  }

  /// `splitField` on bytes, for lines of ASCII without line breaks (where every byte is a character, so byte-wise
  /// trimming and searching agree with the character-wise ones); nil for other lines. `bytes` are `whole`'s, which is
  /// returned as it is when nothing is trimmed (the usual `##` line) rather than copied.
  static func splitASCIIField(
    _ bytes: UnsafeBufferPointer<UInt8>, of whole: String
  ) -> (line: String, field: Field?, rest: String)? {
    guard isASCIIWithoutNewline(bytes) else { return nil }
    func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 }
    func trimmed(_ start: Int, _ end: Int) -> Range<Int> {
      var start = start
      var end = end
      while start < end, isSpace(bytes[start]) { start += 1 }
      while end > start, isSpace(bytes[end - 1]) { end -= 1 }
      return start..<end
    }
    func string(_ range: Range<Int>) -> String {
      if range == 0..<bytes.count { return whole }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
    let lineRange = trimmed(0, bytes.count)
    let line = string(lineRange)
    // Only a colon within `longestKey` bytes of the line's start can end a key: the first one, if it is there.
    var colon = -1
    var index = 0
    while index < min(bytes.count, lineRange.lowerBound + longestKey + 1) {
      if bytes[index] == UInt8(ascii: ":") {
        colon = index
        break
      }
      index += 1
    }
    guard colon >= 0, colon - lineRange.lowerBound <= longestKey else { return (line, nil, line) }
    guard let field = fieldKey(UnsafeBufferPointer(rebasing: bytes[lineRange.lowerBound..<colon])) else {
      return (line, nil, line)
    }
    return (line, field, string(trimmed(colon + 1, lineRange.upperBound)))
  }
}

extension Documentation.Fields: CustomReflectable {
  /// The fields as written, not their storage (for debuggers and `dump`).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "summary": summary, "definition": definition as Any, "instruction": instruction as Any, "tip": tip as Any,
        "topic": topic, "references": references, "notes": notes, "examples": examples, "parts": parts as Any,
        "span": span as Any,
      ], displayStyle: .struct)
  }
}

extension Documentation: CustomReflectable {
  /// The fields as written, read if they are not yet, rather than the storage (for debuggers and `dump`, so that a
  /// block prints the same whether or not something asked for it before).
  public var customMirror: Mirror { fields.customMirror }
}

extension Documentation {
  /// Whether `bytes` are all ASCII and none is a "\n": eight at a time.
  static func isASCIIWithoutNewline(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    if let base = bytes.baseAddress {
      while index + 8 <= bytes.count {
        let word = ByteWords.word(base, at: index)
        if ByteWords.containsNonASCII(word) || ByteWords.contains(word, 10) { return false }
        index += 8
      }
    }
    while index < bytes.count {
      if bytes[index] >= 0x80 || bytes[index] == 10 { return false }
      index += 1
    }
    return true
  }

  /// Whether a `##` line's text (`bytes`) is a summary that `parse(line:span:)` keeps as it is: ASCII without a line
  /// break, neither starting nor ending with a space, a tab or a "\r", and not starting with a field's `key:`.
  static func isPlainSummary(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, let last = bytes.last, first != 32, first != 9, first != 13, last != 32, last != 9,
      last != 13, isASCIIWithoutNewline(bytes)
    else { return false }
    // As in `splitASCIIField`: only a colon within `longestKey` bytes of the start can end a key.
    var index = 0
    let end = min(bytes.count, longestKey + 1)
    while index < end {
      if bytes[index] == UInt8(ascii: ":") { return fieldKey(UnsafeBufferPointer(rebasing: bytes[0..<index])) == nil }
      index += 1
    }
    return true
  }

  /// `parse(lines: [line], span:)` for a block of one line, the usual one above a declaration, without the array.
  static func parse(line rawLine: String, span: Span?) -> Documentation {
    // The usual line, a summary with nothing to trim and no `key:`, is the summary as it is.
    if let plain = rawLine.utf8.withContiguousStorageIfAvailable({ isPlainSummary($0) }), plain {
      var documentation = Fields()
      documentation.summary = rawLine
      documentation.span = span
      return Documentation(documentation)
    }
    let (line, field, _) = splitField(rawLine)
    guard field == nil else { return parse(lines: [rawLine], span: span) }
    var documentation = Fields()
    documentation.span = span
    documentation.summary = line
    if let first = line.utf8.first, let last = line.utf8.last, first == 10 || first == 32 || last == 10 || last == 32 {
      documentation.summary = line.trimmingCharacters(in: "\n ")
    }
    return Documentation(documentation)
  }
}

extension String {
  var trimmingSpaces: String { trimmingCharacters(in: " \t\r") }

  /// Trims characters of `set` from both ends. ASCII text without `\r` (where every byte is a character) is trimmed
  /// byte-wise without building characters.
  func trimmingCharacters(in set: String) -> String {
    let fast = utf8.withContiguousStorageIfAvailable { bytes -> String? in
      // "\r\n" is one character; any other ASCII byte is a character of its own.
      guard set.utf8.allSatisfy({ $0 < 0x80 }), !(set.utf8.contains(13) && set.utf8.contains(10)) else { return nil }
      var sawReturn = false
      var sawNewline = false
      for byte in bytes {
        if byte >= 0x80 { return nil }
        if byte == 13 { sawReturn = true } else if byte == 10 { sawNewline = true }
      }
      if sawReturn && sawNewline { return nil }
      var start = 0
      var end = bytes.count
      while start < end, set.utf8.contains(bytes[start]) { start += 1 }
      while end > start, set.utf8.contains(bytes[end - 1]) { end -= 1 }
      if start == 0 && end == bytes.count { return self }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
    if let fast, let fast { return fast }
    // A character of `set` (ASCII, none of them the start of a longer character but "\r" before "\n", handled above)
    // at an end would put its byte there: when neither end's byte is one, nothing is trimmed.
    if let first = utf8.first, let last = utf8.last, set.utf8.allSatisfy({ $0 < 0x80 }), !set.utf8.contains(first),
      !set.utf8.contains(last)
    {
      return self
    }
    let characters = Set(set)
    var start = startIndex
    var end = endIndex
    while start < end, characters.contains(self[start]) { start = index(after: start) }
    while end > start, characters.contains(self[index(before: end)]) { end = index(before: end) }
    return String(self[start..<end])
  }
}
