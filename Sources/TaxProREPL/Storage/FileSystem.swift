import Foundation
import TaxProCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The causes of failed file operations in words a user can act on, from `errno` and file types: "a symbolic link
/// loop", "permission denied", "disk full", "not a regular file (a FIFO)" — never a framework's error number.
public enum SystemError {
  /// What `errno` value `code` means for the file named in the message around it.
  public static func describe(_ code: Int32) -> String {
    switch code {
    case ELOOP: return "a symbolic link loop (too many levels of symbolic links)"
    case EACCES, EPERM: return "permission denied"
    case ENOENT: return "no such file or directory"
    case ENOTDIR: return "a part of the path is not a directory"
    case EISDIR: return "it is a directory"
    case ENOSPC: return "the disk is full (no space left on device)"
    case EDQUOT: return "the disk quota is exceeded"
    case EROFS: return "the file system is read-only"
    case ENAMETOOLONG: return "the name is too long"
    case EMFILE, ENFILE: return "too many open files"
    case EIO: return "an input/output error"
    case EFBIG: return "the file would be too large"
    case ETXTBSY: return "the file is busy"
    default: return String(cString: strerror(code))
    }
  }

  /// The last error of the calling thread, described.
  public static var last: String { describe(errno) }

  /// What kind of file `mode` is, for "not a regular file (…)".
  public static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "a special file"
    }
  }

  /// "not a regular file (a FIFO)"; for a directory, "it is a directory".
  public static func notRegular(_ mode: mode_t) -> String {
    (mode & S_IFMT) == S_IFDIR ? "it is a directory" : "not a regular file (\(kind(mode)))"
  }
}

/// Reading the user's files without surprises: only regular files are read (a FIFO would block, `/dev/zero` would
/// never end), and every failure says its cause.
public enum FileReading {
  /// Why a file could not be read, in words (see `SystemError`).
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "cannot read '\(path)': \(reason)" }
  }

  /// The whole contents of the regular file at `path` (symbolic links followed).
  public static func contents(of path: String) throws(Failure) -> [UInt8] {
    // Non-blocking, so that opening a FIFO without a writer returns at once and is refused below.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw Failure(path: path, reason: SystemError.last) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw Failure(path: path, reason: SystemError.last) }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw Failure(path: path, reason: SystemError.notRegular(status.st_mode))
    }
    var bytes = [UInt8](repeating: 0, count: max(Int(status.st_size), 0) + 1)
    var count = 0
    while true {
      if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
      let read = bytes.withUnsafeMutableBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.read(descriptor, base + count, buffer.count - count)
      }
      if read < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw Failure(path: path, reason: SystemError.last)
      }
      if read == 0 { break }
      count += read
    }
    bytes.removeSubrange(count...)
    return bytes
  }

  /// What is at `path`: nil when it exists (a regular file or a directory), else why it cannot be used — "no such
  /// file or directory", "a symbolic link loop", "permission denied", "not a regular file (a FIFO)".
  public static func problem(at path: String, directoryAllowed: Bool) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return SystemError.last }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return directoryAllowed ? nil : "it is a directory"
    default: return SystemError.notRegular(status.st_mode)
    }
  }

  /// Whether `bytes` are valid UTF-8; if not, the 1-based line and column (in bytes) of the first bad byte.
  public static func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int, byte: UInt8)? {
    guard let bad = SourceFile.invalidUTF8(in: bytes) else { return nil }
    let before = bytes[..<bad.offset]
    let lineStart = before.lastIndex(of: 10).map { $0 + 1 } ?? 0
    return (before.count(where: { $0 == 10 }) + 1, bad.offset - lineStart + 1, bad.byte)
  }
}

/// An advisory lock (`flock`) on a directory, held while a file in it is read, merged and rewritten, so that two
/// sessions saving at once each see the other's entries. Only TaxPro takes it; it guards nothing against other
/// programs, which is all an advisory lock can do.
///
/// The directory itself is locked rather than a lock file beside the data, so no extra file appears: profile and
/// records share it, which costs nothing at the sizes involved. Where the file system cannot lock (some network
/// mounts), the work goes ahead unlocked rather than failing.
struct DirectoryLock {
  private let descriptor: Int32

  /// Blocks until the lock on `directory` is held (shared or exclusive).
  init(_ directory: String, exclusive: Bool) {
    descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
      if errno != EINTR { break }
    }
  }

  /// Releases the lock (closing the descriptor does).
  func release() {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Runs `body` with the lock held.
  static func with<Result>(_ directory: String, exclusive: Bool, _ body: () throws -> Result) rethrows -> Result {
    let lock = DirectoryLock(directory, exclusive: exclusive)
    defer { lock.release() }
    return try body()
  }
}
