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
  var clientCapabilities = LSP.InitializeParams()
  /// The client pulls diagnostics (`textDocument/diagnostic`), so the server does not push them as well.
  var usesPullDiagnostics = false
  var lineMaps: [FileID: (generation: Int, map: LineMap)] = [:]
  let log: @Sendable (String) -> Void
  /// `TAXPRO_LSP_TIMING=1` logs how long each re-check took, for profiling.
  let timing = ProcessInfo.processInfo.environment["TAXPRO_LSP_TIMING"] == "1"

  /// Why the standard library could not be loaded, shown to the user once the client is ready
  /// (`window/showMessage`), so that the false "unknown name" errors that follow are explained.
  let libraryProblem: String?

  /// `library` is the standard library (tests pass a smaller one); it is parsed once, here. `libraryProblem` says why
  /// it is missing, when it is.
  public init(
    library: [LibraryFile] = StandardLibrary.files(), libraryProblem: String? = nil,
    log: @escaping @Sendable (String) -> Void = Connection.logToStandardError
  ) {
    self.workspace = Workspace(library: library)
    self.libraryProblem = libraryProblem
    self.log = log
  }

  /// The exit status the specification asks for once the connection has ended.
  public var exitCode: Int32 { lifecycle.exitCode }

  /// Serves the protocol on standard input and output until `exit` or the end of input; returns the exit status.
  /// `year` (from `taxpro lsp --year`) is the tax year until the client's settings say otherwise.
  public static func runOnStandardIO(year: Int? = nil) -> Int32 {
    let connection = Connection.standardIO()
    let server: LanguageServer
    switch StandardLibrary.load() {
    case .success(let files):
      server = LanguageServer(library: files)
      // Go-to-definition into the library opens this read-only copy (the library itself is inside the binary).
      if case .failure(let problem) = StandardLibrary.writeReadOnlyCopy() {
        Connection.logToStandardError("taxpro lsp: \(problem.message); go-to-definition into the library will fail")
      }
    case .failure(let problem):
      server = LanguageServer(library: [], libraryProblem: "TaxPro: the standard library could not be loaded: \(problem.message)")
    }
    server.configuration.year = year
    connection.run(handler: server)
    return server.exitCode
  }

  // MARK: Dispatch

  /// Requests are refused before `initialize` and after `shutdown` by `ServerLifecycle`, then dispatched by method.
  public func handle(request: RequestMessage, context: RequestContext) throws -> JSON {
    try timed("request \(request.method)") { try dispatch(request: request, context: context) }
  }

  /// Runs `body`; with `TAXPRO_LSP_TIMING=1`, logs how long it took.
  func timed<Result>(_ what: @autoclosure () -> String, _ body: () throws -> Result) rethrows -> Result {
    guard timing else { return try body() }
    let clock = ContinuousClock()
    let start = clock.now
    defer { log("\(what()): \(clock.now - start)") }
    return try body()
  }

  func dispatch(request: RequestMessage, context: RequestContext) throws -> JSON {
    if connection == nil { connection = context.connection }
    if let refusal = lifecycle.admit(request: request.method) { throw refusal }
    let method = request.method
    switch method {
    case LSP.Method.initialize: return try initialize(request.decodeParams())
    case LSP.Method.shutdown: return .null
    case LSP.Method.completion: return try completion(request.decodeParams())
    case LSP.Method.hover: return try hover(request.decodeParams())
    case LSP.Method.definition: return try definition(request.decodeParams())
    case LSP.Method.references: return try references(request.decodeParams())
    case LSP.Method.documentHighlight: return try highlights(request.decodeParams())
    case LSP.Method.prepareRename: return try prepareRename(request.decodeParams())
    case LSP.Method.rename: return try rename(request.decodeParams())
    case LSP.Method.documentSymbol: return try documentSymbols(request.decodeParams())
    case LSP.Method.workspaceSymbol: return try workspaceSymbols(request.decodeParams())
    case LSP.Method.semanticTokensFull: return try semanticTokens(request.decodeParams())
    case LSP.Method.foldingRange: return try foldingRanges(request.decodeParams())
    case LSP.Method.selectionRange: return try selectionRanges(request.decodeParams())
    case LSP.Method.inlayHint: return try inlayHints(request.decodeParams(), context: context)
    case LSP.Method.codeLens: return try codeLenses(request.decodeParams())
    case LSP.Method.codeAction: return try codeActions(request.decodeParams())
    case LSP.Method.signatureHelp: return try signatureHelp(request.decodeParams())
    case LSP.Method.formatting: return try formatting(request.decodeParams())
    case LSP.Method.documentDiagnostic: return try pullDiagnostics(request.decodeParams())
    case LSP.Method.executeCommand: return try executeCommand(request.decodeParams(), connection: context.connection)
    default:
      throw ResponseError.methodNotFound(method)
    }
  }

  /// Document changes are applied at once; the re-check they cause runs on the analyzer thread.
  public func handle(notification: NotificationMessage, connection: Connection) throws {
    try timed("notification \(notification.method)") {
      try dispatch(notification: notification, connection: connection)
    }
  }

  func dispatch(notification: NotificationMessage, connection: Connection) throws {
    if self.connection == nil { self.connection = connection }
    guard lifecycle.admit(notification: notification.method) else { return }
    switch notification.method {
    case LSP.Method.exit:
      connection.stop()
    case LSP.Method.initialized:
      registerFileWatcher(connection)
      if let libraryProblem {
        connection.send(notification: LSP.Method.showMessage, params: LSP.MessageParams(type: .error, message: libraryProblem))
      }
    case LSP.Method.didOpen:
      let params: LSP.DidOpenTextDocumentParams = try notification.decodeParams()
      workspace.open(params.textDocument)
      scheduleCheck()
    case LSP.Method.didChange:
      let params: LSP.DidChangeTextDocumentParams = try notification.decodeParams()
      switch workspace.change(params) {
      case .applied: break
      case .unknownDocument:
        log("didChange for a document that is not open: \(params.textDocument.uri)")
        return
      case .staleVersion(let current):
        log("ignored didChange to version \(params.textDocument.version) of \(params.textDocument.uri), which is at \(current)")
        return
      }
      // A burst of typing: check once, after the last change of the burst.
      let uri = params.textDocument.uri.stringValue
      let moreComing = connection.hasQueuedNotification { queued in
        queued.method == LSP.Method.didChange && queued.params?["textDocument"]?["uri"]?.stringValue == uri
      }
      if !moreComing { scheduleCheck() }
    case LSP.Method.didClose:
      let params: LSP.DidCloseTextDocumentParams = try notification.decodeParams()
      workspace.close(params.textDocument.uri)
      scheduleCheck()
    case LSP.Method.didSave:
      break
    case LSP.Method.didChangeWatchedFiles:
      let params: LSP.DidChangeWatchedFilesParams = try notification.decodeParams()
      workspace.applyWatchedChanges(params.changes)
      scheduleCheck()
      refreshPulledDiagnostics(connection)
    case LSP.Method.didChangeConfiguration:
      let params: LSP.DidChangeConfigurationParams = try notification.decodeParams()
      let settings = params.settings["taxpro"] ?? params.settings
      let before = configuration
      apply(settings: settings, connection: connection)
      if configuration != before { configurationChanged(connection) }
    default:
      break
    }
  }

  // MARK: Lifecycle

  func initialize(_ params: LSP.InitializeParams) throws -> JSON {
    clientCapabilities = params
    if let options = params.initializationOptions { apply(settings: options, connection: nil) }
    usesPullDiagnostics = params.capability("textDocument", "diagnostic") != nil
    workspace.setRoots(params.workspaceRoots)
    return LSP.InitializeResult(
      capabilities: capabilities(), serverInfo: LSP.ProgramInfo(name: "taxpro", version: TaxPro.version)
    ).toJSON()
  }

  func capabilities() -> LSP.ServerCapabilities {
    var capabilities = LSP.ServerCapabilities()
    capabilities.positionEncoding = .utf16
    capabilities.textDocumentSync = LSP.TextDocumentSyncOptions(openClose: true, change: .incremental)
    capabilities.completionProvider = LSP.CompletionOptions(triggerCharacters: ["."], resolveProvider: false)
    capabilities.hoverProvider = true
    capabilities.signatureHelpProvider = LSP.SignatureHelpOptions(
      triggerCharacters: ["(", ","], retriggerCharacters: [","])
    capabilities.definitionProvider = true
    capabilities.referencesProvider = true
    capabilities.documentHighlightProvider = true
    capabilities.documentSymbolProvider = true
    capabilities.workspaceSymbolProvider = true
    capabilities.codeActionProvider = LSP.CodeActionOptions(codeActionKinds: [.quickFix])
    capabilities.codeLensProvider = LSP.CodeLensOptions(resolveProvider: false)
    capabilities.renameProvider = LSP.RenameOptions(prepareProvider: true)
    capabilities.documentFormattingProvider = true
    capabilities.foldingRangeProvider = true
    capabilities.selectionRangeProvider = true
    capabilities.executeCommandProvider = LSP.ExecuteCommandOptions(commands: LanguageServer.commands)
    capabilities.semanticTokensProvider = LSP.SemanticTokensOptions(legend: LanguageServer.legend, range: nil, full: true)
    capabilities.inlayHintProvider = LSP.InlayHintOptions(resolveProvider: false)
    if usesPullDiagnostics {
      capabilities.diagnosticProvider = LSP.DiagnosticOptions(
        identifier: "taxpro", interFileDependencies: true, workspaceDiagnostics: false)
    }
    return capabilities
  }

  /// Reads `{"year": 2025 | null, "inlayHints": true | false}`; absent keys keep their value.
  func apply(settings: JSON, connection: Connection?) {
    guard case .object(let object) = settings else { return }
    if let year = object["year"] {
      if year.isNull {
        configuration.year = nil
      } else if let value = year.intValue {
        configuration.year = value
        let known = workspace.libraryYears
        if !known.isEmpty, !known.contains(value), let connection = connection ?? self.connection {
          let years = known.sorted().map(String.init).joined(separator: ", ")
          connection.send(
            notification: LSP.Method.showMessage,
            params: LSP.MessageParams(
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

  func configurationChanged(_ connection: Connection) {
    scheduleCheck()
    refreshPulledDiagnostics(connection)
    if clientCapabilities.capability("workspace", "inlayHint", "refreshSupport")?.boolValue == true {
      connection.sendRequest(method: "workspace/inlayHint/refresh") { _ in }
    }
    if clientCapabilities.capability("workspace", "codeLens", "refreshSupport")?.boolValue == true {
      connection.sendRequest(method: "workspace/codeLens/refresh") { _ in }
    }
  }

  /// Asks the client to tell the server about `.tax` files changed outside the editor, when it can register that
  /// dynamically.
  func registerFileWatcher(_ connection: Connection) {
    guard clientCapabilities.capability("workspace", "didChangeWatchedFiles", "dynamicRegistration")?.boolValue == true
    else { return }
    let registration: JSON = [
      "registrations": [
        [
          "id": "taxpro-watched-files", "method": .string(LSP.Method.didChangeWatchedFiles),
          "registerOptions": ["watchers": [["globPattern": "**/*.tax"]]],
        ]
      ]
    ]
    connection.sendRequest(method: "client/registerCapability", params: registration) { [log] result in
      if case .failure(let error) = result { log("the client refused to watch .tax files: \(error)") }
    }
  }

  // MARK: Analysis

  /// The tax year queries use: the configured one when the program has figures for it, else the latest.
  var year: Int? { configuration.year }

  var analyzer: Analyzer? {
    if let analyzerStorage { return analyzerStorage }
    guard let connection else { return nil }
    let created = Analyzer(connection: connection, log: log, timing: timing)
    analyzerStorage = created
    return created
  }

  /// A snapshot of the workspace for the analyzer, with the documents whose diagnostics it should push.
  func job() -> Analyzer.Job {
    var targets: [Analyzer.Target]? = nil
    if !usesPullDiagnostics {
      targets = workspace.sources.values.filter { !workspace.isLibrary($0.id) || $0.isOpen }.sorted { $0.id < $1.id }
        .map { Analyzer.Target(id: $0.id, uri: $0.uri, version: $0.version, always: $0.isOpen) }
    }
    return Analyzer.Job(
      generation: workspace.generation, year: year, inputs: workspace.inputs(), testFiles: workspace.userFiles,
      uris: workspace.uris, targets: targets)
  }

  /// Re-checks the workspace in the background; the analyzer pushes the diagnostics.
  func scheduleCheck() {
    analyzer?.submit(job())
  }

  /// The analysis of the workspace as it is now, waiting for the analyzer if it is still checking.
  func analysis() -> Analysis {
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
    let result = analyzer.wait(for: key)
    workspace.adopt(result.program.trees, generation: result.generation)
    return result
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
