import CEditLine
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the history could not be read or kept.
public enum HistoryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but libedit cannot read it (another program's format, or damage). It is left alone.
  case unreadable(path: String)
  /// Creating the directory or writing the file failed.
  case cannotWrite(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path):
      return "history file \(path) is not in a format this program can read; history will not be saved to it"
    case .cannotWrite(let path, let reason):
      return "cannot save history to \(path): \(reason)"
    }
  }
}

/// libedit's history list, tied to a file that is rewritten after every entry.
///
/// Saving after each entry (rather than at exit) is what makes history survive a killed terminal.
/// Each save goes to a temporary file that is renamed over the old one, so a kill mid-save leaves either
/// the old or the new history, never a truncated one. The file is private (mode 0600) because entries
/// hold incomes and other personal figures.
public final class HistoryStore {
  /// libedit's `History *`, which `EditLineEditor` hands to `EL_HIST` for recall and search.
  let handle: OpaquePointer
  /// `nil` keeps history in memory only.
  public let path: String?
  public let capacity: Int
  /// Set when the file could not be read or written; saving is skipped after an unreadable file.
  public private(set) var lastError: HistoryError?
  private var persistenceDisabled = false

  /// Creates the list and loads `path` if it exists; a missing file is simply an empty history.
  public init?(path: String?, capacity: Int = 1000) {
    guard let handle = history_init() else { return nil }
    self.handle = handle
    self.path = path?.isEmpty == true ? nil : path
    self.capacity = max(1, capacity)
    _ = taxpro_history_set_size(handle, Int32(clamping: self.capacity))
    _ = taxpro_history_set_unique(handle, 1)
    load()
  }

  deinit {
    history_end(handle)
  }

  /// Entries from oldest to newest.
  public var entries: [String] {
    var newestFirst: [String] = []
    var entry = taxpro_history_newest(handle)
    while let current = entry {
      newestFirst.append(String(cString: current))
      entry = taxpro_history_older(handle)
    }
    return newestFirst.reversed()
  }

  /// Adds an entry and saves the file. Blank entries are not worth recalling and are dropped;
  /// an entry equal to the previous one is dropped by libedit (`H_SETUNIQUE`).
  @discardableResult
  public func add(_ entry: String) -> Bool {
    guard !entry.allSatisfy(\.isWhitespace), !entry.utf8.contains(0) else { return false }
    _ = taxpro_history_enter(handle, entry)
    save()
    return true
  }

  /// Writes the whole list to the file; a no-op for in-memory history or after an unreadable file.
  @discardableResult
  public func save() -> Bool {
    guard let path, !persistenceDisabled else { return false }
    do {
      try writeAtomically(to: path)
      lastError = nil
      return true
    } catch let error as HistoryError {
      lastError = error
    } catch {
      lastError = .cannotWrite(path: path, reason: "\(error)")
    }
    return false
  }

  private func load() {
    guard let path else { return }
    var status = stat()
    guard stat(path, &status) == 0 else { return }
    if status.st_size == 0 { return }
    if taxpro_history_load(handle, path) < 0 {
      persistenceDisabled = true
      lastError = .unreadable(path: path)
    }
  }

  private func writeAtomically(to path: String) throws {
    let directory = (path as NSString).deletingLastPathComponent
    try Self.createDirectories(directory, path: path)
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw HistoryError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
    guard let file = fdopen(descriptor, "w") else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      unlink(temporary)
      throw HistoryError.cannotWrite(path: path, reason: reason)
    }
    let saved = taxpro_history_save_fp(handle, file)
    let flushed = fflush(file) == 0 && fsync(descriptor) == 0
    let flushReason = String(cString: strerror(errno))
    fclose(file)
    guard saved >= 0, flushed else {
      unlink(temporary)
      throw HistoryError.cannotWrite(path: path, reason: saved < 0 ? "libedit could not write the list" : flushReason)
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw HistoryError.cannotWrite(path: path, reason: reason)
    }
  }

  /// `mkdir -p` with private permissions for the directories it creates.
  static func createDirectories(_ directory: String, path: String) throws {
    if directory.isEmpty { return }
    var status = stat()
    if stat(directory, &status) == 0 {
      if (status.st_mode & S_IFMT) == S_IFDIR { return }
      throw HistoryError.cannotWrite(path: path, reason: "\(directory) is not a directory")
    }
    try createDirectories((directory as NSString).deletingLastPathComponent, path: path)
    if mkdir(directory, 0o700) != 0 && errno != EEXIST {
      throw HistoryError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
  }
}
