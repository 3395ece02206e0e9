import CEditLine
import CSignals
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The interactive line editor, on libedit.
///
/// libedit gives the bindings users already have (`~/.editrc`, emacs or vi), history recall and search, and
/// a C API small enough to wrap in one file. This class owns the `EditLine *` and the history; libedit calls
/// back into it (prompt, input, Tab) through C function pointers that find the object via `EL_CLIENTDATA`.
///
/// It also works when standard input is a pipe (libedit then reads lines without editing or prompts), but
/// a script's lines are better read plainly, without touching the user's history.
public final class EditLineEditor: LineEditor {
  private let editLine: OpaquePointer
  /// The history list and its file; exposed so the REPL can report a history file it could not use.
  public let history: HistoryStore
  public var completionProvider: CompletionProvider?
  public let colorEnabled: Bool
  /// The descriptor libedit reads from (standard input): libedit sets its terminal modes there.
  private let inputDescriptor: Int32
  /// Where the input callback reads `inputDescriptor`'s input, without blocking (see `TerminalInput`).
  private let input: TerminalInput
  /// The prompt as a C string that stays valid between the callback returning it and libedit printing it.
  private var promptStorage: UnsafeMutablePointer<CChar>?
  /// Further lines of a recalled multi-line entry, handed out by the next reads.
  private var queuedLines: [String] = []
  /// Byte that brackets non-printing prompt text (`EL_PROMPT_ESC`); see `CompletionText.bracketingEscapes`.
  private static let promptEscape: CChar = 1

  /// Sets up libedit for `programName` (the name `~/.editrc` lines can be prefixed with).
  ///
  /// - Parameters:
  ///   - historyPath: the history file, loaded now and rewritten after each entry; `nil` keeps history in memory.
  ///   - readUserSettings: read `~/.editrc` (or `$EDITRC`); off for tests that need default bindings.
  /// Returns `nil` when libedit cannot be initialised (for example without a usable terminal type).
  public init?(
    programName: String,
    historyPath: String?,
    colorEnabled: Bool = Terminal.colorEnabled(),
    readUserSettings: Bool = true
  ) {
    Self.chooseUTF8CharacterType()
    guard let history = HistoryStore(path: historyPath) else { return nil }
    guard let editLine = el_init(programName, taxpro_stdin(), taxpro_stdout(), taxpro_stderr()) else { return nil }
    self.editLine = editLine
    self.history = history
    self.colorEnabled = colorEnabled
    self.inputDescriptor = STDIN_FILENO
    self.input = TerminalInput(source: STDIN_FILENO)
    self.promptStorage = strdup("")

    Interrupts.install()
    _ = taxpro_install_continue_handler()
    _ = taxpro_el_set_client_data(editLine, Unmanaged.passUnretained(self).toOpaque())
    _ = taxpro_el_set_prompt(editLine, { editLine in
      guard let editLine, let editor = EditLineEditor.from(editLine) else { return taxpro_empty_string() }
      return editor.promptStorage ?? taxpro_empty_string()
    }, Self.promptEscape)
    _ = taxpro_el_set_getc(editLine, { editLine, character in
      guard let editLine, let character, let editor = EditLineEditor.from(editLine) else { return -1 }
      return editor.readCharacter(into: character)
    })
    _ = taxpro_el_set_history(editLine, history.handle)
    // libedit's own handlers restore the terminal on SIGINT/SIGTSTP/SIGCONT and track SIGWINCH, then pass
    // the signal on to ours (`Interrupts`), which only sets the flag the input callback checks.
    _ = taxpro_el_set_signal(editLine, 1)
    _ = taxpro_el_set_editor(editLine, "emacs")
    _ = taxpro_el_add_function(editLine, "taxpro-complete", "Complete the word before the cursor", { editLine, _ in
      guard let editLine, let editor = EditLineEditor.from(editLine) else { return UInt8(CC_ERROR) }
      return editor.complete()
    })
    _ = taxpro_el_add_function(editLine, "taxpro-ignore", "Ignore a bracketed-paste marker", { _, _ in
      UInt8(CC_NORM)
    })
    installBindings()
    if readUserSettings {
      let before = editorMode
      _ = el_source(editLine, nil)
      // `bind -v` in ~/.editrc replaces every key map, dropping our bindings; put them into the new map.
      if editorMode != before {
        installBindings()
      }
    }
  }

  deinit {
    el_end(editLine)
    input.close()
    free(promptStorage)
  }

  /// `"emacs"` or `"vi"`, after `~/.editrc` had its say.
  public var editorMode: String {
    var mode: UnsafePointer<CChar>?
    guard taxpro_el_get_editor(editLine, &mode) == 0, let mode else { return "emacs" }
    return String(cString: mode)
  }

  public func readLine(prompt: String) -> LineInput {
    read(prompt: prompt)
  }

