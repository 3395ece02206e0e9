import Foundation
import LanguageServerProtocol
import TaxProCore
import TaxProLibrary

/// The sources the server knows: the standard library (parsed once, on a thread of its own, read-only), the `.tax` files under the
/// workspace roots (read from disk, kept current by watched-file events), and the documents the editor has open
/// (whose text the editor owns until it closes them).
///
/// Each source keeps one `FileID` for the whole session, so spans stay comparable across re-checks. A source is
/// re-parsed only when its text changes; the program is re-checked from the kept trees when anything changed.
final class Workspace {
  struct Source {
    var uri: LSP.DocumentURI
    var path: String?
    var id: FileID
    /// The current text, with its line table (kept as bytes: a large document is converted once per change).
    var file: SourceFile
    /// The editor's version while open; nil for a file read from disk.
    var version: Int?
    var isOpen: Bool
    /// Whether the file is under a workspace root (so it stays known after the editor closes it).
    var onDisk: Bool
    /// Parsed lazily, dropped when the text changes.
    var tree: SyntaxTree?
    /// The library file this one stands in for (a copy of it, or the library file itself opened in the editor).
    var replacesLibrary: String?
    /// A file read from disk that is not UTF-8 says so (`SourceFile.encodingWarnings(readFrom:)`); the editor's text
    /// always is.
    var encodingWarnings: [Diagnostic] = []
    /// Which text this is, for `edits` (the workspace's generation when it was set); nil when not counted.
    var revision: Int? = nil
    /// How the editor's changes led to this text from the last few before it.
    var edits = EditHistory()
  }

  struct LibrarySource {
    var name: String
    var path: String
    var uri: LSP.DocumentURI
  }

  private(set) var library: [LibrarySource] = []
  /// The library's trees, by position; `libraryTree(_:)` waits for them. The analyzer checks them once
  /// (`Analyzer.Job.library`).
  let libraryParse: LibraryParse
  private var libraryByPath: [String: Int] = [:]
  private(set) var sources: [FileID: Source] = [:]
  private var idsByKey: [String: FileID] = [:]
  /// `id(for:)`'s answers by URI text; emptied whenever the ids of files change.
  private var resolvedIDs: [String: FileID] = [:]
  private static let resolvedLimit = 4096
  /// Hands out the ids of everything but the library (`FileIDRange`); the library is parsed apart (`libraryParse`).
  private var importer = SourceImporter(libraryTrees: [])
  private(set) var roots: [String] = []
  /// Bumped on every change, so analyses can tell whether they are current.
  private(set) var generation = 0

  /// Starts parsing the library in the background: only its paths are needed until the first check.
  /// A workspace of `files`, the standard library, whose parse starts now.
  convenience init(library files: [LibraryFile]) { self.init(library: files, parse: LibraryParse(files)) }

  /// A workspace of `files`, the standard library, whose parse has started (`parse`, of these files).
  init(library files: [LibraryFile], parse: LibraryParse) {
    libraryParse = parse
    for (position, file) in files.enumerated() {
      let path = Workspace.standardizedPath(file.path)
      libraryByPath[path] = position
      library.append(LibrarySource(name: file.name, path: path, uri: LSP.DocumentURI(filePath: path)))
    }
  }

  /// The tree of the library file at `position` (waiting for the library's parse).
  func libraryTree(_ position: Int) -> SyntaxTree { libraryParse.trees[position] }

  var libraryCount: Int { library.count }

  /// The tax years the standard library has figures for.
  var libraryYears: Set<Int> {
    var years: Set<Int> = []
    for tree in libraryParse.trees {
      for declaration in tree.declarations {
        if case .jurisdiction(let jurisdiction) = declaration { years.formUnion(jurisdiction.years.map(\.year)) }
      }
    }
    return years
  }

  /// A library file's id is its position in `library` (`SourceImporter`).
  func isLibrary(_ id: FileID) -> Bool { FileIDRange.isLibrary(id) && id.rawValue < library.count }

