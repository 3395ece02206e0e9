import Foundation
import LanguageServerProtocol
import TaxProCore
import TaxProLibrary

/// Checks the workspace on a thread of its own, so that the worker goes on answering requests (completion above all)
/// while a large program is re-checked after an edit.
///
/// The worker submits snapshots (`Job`): value copies of the texts and trees, so nothing is shared but this object's
/// locked state. Only the newest submitted job is kept; an older one that has not started is dropped, which
/// coalesces bursts of edits. The analyzer publishes diagnostics itself when the client takes pushed diagnostics
/// (the connection's writes are thread-safe), and the worker waits for it when a request needs a current analysis.
final class Analyzer: @unchecked Sendable {
  /// A source as the job sees it: already parsed, a text to parse, or a library file still being parsed.
  enum Input: Sendable {
    /// With the revision of its text in the workspace (nil when not counted, as for the library).
    case parsed(SyntaxTree, revision: Int? = nil)
    /// With its revision and how the editor's changes led to it from earlier ones.
    case source(SourceFile, revision: Int? = nil, edits: EditHistory = EditHistory())
    case library(LibraryParse, position: Int)

    var revision: Int? {
      switch self {
      case .parsed(_, let revision), .source(_, let revision, _): revision
      case .library: nil
      }
    }
  }

  /// A document whose diagnostics are pushed.
  struct Target: Sendable {
    var id: FileID
    var uri: LSP.DocumentURI
    var version: Int?
    /// Open documents get an answer after every change, even an unchanged one: clients wait for it.
    var always: Bool
  }

  struct Job: Sendable {
    var generation: Int
    var year: Int?
    var inputs: [Input]
    var testFiles: [FileID]
    var uris: [FileID: LSP.DocumentURI]
    /// Nil when the client pulls diagnostics.
    var targets: [Target]?
    /// The versions of the documents open in the editor: a job that changes none of them (files read from disk) does
    /// not make the diagnostics of the one before it stale.
    var openVersions: [FileID: Int] = [:]
    /// The standard library's parse: a whole check of trees that begin with its trees checks the rest on top of the
    /// library checked once (`CheckedLibrary`).
    var library: LibraryParse? = nil
    /// Warnings about files as they were read, not about their text (`not-utf8`): each file's come first.
    var fileWarnings: [FileID: [Diagnostic]] = [:]
  }

  private let condition = NSCondition()
  private var pending: Job?
  private var runningKey: Key?
  private var latest: Analysis?
  private var thread: Thread?
  private let connection: Connection
  private let log: @Sendable (String) -> Void
  private let timing: Bool
  /// Holds each check before its tests until it is superseded or waited for (`LanguageServer.testHolds`; tests only).
  private let holdsChecks: Bool
  /// The state a request last waited for (`wait(for:)`), which releases a held check of that state.
  private var awaited: Key?
  /// Re-parse and re-check only what an edit touched (`TAXPRO_LSP_INCREMENTAL=0` turns this off, to compare).
  private let incremental = environmentValue("TAXPRO_LSP_INCREMENTAL") != "0"
  /// Check documents on top of the library checked once (`TAXPRO_LSP_LIBRARY_ONCE=0` turns this off, to compare).
  static let checksLibraryOnce = environmentValue("TAXPRO_LSP_LIBRARY_ONCE") != "0"
  private let libraryOnce: Bool
  /// The library checked once, and the parse it was checked from (on the parse's thread, or here when that one does
  /// not check); touched only on the analyzer's thread.
  private var checkedLibrary: (parse: LibraryParse, library: CheckedLibrary)?
  /// The library check kept, once a check took it (tests read it after waiting for that check's analysis).
  var libraryCheck: CheckedLibrary? { checkedLibrary?.library }
  /// Told how many bytes of text the first job with texts to parse is about to parse, before it parses them, and
  /// then dropped; called on the analyzer's thread. (The executable faults in the heap's next pages on the other core
  /// meanwhile: a fresh server's first open of 40,000 lines otherwise took a fifth longer, in page faults.)
  private var willParseFirst: (@Sendable (Int) -> Void)?
  /// Whether the server was told that the first analysis is out (`WarmCompletionNotification`).
  private var toldFirstAnalysis = false
  /// What was last pushed per document; touched only on the analyzer's thread.
  private var published: [FileID: [LSP.Diagnostic]] = [:]
  private var publishedURIs: [FileID: LSP.DocumentURI] = [:]

