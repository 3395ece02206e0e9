import Foundation
import TaxProCore

/// One file of the standard library.
public struct LibraryFile: Sendable {
  /// How diagnostics name it: `<std>/ON.tax`.
  public var name: String
  /// Where it is on disk (for editors' go-to-definition).
  public var path: String
  public var text: String
  /// Whether it holds the library's own tests rather than declarations.
  public var isTest: Bool
}

/// The standard library: the `.tax` files shipped as resources, and the importer that turns them into syntax trees.
public enum StandardLibrary {
  /// The directory holding the library's `.tax` files. `TAXPRO_LIBRARY` overrides it (for development and packaging).
  public static var directory: URL? {
    if let override = ProcessInfo.processInfo.environment["TAXPRO_LIBRARY"], !override.isEmpty {
      return URL(fileURLWithPath: override, isDirectory: true)
    }
    // Next to the executable first (an installed copy), then SwiftPM's resource bundle.
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    let candidates = [
      executable.deletingLastPathComponent().appendingPathComponent("TaxPro_TaxProLibrary.resources/Resources"),
      executable.deletingLastPathComponent().appendingPathComponent("../share/taxpro/library"),
    ]
    for candidate in candidates where FileManager.default.fileExists(atPath: candidate.path) {
      return candidate.standardizedFileURL
    }
    return Bundle.module.resourceURL?.appendingPathComponent("Resources")
  }

  /// The library's files in a stable order: interfaces first, then federal, then the provinces; tests last.
  public static func files(includeTests: Bool = false) -> [LibraryFile] {
    guard let directory else { return [] }
    var result: [LibraryFile] = []
    let manager = FileManager.default
    func add(_ url: URL, isTest: Bool, prefix: String) {
      guard let data = manager.contents(atPath: url.path) else { return }
      result.append(
        LibraryFile(
          name: "<std>/" + prefix + url.lastPathComponent, path: url.path, text: String(decoding: data, as: UTF8.self),
          isTest: isTest))
    }
    let names = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".tax") }
    let order = ["interfaces.tax": 0, "federal.tax": 1]
    for name in names.sorted(by: { (order[$0] ?? 2, $0) < (order[$1] ?? 2, $1) }) {
      add(directory.appendingPathComponent(name), isTest: false, prefix: "")
    }
    if includeTests {
      let testDirectory = directory.appendingPathComponent("tests")
      let testNames = ((try? manager.contentsOfDirectory(atPath: testDirectory.path)) ?? []).filter {
        $0.hasSuffix(".tax")
      }
      for name in testNames.sorted() { add(testDirectory.appendingPathComponent(name), isTest: true, prefix: "tests/") }
    }
    return result
  }

  /// Whether `path` is a copy of a library file (the library's sources being edited in a checkout, say): a file with a
  /// library file's name in a directory (or its `tests/`) that also holds `interfaces.tax` and `federal.tax`. Such a file
  /// replaces the library's own when both are loaded.
  public static func libraryName(ofCopy path: String) -> String? {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    var directory = url.deletingLastPathComponent()
    var prefix = ""
    if directory.lastPathComponent == "tests" {
      directory = directory.deletingLastPathComponent()
      prefix = "tests/"
    }
    let manager = FileManager.default
    guard manager.fileExists(atPath: directory.appendingPathComponent("interfaces.tax").path),
      manager.fileExists(atPath: directory.appendingPathComponent("federal.tax").path)
    else { return nil }
    return "<std>/" + prefix + url.lastPathComponent
  }

  /// Parses the library; file ids start at `firstFileID`.
  public static func trees(includeTests: Bool = false, firstFileID: Int = 0) -> [SyntaxTree] {
    files(includeTests: includeTests).enumerated().map { offset, file in
      Parser.parse(SourceFile(id: FileID(firstFileID + offset), name: file.name, text: file.text))
    }
  }
}
