import Foundation
import Testing

@testable import TaxProServer

/// What the scanner reads as a project, and where it stops.
struct WorkspaceScannerTests {
  @Test func broadRootsAreNotProjects() {
    for path in ["/", "/usr", "/home", "/tmp", "/home/ada"] {
      #expect(WorkspaceScanner.isBroad(path, home: "/home/ada"), "\(path)")
    }
    for path in ["/home/ada/taxes", "/tmp/project", "/usr/share/doc"] {
      #expect(!WorkspaceScanner.isBroad(path, home: "/home/ada"), "\(path)")
    }
  }

  /// A folder tree: `root/a.tax`, `root/.hidden/h.tax`, `root/node_modules/n.tax`, `root/x/y/…/deep.tax`.
  static func tree(depth: Int) throws -> String {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)").path
    var deep = root
    for level in 0..<depth { deep += "/l\(level)" }
    for folder in [root + "/.hidden", root + "/node_modules", deep] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    for file in [root + "/a.tax", root + "/.hidden/h.tax", root + "/node_modules/n.tax", deep + "/deep.tax", root + "/b.txt"] {
      try Data("let x = 1\n".utf8).write(to: URL(fileURLWithPath: file))
    }
    return root
  }

  @Test func readsEveryTaxFileButHiddenOnesAndStopsAtTheBounds() throws {
    let root = try Self.tree(depth: 3)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let clock = ContinuousClock()
    guard case .success(let files) = WorkspaceScanner.walk(root, bounds: .init(), deadline: clock.now + .seconds(60)) else {
      Issue.record("the tree should be read")
      return
    }
    #expect(files.map(\.path) == [root + "/a.tax", root + "/l0/l1/l2/deep.tax"])
    #expect(files.first?.bytes == Array("let x = 1\n".utf8))
    let tooDeep = WorkspaceScanner.walk(root, bounds: .init(depth: 2), deadline: clock.now + .seconds(60))
    #expect(throws: WorkspaceScanner.Stop.self) { try tooDeep.get() }
    let tooMany = WorkspaceScanner.walk(root, bounds: .init(entries: 4), deadline: clock.now + .seconds(60))
    #expect(throws: WorkspaceScanner.Stop.self) { try tooMany.get() }
    let tooLate = WorkspaceScanner.walk(root, bounds: .init(), deadline: clock.now - .seconds(1))
    // The clock is looked at every 1,024 entries: a small tree is read whatever the time.
    #expect((try? tooLate.get())?.count == 2)
    let result = WorkspaceScanner.scan([root, "/"], bounds: .init())
    #expect(result.projects == [root])
    #expect(result.notes == ["/ is not read as a project (too broad); the folders of the files opened in it are"])
  }
}
