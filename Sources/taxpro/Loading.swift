import Foundation
import TaxProCore
import TaxProLibrary

/// The standard library and the user's files, parsed.
struct Loaded {
  var trees: [SyntaxTree]
  var userFiles: Set<FileID>
  var nextFileID: Int
}

enum Loading {
  /// Parses the library and `paths` (files, or directories searched for `.tax` files when `directories` is set).
  static func load(_ paths: [String], libraryTests: Bool = false, directories: Bool = false) throws(Options.UsageError)
    -> Loaded
  {
    let userPaths = try expand(paths, directories: directories)
    // A library file given on the command line is checked as the user's file, not loaded twice.
    let given = Set(userPaths.compactMap(StandardLibrary.libraryName(ofCopy:)))
    let library = try libraryFiles(includeTests: libraryTests)
    var trees: [SyntaxTree] = []
    for file in library
    where !given.contains(file.name) {
      trees.append(Parser.parse(SourceFile(id: FileID(trees.count), name: file.name, text: file.text)))
    }
    var nextID = trees.count
    var userFiles: Set<FileID> = []
    for path in userPaths {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw Options.UsageError(message: "cannot read '\(path)'")
      }
      let source = SourceFile(id: FileID(nextID), name: path, bytes: [UInt8](data))
      nextID += 1
      userFiles.insert(source.id)
      trees.append(Parser.parse(source))
    }
    return Loaded(trees: trees, userFiles: userFiles, nextFileID: nextID)
  }

  /// The standard library's files, or a usage error saying why they could not be loaded.
  static func libraryFiles(includeTests: Bool = false) throws(Options.UsageError) -> [LibraryFile] {
    switch StandardLibrary.load(includeTests: includeTests) {
    case .success(let files): return files
    case .failure(let error): throw Options.UsageError(message: "the standard library could not be loaded: \(error.message)")
    }
  }

  static func expand(_ paths: [String], directories: Bool) throws(Options.UsageError) -> [String] {
    var result: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw Options.UsageError(message: "no such file: '\(path)'")
      }
      if isDirectory.boolValue {
        guard directories else { throw Options.UsageError(message: "'\(path)' is a directory") }
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
