import Foundation
import LanguageServerProtocol
import TaxProCore
import TaxProLibrary

/// The TaxPro language server: LSP requests in, core queries out.
///
/// All of its state is touched only on the connection's worker thread (see `MessageHandler`), one message at a
/// time, so it needs no locks. Positions are converted between the protocol's UTF-16 and the core's UTF-8 byte
/// offsets here and nowhere else.
public final class LanguageServer: MessageHandler {
  /// Settings an editor can change: `initializationOptions` and `workspace/didChangeConfiguration`
  /// (`{"taxpro": {"year": 2025, "inlayHints": true}}`).
  struct Configuration: Equatable {
    /// Nil: the latest year with data.
    var year: Int?
    var inlayHints = true
  }

  static let commands = ["taxpro.runTest", "taxpro.explain"]

  var lifecycle = ServerLifecycle()
  var configuration = Configuration()
  let workspace: Workspace
  /// The connection, known from the first message on; the analyzer publishes through it.
  var connection: Connection?
  var analyzerStorage: Analyzer?
  /// Given to the analyzer when it is made (`runOnStandardIO`).
  var willParseFirst: (@Sendable (Int) -> Void)?
  /// What the client said it can do, decoded once at `initialize`.
  var client = LSP.ClientCapabilities()
  /// Completion documentation as this client is sent it, by its text (`LanguageServer+Completion.swift`).
  var completionDocumentation = CompletionDocumentation()
  /// Completion candidates that depend on the program alone, kept between requests (`CompletionCache`).
  let completionCache = CompletionCache()
  /// The completion contexts still to warm while idle, last first (`warmCompletion`); nil until warming starts.
  var warmingContexts: [String]?
  /// The client pulls diagnostics (`textDocument/diagnostic`), so the server does not push them as well. Only a client
  /// that can also be asked to pull again (`workspace/diagnostic/refresh`) is offered pulling: an edit in one file
  /// changes the diagnostics of others, and a client that pulls only for the file it edits (Neovim 0.11, which also
  /// ignores `relatedDocuments`) would keep showing the others' old ones. Such a client gets them pushed, as they
  /// change.
  var usesPullDiagnostics: Bool {
    client.textDocument?.diagnostic != nil && client.workspace?.diagnostics?.refreshSupport == true
  }
  var lineMaps: [FileID: (generation: Int, map: LineMap)] = [:]
  /// The analyses of files that repeat another's declarations, checked first (`analysis(for:)`).
  var copyAnalyses: [FileID: Analysis] = [:]
  /// Reads the workspace's folders while the server answers; taken in by `takeScan(waitingAtMost:)`.
  var scanner: WorkspaceScanner?
  /// Called on the scan's thread before its result is handed over (`WorkspaceScanner.init`); for tests.
  var scanWillFinish: (@Sendable () -> Void)?
  /// The request being answered, for its cancellation.
  var currentRequest: RequestContext?
  let log: @Sendable (String) -> Void
  /// `TAXPRO_LSP_TIMING=1` logs how long each re-check took, for profiling.
  let timing = environmentValue("TAXPRO_LSP_TIMING") == "1"
  /// `TAXPRO_LSP_TEST_HOLDS=1`, for the end-to-end tests only (never set in normal use, where it changes nothing):
  /// the analyzer holds each check before its tests until a newer version replaces it or a request waits for it, and
  /// `taxpro.explain` holds its evaluation, once it has started, until the request is cancelled. The tests of
  /// abandoned checks and cancelled commands then do not depend on how fast the build or the machine is.
  let testHolds = environmentValue("TAXPRO_LSP_TEST_HOLDS") == "1"
  /// Made once the library's parse has started (`init`): the parse need not wait for it.
  let messages: MessageTable<LanguageServer>

  /// Why the standard library could not be loaded, shown to the user once the client is ready
  /// (`window/showMessage`), so that the false "unknown name" errors that follow are explained.
  let libraryProblem: String?

  /// `library` is the standard library (tests pass a smaller one); it is parsed (and checked) once, on a thread
  /// started here first of all, or by the caller already (`libraryParse`, of these files). `libraryProblem` says why
  /// it is missing, when it is.
  public convenience init(
    library: [LibraryFile] = StandardLibrary.files(), libraryProblem: String? = nil,
    log: @escaping @Sendable (String) -> Void = Connection.logToStandardError
  ) {
    self.init(library: library, libraryParse: LibraryParse(library), libraryProblem: libraryProblem, log: log)
  }

