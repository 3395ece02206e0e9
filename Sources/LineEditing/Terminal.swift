import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Facts about the terminal that decide how the REPL talks to the user.
///
/// The decisions are pure functions of their inputs (the `…(environment:…)` forms) so they can be tested
/// without a terminal; the argument-free forms read the real process state.
public enum Terminal {
  /// Width used when the output is not a terminal or the size cannot be read: what most tools assume.
  public static let defaultWidth = 80

  /// Whether a file descriptor is a terminal rather than a pipe or a file.
  public static func isTerminal(_ fileDescriptor: Int32) -> Bool {
    isatty(fileDescriptor) == 1
  }

  public static var standardInputIsTerminal: Bool { isTerminal(STDIN_FILENO) }
  public static var standardOutputIsTerminal: Bool { isTerminal(STDOUT_FILENO) }

  /// Columns of the terminal behind `fileDescriptor`, asked at each call because the window can be resized.
  ///
  /// Falls back to `COLUMNS` (set by some shells and by test harnesses), then to 80.
  public static func width(
    of fileDescriptor: Int32 = STDOUT_FILENO,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int {
    var size = winsize()
    if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return width(fromColumnsVariable: environment["COLUMNS"])
  }

  /// The fallback part of `width(of:)`, separated so it can be tested.
  public static func width(fromColumnsVariable columns: String?) -> Int {
    if let columns, let value = Int(columns.trimmingCharacters(in: .whitespaces)), value > 0, value < 10_000 {
      return value
    }
    return defaultWidth
  }

  /// Whether to colour output.
  ///
  /// Off when the user asked (`--no-color`, or `NO_COLOR` set to anything, as the project brief specifies),
  /// when output is not a terminal (colour codes would end up in files and pipes), and for `TERM=dumb`,
  /// which cannot show them.
  public static func colorEnabled(
    noColorFlag: Bool,
    environment: [String: String],
    outputIsTerminal: Bool
  ) -> Bool {
    if noColorFlag || environment["NO_COLOR"] != nil || !outputIsTerminal {
      return false
    }
    return environment["TERM"] != "dumb"
  }

  /// The same decision for this process: its arguments, its environment and its standard output.
  public static func colorEnabled(
    arguments: [String] = CommandLine.arguments,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Bool {
    colorEnabled(
      noColorFlag: arguments.dropFirst().contains("--no-color"),
      environment: environment,
      outputIsTerminal: standardOutputIsTerminal
    )
  }
}
