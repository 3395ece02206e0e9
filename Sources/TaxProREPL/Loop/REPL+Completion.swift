import Foundation
import LineEditing
import TaxProCore

extension REPL {
  /// Tab: command names after `:`, each command's kind of argument after it, and names in code (through the core's
  /// completion engine, with the lines of an unfinished entry as context).
  func complete(_ buffer: String, cursor requested: Int) -> Completion {
    let bytes = Array(buffer.utf8)
    var cursor = max(0, min(requested, bytes.count))
    while cursor > 0, cursor < bytes.count, bytes[cursor] & 0xC0 == 0x80 { cursor -= 1 }
    let leading = bytes.prefix { $0 == 32 || $0 == 9 }.count
    // A command runs at the prompt, or after documentation held for an entry (`handle`).
    guard CellEntries.onlyNotes(pendingLines), leading < bytes.count, bytes[leading] == UInt8(ascii: ":") else {
      let before = pendingLines.isEmpty ? "" : pendingLines.joined(separator: "\n") + "\n"
      return completeCode(before + buffer, cursor: before.utf8.count + cursor, shift: before.utf8.count)
    }
    let nameStart = leading + 1
    var nameEnd = nameStart
    while nameEnd < bytes.count, bytes[nameEnd] != 32, bytes[nameEnd] != 9 { nameEnd += 1 }
    let name = String(decoding: bytes[nameStart..<min(nameEnd, max(cursor, nameStart))], as: UTF8.self)
    if cursor <= nameEnd {
      let names = CommandTable.names.filter { $0.hasPrefix(name) }.map { ":" + $0 }
      return Completion(candidates: names, replacing: leading..<cursor)
    }
    guard let command = CommandTable.command(named: String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)) else {
      return .none
    }
    var argumentStart = nameEnd
    while argumentStart < cursor, bytes[argumentStart] == 32 || bytes[argumentStart] == 9 { argumentStart += 1 }
    let argument = String(decoding: bytes[argumentStart..<cursor], as: UTF8.self)
    return completeArgument(command.argument, argument, start: argumentStart, bytes: bytes, cursor: cursor)
  }

  func completeArgument(
    _ kind: CommandArgument, _ argument: String, start: Int, bytes: [UInt8], cursor: Int
  ) -> Completion {
    let program = session.program
    func words(_ candidates: [String]) -> Completion {
      Completion(candidates: candidates.filter { $0.hasPrefix(argument) }.sorted(), replacing: start..<cursor)
    }
    switch kind {
    case .none:
      return .none
    case .formula:
      return words(program.formulas.map(\.name))
    case .year:
      return words(program.years.map(String.init))
    case .lesson:
      let tree = TopicTree(program: program)
      let topics = tree.paths.flatMap { path in [path, path.components(separatedBy: " / ").last ?? path] }
      return words(ConceptLesson.all.map(\.name) + program.formulas.map(\.name) + topics)
    case .glossaryTerm:
      return words(Glossary.terms.map(\.term))
    case .recordName:
      return words(loadRecords()?.records.map(\.name) ?? [])
    case .profileName:
      var names = Set(loadProfile()?.values.keys.map { $0 } ?? [])
      for formula in program.formulas { names.formUnion(formula.parameters.map(\.name)) }
      names.insert("clear")
      // Only the name is completed; the value after it is an expression.
      if let space = argument.firstIndex(where: \.isWhitespace) {
        let value = argument[space...].drop(while: \.isWhitespace)
        let valueStart = start + argument.utf8.count - value.utf8.count
        return completeCode(String(value), cursor: value.utf8.count, shift: -valueStart)
      }
      return words(Array(names))
    case .file:
      return completeFile(argument, start: start, cursor: cursor)
    case .expression:
      let text = String(decoding: bytes[start..<bytes.count], as: UTF8.self)
      return completeCode(text, cursor: cursor - start, shift: -start)
    case .helpTopic:
      if argument.hasPrefix(":") { return words(CommandTable.names.map { ":" + $0 }) }
      let code = completeCode(argument, cursor: argument.utf8.count, shift: -start)
      // Types and interfaces have help too, though they are not values.
      let extra = (TaxType.writable.map(\.description) + program.interfaces.keys).filter { $0.hasPrefix(argument) }
      if argument.contains(".") || extra.isEmpty { return code }
      let replacing = code.candidates.isEmpty ? start..<cursor : code.replacing
      guard replacing == start..<cursor else { return code }
      return Completion(candidates: code.candidates + extra.sorted(), replacing: replacing)
    }
  }

  /// Names in code. `shift` is how far `text`'s offsets are from the buffer's: the length of earlier lines when
  /// `text` starts with them (positive), minus the argument's start when `text` is a command's argument (negative).
  func completeCode(_ text: String, cursor: Int, shift: Int) -> Completion {
    let query = CompletionQuery(text: text, offset: cursor, mode: .interactive, sessionValues: session.values)
    let list = CompletionEngine.complete(query, in: session.program)
    // A terminal completes by prefix; words that only contain what was typed are for when nothing starts with it.
    let prefixed = list.candidates.filter { $0.match != .substring }
    let chosen = prefixed.isEmpty ? list.candidates : prefixed
    let lower = list.range.lowerBound - shift
    let upper = list.range.upperBound - shift
    guard lower >= 0, lower <= upper else { return .none }
    return Completion(candidates: chosen.map(\.insertText), replacing: lower..<upper)
  }

  /// Directories and `.tax` files, relative to the current directory or under `~`.
  func completeFile(_ argument: String, start: Int, cursor: Int) -> Completion {
    let expanded = REPL.expandingTilde(argument)
    let slash = expanded.lastIndex(of: "/")
    let directory = slash.map { String(expanded[...$0]) } ?? ""
    let stem = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
    let typedDirectory = argument.lastIndex(of: "/").map { String(argument[...$0]) } ?? ""
    let manager = FileManager.default
    guard let names = try? manager.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else {
      return .none
    }
    var candidates: [String] = []
    for name in names.sorted() where name.hasPrefix(stem) && (!name.hasPrefix(".") || stem.hasPrefix(".")) {
      var isDirectory: ObjCBool = false
      _ = manager.fileExists(atPath: directory + name, isDirectory: &isDirectory)
      if isDirectory.boolValue {
        candidates.append(typedDirectory + name + "/")
      } else if name.hasSuffix(".tax") {
        candidates.append(typedDirectory + name)
      }
    }
    return Completion(candidates: candidates, replacing: start..<cursor)
  }
}