  struct Key: Equatable {
    var generation: Int
    var year: Int?
  }

  init(
    connection: Connection, log: @escaping @Sendable (String) -> Void, timing: Bool, holdsChecks: Bool = false,
    libraryOnce: Bool = Analyzer.checksLibraryOnce, willParseFirst: (@Sendable (Int) -> Void)? = nil
  ) {
    self.connection = connection
    self.willParseFirst = willParseFirst
    self.libraryOnce = libraryOnce
    self.log = log
    self.timing = timing
    self.holdsChecks = holdsChecks
  }

  /// The newest finished analysis, whatever it was made for.
  var latestAnalysis: Analysis? {
    condition.lock()
    defer { condition.unlock() }
    return latest
  }

  /// Queues a job (replacing one not yet started) unless the same state is already being checked or was checked.
  func submit(_ job: Job) {
    let key = Key(generation: job.generation, year: job.year)
    condition.lock()
    defer { condition.unlock() }
    if let latest, Key(generation: latest.generation, year: latest.year) == key, job.targets == nil { return }
    if runningKey == key && job.targets == nil { return }
    pending = job
    if thread == nil {
      // The checker's depth limits assume a roomy stack, as on the command line.
      let thread = Thread { [self] in run() }
      thread.stackSize = coreThreadStackSize
      thread.name = "TaxPro analyzer"
      self.thread = thread
      thread.start()
    }
    condition.broadcast()
  }

  /// Waits for the analysis of exactly this state (the caller has submitted a job for it); nil as soon as
  /// `isCancelled` says yes (asked every 5 ms), so that a cancelled request does not wait for a long check.
  func wait(for key: Key, isCancelled: () -> Bool = { false }) -> Analysis? {
    condition.lock()
    defer { condition.unlock() }
    if holdsChecks {
      awaited = key
      condition.broadcast()
    }
    while true {
      if let latest, Key(generation: latest.generation, year: latest.year) == key { return latest }
      if isCancelled() { return nil }
      _ = condition.wait(until: Date(timeIntervalSinceNow: 0.005))
    }
  }

