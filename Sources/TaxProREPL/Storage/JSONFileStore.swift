import Foundation
import JSONValue

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A damaged file that was found, and where it is now.
public struct Damage: Equatable, Sendable {
  /// What is wrong, for the user: "not valid JSON", "missing \"values\"", …
  public var reason: String
  /// Where the damaged file was moved so it is kept; `nil` if moving it failed and it is still in place.
  public var keptAt: String?

  public init(reason: String, keptAt: String?) {
    self.reason = reason
    self.keptAt = keptAt
  }
}

/// A document kept in a file of its own, under a format version that only grows.
public protocol StoredDocument: Codable {
  /// The layout this version of TaxPro writes; files of a higher version are left alone.
  static var currentFormatVersion: Int { get }
}

/// Just the format version of a stored document, read before the rest.
struct FormatVersionProbe: Decodable {
  var version: Int?
}

/// What loading a file found.
///
/// Missing and damaged are ordinary outcomes, not errors: a first run has no file, and a damaged file must
/// be reported to the user rather than end the session.
public enum LoadResult<Value> {
  case ok(Value)
  case missing
  /// The file could not be decoded; it was moved aside (see `Damage.keptAt`) and nothing replaced it yet.
  case damaged(Damage)
  /// The file exists but could not be read at all (permissions, a directory in its place, …); left alone.
  case unreadable(String)
  /// A newer TaxPro wrote the file in a layout this one does not know. It is not damaged: it is left where it is,
  /// and this version writes nothing over it.
  case newerFormat(version: Int, supported: Int)
}

extension LoadResult: Equatable where Value: Equatable {}
extension LoadResult: Sendable where Value: Sendable {}

/// One JSON document in one file: the user's profile or their saved records.
///
/// Writes are atomic and keep the file's links, mode and owner (`AtomicFile`). Every read-change-write runs under an
/// advisory lock on the file's directory (`DirectoryLock`), so two sessions saving at once both keep their entries.
/// A file that does not decode is never overwritten: it is moved to `NAME.damaged-<UTC timestamp>` (a fresh name
/// each time, so earlier copies are kept too) and reported, whether it is found by a load or by a save. A file of a
/// newer format version is neither: it is refused, and kept as it is.
public struct JSONFileStore<Document: StoredDocument> {
  public let path: String
  /// When a damaged file is moved aside; injectable so tests get predictable names.
  public var clock: @Sendable () -> Date

