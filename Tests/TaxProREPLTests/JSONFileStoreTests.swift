import Foundation
import Testing

@testable import TaxProREPL

@Suite struct JSONFileStoreTests {
  static let fixedDate = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

  func store<Document: StoredDocument>(
    _ directory: TemporaryDirectory, _ name: String, as: Document.Type
  ) -> JSONFileStore<Document> {
    JSONFileStore(path: directory.file(name), clock: { JSONFileStoreTests.fixedDate })
  }

  static let sampleRecord = Record(
    name: "raise",
    date: Date(timeIntervalSince1970: 1_760_000_000),
    expression: "provincial_tax($85,000, ON)",
    inputs: ["income": "$85,000.00", "province": "ON"],
    result: "$5,609.17",
    explanation: "5.05% of $52,886.00 = $2,670.74\n+ 9.15% of $32,114.00 = $2,938.43 \"quoted\" / slash"
  )

  @Test func profileRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let profiles = store(directory, "profile.json", as: Profile.self)
    #expect(profiles.load() == .missing)
    let profile = Profile(values: ["income": "$85,000.00", "province": "ON", "age": "67", "note": "Québec 🍁"])
    #expect(try profiles.save(profile) == nil)
    #expect(profiles.load() == .ok(profile))
  }

  @Test func recordsRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let records = store(directory, "records.json", as: RecordBook.self)
    try records.append(Self.sampleRecord)
    var second = Self.sampleRecord
    second.result = "$6,000.00"
    try records.append(second)
    guard case .ok(let book) = records.load() else {
      Issue.record("records did not load")
      return
    }
    #expect(book.records == [Self.sampleRecord, second])
    #expect(book.record(named: "raise")?.result == "$6,000.00")
    #expect(book.record(named: "other") == nil)
  }

  @Test func fileIsReadableJSONWithAVersion() throws {
    let directory = try TemporaryDirectory()
    try store(directory, "profile.json", as: Profile.self).save(Profile(values: ["province": "ON"]))
    let object = try JSONSerialization.jsonObject(with: directory.read("profile.json")) as? [String: Any]
    #expect(object?["version"] as? Int == 1)
    #expect((object?["values"] as? [String: String]) == ["province": "ON"])
  }

  @Test(arguments: [
    ("\u{FF}\u{FE}garbage", "not text (invalid UTF-8)"),
    ("{\"version\": 1, \"values\": {\"income\": \"$85", "not valid JSON"),
    ("", "the file is empty"),
    ("[1, 2, 3]", "expected an object"),
    ("{\"version\": 1}", "missing \"values\""),
    ("{\"version\": 1, \"values\": {\"income\": 85000}}", "expected text at values.income"),
    ("{\"values\": {}}", "missing \"version\""),
  ])
  func damagedProfileIsReportedAndMovedAside(contents: String, reason: String) throws {
    let directory = try TemporaryDirectory()
    let bytes = contents == "\u{FF}\u{FE}garbage" ? Data([0xFF, 0xFE, 0x00, 0x41]) : Data(contents.utf8)
    try bytes.write(to: URL(fileURLWithPath: directory.file("profile.json")))
    let profiles = store(directory, "profile.json", as: Profile.self)
    guard case .damaged(let damage) = profiles.load() else {
      Issue.record("expected damage for \(contents.debugDescription)")
      return
    }
    #expect(damage.reason.contains(reason), "reason was \(damage.reason)")
    #expect(damage.keptAt == directory.file("profile.json.damaged-20260101T000000Z"))
    #expect(try directory.contents() == ["profile.json.damaged-20260101T000000Z"])
    #expect(try directory.read("profile.json.damaged-20260101T000000Z") == bytes)
    #expect(profiles.load() == .missing)
  }

  @Test func damagedCopiesAreNeverOverwritten() throws {
    let directory = try TemporaryDirectory()
    let profiles = store(directory, "profile.json", as: Profile.self)
    for number in 1...3 {
      try directory.write("broken \(number)", to: "profile.json")
      guard case .damaged = profiles.load() else {
        Issue.record("expected damage")
        return
      }
    }
    #expect(
      try directory.contents() == [
        "profile.json.damaged-20260101T000000Z",
        "profile.json.damaged-20260101T000000Z-2",
        "profile.json.damaged-20260101T000000Z-3",
      ])
    #expect(try directory.read("profile.json.damaged-20260101T000000Z") == Data("broken 1".utf8))
    #expect(try directory.read("profile.json.damaged-20260101T000000Z-3") == Data("broken 3".utf8))
  }

  @Test func savingOverADamagedFileMovesItAsideAndSaysSo() throws {
    let directory = try TemporaryDirectory()
    try directory.write("{ not json", to: "records.json")
    let records = store(directory, "records.json", as: RecordBook.self)
    let damage = try records.save(RecordBook(records: [Self.sampleRecord]))
    #expect(damage?.keptAt == directory.file("records.json.damaged-20260101T000000Z"))
    #expect(try directory.read("records.json.damaged-20260101T000000Z") == Data("{ not json".utf8))
    #expect(records.load() == .ok(RecordBook(records: [Self.sampleRecord])))
  }

  @Test func updateStartsAfreshFromADamagedFileAndReportsIt() throws {
    let directory = try TemporaryDirectory()
    try directory.write("{\"version\": 1, \"values\": [", to: "profile.json")
    let profiles = store(directory, "profile.json", as: Profile.self)
    let damage = try profiles.setValue("ON", for: "province")
    #expect(damage?.reason == "not valid JSON")
    #expect(profiles.load() == .ok(Profile(values: ["province": "ON"])))
    #expect(try directory.contents().count == 2)
  }

  @Test func updateKeepsWhatIsOnDisk() throws {
    let directory = try TemporaryDirectory()
    let profiles = store(directory, "profile.json", as: Profile.self)
    try profiles.setValue("$85,000.00", for: "income")
    try profiles.setValue("ON", for: "province")
    try profiles.setValue(nil, for: "income")
    #expect(profiles.load() == .ok(Profile(values: ["province": "ON"])))
  }

  @Test func unreadableFileIsLeftAloneAndNotOverwritten() throws {
    let directory = try TemporaryDirectory()
    // A directory in the file's place cannot be read as a file, nor moved aside as damage.
    try FileManager.default.createDirectory(atPath: directory.file("profile.json"), withIntermediateDirectories: false)
    let profiles = store(directory, "profile.json", as: Profile.self)
    guard case .unreadable = profiles.load() else {
      Issue.record("expected unreadable")
      return
    }
    #expect(throws: StorageError.self) { try profiles.save(Profile()) }
    #expect(try directory.contents() == ["profile.json"])
  }

  /// A newer TaxPro's file is not damage: it stays where it is, untouched, and nothing is written over it.
  @Test func aNewerFormatIsRefusedAndKept() throws {
    let directory = try TemporaryDirectory()
    let contents = "{\"version\": 7, \"values\": {\"income\": {\"amount\": 85000}}}"
    try directory.write(contents, to: "profile.json")
    let profiles = store(directory, "profile.json", as: Profile.self)
    #expect(profiles.load() == .newerFormat(version: 7, supported: Profile.currentFormatVersion))
    #expect(throws: StorageError.newerFormat(path: directory.file("profile.json"), version: 7, supported: 1)) {
      try profiles.setValue("ON", for: "province")
    }
    #expect(throws: StorageError.self) { try profiles.save(Profile()) }
    #expect(try directory.contents() == ["profile.json"])
    #expect(try directory.read("profile.json") == Data(contents.utf8))
    let message = StorageError.newerFormat(path: "p.json", version: 7, supported: 1).description
    #expect(message.contains("newer version of TaxPro (format 7; this one reads up to 1)"))
  }

  /// A profile that is a symbolic link (to a synced folder, say) is written through: the link stays a link.
  @Test func aSymlinkedFileIsWrittenThrough() throws {
    let directory = try TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.file("synced"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: directory.file("profile.json"), withDestinationPath: "synced/real.json")
    let profiles = store(directory, "profile.json", as: Profile.self)
    try profiles.setValue("ON", for: "province")
    try profiles.setValue("67", for: "age")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory.file("profile.json")) == "synced/real.json")
    #expect(try directory.contents("synced") == ["real.json"])
    #expect(profiles.load() == .ok(Profile(values: ["province": "ON", "age": "67"])))
  }

  /// Two writers in one process (each store locks the directory): every update lands.
  @Test func concurrentUpdatesLoseNothing() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("records.json")
    let group = DispatchGroup()
    for writer in 0..<2 {
      DispatchQueue.global().async(group: group) {
        let records = JSONFileStore<RecordBook>(path: path)
        for number in 0..<40 {
          var record = Self.sampleRecord
          record.name = "w\(writer)-\(number)"
          _ = try? records.append(record)
        }
      }
    }
    group.wait()
    guard case .ok(let book) = JSONFileStore<RecordBook>(path: path).load() else {
      Issue.record("records did not load")
      return
    }
    #expect(book.records.count == 80)
    #expect(Set(book.records.map(\.name)).count == 80)
  }

  @Test func timestampIsUTC() {
    #expect(JSONFileStore<Profile>.timestamp(Date(timeIntervalSince1970: 1_767_225_599.9)) == "20251231T235959Z")
  }
}

@Suite struct UserFilesTests {
  @Test func honoursXDGDataHome() throws {
    let files = try #require(UserFiles(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"]))
    #expect(files.profilePath == "/data/taxpro/profile.json")
    #expect(files.recordsPath == "/data/taxpro/records.json")
  }

  @Test func defaultsUnderHome() throws {
    let files = try #require(UserFiles(environment: ["HOME": "/home/ada"]))
    #expect(files.directory == "/home/ada/.local/share/taxpro")
  }

  @Test func ignoresARelativeDataHome() throws {
    let files = try #require(UserFiles(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/ada"]))
    #expect(files.directory == "/home/ada/.local/share/taxpro")
  }

  @Test func savesIntoANewDirectoryTree() throws {
    let directory = try TemporaryDirectory()
    let files = try #require(UserFiles(environment: ["XDG_DATA_HOME": directory.file("xdg/data")]))
    try files.profile.setValue("67", for: "age")
    #expect(FileManager.default.fileExists(atPath: directory.file("xdg/data/taxpro/profile.json")))
    #expect(files.profile.load() == .ok(Profile(values: ["age": "67"])))
    #expect(files.records.load() == .missing)
  }
}
