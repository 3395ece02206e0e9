/// The lifecycle rules of LSP 3.17 (`initialize` first, `shutdown` then `exit`), as a small state machine a
/// server consults before dispatching, so that every server gets them right in the same way.
///
/// It is a value type without locking because it lives in the handler, which only the connection's worker uses.
public struct ServerLifecycle: Sendable {
  /// Where the session is in the `initialize` → `shutdown` → `exit` sequence.
  public enum State: Sendable, Equatable {
    /// Before `initialize`: only `initialize` and `exit` are accepted.
    case uninitialized
    /// After `initialize`: everything is accepted.
    case running
    /// After `shutdown`: requests are refused, only `exit` is still meaningful.
    case shutDown
    /// After `exit`: the server should stop its connection and exit with `exitCode`.
    case exited
  }

  public private(set) var state = State.uninitialized
  private var receivedShutdown = false

  public init() {}

  /// Returns the error to answer a request with, or nil if the server should handle it. Admitting `initialize`
  /// or `shutdown` advances the state.
  public mutating func admit(request method: String) -> ResponseError? {
    switch state {
    case .uninitialized:
      guard method == "initialize" else { return .serverNotInitialized }
      state = .running
      return nil
    case .running:
      if method == "initialize" { return .invalidRequest("initialize may only be sent once") }
      if method == "shutdown" {
        state = .shutDown
        receivedShutdown = true
      }
      return nil
    case .shutDown, .exited:
      return .invalidRequest("the server is shutting down")
    }
  }

  /// Whether the server should handle a notification. Before `initialize` and after `shutdown` the specification
  /// says notifications are dropped, except `exit`, which moves the state to `.exited`.
  public mutating func admit(notification method: String) -> Bool {
    if method == "exit" {
      state = .exited
      return true
    }
    return state == .running
  }

  /// The process exit code the specification asks for: 0 if `shutdown` preceded `exit`, 1 otherwise (including
  /// when the client simply disappeared).
  public var exitCode: Int32 { receivedShutdown ? 0 : 1 }
}
