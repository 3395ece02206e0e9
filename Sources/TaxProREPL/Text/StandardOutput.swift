import Foundation

/// Bytes written to standard output whole. One `write(2)` may take fewer bytes than it is given (a full pipe to a
/// notebook kernel, say) or be cut short by a signal (`EINTR`: the REPL's SIGINT handling makes that common), so the
/// command line's output and the JSON mode's replies both go through this loop rather than one call each.
public enum StandardOutput {
  /// Writes all of `bytes` in place (no copy: `eval --csv` writes megabytes), unless output fails (a closed pipe).
  public static func write(_ bytes: UnsafeRawBufferPointer) {
    guard var next = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let written = Glibc.write(STDOUT_FILENO, next, remaining)
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      next += written
      remaining -= written
    }
  }
}
