#if canImport(Glibc)
  import Glibc
#endif

// The streamed check on two threads: a large file's pieces parsed on a second thread (`Parser.forEachPiece`) while
// this one checks the piece before (`StreamCheck.take`), and each checked piece's syntax handed back to the parsing
// thread to be freed there, where the next piece's parse reuses that memory from the thread's cache of free chunks.
//
// The checker takes the pieces in order, each as the serial stream takes it, so the diagnostics are the serial
// stream's. At most `Checker.streamQueuedPieces` parsed pieces wait for the checker: the parsing thread waits for
// room (freeing what was handed back meanwhile), and stops at its next piece when the checker gives up.
//
// The syntax is freed where it was made: freed on the checking thread instead, its chunks went to that thread's cache
// of free chunks, where the parse could not reuse them, and `check` of 100,000 formulas took 2.0–2.2 s against
// 1.1–1.3 s, with a peak of 259 MiB against 205 MiB. The two threads share every node of the syntax (made on one,
// read and counted on the other, freed on the first), which costs: the two threads take 50–60% more CPU time than the
// serial stream (see `Checker.streamPieceLength`). The per-thread cache of free chunks matters more than serially:
// with glibc's default of 7 chunks per size (`GLIBC_TUNABLES=glibc.malloc.tcache_count=7`, which `taxpro` does not
// override) the pipelined check took 2.0–2.2 s against 1.0–1.1 s with the 65,535 `taxpro check` asks for.
extension Checker {
  /// How many parsed pieces may wait for the checker while it checks one and the parsing thread parses the next.
  static let streamQueuedPieces = 1
}

