import LineEditing

/// Where the REPL keeps what the user asked it to remember: `$XDG_DATA_HOME/taxpro/` (by default
/// `~/.local/share/taxpro/`), one file per kind so damage to one never costs the other.
public struct UserFiles: Sendable {
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// `nil` only when neither `XDG_DATA_HOME` nor a home directory is known; the REPL then keeps nothing.
  public init?(environment: [String: String]) {
    guard let dataHome = XDGDirectories(environment: environment).dataHome else { return nil }
    self.init(directory: AtomicFile.join(dataHome, "taxpro"))
  }

  public var profilePath: String { AtomicFile.join(directory, "profile.json") }
  public var recordsPath: String { AtomicFile.join(directory, "records.json") }

  public var profile: JSONFileStore<Profile> { JSONFileStore(path: profilePath) }
  public var records: JSONFileStore<RecordBook> { JSONFileStore(path: recordsPath) }
}

extension JSONFileStore where Document == RecordBook {
  /// Adds a record to what is on disk now; returns damage found (and moved aside) on the way.
  @discardableResult
  public func append(_ record: Record) throws -> Damage? {
    try update(empty: RecordBook()) { $0.records.append(record) }
  }
}

extension JSONFileStore where Document == Profile {
  /// Sets (or with `nil`, removes) one profile value, keeping the others as they are on disk.
  @discardableResult
  public func setValue(_ value: String?, for name: String) throws -> Damage? {
    try update(empty: Profile()) { $0.values[name] = value }
  }
}