  /// Lines of a recalled entry still to come, or bytes already in the terminal's queue: a paste goes on.
  public var hasTypeAhead: Bool {
    if !queuedLines.isEmpty { return true }
    var descriptor = pollfd(fd: input.descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
  }

  public func readContinuationLine(prompt: String) -> LineInput {
    read(prompt: prompt)
  }

  /// Entries may span several lines; libedit stores and saves them whole, and recalling one gives its
  /// lines back one read at a time, as if they had been typed (or pasted) again.
  public func addHistory(_ entry: String) {
    history.add(entry)
  }

  // MARK: Reading

  private func read(prompt: String) -> LineInput {
    if !queuedLines.isEmpty {
      return .line(queuedLines.removeFirst())
    }
    setPrompt(prompt)
    // A Ctrl-C pressed while the REPL was busy belongs to what it was doing, not to this new line.
    Interrupts.clear()
    // libedit draws the prompt first and puts the terminal in raw mode only when it reads the first key, so a key
    // typed in between reaches the terminal driver in cooked mode: a Ctrl-D there becomes an end-of-file marker that
    // raw mode then delivers as a NUL, and the Ctrl-D is lost. Raw mode before the prompt closes that gap; libedit
    // returns to cooked mode when the line is done, as before.
    _ = taxpro_el_prep_term(editLine, 1)
    var count: Int32 = 0
    guard let line = el_gets(editLine, &count), count > 0 else {
      if Interrupts.take() {
        writeOutput("^C\r\n")
        return .interrupted
      }
      // Ctrl-D leaves the cursor after the prompt; end the line so what follows starts on its own.
      if Terminal.isTerminal(inputDescriptor) {
        writeOutput("\r\n")
      }
      return .endOfInput
    }
    var text = String(cString: line)
    if text.hasSuffix("\n") { text.removeLast() }
    // A recalled multi-line entry comes back as one buffer; the loop expects one line per read.
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
    }
    let first = lines.isEmpty ? "" : lines.removeFirst()
    queuedLines = lines
    return .line(first)
  }

  private func setPrompt(_ prompt: String) {
    let bracketed = CompletionText.bracketingEscapes(prompt).replacingOccurrences(of: "\u{0}", with: "")
    guard let copy = strdup(bracketed) else { return }
    free(promptStorage)
    promptStorage = copy
  }