#if canImport(Glibc)
  /// What the two threads of a pipelined stream share: the parsed pieces waiting for the checker, the checked ones
  /// waiting to be freed, and the end of the parse. Not `Sendable` by its fields, but safe: every field but the lock
  /// and the conditions is read and written only with `mutex` held.
  final class PieceHandOver: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled to the checker: a piece is parsed, or the parse ended.
    private let parsedPiece: UnsafeMutablePointer<pthread_cond_t>
    /// Signalled to the parsing thread: room for a piece, syntax to free, the checker stopped or took its last piece.
    private let checkedPiece: UnsafeMutablePointer<pthread_cond_t>
    private let capacity: Int
    private var pieces: [[Declaration]] = []
    private var trash: [[Declaration]] = []
    /// How many pieces the parse handed over.
    private var handed = 0
    /// The checker gave up: the parse stops at its next piece.
    private var stopped = false
    /// The checker takes no more pieces and hands back no more syntax.
    private var takingDone = false
    /// Set when the parse ended: `forEachPiece`'s result.
    private var end: Parser.PiecesParsed??

    init(capacity: Int) {
      self.capacity = max(1, capacity)
      mutex = .allocate(capacity: 1)
      pthread_mutex_init(mutex, nil)
      parsedPiece = .allocate(capacity: 1)
      pthread_cond_init(parsedPiece, nil)
      checkedPiece = .allocate(capacity: 1)
      pthread_cond_init(checkedPiece, nil)
    }

    deinit {
      pthread_cond_destroy(checkedPiece)
      checkedPiece.deallocate()
      pthread_cond_destroy(parsedPiece)
      parsedPiece.deallocate()
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    // The parsing thread's side. Syntax is freed only outside the lock: the lists taken out under it are returned,
    // and released by the caller once the lock is let go.

    /// Parses `source` a piece at a time, handing each piece over, then frees what the checker hands back until it
    /// takes no more. Runs on the parsing thread.
    func parse(_ source: SourceFile, pieceLength: Int) {
      let parsed = Parser.forEachPiece(source, mode: .file, pieceLength: pieceLength) { put($0) }
      ended(parsed)
      while true {
        let (garbage, done) = trashOrDone()
        if done { break }
        _ = garbage
      }
    }

    /// Hands a parsed piece to the checker, waiting for room (and freeing what was handed back meanwhile); false
    /// when the checker gave up.
    private func put(_ piece: [Declaration]) -> Bool {
      while true {
        let (accepted, garbage) = offer(piece)
        // `garbage` is freed here, outside the lock.
        _ = garbage
        if let accepted { return accepted }
      }
    }

    /// Queues `piece` if there is room; takes out the syntax handed back. Waits until one of the two can be done or
    /// the checker gave up. Whether the piece was queued, nil if it was not yet.
    private func offer(_ piece: [Declaration]) -> (accepted: Bool?, garbage: [[Declaration]]) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      while !stopped, trash.isEmpty, pieces.count >= capacity { pthread_cond_wait(checkedPiece, mutex) }
      var garbage: [[Declaration]] = []
      swap(&garbage, &trash)
      if stopped { return (false, garbage) }
      guard pieces.count < capacity else { return (nil, garbage) }
      pieces.append(piece)
      handed += 1
      pthread_cond_signal(parsedPiece)
      return (true, garbage)
    }

    private func ended(_ parsed: Parser.PiecesParsed?) {
      pthread_mutex_lock(mutex)
      end = .some(parsed)
      pthread_cond_signal(parsedPiece)
      pthread_mutex_unlock(mutex)
    }

    /// Waits for syntax to free or for the checker to be done; takes the syntax out (with the pieces left unchecked
    /// once it is done).
    private func trashOrDone() -> (garbage: [[Declaration]], done: Bool) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      while !takingDone, trash.isEmpty { pthread_cond_wait(checkedPiece, mutex) }
      var garbage: [[Declaration]] = []
      swap(&garbage, &trash)
      if takingDone {
        garbage += pieces
        pieces = []
      }
      return (garbage, takingDone)
    }

    // The checker's side.

    /// The next parsed piece, waiting for it; nil when the parse ended (or declined: the pieces still queued are
    /// not checked).
    func next() -> [Declaration]? {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      while pieces.isEmpty, end == nil { pthread_cond_wait(parsedPiece, mutex) }
      if let end, end == nil { return nil }
      guard !pieces.isEmpty else { return nil }
      let piece = pieces.removeFirst()
      pthread_cond_signal(checkedPiece)
      return piece
    }

    /// Hands a checked piece back to be freed on the parsing thread.
    func free(_ piece: consuming [Declaration]) {
      pthread_mutex_lock(mutex)
      trash.append(piece)
      pthread_cond_signal(checkedPiece)
      pthread_mutex_unlock(mutex)
    }

    /// Tells the parsing thread that no more pieces will be taken (and, with `stop`, to stop parsing).
    func doneTaking(stop: Bool) {
      pthread_mutex_lock(mutex)
      stopped = stopped || stop
      takingDone = true
      pthread_cond_signal(checkedPiece)
      pthread_mutex_unlock(mutex)
    }

    /// After `next` returned nil: the parse's result and how many pieces it handed over.
    var result: (parsed: Parser.PiecesParsed?, handed: Int) {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return (end ?? nil, handed)
    }
  }
#endif

extension StreamCheck {
  /// Takes the pieces of `source` as `Parser.forEachPiece` parses them on a second thread (see above): what the serial
  /// stream's loop gives — the parse's result, and whether a piece was taken — the thread, still freeing the last
  /// pieces' syntax, for the caller to join, and how many pieces were parsed (tests: the parse stops soon after the
  /// checker gives up; read it after the join). Nil, having taken nothing, when no thread could be started.
  func takePipelined(_ source: SourceFile, pieceLength: Int) -> (
    parsed: Parser.PiecesParsed?, taken: Bool, thread: SecondThread<Void>, handOver: PieceHandOver
  )? {
    #if canImport(Glibc)
      let handOver = PieceHandOver(capacity: Checker.streamQueuedPieces)
      guard let thread = SecondThread.start({ handOver.parse(source, pieceLength: pieceLength) }) else { return nil }
      while let piece = handOver.next() {
        take(piece, of: source)
        // This thread's reference is moved to the parsing thread, which frees the piece.
        handOver.free(consume piece)
        guard streams else {
          handOver.doneTaking(stop: true)
          return (nil, true, thread, handOver)
        }
      }
      handOver.doneTaking(stop: false)
      let (parsed, handed) = handOver.result
      return (parsed, handed > 0, thread, handOver)
    #else
      return nil
    #endif
  }
}
