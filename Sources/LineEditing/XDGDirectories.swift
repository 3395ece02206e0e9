import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where per-user files go, following the XDG Base Directory specification.
///
/// History is *state* (worth keeping, not worth backing up) and the profile and records are *data*; the
/// specification gives each its own variable. Resolution takes the environment as a value so tests can
/// point it anywhere without touching the real home directory.
public struct XDGDirectories: Equatable, Sendable {
  public var environment: [String: String]

  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.environment = environment
  }

  /// `$XDG_STATE_HOME`, else `~/.local/state`.
  public var stateHome: String? { base(variable: "XDG_STATE_HOME", fallback: ".local/state") }

  /// `$XDG_DATA_HOME`, else `~/.local/share`.
  public var dataHome: String? { base(variable: "XDG_DATA_HOME", fallback: ".local/share") }

  /// `$XDG_CONFIG_HOME`, else `~/.config`.
  public var configHome: String? { base(variable: "XDG_CONFIG_HOME", fallback: ".config") }

  /// The home directory: `$HOME`, else the password database; `nil` when neither knows.
  public var home: String? {
    if let home = environment["HOME"], home.hasPrefix("/") {
      return home
    }
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
    let path = String(cString: directory)
    return path.hasPrefix("/") ? path : nil
  }

  /// The specification says a relative path in an XDG variable is invalid and must be ignored, so it is.
  private func base(variable: String, fallback: String) -> String? {
    if let value = environment[variable], value.hasPrefix("/") {
      return value
    }
    guard let home else { return nil }
    return Self.join(home, fallback)
  }

  static func join(_ directory: String, _ component: String) -> String {
    directory.hasSuffix("/") ? directory + component : directory + "/" + component
  }
}

extension XDGDirectories {
  /// `$XDG_STATE_HOME/APPLICATION/history`: one file shared by all of the application's sessions.
  public func historyFile(application: String) -> String? {
    stateHome.map { Self.join($0, application + "/history") }
  }
}