  init(
    library: [LibraryFile], libraryParse: LibraryParse, libraryProblem: String?,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.workspace = Workspace(library: library, parse: libraryParse)
    self.messages = LanguageServer.messageTable()
    self.libraryProblem = libraryProblem
    self.log = log
  }

  /// The exit status the specification asks for once the connection has ended.
  public var exitCode: Int32 { lifecycle.exitCode }

  /// The requests answered before the other requests queued ahead of them (`Connection.overtaking`): those asked at a
  /// keystroke. After an edit of a 40,000-line document an editor asks for its semantic tokens, symbols, lenses and
  /// folding ranges (70, 57, 13 and 18 ms); a completion asked meanwhile waited for all of them.
  static let overtaking: Set<String> = [
    LSP.CompletionRequest.method, LSP.HoverRequest.method, LSP.SignatureHelpRequest.method,
  ]

  /// Serves the protocol on standard input and output until `exit` or the end of input; returns the exit status.
  /// `year` (from `taxpro lsp --year`) is the tax year until the client's settings say otherwise. `willParseFirst`
  /// is told, once, how many bytes of text the first check is about to parse (`Analyzer.willParseFirst`).
  public static func runOnStandardIO(year: Int? = nil, willParseFirst: (@Sendable (Int) -> Void)? = nil) -> Int32 {
    // The library's parse and check first of all: with a quick client, a fresh server's first diagnostics wait for
    // them (they take longer than answering `initialize` and parsing the first document).
    let loaded = StandardLibrary.load()
    let files = (try? loaded.get()) ?? []
    let libraryParse = LibraryParse(files)
    let connection = Connection.standardIO(overtaking: LanguageServer.overtaking)
    // The editor sends `initialize` at once: read and parse it while the server below is made (about 1 ms).
    connection.startReading()
    let server: LanguageServer
    switch loaded {
    case .success:
      server = LanguageServer(
        library: files, libraryParse: libraryParse, libraryProblem: nil, log: Connection.logToStandardError)
      // Go-to-definition into the library opens this read-only copy (the library itself is inside the binary).
      if case .failure(let problem) = StandardLibrary.writeReadOnlyCopy() {
        Connection.logToStandardError("taxpro lsp: \(problem.message); go-to-definition into the library will fail")
      }
    case .failure(let problem):
      server = LanguageServer(
        library: [], libraryParse: libraryParse,
        libraryProblem: "TaxPro: the standard library could not be loaded: \(problem.message)",
        log: Connection.logToStandardError)
    }
    server.configuration.year = year
    server.willParseFirst = willParseFirst
    connection.run(handler: server)
    return server.exitCode
  }

  // MARK: Dispatch

