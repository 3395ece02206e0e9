import CEditLine

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
}
