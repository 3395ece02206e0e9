import Foundation
import Testing

@testable import LineEditing

@Suite struct HistoryLocationTests {
  @Test func usesXDGStateHome() {
    let directories = XDGDirectories(environment: ["XDG_STATE_HOME": "/var/state", "HOME": "/home/ada"])
    #expect(directories.historyFile(application: "taxpro") == "/var/state/taxpro/history")
  }

  @Test func defaultsUnderHome() {
    let directories = XDGDirectories(environment: ["HOME": "/home/ada"])
    #expect(directories.historyFile(application: "taxpro") == "/home/ada/.local/state/taxpro/history")
    #expect(directories.dataHome == "/home/ada/.local/share")
    #expect(directories.configHome == "/home/ada/.config")
  }

  @Test func ignoresRelativeAndEmptyVariables() {
    for value in ["", "relative/state"] {
      let directories = XDGDirectories(environment: ["XDG_STATE_HOME": value, "HOME": "/home/ada"])
      #expect(directories.stateHome == "/home/ada/.local/state")
    }
  }

  @Test func toleratesTrailingSlash() {
    let directories = XDGDirectories(environment: ["XDG_STATE_HOME": "/s/", "HOME": "/h"])
    #expect(directories.historyFile(application: "taxpro") == "/s/taxpro/history")
  }

  @Test func fallsBackToPasswordDatabaseWithoutHome() {
    // Whatever the account's home is, a path is found and it is absolute.
    let home = XDGDirectories(environment: [:]).home
    if let home { #expect(home.hasPrefix("/")) }
  }
}

@Suite struct HistoryStoreTests {
  @Test func savesAfterEveryEntryCreatingDirectories() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("state/taxpro/history")
    let store = try #require(HistoryStore(path: path))
    #expect(store.add("1 + 2"))
    #expect(FileManager.default.fileExists(atPath: path))
    let reloaded = try #require(HistoryStore(path: path))
    #expect(reloaded.entries == ["1 + 2"])
    #expect(store.lastError == nil)
  }

  @Test func roundTripsAwkwardEntries() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("history")
    let entries = ["  $85,000 * 13%", "let x = (1 +\n  2)", "\"tab\there\"", "Québec 🍁", "back\\slash", "# comment"]
    do {
      let store = try #require(HistoryStore(path: path))
      for entry in entries { store.add(entry) }
      #expect(store.entries == entries)
    }
    let reloaded = try #require(HistoryStore(path: path))
    #expect(reloaded.entries == entries)
  }

  @Test func dropsBlankAndRepeatedEntries() throws {
    let store = try #require(HistoryStore(path: nil))
    #expect(!store.add(""))
    #expect(!store.add("   \t"))
    store.add("a")
    store.add("a")
    store.add("b")
    store.add("a")
    #expect(store.entries == ["a", "b", "a"])
  }

  @Test func keepsOnlyTheNewestUpToCapacity() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("history")
    let store = try #require(HistoryStore(path: path, capacity: 3))
    for number in 1...5 { store.add("line \(number)") }
    #expect(store.entries == ["line 3", "line 4", "line 5"])
    let reloaded = try #require(HistoryStore(path: path, capacity: 3))
    #expect(reloaded.entries == ["line 3", "line 4", "line 5"])
  }

  @Test func fileIsPrivateAndNoTemporaryFilesRemain() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("taxpro/history")
    let store = try #require(HistoryStore(path: path))
    for number in 1...20 { store.add("entry \(number)") }
    #expect(try directory.contents("taxpro") == ["history"])
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    let permissions = try #require(attributes[.posixPermissions] as? NSNumber)
    #expect(permissions.intValue & 0o077 == 0)
  }

  @Test func inMemoryHistoryWritesNothing() throws {
    let store = try #require(HistoryStore(path: nil))
    store.add("x")
    #expect(!store.save())
    #expect(store.entries == ["x"])
    #expect(try #require(HistoryStore(path: "")).path == nil)
  }

  @Test func unreadableFileIsReportedAndNeverOverwritten() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("history")
    let foreign = Data("this is some other program's history\n".utf8)
    try foreign.write(to: URL(fileURLWithPath: path))
    let store = try #require(HistoryStore(path: path))
    #expect(store.lastError == .unreadable(path: path))
    store.add("1 + 1")
    #expect(store.entries == ["1 + 1"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == foreign)
  }

  @Test func emptyFileIsAnEmptyHistory() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("history")
    #expect(FileManager.default.createFile(atPath: path, contents: Data()))
    let store = try #require(HistoryStore(path: path))
    #expect(store.lastError == nil)
    store.add("x")
    #expect(try #require(HistoryStore(path: path)).entries == ["x"])
  }

  @Test func reportsAnUnwritableLocation() throws {
    let directory = try TemporaryDirectory()
    // A regular file where a directory should be.
    #expect(FileManager.default.createFile(atPath: directory.file("blocker"), contents: Data("x".utf8)))
    let path = directory.file("blocker/taxpro/history")
    let store = try #require(HistoryStore(path: path))
    store.add("x")
    guard case .cannotWrite(let reportedPath, _) = store.lastError else {
      Issue.record("expected a write error, got \(String(describing: store.lastError))")
      return
    }
    #expect(reportedPath == path)
    #expect(store.entries == ["x"])
  }
}
