import Foundation

/// A fresh directory per test, removed afterwards, so tests never touch the real home directory.
final class TemporaryDirectory {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.path + "/taxpro-repl-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  func file(_ relative: String) -> String { path + "/" + relative }

  func contents(_ relative: String = "") throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? path : file(relative)).sorted()
  }

  func write(_ text: String, to relative: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: file(relative)))
  }

  func read(_ relative: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: file(relative)))
  }
}