  /// Every message the server handles, with its handler: the one list that decodes and dispatches them and announces
  /// them in the `initialize` result. A method not here is `MethodNotFound` (a request) or ignored (a notification).
  static func messageTable() -> MessageTable<LanguageServer> {
    var table = MessageTable<LanguageServer>()
    table.announce("positionEncoding", LSP.PositionEncodingKind.utf16)
    table.announce("textDocumentSync", LSP.TextDocumentSyncOptions(openClose: true, change: .incremental))
    table.on(LSP.InitializeRequest.self, LanguageServer.initialize)
    table.on(LSP.ShutdownRequest.self, LanguageServer.shutdown)
    table.on(
      LSP.CompletionRequest.self, options: LSP.CompletionOptions(triggerCharacters: ["."], resolveProvider: false),
      LanguageServer.completion)
    table.on(LSP.HoverRequest.self, LanguageServer.hover)
    table.on(
      LSP.SignatureHelpRequest.self,
      options: LSP.SignatureHelpOptions(triggerCharacters: ["(", ","], retriggerCharacters: [","]),
      LanguageServer.signatureHelp)
    table.on(LSP.DefinitionRequest.self, LanguageServer.definition)
    table.on(LSP.ReferencesRequest.self, LanguageServer.references)
    table.on(LSP.DocumentHighlightRequest.self, LanguageServer.highlights)
    table.on(LSP.DocumentSymbolRequest.self, LanguageServer.documentSymbols)
    table.on(LSP.WorkspaceSymbolsRequest.self, LanguageServer.workspaceSymbols)
    table.on(LSP.CodeActionRequest.self, options: LSP.CodeActionOptions(codeActionKinds: [.quickFix]), LanguageServer.codeActions)
    table.on(LSP.CodeLensRequest.self, options: LSP.ResolveOptions(resolveProvider: false), LanguageServer.codeLenses)
    table.on(LSP.RenameRequest.self, options: LSP.RenameOptions(prepareProvider: true), LanguageServer.rename)
    table.on(LSP.PrepareRenameRequest.self, LanguageServer.prepareRename)
    table.on(LSP.DocumentFormattingRequest.self, LanguageServer.formatting)
    table.on(LSP.DocumentRangeFormattingRequest.self, LanguageServer.rangeFormatting)
    table.on(LSP.FoldingRangeRequest.self, LanguageServer.foldingRanges)
    table.on(LSP.SelectionRangeRequest.self, LanguageServer.selectionRanges)
    table.on(
      LSP.ExecuteCommandRequest.self, options: LSP.ExecuteCommandOptions(commands: LanguageServer.commands),
      LanguageServer.executeCommand)
    table.on(
      LSP.DocumentSemanticTokensRequest.self, options: LSP.SemanticTokensOptions(legend: LanguageServer.legend, full: true),
      LanguageServer.semanticTokens)
    table.on(LSP.InlayHintRequest.self, options: LSP.ResolveOptions(resolveProvider: false), LanguageServer.inlayHints)
    table.on(
      LSP.DocumentDiagnosticsRequest.self,
      options: LSP.DiagnosticOptions(identifier: "taxpro", interFileDependencies: true, workspaceDiagnostics: false),
      LanguageServer.pullDiagnostics)
    table.on(LSP.InitializedNotification.self, LanguageServer.initialized)
    table.on(LSP.ExitNotification.self, LanguageServer.exit)
    table.on(LSP.DidOpenTextDocumentNotification.self, LanguageServer.didOpen)
    table.on(LSP.DidChangeTextDocumentNotification.self, LanguageServer.didChange)
    table.on(LSP.DidCloseTextDocumentNotification.self, LanguageServer.didClose)
    table.on(LSP.DidSaveTextDocumentNotification.self, LanguageServer.didSave)
    table.on(LSP.DidChangeWatchedFilesNotification.self, LanguageServer.didChangeWatchedFiles)
    table.on(LSP.DidChangeConfigurationNotification.self, LanguageServer.didChangeConfiguration)
    table.on(WorkspaceScannedNotification.self, LanguageServer.workspaceScanned)
    table.on(WarmCompletionNotification.self, LanguageServer.warmCompletion)
    return table
  }

  /// Requests are refused before `initialize` and after `shutdown` by `ServerLifecycle`, then dispatched by the table.
  public func handle(request: RequestMessage, context: RequestContext) throws -> JSON {
    try answer(request, context: context) { try messages.result($0, by: self, context: $1).toJSON() }
  }

  /// The reply's result written in one pass from the typed response (`MessageTable.serializedResult`): what the
  /// connection sends.
  public func serializedResult(request: RequestMessage, context: RequestContext) throws -> [UInt8] {
    try answer(request, context: context) { try messages.serializedResult($0, by: self, context: $1) }
  }

  private func answer<Encoded>(
    _ request: RequestMessage, context: RequestContext,
    encode: (RequestMessage, RequestContext) throws -> Encoded
  ) throws -> Encoded {
    currentRequest = context
    defer { currentRequest = nil }
    return try timed("request \(request.method)") {
      if connection == nil { connection = context.connection }
      if let refusal = lifecycle.admit(request: request.method) { throw refusal }
      takeScan(waitingAtMost: 0)
      return try encode(request, context)
    }
  }

  /// Document changes are applied at once; the re-check they cause runs on the analyzer thread.
  public func handle(notification: NotificationMessage, connection: Connection) throws {
    try timed("notification \(notification.method)") {
      if self.connection == nil { self.connection = connection }
      guard lifecycle.admit(notification: notification.method) else { return }
      takeScan(waitingAtMost: 0)
      try messages.handle(notification, by: self, connection: connection)
    }
  }

