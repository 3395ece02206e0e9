import Foundation
import TaxProCore

/// Tunes glibc's allocator for a short-lived process that builds large trees: one heap for every thread (the
/// worker's own arena would grow by `mprotect` in small steps), grown in 64 MiB steps and never trimmed.
/// `mallopt` is looked up at run time because Swift does not import `<malloc.h>`. The per-thread cache of free chunks
/// keeps glibc's default size: a much larger one (tried for the language server) handed a new program chunks from all
/// over the heap, and opening a document of 40,000 lines took a third longer.
func tuneAllocator() {
  typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
  guard let symbol = dlsym(nil, "mallopt") else { return }
  let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
  _ = mallopt(-8, 1)  // M_ARENA_MAX
  _ = mallopt(-2, 64 << 20)  // M_TOP_PAD
  _ = mallopt(-1, Int32.max)  // M_TRIM_THRESHOLD
}

/// What a command built and no longer needs, left for the process exit to reclaim at once: releasing a checked
/// program of 100,000 formulas object by object takes longer than checking it.
enum KeptUntilExit {
  nonisolated(unsafe) static var objects: [Any] = []
  static func keep(_ object: Any) { objects.append(object) }
}

tuneAllocator()

// Deeply nested input is bounded by the parser and evaluator, but their limits assume a roomy stack: run on a thread
// with 512 MiB of it.
let worker = Thread {
  let status = CommandTable.run(Array(CommandLine.arguments.dropFirst()))
  exit(status)
}
worker.stackSize = coreThreadStackSize
worker.start()
// A signal goes to any thread that does not block it. The REPL's Ctrl-C must interrupt the worker's blocking read (and
// a resize or `fg` must wake it to redraw), so this thread, which only waits, blocks them; the worker was created
// before, with them unblocked.
var waitingSignals = sigset_t()
sigemptyset(&waitingSignals)
for signal in [SIGINT, SIGWINCH, SIGCONT] { sigaddset(&waitingSignals, signal) }
pthread_sigmask(SIG_BLOCK, &waitingSignals, nil)
while true { sleep(1000) }
