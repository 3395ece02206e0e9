extension LSP {
  /// Decides the icon of a symbol in outlines and symbol search.
  public struct SymbolKind: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let file = SymbolKind(rawValue: 1)
    public static let module = SymbolKind(rawValue: 2)
    public static let namespace = SymbolKind(rawValue: 3)
    public static let package = SymbolKind(rawValue: 4)
    public static let `class` = SymbolKind(rawValue: 5)
    public static let method = SymbolKind(rawValue: 6)
    public static let property = SymbolKind(rawValue: 7)
    public static let field = SymbolKind(rawValue: 8)
    public static let constructor = SymbolKind(rawValue: 9)
    public static let `enum` = SymbolKind(rawValue: 10)
    public static let interface = SymbolKind(rawValue: 11)
    public static let function = SymbolKind(rawValue: 12)
    public static let variable = SymbolKind(rawValue: 13)
    public static let constant = SymbolKind(rawValue: 14)
    public static let string = SymbolKind(rawValue: 15)
    public static let number = SymbolKind(rawValue: 16)
    public static let boolean = SymbolKind(rawValue: 17)
    public static let array = SymbolKind(rawValue: 18)
    public static let object = SymbolKind(rawValue: 19)
    public static let key = SymbolKind(rawValue: 20)
    public static let null = SymbolKind(rawValue: 21)
    public static let enumMember = SymbolKind(rawValue: 22)
    public static let `struct` = SymbolKind(rawValue: 23)
    public static let event = SymbolKind(rawValue: 24)
    public static let `operator` = SymbolKind(rawValue: 25)
    public static let typeParameter = SymbolKind(rawValue: 26)
  }

  /// Rendering hints for symbols; deprecated symbols are struck through.
  public struct SymbolTag: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let deprecated = SymbolTag(rawValue: 1)
  }

  /// One node of a document outline. Preferred over `SymbolInformation` for `textDocument/documentSymbol`
  /// because it nests and separates the whole declaration (`range`) from its name (`selectionRange`).
  public struct DocumentSymbol: Hashable, Sendable, JSONConvertible {
    public var name: String
    public var detail: String?
    public var kind: SymbolKind
    public var tags: [SymbolTag]?
    public var deprecated: Bool?
    public var range: Range
    /// Must be contained in `range`.
    public var selectionRange: Range
    public var children: [DocumentSymbol]?

    public init(
      name: String, detail: String? = nil, kind: SymbolKind, tags: [SymbolTag]? = nil, deprecated: Bool? = nil,
      range: Range, selectionRange: Range, children: [DocumentSymbol]? = nil
    ) {
      self.name = name
      self.detail = detail
      self.kind = kind
      self.tags = tags
      self.deprecated = deprecated
      self.range = range
      self.selectionRange = selectionRange
      self.children = children
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "DocumentSymbol")
      name = try fields.decode("name")
      detail = try fields.decodeIfPresent("detail")
      kind = try fields.decode("kind")
      tags = try fields.decodeIfPresent("tags")
      deprecated = try fields.decodeIfPresent("deprecated")
      range = try fields.decode("range")
      selectionRange = try fields.decode("selectionRange")
      children = try fields.decodeIfPresent("children")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("name", name)
      object.put("detail", ifPresent: detail)
      object.put("kind", kind)
      object.put("tags", ifPresent: tags)
      object.put("deprecated", ifPresent: deprecated)
      object.put("range", range)
      object.put("selectionRange", selectionRange)
      object.put("children", ifPresent: children)
      return .object(object)
    }
  }

  /// A flat symbol with a location; the older document-symbol result shape, still used by some clients.
  public struct SymbolInformation: Hashable, Sendable, JSONConvertible {
    public var name: String
    public var kind: SymbolKind
    public var tags: [SymbolTag]?
    public var deprecated: Bool?
    public var location: Location
    public var containerName: String?

    public init(
      name: String, kind: SymbolKind, tags: [SymbolTag]? = nil, deprecated: Bool? = nil, location: Location,
      containerName: String? = nil
    ) {
      self.name = name
      self.kind = kind
      self.tags = tags
      self.deprecated = deprecated
      self.location = location
      self.containerName = containerName
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "SymbolInformation")
      name = try fields.decode("name")
      kind = try fields.decode("kind")
      tags = try fields.decodeIfPresent("tags")
      deprecated = try fields.decodeIfPresent("deprecated")
      location = try fields.decode("location")
      containerName = try fields.decodeIfPresent("containerName")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("name", name)
      object.put("kind", kind)
      object.put("tags", ifPresent: tags)
      object.put("deprecated", ifPresent: deprecated)
      object.put("location", location)
      object.put("containerName", ifPresent: containerName)
      return .object(object)
    }
  }

  /// `workspace/symbol` params: the text typed into the client's symbol search.
  public struct WorkspaceSymbolParams: Hashable, Sendable, JSONConvertible {
    public var query: String

    public init(query: String) { self.query = query }

    public init(json: JSON) throws(JSONDecodingError) {
      query = try JSONFields(json, "WorkspaceSymbolParams").decode("query")
    }

    public func toJSON() -> JSON { ["query": .string(query)] }
  }

  /// Where a workspace symbol is: a full location, or just its document when the range is left for
  /// `workspaceSymbol/resolve` to fill in.
  public enum WorkspaceSymbolLocation: Hashable, Sendable, JSONConvertible {
    case location(Location)
    case document(DocumentURI)

    public init(json: JSON) throws(JSONDecodingError) {
      if json["range"] != nil {
        self = .location(try Location(json: json))
      } else {
        self = .document(try JSONFields(json, "location").decode("uri"))
      }
    }

    public func toJSON() -> JSON {
      switch self {
      case .location(let location): return location.toJSON()
      case .document(let uri): return ["uri": uri.toJSON()]
      }
    }
  }

  /// A `workspace/symbol` result; unlike `SymbolInformation` its range may be resolved lazily.
  public struct WorkspaceSymbol: Equatable, Sendable, JSONConvertible {
    public var name: String
    public var kind: SymbolKind
    public var tags: [SymbolTag]?
    public var containerName: String?
    public var location: WorkspaceSymbolLocation
    public var data: JSON?

    public init(
      name: String, kind: SymbolKind, tags: [SymbolTag]? = nil, containerName: String? = nil,
      location: WorkspaceSymbolLocation, data: JSON? = nil
    ) {
      self.name = name
      self.kind = kind
      self.tags = tags
      self.containerName = containerName
      self.location = location
      self.data = data
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "WorkspaceSymbol")
      name = try fields.decode("name")
      kind = try fields.decode("kind")
      tags = try fields.decodeIfPresent("tags")
      containerName = try fields.decodeIfPresent("containerName")
      location = try fields.decode("location")
      data = fields.raw("data")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("name", name)
      object.put("kind", kind)
      object.put("tags", ifPresent: tags)
      object.put("containerName", ifPresent: containerName)
      object.put("location", location)
      object.put("data", ifPresent: data)
      return .object(object)
    }
  }
}
