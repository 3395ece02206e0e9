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
    for path in userPaths {
      let bytes: [UInt8]
      do {
        bytes = try FileReading.contents(of: path)
      } catch {
        throw UsageError(message: error.description)
      }
      importer.importFile(path: path, bytes: bytes)
    }
    return importer
  }

  /// The standard library alone, or a usage error saying why it could not be loaded.
  static func standardLibrary(includeTests: Bool = false) throws(UsageError) -> SourceImporter {
    switch SourceImporter.standardLibrary(includeTests: includeTests) {
    case .success(let importer): return importer
    case .failure(let error): throw UsageError(message: "the standard library could not be loaded: \(error.message)")
    }
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