  /// `path` as Foundation's `URL(fileURLWithPath:).standardizedFileURL.path` gives it (`WorkspaceTests` compares the
  /// two): an absolute path with its `.` and `..` components and repeated and trailing slashes taken out, by its text
  /// alone, without making a `URL`. Through `URL`, the library's paths alone took 0.6 ms of a fresh server's start
  /// (release build, perf samples of 40 starts), before it could answer `initialize`. A relative path (none comes from
  /// a `file:` URI) still goes through `URL`, which also expands a leading `~`.
  static func standardizedPath(_ path: String) -> String {
    guard path.utf8.first == UInt8(ascii: "/") else { return URL(fileURLWithPath: path).standardizedFileURL.path }
    let slash = UInt8(ascii: "/")
    let dot = UInt8(ascii: ".")
    let bytes = Array(path.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    // Where each component kept so far starts in `output` (at its slash), for a `..` to take the last one back out.
    var starts: [Int] = []
    var index = 0
    while index < bytes.count {
      while index < bytes.count, bytes[index] == slash { index += 1 }
      let start = index
      while index < bytes.count, bytes[index] != slash { index += 1 }
      switch index - start {
      case 0: continue
      case 1 where bytes[start] == dot: continue
      case 2 where bytes[start] == dot && bytes[start + 1] == dot:
        if let last = starts.popLast() { output.removeSubrange(last...) }
      default:
        starts.append(output.count)
        output.append(slash)
        output.append(contentsOf: bytes[start..<index])
      }
    }
    return output.isEmpty ? "/" : String(decoding: output, as: UTF8.self)
  }

  /// A stable key for a URI: its standardized path for `file:` URIs, else the URI itself.
  static func key(_ uri: LSP.DocumentURI) -> String {
    if let path = uri.filePath { return "file:" + Workspace.standardizedPath(path) }
    return uri.stringValue
  }

  /// The file a URI names. Every request asks this; the URIs it has resolved are remembered, because standardizing
  /// a path through `URL` costs more than the rest of a hover.
  func id(for uri: LSP.DocumentURI) -> FileID? {
    if let known = resolvedIDs[uri.stringValue] { return known }
    let key = Workspace.key(uri)
    var found = idsByKey[key]
    if found == nil, let path = uri.filePath,
      let position = libraryByPath[Workspace.standardizedPath(path)]
    {
      found = FileID(position)
    }
    if let found {
      if resolvedIDs.count >= Workspace.resolvedLimit { resolvedIDs.removeAll(keepingCapacity: true) }
      resolvedIDs[uri.stringValue] = found
    }
    return found
  }

  /// The URI clients should see for a file: the one they used, or the file's path.
  func uri(of id: FileID) -> LSP.DocumentURI? {
    if let source = sources[id] { return source.uri }
    if isLibrary(id) { return library[id.rawValue].uri }
    return nil
  }

  // MARK: Workspace folders

  /// The roots the client named. They are read by a `WorkspaceScanner`; until its result is taken in (`addScanned`),
  /// they are pending.
  func setRoots(_ uris: [LSP.DocumentURI]) {
    roots = uris.compactMap(\.filePath).map(Workspace.standardizedPath)
    pendingRoots = roots
  }

  /// Takes in what the scanner read: its projects' files become the workspace's.
  func addScanned(_ result: WorkspaceScanner.Result) {
    pendingRoots = []
    projects += result.projects
    for file in result.files where libraryByPath[file.path] == nil { loadFromDisk(file.path, bytes: file.bytes) }
  }

  /// The folders read whole, as projects.
  private(set) var projects: [String] = []
  /// The folders of documents opened outside every project, whose own `.tax` files (not their subfolders') are read.
  private(set) var folders: Set<String> = []
  /// Roots still being read by the scanner.
  private(set) var pendingRoots: [String] = []

  static func isUnder(_ path: String, _ folder: String) -> Bool {
    path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }

  static func folder(of path: String) -> String { (path as NSString).deletingLastPathComponent }

  /// Whether a file on disk belongs to the workspace (so it is read, stays known when the editor closes it, and gets
  /// diagnostics).
  func belongsToWorkspace(_ path: String) -> Bool {
    projects.contains { Workspace.isUnder(path, $0) } || folders.contains(Workspace.folder(of: path))
  }

  func isPending(_ path: String) -> Bool { pendingRoots.contains { Workspace.isUnder(path, $0) } }

  /// The most `.tax` files read from the folder of one document, and entries looked at in it.
  static let maximumFolderFiles = 200
  static let maximumFolderEntries = 10_000

  /// Reads the `.tax` files beside a document opened outside every project read (not those of subfolders), so that
  /// its neighbours' formulas are known wherever it is: a client without a root, a root too broad to read, or one
  /// still being read. Returns whether the folder was new.
  @discardableResult
  func includeFolder(of path: String) -> Bool {
    let folder = Workspace.folder(of: path)
    guard !belongsToWorkspace(path), libraryByPath[path] == nil, let directory = opendir(folder)
    else { return false }
    defer { closedir(directory) }
    folders.insert(folder)
    var entries = 0
    var found: [String] = []
    while let entry = readdir(directory), entries < Workspace.maximumFolderEntries,
      found.count < Workspace.maximumFolderFiles
    {
      entries += 1
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard name.hasSuffix(".tax"), !name.hasPrefix(".") else { continue }
      found.append((folder as NSString).appendingPathComponent(name))
    }
    for file in found.sorted() where libraryByPath[file] == nil {
      if let bytes = WorkspaceScanner.read(file, limit: WorkspaceScanner.Bounds().fileSize) {
        loadFromDisk(file, bytes: bytes)
      }
    }
    return true
  }

  private func loadFromDisk(_ path: String) {
    guard let data = FileManager.default.contents(atPath: path) else { return }
    loadFromDisk(path, bytes: [UInt8](data))
  }

  private func loadFromDisk(_ path: String, bytes: [UInt8]) {
    let uri = LSP.DocumentURI(filePath: path)
    let key = Workspace.key(uri)
    if let id = idsByKey[key], sources[id]?.isOpen == true {
      sources[id]?.onDisk = true
      return
    }
    let id = idsByKey[key] ?? allocate(key)
    sources[id] = Source(
      onDisk: bytes, path: path, id: id, replacesLibrary: StandardLibrary.libraryName(ofCopy: path))
    generation += 1
  }

  private func allocate(_ key: String) -> FileID {
    let id = importer.newFileID()
    idsByKey[key] = id
    resolvedIDs.removeAll(keepingCapacity: true)
    return id
  }

  /// Applies watched-file events for `.tax` files: created and changed files are read again (unless open in the
  /// editor, whose text wins), deleted ones are forgotten.
  func applyWatchedChanges(_ events: [LSP.FileEvent]) {
    for event in events {
      guard let path = event.uri.filePath.map(Workspace.standardizedPath),
        path.hasSuffix(".tax")
      else { continue }
      let key = Workspace.key(event.uri)
      if event.type == .deleted {
        if let id = idsByKey[key], var source = sources[id] {
          if source.isOpen {
            source.onDisk = false
            sources[id] = source
          } else {
            sources[id] = nil
          }
          generation += 1
        }
      } else if libraryByPath[path] == nil {
        loadFromDisk(path)
      }
    }
  }

  // MARK: Open documents

  func open(_ item: LSP.TextDocumentItem) {
    let key = Workspace.key(item.uri)
    let path = item.uri.filePath.map(Workspace.standardizedPath)
    // The library's own file, opened in the editor: its text replaces the library's copy, under the library's id.
    if let path, let position = libraryByPath[path] {
      let id = FileID(position)
      idsByKey[key] = id
      resolvedIDs.removeAll(keepingCapacity: true)
      sources[id] = Source(
        uri: item.uri, path: path, id: id, file: SourceFile(id: id, name: path, text: item.text),
        version: item.version, isOpen: true, onDisk: false, tree: nil, replacesLibrary: library[position].name)
      generation += 1
      return
    }
    let id = idsByKey[key] ?? allocate(key)
    let onDisk = sources[id]?.onDisk ?? false
    sources[id] = Source(
      uri: item.uri, path: path, id: id, file: SourceFile(id: id, name: path ?? item.uri.stringValue, text: item.text),
      version: item.version, isOpen: true,
      onDisk: onDisk || (path.map(belongsToWorkspace) ?? false),
      tree: nil, replacesLibrary: path.flatMap(StandardLibrary.libraryName(ofCopy:)))
    generation += 1
    sources[id]?.revision = generation
  }

  enum ChangeOutcome {
    case applied
    case unknownDocument
    case staleVersion(current: Int)
  }

  /// Applies a `didChange`'s edits in order, each to the result of the one before.
  func change(_ params: LSP.DidChangeTextDocumentNotification) -> ChangeOutcome {
    guard let id = id(for: params.textDocument.uri), var source = sources[id], source.isOpen else {
      return .unknownDocument
    }
    if let current = source.version, params.textDocument.version < current {
      return .staleVersion(current: current)
    }
    let name = source.file.name
    var file = source.file
    // The one edit of all the changes, for `Parser.reparse`: it then need not compare the texts to find it. (Nil
    // before the first change; `known` false once a change's edit is not known.)
    var edit: SourceEdit? = nil
    var known = true
    for change in params.contentChanges {
      let next: SourceEdit?
      if let range = change.range {
        // Only the replaced part of the text is looked at again (its line table is moved, not rebuilt). A range that
        // split a character is repaired as a String would repair it.
        let replaced = file.replacingWithEdit(LineMap(file).byteRange(of: range), with: Array(change.text.utf8))
        file = replaced.file
        next = replaced.edit
      } else {
        let replaced = file
        file = SourceFile(id: id, name: name, text: change.text)
        next = SourceEdit(from: replaced.bytes, to: file.bytes)
      }
      if let next { edit = edit.map { $0.then(next) } ?? next } else { known = false }
    }
    source.file = file
    source.version = params.textDocument.version
    source.tree = nil
    generation += 1
    if known, let edit, let revision = source.revision {
      source.edits.record(edit, from: revision)
    } else {
      source.edits = EditHistory()
    }
    source.revision = generation
    sources[id] = source
    return .applied
  }

  /// The editor let go of a document: a workspace file goes back to its text on disk; anything else is forgotten.
  func close(_ uri: LSP.DocumentURI) {
    guard let id = id(for: uri), let source = sources[id] else { return }
    if isLibrary(id) {
      sources[id] = nil
    } else if source.onDisk, let path = source.path, let data = FileManager.default.contents(atPath: path) {
      sources[id] = Source(onDisk: [UInt8](data), path: path, id: id, replacesLibrary: source.replacesLibrary)
    } else {
      sources[id] = nil
    }
    generation += 1
  }

  // MARK: Trees

  /// The syntax tree of a source, parsing it if its text changed.
  func tree(_ id: FileID) -> SyntaxTree? {
    if var source = sources[id] {
      if let tree = source.tree { return tree }
      let tree = Parser.parse(source.file)
      source.tree = tree
      sources[id] = source
      return tree
    }
    if isLibrary(id) { return libraryTree(id.rawValue) }
    return nil
  }

  /// The current text of a source as a `SourceFile` (for position conversion), without parsing it.
  func sourceFile(_ id: FileID) -> SourceFile? {
    if let tree = sources[id]?.tree { return tree.source }
    if let source = sources[id] { return source.file }
    if isLibrary(id) { return libraryTree(id.rawValue).source }
    return nil
  }

  /// The ids of the sources the program is checked from, in `SourceImporter.programOrder`: the library (less the
  /// files a workspace copy stands in for; a library file opened in the editor keeps its id and place), then the
  /// workspace's files and open documents, in id order.
  func programIDs() -> [FileID] {
    SourceImporter.programOrder(
      library: library.enumerated().map { (FileID($0.offset), $0.element.name) },
      files: sources.values.filter { !isLibrary($0.id) }.map { ($0.id, $0.replacesLibrary) })
  }

  /// Every tree the program is checked from, parsing those whose text changed.
  func programTrees() -> [SyntaxTree] { programIDs().compactMap(tree) }

  /// A snapshot of `programTrees()` for the analyzer: trees already parsed, and the texts of the others, which the
  /// analyzer parses on its own thread. The library's trees are taken there too, so that the first check parses the
  /// documents while the library's parse finishes.
  func inputs() -> [Analyzer.Input] {
    programIDs().compactMap { id in
      if let source = sources[id] {
        return source.tree.map { .parsed($0, revision: source.revision) }
          ?? .source(source.file, revision: source.revision, edits: source.edits)
      }
      guard isLibrary(id) else { return nil }
      return libraryParse.isDone ? .parsed(libraryTree(id.rawValue)) : .library(libraryParse, position: id.rawValue)
    }
  }

  /// Keeps the trees an analysis parsed, when the texts have not changed since.
  func adopt(_ trees: [SyntaxTree], generation: Int) {
    guard generation == self.generation else { return }
    for tree in trees where sources[tree.source.id]?.tree == nil {
      sources[tree.source.id]?.tree = tree
    }
  }

  /// Every known URI, for locations in diagnostics.
  var uris: [FileID: LSP.DocumentURI] {
    var result: [FileID: LSP.DocumentURI] = [:]
    for (position, entry) in library.enumerated() { result[FileID(position)] = entry.uri }
    for (id, source) in sources { result[id] = source.uri }
    return result
  }

  /// The warnings about files as they were read from disk (`not-utf8`), by file.
  var fileWarnings: [FileID: [Diagnostic]] {
    var result: [FileID: [Diagnostic]] = [:]
    for (id, source) in sources where !source.encodingWarnings.isEmpty { result[id] = source.encodingWarnings }
    return result
  }

  /// The ids of the user's sources (not the library's), whose diagnostics and tests the server reports.
  var userFiles: [FileID] { sources.keys.filter { !isLibrary($0) }.sorted() }

  /// Whether rename may edit the file: the library is read-only, even when opened in the editor.
  func isEditable(_ id: FileID) -> Bool { !isLibrary(id) }
}

/// What changed in a document since each of its last few texts: for each, by its revision, the one edit that leads
/// from it to the current text. The analyzer re-parses from the text its last analysis had, which a burst of changes
/// may have left several revisions behind.
struct EditHistory: Sendable {
  struct Entry: Sendable {
    var revision: Int
    var edit: SourceEdit
  }

