extension LSP {
  /// Method names as constants, so a dispatch `switch` cannot silently miss a request over a typo. Each
  /// comment names the params type and the result type this module offers for it.
  public enum Method {
    // MARK: Lifecycle

    /// `InitializeParams` → `InitializeResult`.
    public static let initialize = "initialize"
    /// Notification, params `{}`.
    public static let initialized = "initialized"
    /// No params → `null`.
    public static let shutdown = "shutdown"
    /// Notification, no params.
    public static let exit = "exit"
    /// Notification, `CancelParams`; consumed by `Connection`.
    public static let cancelRequest = "$/cancelRequest"
    /// Notification, `{value}`; sent by clients when the trace setting changes.
    public static let setTrace = "$/setTrace"

    // MARK: Document synchronization (notifications)

    /// `DidOpenTextDocumentParams`.
    public static let didOpen = "textDocument/didOpen"
    /// `DidChangeTextDocumentParams`.
    public static let didChange = "textDocument/didChange"
    /// `DidCloseTextDocumentParams`.
    public static let didClose = "textDocument/didClose"
    /// `DidSaveTextDocumentParams`.
    public static let didSave = "textDocument/didSave"

    // MARK: Language features (requests)

    /// `CompletionParams` → `[CompletionItem]`, `CompletionList` or `null`.
    public static let completion = "textDocument/completion"
    /// `CompletionItem` → `CompletionItem`.
    public static let completionItemResolve = "completionItem/resolve"
    /// `TextDocumentPositionParams` → `Hover` or `null`.
    public static let hover = "textDocument/hover"
    /// `SignatureHelpParams` → `SignatureHelp` or `null`.
    public static let signatureHelp = "textDocument/signatureHelp"
    /// `TextDocumentPositionParams` → `Location`, `[Location]`, `[LocationLink]` or `null`.
    public static let definition = "textDocument/definition"
    /// As `definition`.
    public static let declaration = "textDocument/declaration"
    /// As `definition`.
    public static let typeDefinition = "textDocument/typeDefinition"
    /// As `definition`.
    public static let implementation = "textDocument/implementation"
    /// `ReferenceParams` → `[Location]` or `null`.
    public static let references = "textDocument/references"
    /// `TextDocumentPositionParams` → `[DocumentHighlight]` or `null`.
    public static let documentHighlight = "textDocument/documentHighlight"
    /// `TextDocumentParams` → `[DocumentSymbol]`, `[SymbolInformation]` or `null`.
    public static let documentSymbol = "textDocument/documentSymbol"
    /// `WorkspaceSymbolParams` → `[WorkspaceSymbol]`, `[SymbolInformation]` or `null`.
    public static let workspaceSymbol = "workspace/symbol"
    /// `CodeActionParams` → `[CodeAction]` (or `Command`s) or `null`.
    public static let codeAction = "textDocument/codeAction"
    /// `CodeAction` → `CodeAction`.
    public static let codeActionResolve = "codeAction/resolve"
    /// `TextDocumentParams` → `[CodeLens]` or `null`.
    public static let codeLens = "textDocument/codeLens"
    /// `CodeLens` → `CodeLens`.
    public static let codeLensResolve = "codeLens/resolve"
    /// `DocumentFormattingParams` → `[TextEdit]` or `null`.
    public static let formatting = "textDocument/formatting"
    /// `DocumentRangeFormattingParams` → `[TextEdit]` or `null`.
    public static let rangeFormatting = "textDocument/rangeFormatting"
    /// `DocumentOnTypeFormattingParams` → `[TextEdit]` or `null`.
    public static let onTypeFormatting = "textDocument/onTypeFormatting"
    /// `RenameParams` → `WorkspaceEdit` or `null`.
    public static let rename = "textDocument/rename"
    /// `TextDocumentPositionParams` → `PrepareRenameResult` or `null`.
    public static let prepareRename = "textDocument/prepareRename"
    /// `TextDocumentParams` → `[FoldingRange]` or `null`.
    public static let foldingRange = "textDocument/foldingRange"
    /// `SelectionRangeParams` → `[SelectionRange]` or `null`.
    public static let selectionRange = "textDocument/selectionRange"
    /// `TextDocumentParams` → `SemanticTokens` or `null`.
    public static let semanticTokensFull = "textDocument/semanticTokens/full"
    /// `SemanticTokensRangeParams` → `SemanticTokens` or `null`.
    public static let semanticTokensRange = "textDocument/semanticTokens/range"
    /// `InlayHintParams` → `[InlayHint]` or `null`.
    public static let inlayHint = "textDocument/inlayHint"
    /// `InlayHint` → `InlayHint`.
    public static let inlayHintResolve = "inlayHint/resolve"
    /// `DocumentDiagnosticParams` → `RelatedDocumentDiagnosticReport`.
    public static let documentDiagnostic = "textDocument/diagnostic"
    /// `ExecuteCommandParams` → any JSON or `null`.
    public static let executeCommand = "workspace/executeCommand"

    // MARK: Workspace (notifications from the client)

    /// `DidChangeWatchedFilesParams`.
    public static let didChangeWatchedFiles = "workspace/didChangeWatchedFiles"
    /// `DidChangeConfigurationParams`.
    public static let didChangeConfiguration = "workspace/didChangeConfiguration"
    /// `DidChangeWorkspaceFoldersParams`.
    public static let didChangeWorkspaceFolders = "workspace/didChangeWorkspaceFolders"

    // MARK: Server to client

    /// Notification, `PublishDiagnosticsParams`.
    public static let publishDiagnostics = "textDocument/publishDiagnostics"
    /// Notification, `MessageParams`.
    public static let showMessage = "window/showMessage"
    /// Notification, `MessageParams`.
    public static let logMessage = "window/logMessage"
    /// Request, `ConfigurationParams` → `[JSON]`.
    public static let configuration = "workspace/configuration"
    /// Request, `ApplyWorkspaceEditParams` → `{applied, failureReason?}`.
    public static let applyEdit = "workspace/applyEdit"
    /// Request, no params → `null`; asks the client to re-pull semantic tokens.
    public static let semanticTokensRefresh = "workspace/semanticTokens/refresh"
    /// Request, no params → `null`; asks the client to re-pull inlay hints.
    public static let inlayHintRefresh = "workspace/inlayHint/refresh"
    /// Request, no params → `null`; asks the client to re-pull diagnostics.
    public static let diagnosticRefresh = "workspace/diagnostic/refresh"
    /// Request, no params → `null`; asks the client to re-pull code lenses.
    public static let codeLensRefresh = "workspace/codeLens/refresh"
  }
}
