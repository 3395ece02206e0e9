import Foundation
import TaxProCore
import TaxProLibrary
import TaxProREPL

/// The command line's side of loading: finding and reading the files the user named, with usage errors when it
/// cannot. Parsing, file ids and library copies are the `SourceImporter`'s.
enum Loading {
  /// The library and `paths` (files, or directories searched for `.tax` files when `directories` is set).
  static func load(_ paths: [String], libraryTests: Bool = false, directories: Bool = false) throws(UsageError)
    -> SourceImporter
  {
    let userPaths = try expand(paths, directories: directories)
    var importer = try standardLibrary(includeTests: libraryTests)
    for file in try read(userPaths) { importer.importFile(path: file.path, bytes: file.bytes) }
    return importer
  }

  /// The bytes of each file, or a usage error naming the first that cannot be read.
  static func read(_ paths: [String]) throws(UsageError) -> [(path: String, bytes: [UInt8])] {
    var contents: [(path: String, bytes: [UInt8])] = []
    for path in paths {
      do {
        contents.append((path, try FileReading.contents(of: path)))
      } catch {
        throw UsageError(message: error.description)
      }
    }
    return contents
  }

  /// `load` for a one-shot command: only the library files that `expression` and the files reach (`LibraryReach`)
  /// are parsed. Also gives the latest year the whole library has figures for, the year such a session defaults to.
  static func load(_ paths: [String], reaching expression: String) throws(UsageError) -> (
    importer: SourceImporter, latestYear: Int?
  ) {
    let userPaths = try expand(paths, directories: false)
    let library: [LibraryFile]
    switch StandardLibrary.load() {
    case .success(let files): library = files
    case .failure(let error): throw unloadable(error)
    }
    let contents = try read(userPaths)
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

  static func expand(_ paths: [String], directories: Bool) throws(UsageError) -> [String] {
    var result: [String] = []
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
          if item.hasSuffix(".tax") { found.append((path as NSString).appendingPathComponent(item)) }
        }
        result.append(contentsOf: found.sorted())
      } else {
        result.append(path)
      }
    }
    return result
  }
}
