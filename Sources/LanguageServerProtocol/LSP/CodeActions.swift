extension LSP {
  /// Hierarchical, dot-separated kinds: a client asking for `refactor` also wants `refactor.extract`.
  public struct CodeActionKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let empty = CodeActionKind(rawValue: "")
    public static let quickFix = CodeActionKind(rawValue: "quickfix")
    public static let refactor = CodeActionKind(rawValue: "refactor")
    public static let refactorExtract = CodeActionKind(rawValue: "refactor.extract")
    public static let refactorInline = CodeActionKind(rawValue: "refactor.inline")
    public static let refactorRewrite = CodeActionKind(rawValue: "refactor.rewrite")
    public static let source = CodeActionKind(rawValue: "source")
    public static let sourceOrganizeImports = CodeActionKind(rawValue: "source.organizeImports")
    public static let sourceFixAll = CodeActionKind(rawValue: "source.fixAll")

    /// Whether this kind is `other` or a sub-kind of it, the test `CodeActionContext.only` calls for.
    public func isSubkind(of other: CodeActionKind) -> Bool {
      other.rawValue.isEmpty || rawValue == other.rawValue || rawValue.hasPrefix(other.rawValue + ".")
    }
  }

  /// Why code actions were requested; automatic requests should be cheap and skip slow fixes.
  public struct CodeActionTriggerKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The user asked (lightbulb click, shortcut).
    public static let invoked = CodeActionTriggerKind(rawValue: 1)
    /// The editor asked on its own, e.g. after the cursor moved; keep such answers cheap.
    public static let automatic = CodeActionTriggerKind(rawValue: 2)
  }

  /// What the client knows about the range: the diagnostics shown there and the kinds it wants.
  public struct CodeActionContext: Equatable, Sendable, JSONConvertible {
    /// The diagnostics the client shows in the requested range, as the server sent them (with their `data`).
    public var diagnostics: [Diagnostic]
    /// Only actions of these kinds (or sub-kinds) are wanted.
    public var only: [CodeActionKind]?
    public var triggerKind: CodeActionTriggerKind?

    public init(
      diagnostics: [Diagnostic], only: [CodeActionKind]? = nil, triggerKind: CodeActionTriggerKind? = nil
    ) {
      self.diagnostics = diagnostics
      self.only = only
      self.triggerKind = triggerKind
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CodeActionContext")
      diagnostics = try fields.decode("diagnostics")
      only = try fields.decodeIfPresent("only")
      triggerKind = try fields.decodeIfPresent("triggerKind")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("diagnostics", diagnostics)
      object.put("only", ifPresent: only)
      object.put("triggerKind", ifPresent: triggerKind)
      return .object(object)
    }
  }

  /// `textDocument/codeAction` params: a range (often empty, the cursor) and its context.
  public struct CodeActionParams: Equatable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var range: Range
    public var context: CodeActionContext

    public init(textDocument: TextDocumentIdentifier, range: Range, context: CodeActionContext) {
      self.textDocument = textDocument
      self.range = range
      self.context = context
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CodeActionParams")
      textDocument = try fields.decode("textDocument")
      range = try fields.decode("range")
      context = try fields.decode("context")
    }

    public func toJSON() -> JSON {
      ["textDocument": textDocument.toJSON(), "range": range.toJSON(), "context": context.toJSON()]
    }
  }

  /// A fix or refactoring. With `edit` the client applies it directly; with `command` it asks the server to run
  /// it; with both, the edit comes first.
  public struct CodeAction: Equatable, Sendable, JSONConvertible {
    public var title: String
    public var kind: CodeActionKind?
    /// The diagnostics this action resolves.
    public var diagnostics: [Diagnostic]?
    /// Marks the action a "fix all"/auto-fix may apply without asking.
    public var isPreferred: Bool?
    /// Why the action cannot be applied now; shown greyed out instead of hidden.
    public var disabled: Disabled?
    public var edit: WorkspaceEdit?
    public var command: Command?
    public var data: JSON?

    /// Explains to the user why a listed action cannot be applied.
    public struct Disabled: Hashable, Sendable, JSONConvertible {
      public var reason: String

      public init(reason: String) { self.reason = reason }

      public init(json: JSON) throws(JSONDecodingError) {
        reason = try JSONFields(json, "disabled").decode("reason")
      }

      public func toJSON() -> JSON { ["reason": .string(reason)] }
    }

    public init(
      title: String, kind: CodeActionKind? = nil, diagnostics: [Diagnostic]? = nil, isPreferred: Bool? = nil,
      disabled: Disabled? = nil, edit: WorkspaceEdit? = nil, command: Command? = nil, data: JSON? = nil
    ) {
      self.title = title
      self.kind = kind
      self.diagnostics = diagnostics
      self.isPreferred = isPreferred
      self.disabled = disabled
      self.edit = edit
      self.command = command
      self.data = data
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CodeAction")
      title = try fields.decode("title")
      kind = try fields.decodeIfPresent("kind")
      diagnostics = try fields.decodeIfPresent("diagnostics")
      isPreferred = try fields.decodeIfPresent("isPreferred")
      disabled = try fields.decodeIfPresent("disabled")
      edit = try fields.decodeIfPresent("edit")
      command = try fields.decodeIfPresent("command")
      data = fields.raw("data")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("title", title)
      object.put("kind", ifPresent: kind)
      object.put("diagnostics", ifPresent: diagnostics)
      object.put("isPreferred", ifPresent: isPreferred)
      object.put("disabled", ifPresent: disabled)
      object.put("edit", ifPresent: edit)
      object.put("command", ifPresent: command)
      object.put("data", ifPresent: data)
      return .object(object)
    }
  }

  /// An actionable annotation above a line ("Run test", "Explain"); without a command it awaits
  /// `codeLens/resolve`.
  public struct CodeLens: Equatable, Sendable, JSONConvertible {
    /// Should span a single line.
    public var range: Range
    public var command: Command?
    public var data: JSON?

    public init(range: Range, command: Command? = nil, data: JSON? = nil) {
      self.range = range
      self.command = command
      self.data = data
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "CodeLens")
      range = try fields.decode("range")
      command = try fields.decodeIfPresent("command")
      data = fields.raw("data")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("range", range)
      object.put("command", ifPresent: command)
      object.put("data", ifPresent: data)
      return .object(object)
    }
  }

  /// `workspace/executeCommand` params: a command the server listed in `executeCommandProvider`.
  public struct ExecuteCommandParams: Equatable, Sendable, JSONConvertible {
    public var command: String
    public var arguments: [JSON]?

    public init(command: String, arguments: [JSON]? = nil) {
      self.command = command
      self.arguments = arguments
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "ExecuteCommandParams")
      command = try fields.decode("command")
      arguments = try fields.decodeIfPresent("arguments")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("command", command)
      object.put("arguments", ifPresent: arguments)
      return .object(object)
    }
  }

  /// `workspace/applyEdit` params, sent by the server (e.g. while executing a command) to change files.
  public struct ApplyWorkspaceEditParams: Equatable, Sendable, JSONConvertible {
    /// Shown in the undo stack.
    public var label: String?
    public var edit: WorkspaceEdit

    public init(label: String? = nil, edit: WorkspaceEdit) {
      self.label = label
      self.edit = edit
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "ApplyWorkspaceEditParams")
      label = try fields.decodeIfPresent("label")
      edit = try fields.decode("edit")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("label", ifPresent: label)
      object.put("edit", edit)
      return .object(object)
    }
  }
}
