import Foundation
import TaxProCore

/// Writing to the terminal, with or without colour.
enum Output {
  nonisolated(unsafe) static var colorOut = false
  nonisolated(unsafe) static var colorErr = false

  static func configure(_ requested: Bool?) {
    let environmentAllows = (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    let allowed = requested ?? environmentAllows
    colorOut = allowed && isatty(STDOUT_FILENO) == 1 && requested != false
    colorErr = allowed && isatty(STDERR_FILENO) == 1 && requested != false
    if requested == true {
      colorOut = true
      colorErr = true
    }
  }

  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes the bytes in place (no copy into `Data`: `eval --csv` writes megabytes), all of them unless output fails.
  static func write(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes { raw in
      guard var next = raw.baseAddress else { return }
      var remaining = raw.count
      while remaining > 0 {
        let written = Glibc.write(STDOUT_FILENO, next, remaining)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        next += written
        remaining -= written
      }
    }
  }

  static func writeError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// ANSI colour for each role; identity when colour is off.
  static func style(color: Bool) -> @Sendable (String, TextRole) -> String {
    guard color else { return { text, _ in text } }
    return { text, role in
      let code: String
      switch role {
      case .error: code = "1;31"
      case .warning: code = "1;33"
      case .information, .note: code = "1;36"
      case .help: code = "1;32"
      case .location: code = "1"
      case .gutter: code = "34"
      case .marker: code = "1;31"
      case .emphasis: code = "1"
      case .plain: return text
      }
      return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
  }

  static func renderer(_ sources: [FileID: SourceFile]) -> DiagnosticRenderer {
    DiagnosticRenderer(sources: sources, style: style(color: colorErr))
  }
}
