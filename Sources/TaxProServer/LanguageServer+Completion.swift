import Foundation
import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// `textDocument/completion` through the core's engine, the same one the REPL's Tab uses. It reads the current
  /// text (however broken) and the last checked program, so it answers at once while the analyzer re-checks.
  func completion(_ request: LSP.CompletionRequest) -> LSP.CompletionList? {
    guard let (_, source) = document(request.textDocument) else { return nil }
    return completion(in: source, at: source.offset(of: request.position), program: recentAnalysis().program)
  }

  /// The completion at byte `offset` of `source`, from `program`.
  func completion(in source: LineMap, at offset: Int, program: Program) -> LSP.CompletionList {
    // The engine reads the declaration around the cursor; giving it only that keeps completion quick in a large file.
    let window = LanguageServer.declarationWindow(source.bytes, around: offset)
    let text = String(decoding: source.bytes[window], as: UTF8.self)
    let list = CompletionEngine.complete(
      CompletionQuery(text: text, offset: offset - window.lowerBound, year: year), in: program, cache: completionCache,
      limit: LanguageServer.completionLimit)
    let formats = client.textDocument?.completion?.completionItem?.documentationFormat
    let markdown = LanguageServer.markdown(in: formats)
    // A client that names no format gets the specification's other shape: a bare string.
    let named = markdown || formats?.contains(.plaintext) == true
    let width = String(list.candidates.count).utf8.count
    // Every candidate replaces the same range (the word up to the cursor): converted to lines and characters once.
    var converted: (bytes: Range<Int>, range: LSP.Range)? = nil
    let items = list.candidates.enumerated().map { position, candidate -> LSP.CompletionItem in
      let bytes = (candidate.range.lowerBound + window.lowerBound)..<(candidate.range.upperBound + window.lowerBound)
      let range: LSP.Range
      if let converted, converted.bytes == bytes {
        range = converted.range
      } else {
        range = source.range(of: bytes)
        converted = (bytes, range)
      }
      var detail = candidate.detail
      if let value = candidate.value { detail += detail.isEmpty ? "= \(value)" : " = \(value)" }
      let rank = String(position)
      let documentation = candidate.documentation.map { renderedDocumentation($0, named: named, markdown: markdown) }
      return LSP.CompletionItem(
        label: candidate.label, kind: LanguageServer.completionKind(candidate.kind),
        detail: detail.isEmpty ? nil : detail, documentation: documentation,
        sortText: String(repeating: "0", count: width - rank.utf8.count) + rank, filterText: candidate.filterText,
        textEdit: LSP.TextEdit(range: range, newText: candidate.insertText))
    }
    return LSP.CompletionList(isIncomplete: list.isIncomplete, items: items)
  }

  /// The most items a completion list holds. A one-letter word at the top level of a document of 10,000 formulas
  /// matched every one of them: 10,012 items, 4.9 MB of JSON, 84 ms from request to the client's parsed reply. The
  /// best ones are sent instead, marked incomplete, so the editor asks again as the word grows (as clangd's 100).
  static let completionLimit = 200

  /// Completion documentation as this client is sent it, made once per text (`CompletionDocumentation`).
  func renderedDocumentation(_ text: String, named: Bool, markdown: Bool) -> LSP.StringOrMarkupContent {
    completionDocumentation.value(for: text, named: named, markdown: markdown) {
      named ? .markupContent(markup(text, markdown)) : .string(markup(text, false).value)
    }
  }

  /// Makes, while the server is idle, what the first completion in each context would otherwise make on the user's
  /// keystroke: each jurisdiction's parameters (`CompletionCache`), every candidate's documentation as this client
  /// is sent it (`CompletionDocumentation`), and the reply's text (discarded: writing it the first time runs code and
  /// makes runtime metadata that the user's first request would otherwise wait for). The first completion after
  /// `ON.` took 0.40 ms against 0.13–0.16 for the next ones (release build, 4,000-line document, medians of 8 fresh
  /// servers).
  ///
  /// The analyzer posts this once its first analysis is out; each message warms one context (the `Province`
  /// interface's members, then one jurisdiction's, 0.1–0.3 ms each) through the request's own path, on a document of
  /// one formula, and posts the next one behind whatever the client sent meanwhile, so a request waits for at most one
  /// context. The names at the top level are not warmed: with no prefix to filter them they are every formula of the
  /// workspace, and their list took 10 ms for a document of 1,000 formulas; a user's completion there has a prefix.
  func warmCompletion(_ notification: WarmCompletionNotification) {
    guard let program = analyzer?.latestAnalysis?.program, warmCompletion(in: program) else { return }
    connection?.post(NotificationMessage(method: WarmCompletionNotification.method))
  }

  /// Warms the next context for `program` (see above); whether any is left.
  func warmCompletion(in program: Program) -> Bool {
    if warmingContexts == nil {
      warmingContexts = (["province"] + program.jurisdictions.keys.sorted().map { $0 + "." }).reversed()
    }
    guard let context = warmingContexts?.popLast() else { return false }
    // A value of type `Province` is completed after a parameter of that type; `ON.` after the code itself.
    let text = "formula warm(" + (context == "province" ? "p: Province): Money = p." : "): Money = " + context)
    let source = LineMap(SourceFile(id: FileID(Int.max), name: "warm", text: text))
    _ = completion(in: source, at: text.utf8.count, program: program).writtenJSON()
    return warmingContexts?.isEmpty == false
  }

  /// The lines of the top-level declaration holding `offset`: from the nearest line above (or at) it that starts a
  /// declaration at column 0, to the next such line below it. At most `limit` bytes each way.
  static func declarationWindow(_ bytes: [UInt8], around offset: Int, limit: Int = 65_536) -> Range<Int> {
    let cursor = max(0, min(offset, bytes.count))
    func startsDeclaration(_ lineStart: Int) -> Bool {
      declarationKeywords.contains { word in
        lineStart + word.count <= bytes.count && bytes[lineStart..<(lineStart + word.count)].elementsEqual(word)
      }
    }
    var start = cursor
    while start > 0, bytes[start - 1] != 10 { start -= 1 }
    while start > 0, cursor - start < limit, !startsDeclaration(start) {
      start -= 1
      while start > 0, bytes[start - 1] != 10 { start -= 1 }
    }
    var end = cursor
    while end < bytes.count, bytes[end] != 10 { end += 1 }
    while end < bytes.count, end - cursor < limit {
      let next = end + 1
      if next >= bytes.count || startsDeclaration(next) { break }
      end = next
      while end < bytes.count, bytes[end] != 10 { end += 1 }
    }
    return start..<min(bytes.count, end)
  }

  /// What a line that starts a top-level declaration starts with, as bytes made once (not at each line looked at).
  private static let declarationKeywords: [[UInt8]] = [
    "formula ", "let ", "test ", "province ", "federal ", "parameters ",
  ].map { Array($0.utf8) }

  /// Whether Markdown is the client's choice among the formats it lists, most preferred first (the order the
  /// specification gives them): the first of them the server writes. None listed: plain text.
  static func markdown(in formats: [LSP.MarkupKind]?) -> Bool {
    formats?.first { $0 == .markdown || $0 == .plaintext } == .markdown
  }

  /// Markdown, or the same text without code fences for a client that shows plain text.
  /// Hover, completion and signature documentation: source text and documentation comments, their control
  /// characters shown as escapes (`\u{1B}`) rather than passed to the editor.
  func markup(_ markdown: String, _ supported: Bool) -> LSP.MarkupContent {
    let visible = markdown.escapingControlCharacters(lineBreaks: true)
    if supported { return .markdown(visible) }
    return .plaintext(LanguageServer.withoutCodeFences(visible))
  }

  /// `markdown` without its code fences (the lines "```taxpro" and "```"), byte by byte: Foundation's
  /// `replacingOccurrences` goes through `NSString`, which made it most of a completion answer's time.
  static func withoutCodeFences(_ markdown: String) -> String {
    let opening = Array("```taxpro\n".utf8)
    let closing = Array("\n```".utf8)
    var text = markdown
    return text.withUTF8 { bytes in
      // Nothing to take out (most documentation): the text as it is. Both fences hold three backticks in a row, which
      // inline code does not; the search for them skips eight bytes without a backtick at once.
      guard containsThreeBackticks(bytes) else { return markdown }
      // One pass for each fence, in this order, as replacing the first then the second would.
      var kept = Array(bytes)
      for fence in [opening, closing] {
        var output: [UInt8] = []
        output.reserveCapacity(kept.count)
        kept.withUnsafeBufferPointer { input in
          var index = 0
          while index < input.count {
            if input[index] == fence[0], index + fence.count <= input.count,
              (1..<fence.count).allSatisfy({ input[index + $0] == fence[$0] })
            {
              index += fence.count
            } else {
              output.append(input[index])
              index += 1
            }
          }
        }
        kept = output
      }
      return String(decoding: kept, as: UTF8.self)
    }
  }

  /// Whether "```" occurs in `bytes`.
  private static func containsThreeBackticks(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress, bytes.count >= 3 else { return false }
    let count = bytes.count
    let ones: UInt64 = 0x0101_0101_0101_0101
    let backticks = ones &* UInt64(UInt8(ascii: "`"))
    var index = 0
    while index + 8 <= count {
      let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ backticks
      // No zero byte after the XOR: no backtick among these eight.
      if (word &- ones) & ~word & 0x8080_8080_8080_8080 == 0 {
        index += 8
        continue
      }
      for offset in index..<(index + 8) where isFence(offset) { return true }
      index += 8
    }
    while index < count {
      if isFence(index) { return true }
      index += 1
    }
    return false

    func isFence(_ offset: Int) -> Bool {
      offset + 2 < count && base[offset] == UInt8(ascii: "`") && base[offset + 1] == UInt8(ascii: "`")
        && base[offset + 2] == UInt8(ascii: "`")
    }
  }

  static func completionKind(_ kind: CompletionKind) -> LSP.CompletionItemKind {
    switch kind {
    case .argumentLabel: .property
    case .local: .variable
    case .sessionValue: .variable
    case .jurisdictionParameter: .field
    case .constant: .constant
    case .formula: .function
    case .jurisdiction: .module
    case .builtin: .function
    case .keyword: .keyword
    case .type: .struct
    }
  }
}

