import Foundation
import TaxProCore
import TaxProServer

/// The version printed by `--version`.
let version = "0.1.0"

func run(_ arguments: [String]) -> Int32 {
  let options: Options
  do {
    options = try Options.parse(arguments)
  } catch {
    Output.writeError("taxpro: \(error.message)\nRun 'taxpro --help' for usage.\n")
    return 2
  }
  Output.configure(options.color)
  if options.version {
    Output.write("taxpro \(version)\n")
    return 0
  }
  if options.help {
    Output.write(Options.usage)
    return 0
  }
  do {
    switch options.command {
    case "eval": return try Commands.eval(options)
    case "explain": return try Commands.explain(options)
    case "check": return try Commands.check(options)
    case "test": return try Commands.test(options)
    case "fmt": return try Commands.fmt(options)
    case "lsp": return LanguageServer.runOnStandardIO(year: options.year)
    case "repl": return try InteractiveCommands.repl(options)
    case "plot": return try InteractiveCommands.plot(options)
    default:
      // The REPL at a terminal; piped input is evaluated line by line, one result each.
      return isatty(STDIN_FILENO) == 1 ? try InteractiveCommands.repl(options) : try Commands.lines(options)
    }
  } catch {
    Output.writeError("taxpro: \(error.message)\n")
    return 2
  }
}

// Deeply nested input is bounded by the parser and evaluator, but their limits assume a roomy stack: run on a thread
// with 512 MiB of it.
let worker = Thread {
  let status = run(Array(CommandLine.arguments.dropFirst()))
  exit(status)
}
worker.stackSize = 512 << 20
worker.start()
// A signal goes to any thread that does not block it. The REPL's Ctrl-C must interrupt the worker's blocking read (and
// a resize or `fg` must wake it to redraw), so this thread, which only waits, blocks them; the worker was created
// before, with them unblocked.
var waitingSignals = sigset_t()
sigemptyset(&waitingSignals)
for signal in [SIGINT, SIGWINCH, SIGCONT] { sigaddset(&waitingSignals, signal) }
pthread_sigmask(SIG_BLOCK, &waitingSignals, nil)
while true { sleep(1000) }
