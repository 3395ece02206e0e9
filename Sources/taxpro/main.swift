import Foundation
import TaxProCore

/// Tunes glibc's allocator for a short-lived process that builds large trees: one heap for every thread (the
/// worker's own arena would grow by `mprotect` in small steps), grown in 64 MiB steps and never trimmed.
/// `mallopt` is looked up at run time because Swift does not import `<malloc.h>`. The per-thread cache of free chunks
/// keeps glibc's default size: a much larger one (tried for the language server) handed a new program chunks from all
/// over the heap, and opening a document of 40,000 lines took a third longer.
///
/// With `hugePages` (the language server, which builds one large program after another for as long as the editor
/// runs, and `check`, which builds one as large as the files), the heap is backed by transparent huge pages where the system gives them on request (`madvise`, the usual
/// default): every 4 KiB of fresh heap otherwise costs a page fault on first touch — a fresh server's first open of
/// 40,000 lines took 23,000 of them, a tenth of its time — where a 2 MiB page is one. The heap is then grown by 1 GiB
/// at once (address space only: memory is what gets touched) and that range advised; blocks of up to 32 MiB come from
/// it rather than from mappings of their own (the threshold glibc moves to anyway as large blocks are freed). Growth
/// past the first GiB is left as it comes.
func tuneAllocator(hugePages: Bool) {
  typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
  guard let symbol = dlsym(nil, "mallopt") else { return }
  let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
  _ = mallopt(-8, 1)  // M_ARENA_MAX
  _ = mallopt(-1, Int32.max)  // M_TRIM_THRESHOLD
  guard hugePages else {
    _ = mallopt(-2, 64 << 20)  // M_TOP_PAD
    return
  }
  _ = mallopt(-3, 32 << 20)  // M_MMAP_THRESHOLD
  _ = mallopt(-2, 1 << 30)  // M_TOP_PAD
  let page = Int(sysconf(Int32(_SC_PAGESIZE)))
  guard page > 0, let before = sbrk(0).map({ Int(bitPattern: $0) }), before != -1 else { return }
  // Larger than what is left of the heap this early: the heap grows by the new pad. (Through the runtime's allocator,
  // which the optimizer cannot drop as it would an unused `malloc` and `free`.)
  let block = UnsafeMutableRawPointer.allocate(byteCount: 8 << 20, alignment: 16)
  let after = sbrk(0).map { Int(bitPattern: $0) } ?? before
  block.deallocate()
  let start = (before + page - 1) / page * page
  guard after > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
  _ = madvise(address, after - start, MADV_HUGEPAGE)
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

// `check` of 100,000 formulas (28.5 MB): 2.3–2.6 s with 0.4 s of it in the kernel, against 2.0 s and 0.15 s with
// huge pages, at the same peak; a check of one line takes as long either way.
tuneAllocator(hugePages: ["lsp", "check"].contains(CommandLine.arguments.dropFirst().first ?? ""))

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
