extension LSP {
  /// `initialize`: the first request. A server reads the workspace roots, its settings and the client's capabilities.
  ///
  /// Decoded leniently (`LenientDecodable`): a field of the wrong kind anywhere in it reads as absent, because a
  /// client's odd capability or option should cost that one feature, not the session.
  public struct InitializeRequest: RequestType, LenientDecodable, Equatable {
    public static let method = "initialize"
    public typealias Response = InitializeResult

    /// Deprecated in favour of `rootUri`, which is deprecated in favour of `workspaceFolders`; all three are
    /// read because clients still differ in which they send.
    public var rootPath: String?
    public var rootUri: DocumentURI?
    public var initializationOptions: JSON?
    /// Absent is read as "no capabilities".
    public var capabilities: ClientCapabilities?
    public var workspaceFolders: [WorkspaceFolder]?

    /// The workspace roots in order of preference: the folders if any, else `rootUri`, else `rootPath`.
    public var workspaceRoots: [DocumentURI] {
      if let workspaceFolders, !workspaceFolders.isEmpty { return workspaceFolders.map(\.uri) }
      if let rootUri { return [rootUri] }
      if let rootPath { return [DocumentURI(filePath: rootPath)] }
      return []
    }
  }

  /// A root of the workspace; multi-root editors send several.
  public struct WorkspaceFolder: Hashable, Sendable, Codable {
    public var uri: DocumentURI
    public var name: String
  }

  /// The result of `initialize`: what the server does (the capabilities its `MessageTable` announces) and who it is.
  public struct InitializeResult: Equatable, Sendable, Codable {
    public var capabilities: JSON
    public var serverInfo: ServerInfo?

    public init(capabilities: JSON, serverInfo: ServerInfo? = nil) {
      self.capabilities = capabilities
      self.serverInfo = serverInfo
    }
  }

  /// `serverInfo` of the `initialize` result.
  public struct ServerInfo: Hashable, Sendable, Codable {
    public var name: String
    public var version: String?

    public init(name: String, version: String? = nil) {
      self.name = name
      self.version = version
    }
  }

  /// `initialized`: the client has taken the `initialize` result; the server may now send requests of its own.
  public struct InitializedNotification: NotificationType, Equatable {
    public static let method = "initialized"
  }

  /// `shutdown`: the server stops answering, and exits with 0 on the `exit` that follows.
  public struct ShutdownRequest: RequestType, Equatable {
    public static let method = "shutdown"
    public typealias Response = VoidResponse
  }

  /// `exit`: the server's process ends.
  public struct ExitNotification: NotificationType, Equatable {
    public static let method = "exit"
  }

  /// The parts of the client's capabilities a server of this project consults, decoded once at `initialize`. The
  /// rest of the (large, growing) tree is ignored.
  public struct ClientCapabilities: Equatable, Sendable, Codable, LenientDecodable {
    public var workspace: Workspace?
    public var textDocument: TextDocument?

    /// No capabilities: what a client that sends none can do.
    public init() {}

    public struct Workspace: Equatable, Sendable, Codable {
      /// Whether `WorkspaceEdit.documentChanges` (edits pinned to document versions) is understood.
      public var workspaceEdit: WorkspaceEditCapabilities?
      public var didChangeWatchedFiles: DynamicRegistration?
      /// Whether the server may ask the client to pull these again.
      public var inlayHint: Refresh?
      public var codeLens: Refresh?
      public var diagnostics: Refresh?
    }

    public struct TextDocument: Equatable, Sendable, Codable {
      public var completion: Completion?
      public var hover: Hover?
      public var signatureHelp: SignatureHelp?
      /// Present when the client pulls diagnostics (`textDocument/diagnostic`).
      public var diagnostic: Diagnostic?
    }

    public struct WorkspaceEditCapabilities: Equatable, Sendable, Codable {
      public var documentChanges: Bool?
    }

    public struct DynamicRegistration: Equatable, Sendable, Codable {
      public var dynamicRegistration: Bool?
    }

    public struct Refresh: Equatable, Sendable, Codable {
      public var refreshSupport: Bool?
    }

    public struct Completion: Equatable, Sendable, Codable {
      public var completionItem: CompletionItem?
    }

    public struct CompletionItem: Equatable, Sendable, Codable {
      /// The formats of `CompletionItem.documentation` the client shows, preferred first; absent: a bare string.
      public var documentationFormat: [MarkupKind]?
    }

    public struct Hover: Equatable, Sendable, Codable {
      /// The formats of hover contents the client shows, preferred first; absent: plain text.
      public var contentFormat: [MarkupKind]?
    }

    public struct SignatureHelp: Equatable, Sendable, Codable {
      public var signatureInformation: SignatureInformation?
    }

    public struct SignatureInformation: Equatable, Sendable, Codable {
      public var documentationFormat: [MarkupKind]?
    }

    public struct Diagnostic: Equatable, Sendable, Codable {
      /// Whether a report may carry the reports of other documents (`relatedDocuments`).
      public var relatedDocumentSupport: Bool?
    }
  }
}
