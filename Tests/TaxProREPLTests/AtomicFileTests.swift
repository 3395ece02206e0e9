import Foundation
import Testing

@testable import TaxProREPL

@Suite struct AtomicFileTests {
  @Test func writesAndReplaces() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("file.json")
    try AtomicFile.write(Data("first".utf8), to: path)
    try AtomicFile.write(Data("second".utf8), to: path)
    #expect(try directory.read("file.json") == Data("second".utf8))
  }

  @Test func leavesNoTemporaryFiles() throws {
    let directory = try TemporaryDirectory()
    for number in 0..<25 {
      try AtomicFile.write(Data("version \(number)".utf8), to: directory.file("a.json"))
    }
    #expect(try directory.contents() == ["a.json"])
  }

  @Test func createsMissingDirectoriesPrivately() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("one/two/three/file")
    try AtomicFile.write(Data(), to: path)
    #expect(FileManager.default.fileExists(atPath: path))
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("one/two"))
    let permissions = try #require(attributes[.posixPermissions] as? NSNumber)
    #expect(permissions.intValue == 0o700)
    let fileAttributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((fileAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func writesLargeData() throws {
    let directory = try TemporaryDirectory()
    let data = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0) })
    try AtomicFile.write(data, to: directory.file("big"))
    #expect(try directory.read("big") == data)
  }

  @Test func failsWhenAFileBlocksTheDirectory() throws {
    let directory = try TemporaryDirectory()
    try directory.write("x", to: "blocker")
    #expect(throws: StorageError.self) {
      try AtomicFile.write(Data("y".utf8), to: directory.file("blocker/inside/file"))
    }
    #expect(try directory.contents() == ["blocker"])
  }

  @Test func failureLeavesTheOldFileAndNoTemporary() throws {
    let directory = try TemporaryDirectory()
    // A directory where the file should go: the rename fails after the temporary was written.
    try FileManager.default.createDirectory(atPath: directory.file("target"), withIntermediateDirectories: false)
    try directory.write("keep", to: "target/inner")
    #expect(throws: StorageError.self) {
      try AtomicFile.write(Data("new".utf8), to: directory.file("target"))
    }
    #expect(try directory.contents() == ["target"])
    #expect(try directory.read("target/inner") == Data("keep".utf8))
  }

  @Test func relativePathsWriteIntoTheCurrentDirectory() {
    #expect(AtomicFile.parentDirectory(of: "file.json") == ".")
    #expect(AtomicFile.parentDirectory(of: "/a/b.json") == "/a")
  }
}
