extension LSP {
  /// Hierarchical, dot-separated kinds: a client asking for `refactor` also wants `refactor.extract`.
  public struct CodeActionKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let quickFix = CodeActionKind(rawValue: "quickfix")

    /// Whether this kind is `other` or a sub-kind of it, the test `CodeActionContext.only` calls for.
    public func isSubkind(of other: CodeActionKind) -> Bool {
      other.rawValue.isEmpty || rawValue == other.rawValue || rawValue.hasPrefix(other.rawValue + ".")
    }
  }

  /// `textDocument/codeAction`: the actions for a range (often empty: the cursor).
  public struct CodeActionRequest: RequestType, Equatable {
    public static let method = "textDocument/codeAction"

    public static let capability: String? = "codeActionProvider"
    public typealias Response = [CodeAction]?

    public var textDocument: TextDocumentIdentifier
    public var range: Range
    public var context: CodeActionContext
  }

  /// What the client wants of the range.
  public struct CodeActionContext: Equatable, Sendable, Codable {
    /// The diagnostics the client shows in the range, as it has them: required, but not interpreted, since the
    /// server has its own.
    public var diagnostics: [JSON]
    /// Only actions of these kinds (or sub-kinds) are wanted.
    public var only: [CodeActionKind]?
  }

  /// A fix the client applies directly through its `edit`.
  public struct CodeAction: Equatable, Sendable, Codable {
    public var title: String
    public var kind: CodeActionKind?
    /// The diagnostics this action resolves.
    public var diagnostics: [Diagnostic]?
    /// Marks the action a "fix all"/auto-fix may apply without asking.
    public var isPreferred: Bool?
    public var edit: WorkspaceEdit?

    public init(
      title: String, kind: CodeActionKind? = nil, diagnostics: [Diagnostic]? = nil, isPreferred: Bool? = nil,
      edit: WorkspaceEdit? = nil
    ) {
      self.title = title
      self.kind = kind
      self.diagnostics = diagnostics
      self.isPreferred = isPreferred
      self.edit = edit
    }
  }

  /// `textDocument/codeLens`: the document's lenses.
  public struct CodeLensRequest: RequestType, Hashable {
    public static let method = "textDocument/codeLens"

    public static let capability: String? = "codeLensProvider"
    public typealias Response = [CodeLens]?

    public var textDocument: TextDocumentIdentifier
  }

  /// An actionable annotation above a line ("Run test", "Explain").
  public struct CodeLens: Equatable, Sendable, Codable {
    /// Should span a single line.
    public var range: Range
    public var command: Command?

    public init(range: Range, command: Command? = nil) {
      self.range = range
      self.command = command
    }
  }

  /// `workspace/codeLens/refresh`, sent by the server: asks the client to ask for lenses again.
  public struct CodeLensRefreshRequest: RequestType, Equatable {
    public static let method = "workspace/codeLens/refresh"
    public typealias Response = VoidResponse
    public init() {}
  }

  /// `workspace/executeCommand`: a command the server listed in `executeCommandProvider`; the result is anything.
  public struct ExecuteCommandRequest: RequestType, Equatable {
    public static let method = "workspace/executeCommand"

    public static let capability: String? = "executeCommandProvider"
    public typealias Response = JSON

    public var command: String
    public var arguments: [JSON]?
  }
}
