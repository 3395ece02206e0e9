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
}

extension LoadResult: Equatable where Value: Equatable {}
extension LoadResult: Sendable where Value: Sendable {}

/// One JSON document in one file: the user's profile or their saved records.
///
/// Writes are atomic (`AtomicFile`). A file that does not decode is never overwritten: it is moved to
/// `NAME.damaged-<UTC timestamp>` (a fresh name each time, so earlier copies are kept too) and reported,
/// whether it is found by a load or by a save.
public struct JSONFileStore<Document: Codable> {
  public let path: String
  /// When a damaged file is moved aside; injectable so tests get predictable names.
  public var clock: @Sendable () -> Date

  public init(path: String, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.path = path
    self.clock = clock
  }

  /// Reads and decodes the file; a damaged one is moved aside before this returns.
  public func load() -> LoadResult<Document> {
    switch read() {
    case .absent: return .missing
    case .failed(let reason): return .unreadable(reason)
    case .bytes(let data):
      switch Self.decode(data) {
      case .success(let document): return .ok(document)
      case .failure(let failure): return .damaged(Damage(reason: failure.description, keptAt: moveAside()))
      }
    }
  }

  /// Writes `document` atomically.
  ///
  /// If a damaged file is in the way it is moved aside first and returned, so the caller can tell the user;
  /// if it cannot be moved, or the current file cannot even be read, nothing is written and this throws.
  @discardableResult
  public func save(_ document: Document) throws -> Damage? {
    var damage: Damage?
    switch read() {
    case .absent: break
    case .failed(let reason): throw StorageError.cannotRead(path: path, reason: reason)
    case .bytes(let data):
      if case .failure(let failure) = Self.decode(data) {
        let reason = failure.description
        guard let keptAt = moveAside() else {
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
    try AtomicFile.write(data + Data("\n".utf8), to: path)
    return damage
  }

  /// Loads the current document (or `empty` when there is none or it was damaged), changes it and saves it.
  ///
  /// Re-reading just before writing keeps changes another session saved in the meantime.
  /// Returns the damage found on the way, if any, so the caller can report it.
  @discardableResult
  public func update(empty: Document, _ change: (inout Document) throws -> Void) throws -> Damage? {
    var document = empty
    var damage: Damage?
    switch load() {
    case .ok(let current): document = current
    case .missing: break
    case .damaged(let found):
      guard found.keptAt != nil else { throw StorageError.damagedFileInTheWay(path: path, reason: found.reason) }
      damage = found
    case .unreadable(let reason): throw StorageError.cannotRead(path: path, reason: reason)
    }
    try change(&document)
    let later = try save(document)
    return damage ?? later
  }

  // MARK: Internals

  private enum Contents {
    case absent
    case bytes(Data)
    case failed(String)
  }

  private func read() -> Contents {
    var status = stat()
    if stat(path, &status) != 0 {
      return errno == ENOENT ? .absent : .failed(AtomicFile.lastErrorText())
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else { return .failed("not a regular file") }
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failed(access(path, R_OK) != 0 ? AtomicFile.lastErrorText() : "read failed")
    }
    return .bytes(data)
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

  /// Moves the file to a name not yet taken; `link` + `unlink` rather than `rename` so an existing
  /// earlier copy can never be replaced, even by a concurrent session.
  private func moveAside() -> String? {
    let stamp = Self.timestamp(clock())
    for attempt in 0..<1000 {
      let candidate = attempt == 0 ? "\(path).damaged-\(stamp)" : "\(path).damaged-\(stamp)-\(attempt + 1)"
      if link(path, candidate) == 0 {
        unlink(path)
        return candidate
      }
      if errno == EEXIST { continue }
      // File systems without hard links: fall back to a checked rename.
      if !FileManager.default.fileExists(atPath: candidate), rename(path, candidate) == 0 {
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