  /// Whether the client cancelled the request being answered (or is gone): long work polls this and stops.
  var requestCancelled: Bool { currentRequest?.isCancelled ?? false }

  /// Runs `body`; with `TAXPRO_LSP_TIMING=1`, logs how long it took.
  func timed<Result>(_ what: @autoclosure () -> String, _ body: () throws -> Result) rethrows -> Result {
    guard timing else { return try body() }
    let clock = ContinuousClock()
    let start = clock.now
    defer { log("\(what()): \(clock.now - start)") }
    return try body()
  }

  // MARK: Lifecycle

  func initialize(_ request: LSP.InitializeRequest) -> LSP.InitializeResult {
    client = request.capabilities ?? LSP.ClientCapabilities()
    if let options = request.initializationOptions { apply(settings: options) }
    workspace.setRoots(request.workspaceRoots)
    startScan()
    return LSP.InitializeResult(
      capabilities: capabilities(), serverInfo: LSP.ServerInfo(name: "taxpro", version: TaxPro.version))
  }

  func shutdown(_ request: LSP.ShutdownRequest) -> VoidResponse { VoidResponse() }

  func initialized(_ notification: LSP.InitializedNotification) {
    registerFileWatcher()
    if let libraryProblem { connection?.send(LSP.ShowMessageNotification(type: .error, message: libraryProblem)) }
  }

  func exit(_ notification: LSP.ExitNotification) {
    connection?.stop()
  }

  /// What the table announces; pull diagnostics only to clients that pull (the others get them pushed, and would
  /// otherwise be shown them twice).
  func capabilities() -> JSON {
    .object(messages.capabilities(without: usesPullDiagnostics ? [] : [LSP.DocumentDiagnosticsRequest.self]))
  }

  // MARK: Settings

  func didChangeConfiguration(_ notification: LSP.DidChangeConfigurationNotification) {
    let settings = notification.settings ?? .null
    let before = configuration
    apply(settings: settings["taxpro"] ?? settings)
    if configuration != before { configurationChanged() }
  }

  /// Reads `{"year": 2025 | null, "inlayHints": true | false}`; absent keys keep their value.
  func apply(settings: JSON) {
    guard case .object(let object) = settings else { return }
    if let year = object["year"] {
      if year.isNull {
        configuration.year = nil
      } else if let value = year.intValue {
        configuration.year = value
        let known = workspace.libraryYears
        if !known.isEmpty, !known.contains(value) {
          let years = known.sorted().map(String.init).joined(separator: ", ")
          connection?.send(
            LSP.ShowMessageNotification(
              type: .warning, message: "TaxPro: the standard library has no figures for \(value) (it has \(years))"))
        }
      } else {
        log("ignored the setting year = \(year): expected a year or null")
      }
    }
    if let hints = object["inlayHints"] {
      if let flag = hints.boolValue { configuration.inlayHints = flag } else if case .object(let nested) = hints,
        let flag = nested["enabled"]?.boolValue
      {
        configuration.inlayHints = flag
      }
    }
  }

  func configurationChanged() {
    scheduleCheck()
    refreshPulledDiagnostics()
    if client.workspace?.inlayHint?.refreshSupport == true { connection?.send(LSP.InlayHintRefreshRequest()) }
    if client.workspace?.codeLens?.refreshSupport == true { connection?.send(LSP.CodeLensRefreshRequest()) }
  }

  /// Asks the client to tell the server about `.tax` files changed outside the editor, when it can register that
  /// dynamically.
  func registerFileWatcher() {
    guard client.workspace?.didChangeWatchedFiles?.dynamicRegistration == true else { return }
    let registration = LSP.Registration(
      id: "taxpro-watched-files", method: LSP.DidChangeWatchedFilesNotification.method,
      registerOptions: LSP.DidChangeWatchedFilesRegistrationOptions(watchers: [LSP.FileSystemWatcher(globPattern: "**/*.tax")]))
    connection?.send(LSP.RegisterCapabilityRequest(registrations: [registration])) { [log] result in
      if case .failure(let error) = result { log("the client refused to watch .tax files: \(error)") }
    }
  }

  // MARK: Documents