/// Completion documentation as the client is sent it (control characters escaped, code fences taken out for plain
/// text), by the documentation's text: a completion after `ON.` lists the same few dozen parameters, with tens of
/// kilobytes of documentation, at every keystroke, and looking at all of it twice per request was a tenth of the
/// request. Keyed by the text itself, so an entry is never stale; emptied when it grows past `limit` entries.
struct CompletionDocumentation {
  private struct Key: Hashable {
    var text: String
    var named: Bool
    var markdown: Bool

    /// The length and three samples of the text: the whole text is compared only for a key with the same hash
    /// (hashing all of it would cost about what the cache saves).
    func hash(into hasher: inout Hasher) {
      hasher.combine(named)
      hasher.combine(markdown)
      var text = text
      text.withUTF8 { bytes in
        hasher.combine(bytes.count)
        let window = min(16, bytes.count)
        for start in [0, (bytes.count - window) / 2, bytes.count - window] {
          hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<(start + window)])))
        }
      }
    }
  }

  static let limit = 4_096
  private var entries: [Key: LSP.StringOrMarkupContent] = [:]

  /// How many texts are kept (tests).
  var count: Int { entries.count }

  /// The value for `text`, made by `make` the first time.
  mutating func value(
    for text: String, named: Bool, markdown: Bool, _ make: () -> LSP.StringOrMarkupContent
  ) -> LSP.StringOrMarkupContent {
    let key = Key(text: text, named: named, markdown: markdown)
    if let value = entries[key] { return value }
    if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
    let value = make()
    entries[key] = value
    return value
  }
}

/// Posted by the analyzer to the server once its first analysis is out (`LanguageServer.warmCompletion`), and by the
/// server to itself for each context still to warm. A client that sends it only makes the server warm a context.
struct WarmCompletionNotification: NotificationType {
  static let method = "$/taxpro/warmCompletion"
}
