import Foundation

/// A fresh directory per test, removed afterwards, so tests never touch the real home directory.
final class TemporaryDirectory {
  let path: String

  init() throws {
    let base = FileManager.default.temporaryDirectory.path
    path = base + "/lineediting-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  func file(_ relative: String) -> String { path + "/" + relative }

  func contents(_ relative: String = "") throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: relative.isEmpty ? path : file(relative)).sorted()
  }
}
