import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole-file writes that a crash or a kill cannot leave half done.
///
/// The data goes to a temporary file in the target's directory (so the rename stays on one file system),
/// is flushed to disk, and is renamed over the target: readers see the old file or the new one, never a
/// mixture. Files are private by default because they hold personal financial figures.
public enum AtomicFile {
  /// Replaces `path` with `data`, creating missing parent directories.
  public static func write(_ data: Data, to path: String, permissions: mode_t = 0o600) throws {
    let directory = parentDirectory(of: path)
    try createDirectories(directory)
    let name = (path as NSString).lastPathComponent
    let temporary = join(directory, ".\(name).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
    guard descriptor >= 0 else {
      throw StorageError.cannotWrite(path: path, reason: lastErrorText())
    }
    var closed = false
    defer {
      if !closed { close(descriptor) }
    }
    do {
      try writeAll(data, to: descriptor, path: path)
      guard fsync(descriptor) == 0 else { throw StorageError.cannotWrite(path: path, reason: lastErrorText()) }
      closed = true
      guard close(descriptor) == 0 else { throw StorageError.cannotWrite(path: path, reason: lastErrorText()) }
      guard rename(temporary, path) == 0 else { throw StorageError.cannotWrite(path: path, reason: lastErrorText()) }
    } catch {
      unlink(temporary)
      throw error
    }
    syncDirectory(directory)
  }

  /// `mkdir -p`: creates `path` and its missing parents, private to the user. Existing directories are fine.
  public static func createDirectories(_ path: String, permissions: mode_t = 0o700) throws {
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
      throw StorageError.cannotCreateDirectory(path: path, reason: lastErrorText())
    }
  }

  private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
    try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          throw StorageError.cannotWrite(path: path, reason: lastErrorText())
        }
        offset += written
      }
    }
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
    String(cString: strerror(errno))
  }
}
