/// The options a server announces its requests with in the `initialize` result (`MessageTable.on(_:options:_:)`).
extension LSP {
  /// Which unit `Position.character` counts. Only UTF-16 is mandatory.
  public struct PositionEncodingKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let utf16 = PositionEncodingKind(rawValue: "utf-16")
  }

  /// How the client sends document changes.
  public struct TextDocumentSyncKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Changes carry ranges and replacement text.
    public static let incremental = TextDocumentSyncKind(rawValue: 2)
  }

  /// `textDocumentSync`: which document notifications the server wants.
  public struct TextDocumentSyncOptions: Hashable, Sendable, Codable {
    public var openClose: Bool?
    public var change: TextDocumentSyncKind?

    public init(openClose: Bool? = nil, change: TextDocumentSyncKind? = nil) {
      self.openClose = openClose
      self.change = change
    }
  }

  /// `completionProvider`: when completion triggers and whether items are resolved lazily.
  public struct CompletionOptions: Hashable, Sendable, Codable {
    /// Characters that open completion without an explicit invocation, e.g. `.`.
    public var triggerCharacters: [String]?
    /// Whether `completionItem/resolve` fills in expensive fields (documentation) lazily.
    public var resolveProvider: Bool?

    public init(triggerCharacters: [String]? = nil, resolveProvider: Bool? = nil) {
      self.triggerCharacters = triggerCharacters
      self.resolveProvider = resolveProvider
    }
  }

  /// `signatureHelpProvider`: which typed characters open or update signature help.
  public struct SignatureHelpOptions: Hashable, Sendable, Codable {
    /// Characters that open signature help, e.g. `(` and `,`.
    public var triggerCharacters: [String]?
    /// Characters that update help already showing, e.g. `,`.
    public var retriggerCharacters: [String]?

    public init(triggerCharacters: [String]? = nil, retriggerCharacters: [String]? = nil) {
      self.triggerCharacters = triggerCharacters
      self.retriggerCharacters = retriggerCharacters
    }
  }

  /// `codeActionProvider`: the kinds offered.
  public struct CodeActionOptions: Hashable, Sendable, Codable {
    /// Lets the client skip asking for kinds the server never produces.
    public var codeActionKinds: [CodeActionKind]?

    public init(codeActionKinds: [CodeActionKind]? = nil) { self.codeActionKinds = codeActionKinds }
  }

  /// `codeLensProvider` and `inlayHintProvider`: only a resolve flag.
  public struct ResolveOptions: Hashable, Sendable, Codable {
    public var resolveProvider: Bool?

    public init(resolveProvider: Bool? = nil) { self.resolveProvider = resolveProvider }
  }

  /// `renameProvider`.
  public struct RenameOptions: Hashable, Sendable, Codable {
    /// Whether the server answers `textDocument/prepareRename`, letting the client refuse early.
    public var prepareProvider: Bool?

    public init(prepareProvider: Bool? = nil) { self.prepareProvider = prepareProvider }
  }

  /// `executeCommandProvider`: clients refuse to run commands the server did not list here.
  public struct ExecuteCommandOptions: Hashable, Sendable, Codable {
    /// Every command the server's code actions and lenses may ask the client to run.
    public var commands: [String]

    public init(commands: [String]) { self.commands = commands }
  }

  /// `semanticTokensProvider`: the legend plus which token requests are served.
  public struct SemanticTokensOptions: Hashable, Sendable, Codable {
    public var legend: SemanticTokensLegend
    /// Whether `textDocument/semanticTokens/full` is served.
    public var full: Bool?

    public init(legend: SemanticTokensLegend, full: Bool? = true) {
      self.legend = legend
      self.full = full
    }
  }

  /// Pull-diagnostics support (`textDocument/diagnostic`).
  public struct DiagnosticOptions: Hashable, Sendable, Codable {
    public var identifier: String?
    /// Whether editing one file can change another file's diagnostics, so the client re-pulls open files.
    public var interFileDependencies: Bool
    public var workspaceDiagnostics: Bool

    public init(identifier: String? = nil, interFileDependencies: Bool, workspaceDiagnostics: Bool) {
      self.identifier = identifier
      self.interFileDependencies = interFileDependencies
      self.workspaceDiagnostics = workspaceDiagnostics
    }
  }
}
