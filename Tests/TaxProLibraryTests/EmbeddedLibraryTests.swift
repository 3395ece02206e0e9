import Foundation
import Testing

@testable import TaxProLibrary

/// The library compiled into the binary is the one in the repository, `TAXPRO_LIBRARY` replaces it, and the copy
/// editors open is written once, read-only, where the cache is.
@Suite struct EmbeddedLibraryTests {
  /// `Sources/TaxProLibrary/Resources`, found from this file.
  static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/TaxProLibrary/Resources").standardizedFileURL.path

  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "taxpro-embedded-\(UInt64.random(in: 0...UInt64.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func theCompiledInLibraryEqualsTheRepositorysFiles() throws {
    let embedded = try StandardLibrary.load(includeTests: true, environment: [:]).get()
    let fromDisk = try StandardLibrary.load(includeTests: true, environment: ["TAXPRO_LIBRARY": Self.resources]).get()
    #expect(embedded.map(\.name) == fromDisk.map(\.name))
    #expect(embedded.map(\.text) == fromDisk.map(\.text))
    #expect(embedded.map(\.isTest) == fromDisk.map(\.isTest))
    #expect(embedded.first?.name == "<std>/interfaces.tax")
    #expect(embedded.dropFirst().first?.name == "<std>/federal.tax")
    #expect(embedded.last?.isTest == true)
    #expect(fromDisk.first?.path == Self.resources + "/interfaces.tax")
    let withoutTests = try StandardLibrary.load(includeTests: false, environment: [:]).get()
    #expect(withoutTests.map(\.name) == embedded.filter { !$0.isTest }.map(\.name))
  }

  @Test func aDirectoryThatIsNotALibraryIsExplained() throws {
    let empty = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: empty) }
    for (directory, reason) in [(empty + "/missing", "is not a directory"), (empty, "no standard library")] {
      let result = StandardLibrary.load(environment: ["TAXPRO_LIBRARY": directory])
      guard case .failure(let error) = result else {
        Issue.record("\(directory) loaded")
        continue
      }
      #expect(error.message.contains(reason), "\(error.message)")
    }
  }

  @Test func theReadOnlyCopyIsWrittenOnceWhereTheCacheIs() throws {
    let cache = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: cache) }
    let environment: StandardLibrary.Environment = ["XDG_CACHE_HOME": cache, "HOME": "/nonexistent"]
    let directory = StandardLibrary.copyDirectory(environment: environment)
    #expect(directory == cache + "/taxpro/library-" + StandardLibrary.fingerprint)
    try StandardLibrary.writeReadOnlyCopy(environment: environment).get()
    let files = try StandardLibrary.load(includeTests: true, environment: environment).get()
    for file in files {
      #expect(file.path.hasPrefix(directory + "/"))
      let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
      #expect((attributes[.posixPermissions] as? Int) == 0o444, "\(file.path)")
      #expect(FileManager.default.contents(atPath: file.path) == Data(file.text.utf8))
    }
    // Nothing is left behind from staging, and a second write keeps the first copy.
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache + "/taxpro") == ["library-" + StandardLibrary.fingerprint])
    let before = try FileManager.default.attributesOfItem(atPath: directory + "/ON.tax")[.modificationDate] as? Date
    try StandardLibrary.writeReadOnlyCopy(environment: environment).get()
    let after = try FileManager.default.attributesOfItem(atPath: directory + "/ON.tax")[.modificationDate] as? Date
    #expect(before == after)
    // The home's cache when XDG_CACHE_HOME is not set.
    #expect(StandardLibrary.copyDirectory(environment: ["HOME": "/home/someone"]).hasPrefix("/home/someone/.cache/taxpro/"))
  }

  @Test func aLibraryFromTaxproLibraryWritesNoCopy() throws {
    let cache = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: cache) }
    try StandardLibrary.writeReadOnlyCopy(environment: ["XDG_CACHE_HOME": cache, "TAXPRO_LIBRARY": Self.resources]).get()
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty)
  }
}
