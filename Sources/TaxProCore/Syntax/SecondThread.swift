#if canImport(Glibc)
  import Glibc
#endif

/// The stack every thread that runs the core gets: 512 MiB, reserved rather than used until the work goes deep. The
/// parser's and the checker's depth limits assume it, and Dispatch's worker threads have a small one, so each front end
/// starts its core thread with this size, as `startThread` does.
public let coreThreadStackSize = 512 << 20

/// Work run on a thread of its own while the caller does other work, then joined: how a large source is parsed on
/// both cores (`Parser.parseInTwo`).
///
/// The thread has the core's large stack (`coreThreadStackSize`). The core has no Foundation, so the thread is a POSIX
/// one. Where none can be started, `start` returns nil and the caller does the work itself.
final class SecondThread<Result: Sendable>: ThreadBody, @unchecked Sendable {
  // Written by the thread before it ends, read by `join` after it ended (the join orders the two).
  private var result: Result?
  private let work: @Sendable () -> Result
  #if canImport(Glibc)
    private var thread = pthread_t()
  #endif

  private init(_ work: @escaping @Sendable () -> Result) {
    self.work = work
  }

  override func run() { result = work() }

  /// Starts `work` on a new thread; nil when no thread could be started.
  static func start(_ work: @escaping @Sendable () -> Result) -> SecondThread? {
    #if canImport(Glibc)
      let started = SecondThread(work)
      guard let thread = startThread(running: started) else { return nil }
      started.thread = thread
      return started
    #else
      return nil
    #endif
  }

  /// Waits for the work to end and returns its result.
  func join() -> Result {
    #if canImport(Glibc)
      pthread_join(thread, nil)
    #endif
    // The work always sets the result before its thread ends; running it here is only a safe answer to a broken join.
    if let result { return result }
    let result = work()
    self.result = result
    return result
  }
}

/// What a thread of the core's runs (a `SecondThread`'s work, or a closure), without a result type: a C thread's
/// start routine cannot name a generic one.
class ThreadBody {
  func run() {}
}

/// A closure run on a thread of its own (`Checker.runBeside`), whose caller joins the thread before it reads what the
/// closure wrote: the join orders the two.
final class ClosureBody: ThreadBody {
  private let work: () -> Void
  init(_ work: @escaping () -> Void) { self.work = work }
  override func run() { work() }
}

#if canImport(Glibc)
  /// Starts a POSIX thread with the core's large stack (`coreThreadStackSize`) that runs `body`; nil when none
  /// could be started. The thread holds a reference to the body until it has run it.
  func startThread(running body: ThreadBody) -> pthread_t? {
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return nil }
    defer { pthread_attr_destroy(&attributes) }
    guard pthread_attr_setstacksize(&attributes, coreThreadStackSize) == 0 else { return nil }
    let context = Unmanaged<ThreadBody>.passRetained(body).toOpaque()
    var thread = pthread_t()
    guard pthread_create(&thread, &attributes, runThreadBody, context) == 0 else {
      Unmanaged<ThreadBody>.fromOpaque(context).release()
      return nil
    }
    return thread
  }

  /// The start routine of the core's threads: runs the body it is given (and releases it).
  private func runThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().run()
    return nil
  }
#endif