  private(set) var entries: [Entry] = []
  /// The texts remembered: more than a burst of keystrokes coalesced into one check.
  static let depth = 16

  /// The edit from the text of `revision` to the current one, if that text is one of the last few.
  func edit(since revision: Int) -> SourceEdit? { entries.last { $0.revision == revision }?.edit }

  /// The text of `revision` became the current one by `edit`.
  mutating func record(_ edit: SourceEdit, from revision: Int) {
    for index in entries.indices { entries[index].edit = entries[index].edit.then(edit) }
    entries.append(Entry(revision: revision, edit: edit))
    if entries.count > Self.depth { entries.removeFirst(entries.count - Self.depth) }
  }
}

extension Workspace.Source {
  /// A workspace file as read from disk, not open in the editor: its text, and a `not-utf8` warning when the bytes
  /// were not UTF-8 (`SourceFile.encodingWarnings(readFrom:)`).
  init(onDisk bytes: [UInt8], path: String, id: FileID, replacesLibrary: String?) {
    let file = SourceFile(id: id, name: path, bytes: bytes)
    self.init(
      uri: LSP.DocumentURI(filePath: path), path: path, id: id, file: file, version: nil, isOpen: false, onDisk: true,
      tree: nil, replacesLibrary: replacesLibrary, encodingWarnings: file.encodingWarnings(readFrom: bytes))
  }
}