  public init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.path = path
    self.clock = clock
  }

  /// Reads and decodes the file; a damaged one is moved aside before this returns.
  public func load() -> LoadResult<Document> {
    let target: String
    do {
      target = try AtomicFile.resolvingLinks(path)
    } catch {
      return .unreadable(error.reason)
    }
    return DirectoryLock.with(AtomicFile.parentDirectory(of: target), exclusive: true) { loadHoldingLock(target) }
  }

  /// Writes `document` atomically.
  ///
  /// If a damaged file is in the way it is moved aside first and returned, so the caller can tell the user;
  /// if it cannot be moved, the current file cannot even be read, or it is of a newer format, nothing is written and
  /// this throws.
  @discardableResult
  public func save(_ document: Document) throws(StorageError) -> Damage? {
    let target = try AtomicFile.resolvingLinks(path)
    let lock = try lockForWriting(target)
    defer { lock.release() }
    return try saveHoldingLock(document, target)
  }

  /// Loads the current document (or `empty` when there is none or it was damaged), changes it and saves it, all
  /// under the lock: another session's save lands wholly before or wholly after this one, never in between.
  /// Returns the damage found on the way, if any, so the caller can report it.
  @discardableResult
  public func update(empty: Document, _ change: (inout Document) throws -> Void) throws -> Damage? {
    let target = try AtomicFile.resolvingLinks(path)
    let lock = try lockForWriting(target)
    defer { lock.release() }
    var document = empty
    var damage: Damage?
    switch loadHoldingLock(target) {
    case .ok(let current): document = current
    case .missing: break
    case .damaged(let found):
      guard found.keptAt != nil else { throw StorageError.damagedFileInTheWay(path: path, reason: found.reason) }
      damage = found
    case .unreadable(let reason): throw StorageError.cannotRead(path: path, reason: reason)
    case .newerFormat(let version, let supported):
      throw StorageError.newerFormat(path: path, version: version, supported: supported)
    }
    try change(&document)
    let later = try saveHoldingLock(document, target)
    return damage ?? later
  }

  // MARK: Internals

  /// The exclusive lock on the directory a write goes to, created first (the first save of all makes it), so that
  /// even the first two saves are one after the other.
  private func lockForWriting(_ target: String) throws(StorageError) -> DirectoryLock {
    let directory = AtomicFile.parentDirectory(of: target)
    try AtomicFile.createDirectories(directory)
    return DirectoryLock(directory, exclusive: true)
  }

  private func loadHoldingLock(_ target: String) -> LoadResult<Document> {
    switch read(target) {
    case .absent: return .missing
    case .failed(let reason): return .unreadable(reason)
    case .bytes(let data):
      if let version = Self.newerVersion(data) {
        return .newerFormat(version: version, supported: Document.currentFormatVersion)
      }
      switch Self.decode(data) {
      case .success(let document): return .ok(document)
      case .failure(let failure): return .damaged(Damage(reason: failure.description, keptAt: moveAside(target)))
      }
    }
  }

  private func saveHoldingLock(_ document: Document, _ target: String) throws(StorageError) -> Damage? {
    var damage: Damage?
    switch read(target) {
    case .absent: break
    case .failed(let reason): throw StorageError.cannotRead(path: path, reason: reason)
    case .bytes(let data):
      if let version = Self.newerVersion(data) {
        throw StorageError.newerFormat(path: path, version: version, supported: Document.currentFormatVersion)
      }
      if case .failure(let failure) = Self.decode(data) {
        let reason = failure.description
        guard let keptAt = moveAside(target) else {
          throw StorageError.damagedFileInTheWay(path: path, reason: reason)
        }
        damage = Damage(reason: reason, keptAt: keptAt)
      }
    }
    let data: Data
    do {
      data = try Self.encode(document)
    } catch {
      throw StorageError.cannotEncode(path: path, reason: "\(error)")
    }
    try AtomicFile.write(data + Data("\n".utf8), to: target)
    return damage
  }

  private enum Contents {
    case absent
    case bytes(Data)
    case failed(String)
  }

  private func read(_ target: String) -> Contents {
    var status = stat()
    if stat(target, &status) != 0 {
      return errno == ENOENT ? .absent : .failed(SystemError.last)
    }
    do {
      return .bytes(Data(try FileReading.contents(of: target)))
    } catch {
      return .failed(error.reason)
    }
  }

  /// The format version a file declares when it is higher than this TaxPro reads; nil otherwise (including when the
  /// file has no readable version: decoding then says what is wrong).
  static func newerVersion(_ data: Data) -> Int? {
    guard let probe = try? JSONDecoder().decode(FormatVersionProbe.self, from: data), let version = probe.version,
      version > Document.currentFormatVersion
    else { return nil }
    return version
  }

  static func decode(_ data: Data) -> Result<Document, DecodeFailure> {
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return .failure(DecodeFailure("the file is empty"))
    }
    guard String(data: data, encoding: .utf8) != nil else {
      return .failure(DecodeFailure("not text (invalid UTF-8)"))
    }
    guard let json = try? JSON.parse(data) else { return .failure(DecodeFailure("not valid JSON")) }
    do {
      return .success(try JSONValueDecoder().decode(Document.self, from: json))
    } catch let error as DecodingError {
      return .failure(DecodeFailure(describe(error)))
    } catch {
      return .failure(DecodeFailure("\(error)"))
    }
  }

  struct DecodeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// Moves the file (a link's target, so the link stays in place) to a name not yet taken; `link` + `unlink` rather
  /// than `rename` so an existing earlier copy can never be replaced, even by a concurrent session.
  private func moveAside(_ target: String) -> String? {
    let stamp = Self.timestamp(clock())
    for attempt in 0..<1000 {
      let candidate = attempt == 0 ? "\(target).damaged-\(stamp)" : "\(target).damaged-\(stamp)-\(attempt + 1)"
      if link(target, candidate) == 0 {
        unlink(target)
        return candidate
      }
      if errno == EEXIST { continue }
      // File systems without hard links: fall back to a checked rename.
      if !FileManager.default.fileExists(atPath: candidate), rename(target, candidate) == 0 {
        return candidate
      }
      return nil
    }
    return nil
  }

  static func timestamp(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return String(
      format: "%04d%02d%02dT%02d%02d%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }

  /// Sorted and indented so the files diff well and a curious user can read them; dates as RFC 3339 text.
  static func encode(_ document: Document) throws -> Data {
    Data(try JSONValueEncoder().encode(document).prettySerialized(sortingKeys: true))
  }

  static func describe(_ error: DecodingError) -> String {
    func location(_ context: DecodingError.Context) -> String {
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return path.isEmpty ? "" : " at \(path.joined(separator: "."))"
    }
    switch error {
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty ? "not valid JSON" : "\(context.debugDescription)\(location(context))"
    case .keyNotFound(let key, let context):
      return "missing \"\(key.stringValue)\"\(location(context))"
    case .typeMismatch(let type, let context):
      return "expected \(describe(type))\(location(context))"
    case .valueNotFound(let type, let context):
      return "expected \(describe(type)), found null\(location(context))"
    @unknown default:
      return "\(error)"
    }
  }

  private static func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "text"
    case is Int.Type, is Double.Type: return "a number"
    case is Bool.Type: return "true or false"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Dictionary") { return "an object" }
      if name.hasPrefix("Array") { return "a list" }
      return name
    }
  }
}
