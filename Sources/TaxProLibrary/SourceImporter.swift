import TaxProCore

/// Which `FileID`s mean what: each kind of source draws its ids from a range of its own, so one program's sources
/// never share an id and an id alone says where a source came from.
///
/// | ids                         | sources                                               | handed out by                      |
/// |-----------------------------|-------------------------------------------------------|------------------------------------|
/// | `library`: 0 ..< 2^16       | the standard library's files, in `StandardLibrary.load`'s order (a file's id is its position) | `SourceImporter.init` |
/// | `files`: 2^16 ..< 2^30      | the user's files: named on the command line, `:load`ed, under a workspace root, open in an editor | `SourceImporter.importFile`, `newFileID` |
/// | `inputs`: 2^30 ... 2^31 − 1 | text typed or given: REPL entries, `<expr>`, lines of `<stdin>` | `Session.makeSource`, counting up from `inputs.lowerBound` |
/// | negative                    | text lexed or parsed on its own, never part of a program (`standalone`; in the core, completion, `Session.isIncomplete`, `Span.nowhere`) | anyone |
///
/// All of them fit the 32 bits a `Span` keeps of its file.
public enum FileIDRange {
  public static let library: Range<Int> = 0..<(1 << 16)
  public static let files: Range<Int> = (1 << 16)..<(1 << 30)
  public static let inputs: ClosedRange<Int> = (1 << 30)...Int(Int32.max)
  /// For a text lexed or parsed on its own (`taxpro fmt`'s files, a calculation `:save` rewrites), whose spans never
  /// meet a program's.
  public static let standalone = FileID(-1)

  /// Whether `id` is one of the standard library's.
  public static func isLibrary(_ id: FileID) -> Bool { library.contains(id.rawValue) }
}

/// The one importer of sources for every front end (the command line, the REPL, the language server): it parses the
/// standard library and the user's files, hands out their `FileID`s from `FileIDRange`, and knows which library
/// files a user's copy stands in for, so that a program is always made of the same trees in the same order — the
/// library (less the files a copy replaces), then the user's files in the order they were first imported.
///
/// It reads no files: a front end reads them its own way (with its own messages when it cannot) and gives the bytes.
/// A value type, so a front end can try a change on a copy and keep it only if the result checks (`:load`).
public struct SourceImporter: Sendable {
  /// One of the user's files.
  public struct File: Sendable {
    /// As the user gave it (relative, with `~`), for messages, `:reload` and diagnostics.
    public var path: String
    public var tree: SyntaxTree
    /// The library file this one is a copy of (`StandardLibrary.libraryName(ofCopy:)`), which it replaces.
    public var replacesLibrary: String?
  }

  /// The standard library's trees, with ids from `FileIDRange.library`.
  public let library: [SyntaxTree]
  /// The user's files, in the order they were first imported.
  public private(set) var files: [File] = []
  private var idsByPath: [String: FileID] = [:]
  private var nextFileID = FileIDRange.files.lowerBound

  /// Parses the library's files; each one's id is its position.
  public init(library files: [LibraryFile]) {
    self.library = StandardLibrary.parse(files, firstFileID: FileIDRange.library.lowerBound)
  }

  /// Only the library files at `positions` parsed, each one's id still its position in `files`: what a one-shot
  /// command needs (`LibraryReach`).
  public init(library files: [LibraryFile], only positions: [Int]) {
    self.library = positions.map { position in
      StandardLibrary.parse([files[position]], firstFileID: FileIDRange.library.lowerBound + position)[0]
    }
  }

  /// A library parsed already (the REPL's tests bring their own small one).
  public init(libraryTrees: [SyntaxTree]) {
    self.library = libraryTrees
  }

  /// The standard library as `StandardLibrary.load` finds it, or why it could not be loaded.
  public static func standardLibrary(includeTests: Bool = false) -> Result<SourceImporter, LibraryLoadError> {
    StandardLibrary.load(includeTests: includeTests).map { SourceImporter(library: $0) }
  }

  /// A new id for a user's source, never handed out before (the language server keys its own by URI).
  public mutating func newFileID() -> FileID {
    let id = FileID(nextFileID)
    nextFileID += 1
    return id
  }

  /// Parses `bytes` as the user's file `path`. Importing a path again replaces its tree and keeps its id, so spans stay
  /// comparable from one `:reload` to the next. `location` is where the file is when `path` is not how to find it
  /// (`~/taxes.tax` expanded): it decides whether the file is a copy of a library file.
  @discardableResult
  public mutating func importFile(path: String, bytes: [UInt8], location: String? = nil) -> SyntaxTree {
    let id: FileID
    if let known = idsByPath[path] {
      id = known
    } else {
      id = newFileID()
      idsByPath[path] = id
    }
    let source = SourceFile(id: id, name: path, bytes: bytes)
    var tree = Parser.parse(source)
    // A file that is not UTF-8 says so once, before what its text holds (its U+FFFDs may be unexpected characters).
    let warnings = source.encodingWarnings(readFrom: bytes)
    if !warnings.isEmpty { tree.diagnostics = warnings + tree.diagnostics }
    let file = File(path: path, tree: tree, replacesLibrary: StandardLibrary.libraryName(ofCopy: location ?? path))
    if let index = files.firstIndex(where: { $0.tree.source.id == id }) {
      files[index] = file
    } else {
      files.append(file)
    }
    return tree
  }

  /// Whether `path` has been imported.
  public func contains(path: String) -> Bool { idsByPath[path] != nil }

  /// The library files that a user's copy replaces, by name (`<std>/ON.tax`).
  public var replacedLibraryNames: Set<String> { Set(files.compactMap(\.replacesLibrary)) }

  /// What a program is checked from: the library less the files a copy replaces, then the user's files.
  public var trees: [SyntaxTree] {
    let order = SourceImporter.programOrder(
      library: library.map { ($0.source.id, $0.source.name) },
      files: files.map { ($0.tree.source.id, $0.replacesLibrary) })
    let byID = Dictionary((library + files.map(\.tree)).map { ($0.source.id, $0) }, uniquingKeysWith: { $1 })
    return order.compactMap { byID[$0] }
  }

  /// The order every front end checks a program's sources in, from their ids: the library's files (less those a
  /// user's copy replaces, by library name), then the user's files in the order their ids were handed out. The
  /// language server, which keeps its sources itself (parsed lazily, the editor's text over the disk's), builds its
  /// program in this order too, so the same files make the same program everywhere — and "already defined" falls on
  /// the same file.
  public static func programOrder(
    library: [(id: FileID, name: String)], files: [(id: FileID, replacesLibrary: String?)]
  ) -> [FileID] {
    let replaced = Set(files.compactMap(\.replacesLibrary))
    return library.filter { !replaced.contains($0.name) }.map(\.id) + files.map(\.id).sorted()
  }

  /// The ids of the user's files, whose diagnostics a front end reports.
  public var userFileIDs: Set<FileID> { Set(files.map(\.tree.source.id)) }

  /// A session over `trees`, its input ids drawn from `FileIDRange.inputs`.
  public func session(year: Int? = nil, limits: EvaluationLimits = EvaluationLimits()) -> Session {
    Session(trees: trees, year: year, firstInputFileID: FileIDRange.inputs.lowerBound, limits: limits)
  }
}