  /// Whether a job for a different state is waiting: the one running is then for a version already replaced.
  private func isSuperseded(_ key: Key) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard let pending else { return false }
    return Key(generation: pending.generation, year: pending.year) != key
  }

  /// With `holdsChecks`, waits until a job for another state is queued or a request waits for this one: an edit is
  /// then certain to arrive while the check it supersedes runs, however fast the check.
  private func holdUntilSupersededOrAwaited(_ key: Key) {
    condition.lock()
    defer { condition.unlock() }
    while awaited != key {
      if let pending, Key(generation: pending.generation, year: pending.year) != key { return }
      condition.wait()
    }
  }

  /// Whether a job for this state is queued or running.
  func isScheduled(_ key: Key) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if runningKey == key { return true }
    if let pending, Key(generation: pending.generation, year: pending.year) == key { return true }
    return false
  }

  private func run() {
    while true {
      condition.lock()
      while pending == nil { condition.wait() }
      guard let job = pending else {
        condition.unlock()
        continue
      }
      pending = nil
      runningKey = Key(generation: job.generation, year: job.year)
      // An analysis of a file the job no longer has (a document closed, a file deleted) answers nothing the editor
      // can still ask about that file, and a program without it is checked whole: freed now, before the check, not
      // kept beside the new analysis until that is done. (A close followed at once by an open abandons the close's
      // short check; the analysis of the closed document then stayed alive through the whole next check, twice the
      // memory at the peak.) Requests meanwhile wait for the new analysis.
      var released: Analysis? = nil
      if let current = latest, current.program.trees.contains(where: { job.uris[$0.source.id] == nil }) {
        released = current
        latest = nil
      }
      condition.unlock()
      // Freed on this thread, as the analysis replaced below is, so the check reuses its memory. (Freeing it on a
      // thread of its own while this one parsed the next job's documents, waiting for it only before the check, was
      // measured slower: both threads then take the same malloc arena's lock block by block, and the parse of a
      // 40,000-line document after a close went from 88 to 138 ms, median, more than the free it overlapped. Kept
      // instead until the analyzer had been idle for 20 ms, it was no faster either: this free mostly overlaps the
      // transfer of the document an editor opens with the close, and that open, taking fresh memory rather than this,
      // parsed and checked slower: medians 30.8 ms freed here, 29.9 freed once idle at 4,000 lines; 297 and 303 at
      // 40,000.)
      _ = consume released
      if let willParse = willParseFirst {
        var bytes = 0
        for case .source(let source, _, _) in job.inputs { bytes += source.bytes.count }
        if bytes > 0 {
          willParseFirst = nil
          willParse(bytes)
        }
      }

      guard let analysis = analyze(job, previous: latestAnalysis) else {
        // Abandoned for a newer version: check that one instead.
        condition.lock()
        runningKey = nil
        condition.broadcast()
        condition.unlock()
        if timing { log("analysis \(job.generation): abandoned for a newer version") }
        continue
      }
      condition.lock()
      let replaced = latest
      latest = analysis
      runningKey = nil
      condition.broadcast()
      let superseded = pending.map { $0.year != job.year || $0.openVersions != job.openVersions } ?? false
      condition.unlock()
      // Diagnostics of a state the editor has already left would only flicker (files changed on disk leave none).
      if let targets = job.targets, !superseded { publish(analysis, targets: targets, uris: job.uris) }
      if !toldFirstAnalysis {
        // Posted as a bare message: encoding even an empty notification is a conformance scan.
        toldFirstAnalysis = true
        connection.post(NotificationMessage(method: WarmCompletionNotification.method))
      }
      // The analysis replaced is freed here, on this thread, once the new diagnostics are out, so the next analysis
      // reuses its memory. (Freed on another thread, much of it stayed in that thread's cache of free memory while
      // this one took fresh memory from the heap: slower re-checks, spikes in the main thread's answers and two and a
      // half times the memory.)
      let clock = ContinuousClock()
      let start = clock.now
      // Consumed here on purpose (nothing reads it): the last reference to the old analysis goes now, not at the end
      // of the loop's next wait.
      _ = consume replaced
      if timing { log("analysis \(job.generation): the one replaced freed in \(clock.now - start)") }
    }
  }

  /// Parses what changed since `previous` and checks the program: only the changed declarations when one document
  /// changed in a way `Checker.recheck` can follow, else everything. Nil when a newer job arrived meanwhile: a whole
  /// check and the tests are abandoned then, between declarations and tests.
  private func analyze(_ job: Job, previous: Analysis?) -> Analysis? {
    let key = Key(generation: job.generation, year: job.year)
    let superseded: @Sendable () -> Bool = { [self] in isSuperseded(key) }
    let clock = ContinuousClock()
    let start = clock.now
    var oldTrees: [FileID: SyntaxTree] = [:]
    if incremental, let previous {
      for tree in previous.program.trees { oldTrees[tree.source.id] = tree }
    }
    var edited: [Reparse] = []
    // The documents first, then the library's trees (whose parse may still be finishing on its own thread).
    let documents = job.inputs.map { input -> SyntaxTree? in
      switch input {
      case .parsed(let tree, _): return tree
      case .library: return nil
      case .source(let source, _, let edits):
        // A document the previous analysis parsed: only the declarations the edits touched are parsed again. What
        // changed since is known from the editor's edits when the previous text is one of the last few.
        guard let old = oldTrees[source.id], old.source.name == source.name else { return Parser.parse(source) }
        let edit = previous?.revisions[source.id].flatMap { edits.edit(since: $0) }
        let reparse = Parser.reparse(old, as: source, edit: edit)
        if !reparse.edit.isEmpty { edited.append(reparse) }
        return reparse.tree
      }
    }
    let trees = zip(job.inputs, documents).compactMap { input, document -> SyntaxTree? in
      if case .library(let library, let position) = input { return library.trees[position] }
      return document
    }
    let parsed = clock.now
    var program: Program? = nil
    if let previous, edited.count == 1, Analyzer.sameTrees(previous.program.trees, trees, except: edited[0].tree.source.id) {
      program = Checker.recheck(previous.program, after: edited[0])
    } else if let previous, edited.isEmpty, Analyzer.sameTrees(previous.program.trees, trees, except: nil) {
      // Nothing changed (an edit undone within a burst, a document closed and opened again as it was): the same
      // trees check to the same program.
      program = previous.program
    }
    let rechecked = program != nil
    guard let checkedProgram = program ?? check(trees, library: job.library, isCancelled: superseded) else {
      return nil
    }
    let checked = clock.now
    if holdsChecks { holdUntilSupersededOrAwaited(key) }
    guard
      let analysis = Analysis.make(
        program: checkedProgram, generation: job.generation, year: job.year, testFiles: job.testFiles,
        revisions: Analyzer.revisions(of: job.inputs), fileWarnings: job.fileWarnings, isCancelled: superseded)
    else { return nil }
    if timing {
      log(
        "analysis \(job.generation): parse \(parsed - start), \(rechecked ? "re-check" : "check") \(checked - parsed), "
          + "tests \(clock.now - checked)")
    }
    return analysis
  }

  /// The whole check of `trees`: when they begin with the library's own trees, the rest checked on top of the library
  /// checked once — on the library parse's thread right after its parse (waited for here if still running), or on
  /// this thread by the first check that needs it when that parse does not check, and kept —
  /// (`Checker.check(_:after:)`, which checks all of them when that cannot give the same program); else all of them.
  private func check(_ trees: [SyntaxTree], library: LibraryParse?, isCancelled: @escaping () -> Bool) -> Program? {
    guard libraryOnce, let library else {
      return Checker.check(trees, defersFormulaBodies: true, isCancelled: isCancelled)
    }
    let libraryTrees = library.trees
    guard !libraryTrees.isEmpty, Analyzer.begin(trees, with: libraryTrees) else {
      return Checker.check(trees, defersFormulaBodies: true, isCancelled: isCancelled)
    }
    let checked: CheckedLibrary
    if let kept = checkedLibrary, kept.parse === library {
      checked = kept.library
    } else {
      let clock = ContinuousClock()
      let start = clock.now
      let made = library.checked
      checked = made ?? CheckedLibrary(libraryTrees)
      checkedLibrary = (library, checked)
      if timing { log("library \(made == nil ? "checked in" : "check waited for") \(clock.now - start)") }
    }
    return Checker.check(
      Array(trees[libraryTrees.count...]), after: checked, defersFormulaBodies: true, isCancelled: isCancelled)
  }

  /// Whether `trees` begin with `library`'s trees: the same files with the same names and texts (a library file
  /// open in the editor, changed, is a different text; unchanged, it parses to the same tree).
  static func begin(_ trees: [SyntaxTree], with library: [SyntaxTree]) -> Bool {
    guard trees.count >= library.count else { return false }
    for (tree, own) in zip(trees, library) {
      guard tree.source.id == own.source.id, tree.source.name == own.source.name, tree.source.bytes == own.source.bytes
      else { return false }
    }
    return true
  }

  /// The revision of each input's text, where counted, by file.
  static func revisions(of inputs: [Input]) -> [FileID: Int] {
    var revisions: [FileID: Int] = [:]
    for input in inputs {
      guard let revision = input.revision else { continue }
      switch input {
      case .parsed(let tree, _): revisions[tree.source.id] = revision
      case .source(let source, _, _): revisions[source.id] = revision
      case .library: break
      }
    }
    return revisions
  }

  /// Whether two lists of trees are of the same files in the same order, with the same texts but for `file` (all of
  /// them when it is nil).
  static func sameTrees(_ old: [SyntaxTree], _ new: [SyntaxTree], except file: FileID?) -> Bool {
    guard old.count == new.count else { return false }
    for (before, after) in zip(old, new) {
      guard before.source.id == after.source.id else { return false }
      // Unchanged trees share their bytes, which makes this comparison immediate.
      if after.source.id != file && before.source.bytes != after.source.bytes { return false }
    }
    return true
  }

  /// Pushes the diagnostics of every target whose set changed, and clears those of documents no longer targeted.
  private func publish(_ analysis: Analysis, targets: [Target], uris: [FileID: LSP.DocumentURI]) {
    var conversion = DiagnosticConversion(program: analysis.program, uris: uris)
    var current: Set<FileID> = []
    for target in targets {
      current.insert(target.id)
      let diagnostics = conversion.diagnostics(for: target.id, in: analysis)
      if !target.always, published[target.id] ?? [] == diagnostics { continue }
      published[target.id] = diagnostics
      publishedURIs[target.id] = target.uri
      connection.send(LSP.PublishDiagnosticsNotification(uri: target.uri, version: target.version, diagnostics: diagnostics))
    }
    for (id, uri) in publishedURIs where !current.contains(id) {
      published[id] = nil
      publishedURIs[id] = nil
      connection.send(LSP.PublishDiagnosticsNotification(uri: uri, diagnostics: []))
    }
  }
}
