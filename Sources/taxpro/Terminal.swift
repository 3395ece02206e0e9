import Foundation
import TaxProCore
import TaxProLibrary
import TaxProREPL

/// Writing to the terminal, with or without colour.
enum Output {
  nonisolated(unsafe) static var colorOut = false
  nonisolated(unsafe) static var colorErr = false

  static func configure(_ requested: Bool?) {
    let environmentAllows = environmentValue("NO_COLOR")?.isEmpty ?? true
    let allowed = requested ?? environmentAllows
    colorOut = allowed && isatty(STDOUT_FILENO) == 1 && requested != false
    colorErr = allowed && isatty(STDERR_FILENO) == 1 && requested != false
    if requested == true {
      colorOut = true
      colorErr = true
    }
  }

  /// Columns to fit text to: `COLUMNS` when set, else the terminal's width, else (not a terminal) 80.
  static var width: Int {
    let environment = ProcessInfo.processInfo.environment
    if let columns = environment["COLUMNS"], let value = Int(columns.trimmingCharacters(in: .whitespaces)),
      value > 0, value < 10_000
    {
      return max(20, value)
    }
    var size = winsize()
    if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return max(20, Int(size.ws_col))
    }
    return 80
  }

  /// `text` as one shell word, for a command line the user can copy: single-quoted unless it is plain.
  static func shellQuoted(_ text: String) -> String {
    let plain = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.,/:=+".contains($0)) }
    if plain && !text.isEmpty { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Writes the bytes in place (no copy into `Data`: `eval --csv` writes megabytes), all of them unless output fails.
  static func write(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes(StandardOutput.write)
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
    DiagnosticRenderer(sources: sources, style: style(color: colorErr), width: errorWidth)
  }

  /// The width of the terminal standard error is, for wrapping diagnostics' notes; nil when it is not one (a pipe or
  /// a file gets each note on one line).
  static var errorWidth: Int? {
    var size = winsize()
    guard isatty(STDERR_FILENO) == 1, ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
      return nil
    }
    return max(40, Int(size.ws_col))
  }
}
