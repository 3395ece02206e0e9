import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file writes that a crash or a kill cannot leave half done, and that keep what the user set up.
///
/// The data goes to a temporary file in the target's directory (so the rename stays on one file system), is flushed
/// to disk, and is renamed over the target: readers see the old file or the new one, never a mixture. New files are
/// private by default because they hold personal financial figures. An existing file keeps what it was:
/// - a symbolic link is written through: its target is replaced, the link stays a link;
/// - its mode and owner carry over to the new file (when the owner cannot be given to a new file, the file is
///   rewritten in place instead, as below);
/// - a file with other hard links is rewritten in place (space reserved first, then written and truncated), since a
///   rename would split it from its other names;
/// - anything but a regular file (a FIFO, a device such as `/dev/full`, a directory) is refused, never replaced.
public enum AtomicFile {
  /// Replaces `path` with `data`, creating missing parent directories; `permissions` apply to a new file only.
  public static func write(_ data: Data, to path: String, permissions: mode_t = 0o600) throws(StorageError) {
    let target = try resolvingLinks(path)
    let directory = parentDirectory(of: target)
    try createDirectories(directory)
    var status = stat()
    var existing: stat? = nil
    if lstat(target, &status) == 0 {
      guard (status.st_mode & S_IFMT) == S_IFREG else {
        throw StorageError.cannotWrite(path: path, reason: SystemError.notRegular(status.st_mode))
      }
      existing = status
    } else if errno != ENOENT {
      throw StorageError.cannotWrite(path: path, reason: SystemError.last)
    }
    if let existing, existing.st_nlink > 1 {
      try rewriteInPlace(data, at: target, reportedAs: path)
      return
    }
    let name = (target as NSString).lastPathComponent
    let temporary = join(directory, ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    guard descriptor >= 0 else {
      throw StorageError.cannotWrite(path: path, reason: SystemError.last)
    }
    var closed = false
    defer {
      if !closed { close(descriptor) }
    }
    do throws(StorageError) {
      try writeAll(data, to: descriptor, path: path)
      guard fsync(descriptor) == 0 else { throw StorageError.cannotWrite(path: path, reason: SystemError.last) }
      if let existing {
        // The replacement takes the old file's mode and owner. Giving a file away needs privileges: when that
        // fails, the old file is rewritten in place rather than handed to a new owner.
        if existing.st_uid != geteuid() || existing.st_gid != getegid() {
          if fchown(descriptor, existing.st_uid, existing.st_gid) != 0 {
            closed = true
            close(descriptor)
            unlink(temporary)
            try rewriteInPlace(data, at: target, reportedAs: path)
            return
          }
        }
        guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
          throw StorageError.cannotWrite(path: path, reason: SystemError.last)
        }
      }
      closed = true
      guard close(descriptor) == 0 else { throw StorageError.cannotWrite(path: path, reason: SystemError.last) }
      guard rename(temporary, target) == 0 else { throw StorageError.cannotWrite(path: path, reason: SystemError.last) }
    } catch {
      unlink(temporary)
      throw error
    }
    syncDirectory(directory)
  }

  /// Rewrites a regular file where it is (keeping its inode, so its hard links, mode and owner): reserves the
  /// space first, so a full disk fails before a byte changes, then writes, truncates and flushes.
  static func rewriteInPlace(_ data: Data, at target: String, reportedAs path: String) throws(StorageError) {
    let descriptor = open(target, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard descriptor >= 0 else { throw StorageError.cannotWrite(path: path, reason: SystemError.last) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw StorageError.cannotWrite(path: path, reason: SystemError.last) }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw StorageError.cannotWrite(path: path, reason: SystemError.notRegular(status.st_mode))
    }
    if !data.isEmpty {
      let reserved = posix_fallocate(descriptor, 0, off_t(data.count))
      // File systems without `fallocate` say so; then the write itself finds a full disk.
      if reserved != 0 && reserved != EOPNOTSUPP && reserved != EINVAL {
        throw StorageError.cannotWrite(path: path, reason: SystemError.describe(reserved))
      }
    }
    try writeAll(data, to: descriptor, path: path)
    guard ftruncate(descriptor, off_t(data.count)) == 0, fsync(descriptor) == 0 else {
      throw StorageError.cannotWrite(path: path, reason: SystemError.last)
    }
  }

  /// The file a path finally names once symbolic links are followed (a dangling link names its missing target, which
  /// a write then creates). A loop is refused with its cause.
  public static func resolvingLinks(_ path: String) throws(StorageError) -> String {
    var current = path
    for _ in 0..<40 {
      var status = stat()
      guard lstat(current, &status) == 0 else {
        if errno == ENOENT { return current }
        throw StorageError.cannotWrite(path: path, reason: SystemError.last)
      }
      guard (status.st_mode & S_IFMT) == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length >= 0 else { throw StorageError.cannotWrite(path: path, reason: SystemError.last) }
      let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = destination.hasPrefix("/") ? destination : join(parentDirectory(of: current), destination)
    }
    throw StorageError.cannotWrite(path: path, reason: SystemError.describe(ELOOP))
  }

  /// `mkdir -p`: creates `path` and its missing parents, private to the user. Existing directories are fine.
  public static func createDirectories(_ path: String, permissions: mode_t = 0o700) throws(StorageError) {
    if path.isEmpty || path == "/" || path == "." { return }
    var status = stat()
    if stat(path, &status) == 0 {
      guard (status.st_mode & S_IFMT) == S_IFDIR else {
        throw StorageError.cannotCreateDirectory(path: path, reason: "a file of that name is in the way")
      }
      return
    }
    try createDirectories(parentDirectory(of: path), permissions: permissions)
    if mkdir(path, permissions) != 0 && errno != EEXIST {
      throw StorageError.cannotCreateDirectory(path: path, reason: SystemError.last)
    }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(StorageError) {
    let failure: Int32? = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32? in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let failure { throw StorageError.cannotWrite(path: path, reason: SystemError.describe(failure)) }
  }

  /// Makes the rename itself durable; best effort, since not every file system allows it.
  private static func syncDirectory(_ directory: String) {
    let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  static func parentDirectory(of path: String) -> String {
    let parent = (path as NSString).deletingLastPathComponent
    return parent.isEmpty && !path.hasPrefix("/") ? "." : parent
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  static func lastErrorText() -> String {
    SystemError.last
  }
}
