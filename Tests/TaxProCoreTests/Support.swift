import Foundation

/// Holds the result of work done on another thread.
final class ResultBox<T>: @unchecked Sendable {
  var value: T?
  init() {}
}

/// Runs `body` on a thread with a large stack, as the tools run the core (the parser, checker and evaluator bound their
/// depth, and those bounds assume a roomy stack; test threads have small ones).
func onLargeStack<T>(_ body: @escaping @Sendable () -> T) -> T {
  let box = ResultBox<T>()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    box.value = body()
    done.signal()
  }
  thread.stackSize = 256 << 20
  thread.start()
  done.wait()
  guard let value = box.value else { preconditionFailure("the large-stack thread produced nothing") }
  return value
}
