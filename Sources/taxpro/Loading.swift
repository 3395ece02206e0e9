import Foundation
import TaxProCore
import TaxProLibrary
import TaxProREPL

/// The command line's side of loading: finding and reading the files the user named, with usage errors when it
/// cannot. Parsing, file ids and library copies are the `SourceImporter`'s.
enum Loading {
  /// A file to read: a path the user named, or a `.tax` file `found` under a directory they named.
  struct UserPath: Equatable {
    var path: String
    var found = false
  }

  /// The library and `paths` (files, or directories searched for `.tax` files when `directories` is set).
  static func load(_ paths: [String], libraryTests: Bool = false) throws(UsageError) -> SourceImporter {
    var unreadable: [String] = []
    return try load(paths, libraryTests: libraryTests, directories: false, unreadable: &unreadable)
  }

  /// `load`, with directories searched: a file found under one that cannot be read is left out, and why is added to
  /// `unreadable` (a file named that cannot be read is a usage error, as always).
  static func load(_ paths: [String], libraryTests: Bool = false, directories: Bool, unreadable: inout [String])
    throws(UsageError) -> SourceImporter
  {
    let userPaths = try expand(paths, directories: directories)
    var importer = try standardLibrary(includeTests: libraryTests)
    for file in try read(userPaths, unreadable: &unreadable) { importer.importFile(path: file.path, bytes: file.bytes) }
    return importer
  }

  /// The bytes of each file. One named that cannot be read is a usage error naming it; one found under a directory
  /// is left out, with why in `unreadable` (a symbolic link loop in a tree should not stop the check of the rest).
  static func read(_ paths: [UserPath], unreadable: inout [String]) throws(UsageError) -> [(
    path: String, bytes: [UInt8]
  )] {
    var contents: [(path: String, bytes: [UInt8])] = []
    for file in paths {
      do {
        contents.append((file.path, try FileReading.contents(of: file.path)))
      } catch {
        guard file.found else { throw UsageError(message: error.description) }
        unreadable.append(error.description)
      }
    }
    return contents
  }

  /// Says on standard error that each of `unreadable` was skipped.
  static func reportSkipped(_ unreadable: [String]) {
    for reason in unreadable { Output.writeError("taxpro: \(reason); skipped\n") }
  }

  /// `load` for a one-shot command: only the library files that `expression` and the files reach (`LibraryReach`)
  /// are parsed. Also gives the latest year the whole library has figures for, the year such a session defaults to.
  static func load(_ paths: [String], reaching expression: String) throws(UsageError) -> (
    importer: SourceImporter, latestYear: Int?
  ) {
    let userPaths = try expand(paths, directories: false)
    var unreadable: [String] = []
    let library: [LibraryFile]
    switch StandardLibrary.load() {
    case .success(let files): library = files
    case .failure(let error): throw unloadable(error)
    }
    let contents = try read(userPaths, unreadable: &unreadable)
    let reach = LibraryReach.files(
      library, reachedFrom: [expression] + contents.map { String(decoding: $0.bytes, as: UTF8.self) })
    var importer = SourceImporter(library: library, only: reach.positions)
    for file in contents { importer.importFile(path: file.path, bytes: file.bytes) }
    return (importer, reach.latestYear)
  }

  /// The standard library alone, or a usage error saying why it could not be loaded.
  static func standardLibrary(includeTests: Bool = false) throws(UsageError) -> SourceImporter {
    switch SourceImporter.standardLibrary(includeTests: includeTests) {
    case .success(let importer): return importer
    case .failure(let error): throw unloadable(error)
    }
  }

  static func unloadable(_ error: LibraryLoadError) -> UsageError {
    UsageError(message: "the standard library could not be loaded: \(error.message)")
  }

  /// The files `paths` name: each file, and the `.tax` files under each directory when `directories` is set (in
  /// order of their paths; a directory whose name ends in `.tax` is searched, not read).
  static func expand(_ paths: [String], directories: Bool) throws(UsageError) -> [UserPath] {
    var result: [UserPath] = []
    for path in paths {
      // The cause in words: a symbolic link loop, permission denied, not a regular file, no such file.
      if let problem = FileReading.problem(at: path, directoryAllowed: true) {
        throw UsageError(message: "cannot read '\(path)': \(problem)")
      }
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      if isDirectory.boolValue {
        guard directories else { throw UsageError(message: "'\(path)' is a directory") }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var found: [String] = []
        while let item = enumerator?.nextObject() as? String {
          guard item.hasSuffix(".tax") else { continue }
          let full = (path as NSString).appendingPathComponent(item)
          var foundIsDirectory: ObjCBool = false
          if FileManager.default.fileExists(atPath: full, isDirectory: &foundIsDirectory), foundIsDirectory.boolValue {
            continue
          }
          found.append(full)
        }
        result.append(contentsOf: found.sorted().map { UserPath(path: $0, found: true) })
      } else {
        result.append(UserPath(path: path))
      }
    }
    return result
  }
}
