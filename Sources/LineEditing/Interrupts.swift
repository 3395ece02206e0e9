import CSignals

/// Ctrl-C as a flag instead of process death.
///
/// The REPL must survive Ctrl-C both at the prompt (the editor turns it into `.interrupted`) and while an
/// evaluation runs (the evaluator polls `isPending`). A handler that only sets a flag is the one thing a
/// signal handler can safely do, so that is all this installs.
public enum Interrupts {
  /// Replaces the default SIGINT action (terminate) with setting the flag. Safe to call more than once.
  ///
  /// The handler is installed without `SA_RESTART` so a blocking read returns and the editor can react.
  @discardableResult
  public static func install() -> Bool {
    taxpro_install_interrupt_handler() == 0
  }

  /// Whether Ctrl-C was pressed since the flag was last taken; does not clear it.
  public static var isPending: Bool { taxpro_interrupt_pending() != 0 }

  /// Reads and clears the flag, so one Ctrl-C cancels one thing.
  public static func take() -> Bool { taxpro_take_interrupt() != 0 }

  /// Clears a stale Ctrl-C (for example one pressed just as an evaluation finished).
  public static func clear() { _ = taxpro_take_interrupt() }

  /// Sets the flag as SIGINT would, for tests and for cancelling from code.
  public static func raise() { taxpro_raise_interrupt_flag() }

  /// What ended a wait for input.
  enum Wait {
    case input
    case interrupted
    /// Another signal (a resize, `fg`) interrupted the wait.
    case otherSignal
    case failed
  }

  /// Waits until `descriptor` has input or Ctrl-C is pressed, including a Ctrl-C that came before the wait began
  /// (the handler also writes to a pipe the wait watches).
  static func waitForInput(on descriptor: Int32) -> Wait {
    switch taxpro_wait_for_input(descriptor) {
    case 1: .input
    case 0: .interrupted
    case -2: .otherSignal
    default: .failed
    }
  }
}
