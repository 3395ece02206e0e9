// The REPL loop.