  func didOpen(_ notification: LSP.DidOpenTextDocumentNotification) {
    workspace.open(notification.textDocument)
    if let path = notification.textDocument.uri.filePath.map(Workspace.standardizedPath) {
      // A small project is read in a few milliseconds: its first diagnostics see all its files. A large one is not
      // waited for: the document's own diagnostics come first (with its folder's files), the rest follow.
      if workspace.isPending(path) { takeScan(waitingAtMost: 0.05) }
      workspace.includeFolder(of: path)
    }
    scheduleCheck()
  }

  func didChange(_ notification: LSP.DidChangeTextDocumentNotification) {
    let document = notification.textDocument
    switch workspace.change(notification) {
    case .applied: break
    case .unknownDocument:
      log("didChange for a document that is not open: \(document.uri)")
      return
    case .staleVersion(let current):
      log("ignored didChange to version \(document.version) of \(document.uri), which is at \(current)")
      return
    }
    // A burst of typing: check once, after the last change of the burst. (A peek at the queue's raw params: decoding
    // every queued change to compare one URI would cost more than the check it saves.)
    let uri = document.uri.stringValue
    let moreComing = connection?.hasQueuedNotification { queued in
      queued.method == LSP.DidChangeTextDocumentNotification.method
        && queued.params?["textDocument"]?["uri"]?.stringValue == uri
    }
    if moreComing != true { scheduleCheck() }
  }

  func didClose(_ notification: LSP.DidCloseTextDocumentNotification) {
    workspace.close(notification.textDocument.uri)
    scheduleCheck()
  }

  func didSave(_ notification: LSP.DidSaveTextDocumentNotification) {}

  func didChangeWatchedFiles(_ notification: LSP.DidChangeWatchedFilesNotification) {
    workspace.applyWatchedChanges(notification.changes)
    scheduleCheck()
    refreshPulledDiagnostics()
  }

  // MARK: Workspace scan

  /// Starts reading the roots in the background: `initialize` is answered at once (a root of `/usr` took seconds).
  func startScan() {
    let roots = workspace.pendingRoots
    guard !roots.isEmpty else { return }
    let connection = connection
    scanner = WorkspaceScanner(roots: roots, willFinish: scanWillFinish) {
      // A bare message: encoding even an empty notification is a conformance scan, on a thread that shares the cores
      // with a fresh server's first check.
      connection?.post(NotificationMessage(method: WorkspaceScannedNotification.method))
    }
  }

  /// Takes in what the scan read, if it is done or becomes done within `seconds`: the files of the roots read as
  /// projects join the workspace (the folders of documents opened elsewhere were read when they were opened), and
  /// everything is checked again.
  func takeScan(waitingAtMost seconds: Double) {
    guard let scanner, let result = scanner.result(waitingAtMost: seconds) else { return }
    self.scanner = nil
    let generation = workspace.generation
    workspace.addScanned(result)
    if workspace.generation != generation {
      scheduleCheck()
      refreshPulledDiagnostics()
    }
    // Nothing read and nothing to explain: nothing to say.
    guard !result.files.isEmpty || !result.notes.isEmpty else { return }
    let count = result.files.count
    var report = "TaxPro: read \(count) .tax file\(count == 1 ? "" : "s") in \(result.elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))"
    if !result.projects.isEmpty { report += " under " + result.projects.joined(separator: ", ") }
    for note in result.notes { report += "; " + note }
    log(report)
    connection?.send(LSP.LogMessageNotification(type: .log, message: report))
  }

  /// The scan posts this when it is done, so that its files are taken in even if the client sends nothing.
  func workspaceScanned(_ notification: WorkspaceScannedNotification) {
    takeScan(waitingAtMost: 0)
  }

  // MARK: Analysis

  /// The tax year queries use: the configured one when the program has figures for it, else the latest.
  var year: Int? { configuration.year }

  var analyzer: Analyzer? {
    if let analyzerStorage { return analyzerStorage }
    guard let connection else { return nil }
    let created = Analyzer(
      connection: connection, log: log, timing: timing, holdsChecks: testHolds, willParseFirst: willParseFirst)
    analyzerStorage = created
    return created
  }

