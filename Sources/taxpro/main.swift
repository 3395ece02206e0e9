import Foundation
import TaxProCore

/// Tunes glibc's allocator for a short-lived process that builds large trees: one heap for every thread (the
/// worker's own arena would grow by `mprotect` in small steps), grown in 64 MiB steps and never trimmed.
/// `mallopt` is looked up at run time because Swift does not import `<malloc.h>`. The per-thread cache of free chunks
/// keeps glibc's default size: a much larger one (tried for the language server) handed a new program chunks from all
/// over the heap, and opening a document of 40,000 lines took a third longer.
///
/// With `largeHeap` (the language server, which builds one large program after another for as long as the editor
/// runs, and `check`, which builds one as large as the files), the heap grows by 1 GiB at a time (address space only:
/// memory is what gets touched) and blocks of up to 32 MiB come from it rather than from mappings of their own (the
/// threshold glibc moves to anyway as large blocks are freed), so that a block freed is reused rather than mapped and
/// faulted in again.
///
/// The heap is left in ordinary 4 KiB pages. It was advised into transparent huge pages (`MADV_HUGEPAGE`) until a
/// measurement on a virtual machine of the kind the project is built and benchmarked on (Firecracker, with a memory
/// balloon that takes back free memory in 2 MiB blocks): huge pages cost 1.2–3 ms per MiB on first touch once the
/// machine had been idle for a few seconds, against 0.05 ms when memory had just been freed, where 4 KiB pages cost
/// 0.3–0.5 ms per MiB either way. A fresh server's first open of 40,000 lines took 210 ms (median of 50, beside tombi
/// and ruff) with huge pages and 116 ms without, and `check` of 100,000 formulas after a pause 0.9–1.2 s with 0.5 s of
/// it in the kernel, against 0.6 s with 0.15 s.
///
/// With `threadArenas` (`check`), each thread keeps glibc's arena of its own instead: a large file's check parses on
/// one thread while it checks on another (`Checker+Pipeline`), both allocating all the time, and with one arena they
/// took turns at its lock (thousands of futex waits and wakes). `check` of 100,000 formulas took 0.52–0.66 s with one
/// arena and 0.35–0.56 s with one per thread (medians 0.59 and 0.42, ten interleaved rounds), peaking at 192 MiB
/// against 187; at 10,000 formulas 0.08 s against 0.06.
func tuneAllocator(largeHeap: Bool, threadArenas: Bool) {
  typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
  guard let symbol = dlsym(nil, "mallopt") else { return }
  let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
  if !threadArenas { _ = mallopt(-8, 1) }  // M_ARENA_MAX
  _ = mallopt(-1, Int32.max)  // M_TRIM_THRESHOLD
  guard largeHeap else {
    _ = mallopt(-2, 64 << 20)  // M_TOP_PAD
    return
  }
  _ = mallopt(-3, 32 << 20)  // M_MMAP_THRESHOLD
  _ = mallopt(-2, 1 << 30)  // M_TOP_PAD
}

/// What a command built and no longer needs, left for the process exit to reclaim at once: releasing a checked
/// program of 100,000 formulas object by object takes longer than checking it.
enum KeptUntilExit {
  nonisolated(unsafe) static var objects: [Any] = []
  static func keep(_ object: Any) { objects.append(object) }
}

/// `check` of large files frees each piece's syntax once it is checked (`Checker+Stream`), and the next piece
/// allocates as much again: with glibc's per-thread cache of free chunks at its default (7 chunks of each size), most
/// of them go to the fast bins, which every larger request then consolidates and splits again. A cache of 65,535 per
/// size hands the next piece the chunks the last one freed, unsorted: `check` of 100,000 formulas took 3.2 s without
/// it and 1.9 s with it (the whole file's syntax kept, 1.7 s). glibc reads the cache's size from `GLIBC_TUNABLES`
/// only as a process starts, so `check` of files of 2 MiB or more (`Parser.pieceThreshold`) runs itself again, once,
/// with it set; if that cannot be done it goes on as it is.
func reexecutedWithLargeFreeCache(_ arguments: [String]) {
  guard arguments.dropFirst().first == "check", !arguments.contains("--syntax") else { return }
  let setting = "glibc.malloc.tcache_count=65535"
  let current = ProcessInfo.processInfo.environment["GLIBC_TUNABLES"]
  guard current?.contains("glibc.malloc.tcache_count") != true else { return }
  var bytes = 0
  for path in arguments.dropFirst(2) {
    var status = stat()
    if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG { bytes += Int(status.st_size) }
  }
  guard bytes >= 2 << 20 else { return }
  setenv("GLIBC_TUNABLES", current.map { $0 + ":" + setting } ?? setting, 1)
  var pointers = arguments.map { strdup($0) }
  pointers.append(nil)
  execv("/proc/self/exe", pointers)
  // Not run again: on as it is, without the setting.
  if let current { setenv("GLIBC_TUNABLES", current, 1) } else { unsetenv("GLIBC_TUNABLES") }
}

reexecutedWithLargeFreeCache(CommandLine.arguments)

let command = CommandLine.arguments.dropFirst().first ?? ""
tuneAllocator(largeHeap: ["lsp", "check"].contains(command), threadArenas: command == "check")

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