  /// libedit's input callback: one character from the terminal, decoded from UTF-8.
  ///
  /// libedit's built-in reader decides for itself whether to retry a read that a signal interrupted, and
  /// that logic has changed between releases; reading here makes the outcome ours. The line is given up
  /// exactly when the Ctrl-C flag is set; any other interruption (a resize, Ctrl-Z then `fg`) retries,
  /// redrawing the line after `fg`. Returns 1 for a character, 0 at end of input and -1 on an error or
  /// interrupt, as `el_rfunc_t` requires.
  fileprivate func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
    var first: UInt8 = 0
    switch readByte(&first) {
    case .byte: break
    case .end: return 0
    case .failed: return -1
    }
    let length: Int
    var value: UInt32
    switch first {
    case 0x00...0x7F: length = 1; value = UInt32(first)
    case 0xC2...0xDF: length = 2; value = UInt32(first & 0x1F)
    case 0xE0...0xEF: length = 3; value = UInt32(first & 0x0F)
    case 0xF0...0xF4: length = 4; value = UInt32(first & 0x07)
    default: length = 1; value = 0xFFFD
    }
    for _ in 1..<max(length, 1) {
      var next: UInt8 = 0
      switch readByte(&next) {
      case .byte: break
      case .end: return 0
      case .failed: return -1
      }
      guard next & 0xC0 == 0x80 else {
        value = 0xFFFD
        break
      }
      value = value << 6 | UInt32(next & 0x3F)
    }
    // Overlong forms would smuggle in characters such as NUL under a disguise; surrogates are not characters.
    let smallest: UInt32 = length == 4 ? 0x10000 : length == 3 ? 0x800 : 0
    if value < smallest || Unicode.Scalar(value) == nil { value = 0xFFFD }
    character.pointee = wchar_t(bitPattern: value)
    return 1
  }

  private enum ByteRead { case byte, end, failed }

  private func readByte(_ byte: inout UInt8) -> ByteRead {
    while true {
      // Wait first, so a Ctrl-C that lands between two reads (while the line is redrawn, or before the first read)
      // gives up the line at once instead of leaving read() blocked with the flag set.
      switch Interrupts.waitForInput(on: input.descriptor) {
      case .interrupted:
        taxpro_set_errno(EINTR)
        return .failed
      case .otherSignal:
        redrawIfContinued()
        continue
      case .failed:
        return .failed
      case .input:
        break
      }
      switch input.read() {
      case .byte(let value):
        byte = value
        return .byte
      case .end:
        return .end
      case .nothing:
        // A Ctrl-C discarded the input the wait saw: wait again, which sees the Ctrl-C.
        continue
      case .interrupted:
        if Interrupts.isPending {
          taxpro_set_errno(EINTR)
          return .failed
        }
        redrawIfContinued()
        continue
      case .failed:
        return .failed
      }
    }
  }

  /// Back from Ctrl-Z: the shell has drawn over the screen, so draw the prompt and line again.
  private func redrawIfContinued() {
    if taxpro_take_continued() != 0 {
      _ = taxpro_el_refresh(editLine)
    }
  }

  // MARK: Completion

  private func complete() -> UInt8 {
    guard let provider = completionProvider, let info = el_line(editLine) else { return UInt8(CC_ERROR) }
    let line = info.pointee
    guard let start = line.buffer, let cursorPointer = line.cursor, let last = line.lastchar else {
      return UInt8(CC_ERROR)
    }
    let length = last - start
    let cursor = cursorPointer - start
    guard length >= 0, cursor >= 0, cursor <= length else { return UInt8(CC_ERROR) }
    let bytes = start.withMemoryRebound(to: UInt8.self, capacity: length) {
      Array(UnsafeBufferPointer(start: $0, count: length))
    }
    let completion = provider(String(decoding: bytes, as: UTF8.self), cursor)
    let range = completion.replacing
    let candidates = CompletionText.unique(completion.candidates)
    guard !candidates.isEmpty,
      CompletionText.isBoundary(range.lowerBound, in: bytes),
      CompletionText.isBoundary(range.upperBound, in: bytes)
    else { return UInt8(CC_ERROR) }

    if candidates.count == 1 {
      return replace(range, cursor: cursor, bytes: bytes, with: candidates[0])
        ? UInt8(CC_REFRESH) : UInt8(CC_ERROR)
    }
    let prefix = CompletionText.commonPrefix(candidates)
    if prefix.utf8.count > range.count {
      return replace(range, cursor: cursor, bytes: bytes, with: prefix) ? UInt8(CC_REFRESH) : UInt8(CC_ERROR)
    }
    let rows = CompletionText.columns(candidates, width: Terminal.width())
    writeOutput("\r\n" + rows.joined(separator: "\r\n") + "\r\n")
    return UInt8(CC_REDISPLAY)
  }

  /// Replaces a byte range of the line: libedit edits by characters relative to the cursor, so the cursor
  /// is moved to the end of the range, the range deleted backwards, and the text inserted.
  private func replace(_ range: Range<Int>, cursor: Int, bytes: [UInt8], with text: String) -> Bool {
    let move =
      range.upperBound >= cursor
      ? CompletionText.scalarCount(bytes[cursor..<range.upperBound])
      : -CompletionText.scalarCount(bytes[range.upperBound..<cursor])
    if move != 0 {
      _ = el_cursor(editLine, Int32(move))
    }
    el_deletestr(editLine, Int32(CompletionText.scalarCount(bytes[range])))
    return text.isEmpty || el_insertstr(editLine, text) == 0
  }

  // MARK: Setup helpers

  private func installBindings() {
    _ = taxpro_el_bind(editLine, "^I", "taxpro-complete")
    // Not every libedit binds Ctrl-R to a history search (some use it for redisplay).
    _ = taxpro_el_bind(editLine, "^R", "em-inc-search-prev")
    // Terminals with bracketed paste on wrap pasted text in these markers; dropping them lets each
    // pasted line arrive as an ordinary entered line.
    // Only in emacs mode: in vi insert mode a binding that starts with Escape makes Escape wait for the
    // rest of a sequence instead of switching to command mode.
    if editorMode == "emacs" {
      _ = taxpro_el_bind(editLine, "\\e[200~", "taxpro-ignore")
      _ = taxpro_el_bind(editLine, "\\e[201~", "taxpro-ignore")
    }
  }

  private func writeOutput(_ text: String) {
    fputs(text, taxpro_stdout())
    fflush(taxpro_stdout())
  }

  fileprivate static func from(_ editLine: OpaquePointer) -> EditLineEditor? {
    guard let data = taxpro_el_get_client_data(editLine) else { return nil }
    return Unmanaged<EditLineEditor>.fromOpaque(data).takeUnretainedValue()
  }

  /// libedit converts between characters and bytes with the C library's locale, which a Swift program
  /// leaves at "C" (ASCII only). Take the user's locale for character types, and UTF-8 if that is not UTF-8.
  private static func chooseUTF8CharacterType() {
    if let chosen = setlocale(LC_CTYPE, ""), isUTF8(), String(cString: chosen) != "C" {
      return
    }
    for candidate in ["C.UTF-8", "C.utf8", "en_US.UTF-8"] where setlocale(LC_CTYPE, candidate) != nil {
      if isUTF8() { return }
    }
  }

  private static func isUTF8() -> Bool {
    guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
    let name = String(cString: codeset).uppercased()
    return name == "UTF-8" || name == "UTF8"
  }
}
