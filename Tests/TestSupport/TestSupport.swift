// What several test targets need: reproducible randomness and a thread with a large stack.
import Foundation

/// A small deterministic generator (SplitMix64), so that failures of randomized tests reproduce.
public struct SeededGenerator: RandomNumberGenerator {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Holds the result of work done on another thread.
final class ResultBox<T>: @unchecked Sendable {
  var value: T?
  init() {}
}

/// Runs `body` on a thread with a large stack, as the tools run the core (the parser, checker and evaluator bound their
/// depth, and those bounds assume a roomy stack; test threads have small ones).
public func onLargeStack<T>(_ body: @escaping @Sendable () -> T) -> T {
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

/// Collects values from any thread.
public final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  public func modify(_ body: (inout Value) -> Void) {
    lock.lock()
    body(&value)
    lock.unlock()
  }

  public var current: Value {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
