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

  @Test func keepsTheModeOfAnExistingFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("shared.tax")
    try directory.write("old", to: "shared.tax")
    #expect(chmod(path, 0o640) == 0)
    try AtomicFile.write(Data("new".utf8), to: path, permissions: 0o600)
    #expect(try directory.read("shared.tax") == Data("new".utf8))
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o640)
  }

  @Test func writesThroughASymbolicLink() throws {
    let directory = try TemporaryDirectory()
    try directory.write("old", to: "target.tax")
    try FileManager.default.createSymbolicLink(atPath: directory.file("link.tax"), withDestinationPath: "target.tax")
    try AtomicFile.write(Data("new".utf8), to: directory.file("link.tax"))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.file("link.tax")) == "target.tax")
    #expect(try directory.read("target.tax") == Data("new".utf8))
    #expect(try directory.contents() == ["link.tax", "target.tax"])
  }

  @Test func rewritesAFileWithHardLinksInPlace() throws {
    let directory = try TemporaryDirectory()
    try directory.write("a much longer old text", to: "one.tax")
    #expect(link(directory.file("one.tax"), directory.file("two.tax")) == 0)
    var before = stat()
    #expect(stat(directory.file("one.tax"), &before) == 0)
    try AtomicFile.write(Data("new".utf8), to: directory.file("one.tax"))
    var after = stat()
    #expect(stat(directory.file("two.tax"), &after) == 0)
    #expect(after.st_ino == before.st_ino)
    #expect(after.st_nlink == 2)
    #expect(try directory.read("two.tax") == Data("new".utf8))
  }

  @Test func refusesAFIFOAndLeavesIt() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("pipe")
    #expect(mkfifo(path, 0o600) == 0)
    #expect(throws: StorageError.cannotWrite(path: path, reason: "not a regular file (a FIFO)")) {
      try AtomicFile.write(Data("x".utf8), to: path)
    }
    var status = stat()
    #expect(lstat(path, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFIFO)
    #expect(try directory.contents() == ["pipe"])
  }

  @Test func refusesADevice() {
    #expect(throws: StorageError.cannotWrite(path: "/dev/full", reason: "not a regular file (a character device)")) {
      try AtomicFile.write(Data("x".utf8), to: "/dev/full")
    }
  }

  @Test func namesASymbolicLinkLoop() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createSymbolicLink(atPath: directory.file("a"), withDestinationPath: "b")
    try FileManager.default.createSymbolicLink(atPath: directory.file("b"), withDestinationPath: "a")
    do {
      try AtomicFile.write(Data("x".utf8), to: directory.file("a"))
      Issue.record("a loop was written through")
    } catch {
      #expect(error.reason.contains("symbolic link loop"))
    }
    #expect(throws: FileReading.Failure.self) { try FileReading.contents(of: directory.file("a")) }
    #expect(FileReading.problem(at: directory.file("a"), directoryAllowed: false)?.contains("symbolic link loop") == true)
  }

  @Test func errnoIsDescribedInWords() {
    #expect(SystemError.describe(ENOSPC).contains("disk is full"))
    #expect(SystemError.describe(EACCES) == "permission denied")
    #expect(SystemError.describe(ELOOP).contains("symbolic link loop"))
    #expect(!SystemError.describe(ENOSPC).contains("512"))
  }

  @Test func findsTheFirstByteThatIsNotUTF8() {
    #expect(FileReading.firstInvalidUTF8(Array("let a = \"Québec 🍁\"\n".utf8)) == nil)
    let latin1: [UInt8] = Array("let a = 1\nlet b = \"caf".utf8) + [0xE9, 0x22]
    let found = FileReading.firstInvalidUTF8(latin1)
    #expect(found?.line == 2 && found?.column == 13 && found?.byte == 0xE9)
    #expect(FileReading.firstInvalidUTF8([0xED, 0xA0, 0x80]) != nil)  // an encoded surrogate
    #expect(FileReading.firstInvalidUTF8([0xC0, 0x80]) != nil)  // an overlong encoding
  }

  @Test func relativePathsWriteIntoTheCurrentDirectory() {
    #expect(AtomicFile.parentDirectory(of: "file.json") == ".")
    #expect(AtomicFile.parentDirectory(of: "/a/b.json") == "/a")
  }
}
