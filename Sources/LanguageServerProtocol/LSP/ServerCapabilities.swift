extension LSP {
  /// What the server can do, answered in `initialize`. Build it by starting from an empty value and setting the
  /// features the server implements; everything left nil is omitted, which tells the client "not supported".
  ///
  /// ```swift
  /// var capabilities = LSP.ServerCapabilities()
  /// capabilities.textDocumentSync = .init(openClose: true, change: .incremental)
  /// capabilities.hoverProvider = true
  /// capabilities.completionProvider = .init(triggerCharacters: ["."])
  /// ```
  ///
  /// Providers the specification types as `boolean | Options` are `Bool?` when the options carry nothing a
  /// server needs, and an options struct otherwise (an options object means "enabled"). Decoding accepts both
  /// shapes either way.
  public struct ServerCapabilities: Equatable, Sendable, JSONConvertible {
    public var positionEncoding: PositionEncodingKind?
    public var textDocumentSync: TextDocumentSyncOptions?
    public var completionProvider: CompletionOptions?
    public var hoverProvider: Bool?
    public var signatureHelpProvider: SignatureHelpOptions?
    public var declarationProvider: Bool?
    public var definitionProvider: Bool?
    public var typeDefinitionProvider: Bool?
    public var implementationProvider: Bool?
    public var referencesProvider: Bool?
    public var documentHighlightProvider: Bool?
    public var documentSymbolProvider: Bool?
    public var codeActionProvider: CodeActionOptions?
    public var codeLensProvider: CodeLensOptions?
    public var documentFormattingProvider: Bool?
    public var documentRangeFormattingProvider: Bool?
    public var documentOnTypeFormattingProvider: DocumentOnTypeFormattingOptions?
    public var renameProvider: RenameOptions?
    public var foldingRangeProvider: Bool?
    public var executeCommandProvider: ExecuteCommandOptions?
    public var selectionRangeProvider: Bool?
    public var semanticTokensProvider: SemanticTokensOptions?
    public var inlayHintProvider: InlayHintOptions?
    public var diagnosticProvider: DiagnosticOptions?
    public var workspaceSymbolProvider: Bool?
    public var workspace: WorkspaceServerCapabilities?
    public var experimental: JSON?
    /// Capabilities this type does not model (e.g. `documentLinkProvider`), written into the object as given.
    /// They override modeled fields of the same name.
    public var additional: JSONObject

    public init() {
      additional = JSONObject()
    }

    /// Computed rather than stored because key paths are not `Sendable`; it is only read while decoding.
    private static var booleanProviders: [(String, WritableKeyPath<ServerCapabilities, Bool?>)] {
      [
        ("hoverProvider", \.hoverProvider),
        ("declarationProvider", \.declarationProvider),
        ("definitionProvider", \.definitionProvider),
        ("typeDefinitionProvider", \.typeDefinitionProvider),
        ("implementationProvider", \.implementationProvider),
        ("referencesProvider", \.referencesProvider),
        ("documentHighlightProvider", \.documentHighlightProvider),
        ("documentSymbolProvider", \.documentSymbolProvider),
        ("documentFormattingProvider", \.documentFormattingProvider),
        ("documentRangeFormattingProvider", \.documentRangeFormattingProvider),
        ("foldingRangeProvider", \.foldingRangeProvider),
        ("selectionRangeProvider", \.selectionRangeProvider),
        ("workspaceSymbolProvider", \.workspaceSymbolProvider),
      ]
    }

    private static let modeledKeys: Set<String> = Set(booleanProviders.map(\.0)).union([
      "positionEncoding", "textDocumentSync", "completionProvider", "signatureHelpProvider", "codeActionProvider",
      "codeLensProvider", "documentOnTypeFormattingProvider", "renameProvider", "executeCommandProvider",
      "semanticTokensProvider", "inlayHintProvider", "diagnosticProvider", "workspace", "experimental",
    ])

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "ServerCapabilities")
      self.init()
      positionEncoding = try fields.decodeIfPresent("positionEncoding")
      textDocumentSync = try fields.decodeIfPresent("textDocumentSync")
      completionProvider = try fields.decodeOptions("completionProvider")
      signatureHelpProvider = try fields.decodeOptions("signatureHelpProvider")
      codeActionProvider = try fields.decodeOptions("codeActionProvider")
      codeLensProvider = try fields.decodeOptions("codeLensProvider")
      documentOnTypeFormattingProvider = try fields.decodeIfPresent("documentOnTypeFormattingProvider")
      renameProvider = try fields.decodeOptions("renameProvider")
      executeCommandProvider = try fields.decodeIfPresent("executeCommandProvider")
      semanticTokensProvider = try fields.decodeIfPresent("semanticTokensProvider")
      inlayHintProvider = try fields.decodeOptions("inlayHintProvider")
      diagnosticProvider = try fields.decodeIfPresent("diagnosticProvider")
      workspace = try fields.decodeIfPresent("workspace")
      experimental = fields.raw("experimental")
      for (key, path) in Self.booleanProviders { self[keyPath: path] = try fields.decodeFlag(key) }
      for (key, value) in fields.object.members where !Self.modeledKeys.contains(key) { additional[key] = value }
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("positionEncoding", ifPresent: positionEncoding)
      object.put("textDocumentSync", ifPresent: textDocumentSync)
      object.put("completionProvider", ifPresent: completionProvider)
      object.put("hoverProvider", ifPresent: hoverProvider)
      object.put("signatureHelpProvider", ifPresent: signatureHelpProvider)
      object.put("declarationProvider", ifPresent: declarationProvider)
      object.put("definitionProvider", ifPresent: definitionProvider)
      object.put("typeDefinitionProvider", ifPresent: typeDefinitionProvider)
      object.put("implementationProvider", ifPresent: implementationProvider)
      object.put("referencesProvider", ifPresent: referencesProvider)
      object.put("documentHighlightProvider", ifPresent: documentHighlightProvider)
      object.put("documentSymbolProvider", ifPresent: documentSymbolProvider)
      object.put("codeActionProvider", ifPresent: codeActionProvider)
      object.put("codeLensProvider", ifPresent: codeLensProvider)
      object.put("documentFormattingProvider", ifPresent: documentFormattingProvider)
      object.put("documentRangeFormattingProvider", ifPresent: documentRangeFormattingProvider)
      object.put("documentOnTypeFormattingProvider", ifPresent: documentOnTypeFormattingProvider)
      object.put("renameProvider", ifPresent: renameProvider)
      object.put("foldingRangeProvider", ifPresent: foldingRangeProvider)
      object.put("executeCommandProvider", ifPresent: executeCommandProvider)
      object.put("selectionRangeProvider", ifPresent: selectionRangeProvider)
      object.put("semanticTokensProvider", ifPresent: semanticTokensProvider)
      object.put("inlayHintProvider", ifPresent: inlayHintProvider)
      object.put("diagnosticProvider", ifPresent: diagnosticProvider)
      object.put("workspaceSymbolProvider", ifPresent: workspaceSymbolProvider)
      object.put("workspace", ifPresent: workspace)
      object.put("experimental", ifPresent: experimental)
      for (key, value) in additional.members { object[key] = value }
      return .object(object)
    }
  }

  /// `textDocumentSync`: which document notifications the server wants. A bare `TextDocumentSyncKind` number
  /// (the older shape) decodes as open/close plus that change kind.
  public struct TextDocumentSyncOptions: Hashable, Sendable, JSONConvertible {
    public var openClose: Bool?
    public var change: TextDocumentSyncKind?
    public var willSave: Bool?
    public var willSaveWaitUntil: Bool?
    public var save: SaveOptions?

    public init(
      openClose: Bool? = nil, change: TextDocumentSyncKind? = nil, willSave: Bool? = nil,
      willSaveWaitUntil: Bool? = nil, save: SaveOptions? = nil
    ) {
      self.openClose = openClose
      self.change = change
      self.willSave = willSave
      self.willSaveWaitUntil = willSaveWaitUntil
      self.save = save
    }

    public init(json: JSON) throws(JSONDecodingError) {
      if let kind = json.intValue {
        self.init(openClose: true, change: TextDocumentSyncKind(rawValue: kind))
        return
      }
      let fields = try JSONFields(json, "TextDocumentSyncOptions")
      self.init(
        openClose: try fields.decodeIfPresent("openClose"),
        change: try fields.decodeIfPresent("change"),
        willSave: try fields.decodeIfPresent("willSave"),
        willSaveWaitUntil: try fields.decodeIfPresent("willSaveWaitUntil"),
        save: try fields.decodeOptions("save"))
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("openClose", ifPresent: openClose)
      object.put("change", ifPresent: change)
      object.put("willSave", ifPresent: willSave)
      object.put("willSaveWaitUntil", ifPresent: willSaveWaitUntil)
      object.put("save", ifPresent: save)
      return .object(object)
    }
  }

  /// `didSave` options: whether the notification should carry the saved text.
  public struct SaveOptions: Hashable, Sendable, JSONConvertible {
    public var includeText: Bool?

    public init(includeText: Bool? = nil) { self.includeText = includeText }

    public init(json: JSON) throws(JSONDecodingError) {
      includeText = try JSONFields(json, "SaveOptions").decodeIfPresent("includeText")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("includeText", ifPresent: includeText)
      return .object(object)
    }
  }

  /// `completionProvider`: when completion triggers and whether items are resolved lazily.
  public struct CompletionOptions: Hashable, Sendable, JSONConvertible {
    /// Characters that open completion without an explicit invocation, e.g. `.`.
    public var triggerCharacters: [String]?
    public var allCommitCharacters: [String]?
    /// Whether `completionItem/resolve` fills in expensive fields (documentation) lazily.
    public var resolveProvider: Bool?
    /// `completionItem.labelDetailsSupport`: the server sends `labelDetails`.
    public var labelDetailsSupport: Bool?

    public init(
      triggerCharacters: [String]? = nil, allCommitCharacters: [String]? = nil, resolveProvider: Bool? = nil,
      labelDetailsSupport: Bool? = nil
    ) {
      self.triggerCharacters = triggerCharacters
      self.allCommitCharacters = allCommitCharacters
      self.resolveProvider = resolveProvider
      self.labelDetailsSupport = labelDetailsSupport
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CompletionOptions")
      triggerCharacters = try fields.decodeIfPresent("triggerCharacters")
      allCommitCharacters = try fields.decodeIfPresent("allCommitCharacters")
      resolveProvider = try fields.decodeIfPresent("resolveProvider")
      labelDetailsSupport = try fields["completionItem"].flatMap { item throws(JSONDecodingError) in
        try JSONFields(item, "completionItem").decodeIfPresent("labelDetailsSupport")
      }
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("triggerCharacters", ifPresent: triggerCharacters)
      object.put("allCommitCharacters", ifPresent: allCommitCharacters)
      object.put("resolveProvider", ifPresent: resolveProvider)
      if let labelDetailsSupport { object["completionItem"] = ["labelDetailsSupport": .bool(labelDetailsSupport)] }
      return .object(object)
    }
  }

  /// `signatureHelpProvider`: which typed characters open or update signature help.
  public struct SignatureHelpOptions: Hashable, Sendable, JSONConvertible {
    /// Characters that open signature help, e.g. `(` and `,`.
    public var triggerCharacters: [String]?
    /// Characters that update help already showing, e.g. `,`.
    public var retriggerCharacters: [String]?

    public init(triggerCharacters: [String]? = nil, retriggerCharacters: [String]? = nil) {
      self.triggerCharacters = triggerCharacters
      self.retriggerCharacters = retriggerCharacters
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SignatureHelpOptions")
      triggerCharacters = try fields.decodeIfPresent("triggerCharacters")
      retriggerCharacters = try fields.decodeIfPresent("retriggerCharacters")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("triggerCharacters", ifPresent: triggerCharacters)
      object.put("retriggerCharacters", ifPresent: retriggerCharacters)
      return .object(object)
    }
  }

  /// `codeActionProvider`: the kinds offered and whether actions are resolved lazily.
  public struct CodeActionOptions: Hashable, Sendable, JSONConvertible {
    /// Lets the client skip asking for kinds the server never produces.
    public var codeActionKinds: [CodeActionKind]?
    public var resolveProvider: Bool?

    public init(codeActionKinds: [CodeActionKind]? = nil, resolveProvider: Bool? = nil) {
      self.codeActionKinds = codeActionKinds
      self.resolveProvider = resolveProvider
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CodeActionOptions")
      codeActionKinds = try fields.decodeIfPresent("codeActionKinds")
      resolveProvider = try fields.decodeIfPresent("resolveProvider")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("codeActionKinds", ifPresent: codeActionKinds)
      object.put("resolveProvider", ifPresent: resolveProvider)
      return .object(object)
    }
  }

  /// Shared shape of `codeLensProvider` and `inlayHintProvider`: only a resolve flag.
  public struct ResolveOptions: Hashable, Sendable, JSONConvertible {
    public var resolveProvider: Bool?

    public init(resolveProvider: Bool? = nil) { self.resolveProvider = resolveProvider }

    public init(json: JSON) throws(JSONDecodingError) {
      resolveProvider = try JSONFields(json, "options").decodeIfPresent("resolveProvider")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("resolveProvider", ifPresent: resolveProvider)
      return .object(object)
    }
  }

  /// `codeLensProvider`.
  public typealias CodeLensOptions = ResolveOptions
  /// `inlayHintProvider`.
  public typealias InlayHintOptions = ResolveOptions

  /// `documentOnTypeFormattingProvider`: the characters after which the client asks for formatting.
  public struct DocumentOnTypeFormattingOptions: Hashable, Sendable, JSONConvertible {
    public var firstTriggerCharacter: String
    public var moreTriggerCharacter: [String]?

    public init(firstTriggerCharacter: String, moreTriggerCharacter: [String]? = nil) {
      self.firstTriggerCharacter = firstTriggerCharacter
      self.moreTriggerCharacter = moreTriggerCharacter
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentOnTypeFormattingOptions")
      firstTriggerCharacter = try fields.decode("firstTriggerCharacter")
      moreTriggerCharacter = try fields.decodeIfPresent("moreTriggerCharacter")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("firstTriggerCharacter", firstTriggerCharacter)
      object.put("moreTriggerCharacter", ifPresent: moreTriggerCharacter)
      return .object(object)
    }
  }

  /// `renameProvider`.
  public struct RenameOptions: Hashable, Sendable, JSONConvertible {
    /// Whether the server answers `textDocument/prepareRename`, letting the client refuse early.
    public var prepareProvider: Bool?

    public init(prepareProvider: Bool? = nil) { self.prepareProvider = prepareProvider }

    public init(json: JSON) throws(JSONDecodingError) {
      prepareProvider = try JSONFields(json, "RenameOptions").decodeIfPresent("prepareProvider")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("prepareProvider", ifPresent: prepareProvider)
      return .object(object)
    }
  }

  /// `executeCommandProvider`: clients refuse to run commands the server did not list here.
  public struct ExecuteCommandOptions: Hashable, Sendable, JSONConvertible {
    /// Every command the server's code actions and lenses may ask the client to run.
    public var commands: [String]

    public init(commands: [String]) { self.commands = commands }

    public init(json: JSON) throws(JSONDecodingError) {
      commands = try JSONFields(json, "ExecuteCommandOptions").decode("commands")
    }

    public func toJSON() -> JSON { ["commands": commands.toJSON()] }
  }

  /// `semanticTokensProvider`: the legend plus which token requests are served.
  public struct SemanticTokensOptions: Hashable, Sendable, JSONConvertible {
    public var legend: SemanticTokensLegend
    /// Whether `textDocument/semanticTokens/range` is served.
    public var range: Bool?
    /// Whether `textDocument/semanticTokens/full` is served.
    public var full: Bool?
    /// Whether `full/delta` is served too; written as `"full": {"delta": true}`.
    public var fullDelta: Bool?

    public init(legend: SemanticTokensLegend, range: Bool? = nil, full: Bool? = true, fullDelta: Bool? = nil) {
      self.legend = legend
      self.range = range
      self.full = full
      self.fullDelta = fullDelta
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SemanticTokensOptions")
      legend = try fields.decode("legend")
      range = try fields.decodeFlag("range")
      switch fields["full"] {
      case .object(let options)?:
        full = true
        fullDelta = try JSONFields(.object(options), "full").decodeIfPresent("delta")
      default:
        full = try fields.decodeFlag("full")
        fullDelta = nil
      }
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("legend", legend)
      object.put("range", ifPresent: range)
      if let fullDelta {
        object["full"] = ["delta": .bool(fullDelta)]
      } else {
        object.put("full", ifPresent: full)
      }
      return .object(object)
    }
  }

  /// Pull-diagnostics support (`textDocument/diagnostic`).
  public struct DiagnosticOptions: Hashable, Sendable, JSONConvertible {
    public var identifier: String?
    /// Whether editing one file can change another file's diagnostics, so the client re-pulls open files.
    public var interFileDependencies: Bool
    public var workspaceDiagnostics: Bool

    public init(identifier: String? = nil, interFileDependencies: Bool, workspaceDiagnostics: Bool) {
      self.identifier = identifier
      self.interFileDependencies = interFileDependencies
      self.workspaceDiagnostics = workspaceDiagnostics
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DiagnosticOptions")
      identifier = try fields.decodeIfPresent("identifier")
      interFileDependencies = try fields.decode("interFileDependencies")
      workspaceDiagnostics = try fields.decode("workspaceDiagnostics")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("identifier", ifPresent: identifier)
      object.put("interFileDependencies", interFileDependencies)
      object.put("workspaceDiagnostics", workspaceDiagnostics)
      return .object(object)
    }
  }

  /// `workspace` server capabilities: multi-root support.
  public struct WorkspaceServerCapabilities: Hashable, Sendable, JSONConvertible {
    /// `workspaceFolders.supported`.
    public var workspaceFoldersSupported: Bool?
    /// `workspaceFolders.changeNotifications`: true asks the client to send `didChangeWorkspaceFolders`.
    /// (The specification also allows a registration id string, which decodes as true.)
    public var workspaceFoldersChangeNotifications: Bool?

    public init(workspaceFoldersSupported: Bool? = nil, workspaceFoldersChangeNotifications: Bool? = nil) {
      self.workspaceFoldersSupported = workspaceFoldersSupported
      self.workspaceFoldersChangeNotifications = workspaceFoldersChangeNotifications
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "workspace")
      guard let foldersJSON = fields.raw("workspaceFolders") else { return }
      let folders = try JSONFields(foldersJSON, "workspaceFolders")
      do throws(JSONDecodingError) {
        workspaceFoldersSupported = try folders.decodeIfPresent("supported")
        if case .string? = folders["changeNotifications"] {
          workspaceFoldersChangeNotifications = true
        } else {
          workspaceFoldersChangeNotifications = try folders.decodeIfPresent("changeNotifications")
        }
      } catch {
        throw error.prefixed(with: .key("workspaceFolders"))
      }
    }

    public func toJSON() -> JSON {
      var folders = JSONObject()
      folders.put("supported", ifPresent: workspaceFoldersSupported)
      folders.put("changeNotifications", ifPresent: workspaceFoldersChangeNotifications)
      var object = JSONObject()
      if !folders.isEmpty { object["workspaceFolders"] = .object(folders) }
      return .object(object)
    }
  }
}

extension JSONFields {
  /// Reads a `boolean | Options` field as options: `false`, `null` or absence mean "not provided", `true` means
  /// the default options.
  public func decodeOptions<T: JSONDecodable>(_ key: String, as type: T.Type = T.self) throws(JSONDecodingError) -> T? {
    switch object[key] {
    case nil, .null?, .bool(false)?:
      return nil
    case .bool(true)?:
      do throws(JSONDecodingError) {
        return try T(json: .object(JSONObject()))
      } catch {
        throw error.prefixed(with: .key(key))
      }
    default:
      return try decodeIfPresent(key, as: type)
    }
  }

  /// Reads a `boolean | Options` field as a flag: an options object means "provided".
  public func decodeFlag(_ key: String) throws(JSONDecodingError) -> Bool? {
    switch object[key] {
    case nil, .null?: return nil
    case .bool(let flag)?: return flag
    case .object?: return true
    case let other?: throw JSONDecodingError.typeMismatch(expected: "boolean or object", found: other).prefixed(with: .key(key))
    }
  }
}
