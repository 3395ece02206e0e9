extension LSP {
  /// Which unit `Position.character` counts. Only UTF-16 is mandatory; a server may pick another one the client
  /// offers in `general.positionEncodings`.
  public struct PositionEncodingKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let utf8 = PositionEncodingKind(rawValue: "utf-8")
    public static let utf16 = PositionEncodingKind(rawValue: "utf-16")
    public static let utf32 = PositionEncodingKind(rawValue: "utf-32")
  }

  /// How much the client wants to see of `$/logTrace`.
  public struct TraceValue: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let off = TraceValue(rawValue: "off")
    public static let messages = TraceValue(rawValue: "messages")
    public static let verbose = TraceValue(rawValue: "verbose")
  }

  /// `clientInfo` of `initialize` and `serverInfo` of its result.
  public struct ProgramInfo: Hashable, Sendable, JSONConvertible {
    public var name: String
    public var version: String?

    public init(name: String, version: String? = nil) {
      self.name = name
      self.version = version
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "info")
      name = try fields.decode("name")
      version = try fields.decodeIfPresent("version")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("name", name)
      object.put("version", ifPresent: version)
      return .object(object)
    }
  }

  /// The parts of `initialize` a server reads. Client capabilities stay raw JSON: they are a large, growing tree
  /// of which a server consults a handful of leaves, best read with `capability(_:)`.
  public struct InitializeParams: Equatable, Sendable, JSONConvertible {
    /// The client's process id, so the server can exit if its parent dies.
    public var processId: Int?
    public var clientInfo: ProgramInfo?
    public var locale: String?
    /// Deprecated in favour of `rootUri`, which is deprecated in favour of `workspaceFolders`; all three are
    /// read because clients still differ in which they send.
    public var rootPath: String?
    public var rootUri: DocumentURI?
    public var initializationOptions: JSON?
    public var capabilities: JSON
    public var trace: TraceValue?
    public var workspaceFolders: [WorkspaceFolder]?

    public init(
      processId: Int? = nil, clientInfo: ProgramInfo? = nil, locale: String? = nil, rootPath: String? = nil,
      rootUri: DocumentURI? = nil, initializationOptions: JSON? = nil, capabilities: JSON = [:],
      trace: TraceValue? = nil, workspaceFolders: [WorkspaceFolder]? = nil
    ) {
      self.processId = processId
      self.clientInfo = clientInfo
      self.locale = locale
      self.rootPath = rootPath
      self.rootUri = rootUri
      self.initializationOptions = initializationOptions
      self.capabilities = capabilities
      self.trace = trace
      self.workspaceFolders = workspaceFolders
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "InitializeParams")
      processId = try fields.decodeIfPresent("processId")
      clientInfo = try fields.decodeIfPresent("clientInfo")
      locale = try fields.decodeIfPresent("locale")
      rootPath = try fields.decodeIfPresent("rootPath")
      rootUri = try fields.decodeIfPresent("rootUri")
      initializationOptions = fields.raw("initializationOptions")
      capabilities = fields["capabilities"] ?? [:]
      trace = try fields.decodeIfPresent("trace")
      workspaceFolders = try fields.decodeIfPresent("workspaceFolders")
    }

    /// `processId` and `rootUri` are `T | null` and required, so they are written as `null` when absent.
    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("processId", orNull: processId)
      object.put("clientInfo", ifPresent: clientInfo)
      object.put("locale", ifPresent: locale)
      object.put("rootPath", ifPresent: rootPath)
      object.put("rootUri", orNull: rootUri)
      object.put("initializationOptions", ifPresent: initializationOptions)
      object.put("capabilities", capabilities)
      object.put("trace", ifPresent: trace)
      object.put("workspaceFolders", ifPresent: workspaceFolders)
      return .object(object)
    }

    /// A leaf of the client capabilities, e.g.
    /// `capability("textDocument", "completion", "completionItem", "snippetSupport")?.boolValue`.
    public func capability(_ path: String...) -> JSON? {
      capabilities.value(at: path)
    }

    /// The workspace roots in order of preference: the folders if any, else `rootUri`, else `rootPath`.
    public var workspaceRoots: [DocumentURI] {
      if let workspaceFolders, !workspaceFolders.isEmpty { return workspaceFolders.map(\.uri) }
      if let rootUri { return [rootUri] }
      if let rootPath { return [DocumentURI(filePath: rootPath)] }
      return []
    }
  }

  /// The result of `initialize`.
  public struct InitializeResult: Equatable, Sendable, JSONConvertible {
    public var capabilities: ServerCapabilities
    public var serverInfo: ProgramInfo?

    public init(capabilities: ServerCapabilities, serverInfo: ProgramInfo? = nil) {
      self.capabilities = capabilities
      self.serverInfo = serverInfo
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "InitializeResult")
      capabilities = try fields.decode("capabilities")
      serverInfo = try fields.decodeIfPresent("serverInfo")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("capabilities", capabilities)
      object.put("serverInfo", ifPresent: serverInfo)
      return .object(object)
    }
  }
}