  /// A snapshot of the workspace for the analyzer, with the documents whose diagnostics it should push.
  func job() -> Analyzer.Job {
    var targets: [Analyzer.Target]? = nil
    if !usesPullDiagnostics {
      // The documents the user has open first: theirs are the diagnostics waited for.
      targets = workspace.sources.values.filter { !workspace.isLibrary($0.id) || $0.isOpen }
        .sorted { ($0.isOpen ? 0 : 1, $0.id) < ($1.isOpen ? 0 : 1, $1.id) }
        .map { Analyzer.Target(id: $0.id, uri: $0.uri, version: $0.version, always: $0.isOpen) }
    }
    var openVersions: [FileID: Int] = [:]
    for source in workspace.sources.values where source.isOpen { openVersions[source.id] = source.version ?? 0 }
    return Analyzer.Job(
      generation: workspace.generation, year: year, inputs: workspace.inputs(), testFiles: workspace.userFiles,
      uris: workspace.uris, targets: targets, openVersions: openVersions, library: workspace.libraryParse,
      fileWarnings: workspace.fileWarnings)
  }

  /// Re-checks the workspace in the background; the analyzer pushes the diagnostics.
  func scheduleCheck() {
    analyzer?.submit(job())
  }

  /// The analysis of the workspace as it is now, waiting for the analyzer if it is still checking.
  func analysis() -> Analysis {
    takeScan(waitingAtMost: 60)
    let key = Analyzer.Key(generation: workspace.generation, year: year)
    guard let analyzer else {
      return Analysis(
        program: Checker.check(workspace.programTrees()), generation: key.generation, year: key.year,
        testFiles: workspace.userFiles)
    }
    if let latest = analyzer.latestAnalysis, latest.generation == key.generation, latest.year == key.year {
      return latest
    }
    if !analyzer.isScheduled(key) { analyzer.submit(job()) }
    guard let result = analyzer.wait(for: key, isCancelled: { requestCancelled }) else {
      // Cancelled while the check runs: the answer will be thrown away (the connection answers RequestCancelled), so
      // any analysis will do — the last one, or before the first, one of nothing at all.
      return analyzer.latestAnalysis ?? Analysis(
        program: Checker.check([], recordOccurrences: false), generation: -1, year: key.year, testFiles: [])
    }
    workspace.adopt(result.program.trees, generation: result.generation)
    return result
  }

  /// The analysis to answer questions about positions in `id` from. A file that repeats another's declarations (a
  /// copy of it) has them reported as already defined, and left unchecked, so its names would lead nowhere: it is
  /// answered from the same trees checked with it first, where its declarations are the ones that count (and the other
  /// file's are the repeats). Its diagnostics stay those of the workspace as it is.
  func analysis(for id: FileID) -> Analysis {
    let analysis = analysis()
    guard analysis.repeatsAnotherFile(id) else { return analysis }
    if let cached = copyAnalyses[id], cached.generation == analysis.generation, cached.year == analysis.year {
      return cached
    }
    if copyAnalyses.count >= 8 { copyAnalyses.removeAll() }
    let trees = analysis.program.trees
    let library = trees.filter { workspace.isLibrary($0.source.id) }
    let own = trees.filter { $0.source.id == id }
    let others = trees.filter { !workspace.isLibrary($0.source.id) && $0.source.id != id }
    let first = Analysis(
      program: Checker.check(library + own + others), generation: analysis.generation, year: analysis.year, testFiles: [])
    copyAnalyses[id] = first
    return first
  }

  /// The last analysis even if the workspace moved on since, for queries that read the current text themselves and
  /// only need the declarations (completion, signature help): they answer at once while the analyzer checks.
  func recentAnalysis() -> Analysis { analyzer?.latestAnalysis ?? analysis() }

  /// The document a request names, with its current text; nil for a URI the server does not know.
  func document(_ identifier: LSP.TextDocumentIdentifier) -> (FileID, LineMap)? {
    guard let id = workspace.id(for: identifier.uri), let source = lineMap(id) else { return nil }
    return (id, source)
  }

  /// The protocol line table of a source's current text, kept until the workspace changes.
  func lineMap(_ id: FileID) -> LineMap? {
    if let cached = lineMaps[id], cached.generation == workspace.generation { return cached.map }
    guard let source = workspace.sourceFile(id) else { return nil }
    let map = LineMap(source)
    lineMaps[id] = (workspace.generation, map)
    return map
  }
}
