extension LSP {
  /// What happened to a watched file.
  public struct FileChangeType: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let created = FileChangeType(rawValue: 1)
    public static let changed = FileChangeType(rawValue: 2)
    public static let deleted = FileChangeType(rawValue: 3)
  }

  /// One watched-file change.
  public struct FileEvent: Hashable, Sendable, JSONConvertible {
    public var uri: DocumentURI
    public var type: FileChangeType

    public init(uri: DocumentURI, type: FileChangeType) {
      self.uri = uri
      self.type = type
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "FileEvent")
      uri = try fields.decode("uri")
      type = try fields.decode("type")
    }

    public func toJSON() -> JSON { ["uri": uri.toJSON(), "type": type.toJSON()] }
  }

  /// Changes to files the editor does not have open (e.g. a library file edited by another tool or git).
  public struct DidChangeWatchedFilesParams: Hashable, Sendable, JSONConvertible {
    public var changes: [FileEvent]

    public init(changes: [FileEvent]) { self.changes = changes }

    public init(json: JSON) throws(JSONDecodingError) {
      changes = try JSONFields(json, "DidChangeWatchedFilesParams").decode("changes")
    }

    public func toJSON() -> JSON { ["changes": changes.toJSON()] }
  }

  /// The settings object is whatever the client chose to send (often `null`, asking the server to pull with
  /// `workspace/configuration`), so it stays raw JSON.
  public struct DidChangeConfigurationParams: Equatable, Sendable, JSONConvertible {
    public var settings: JSON

    public init(settings: JSON) { self.settings = settings }

    public init(json: JSON) throws(JSONDecodingError) {
      settings = try JSONFields(json, "DidChangeConfigurationParams")["settings"] ?? .null
    }

    public func toJSON() -> JSON { ["settings": settings] }
  }

  /// A root of the workspace; multi-root editors send several.
  public struct WorkspaceFolder: Hashable, Sendable, JSONConvertible {
    public var uri: DocumentURI
    public var name: String

    public init(uri: DocumentURI, name: String) {
      self.uri = uri
      self.name = name
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "WorkspaceFolder")
      uri = try fields.decode("uri")
      name = try fields.decode("name")
    }

    public func toJSON() -> JSON { ["uri": uri.toJSON(), "name": .string(name)] }
  }

  /// Folders added to or removed from the workspace; written as the specification's nested `event`.
  public struct DidChangeWorkspaceFoldersParams: Hashable, Sendable, JSONConvertible {
    public var added: [WorkspaceFolder]
    public var removed: [WorkspaceFolder]

    public init(added: [WorkspaceFolder], removed: [WorkspaceFolder]) {
      self.added = added
      self.removed = removed
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let event = try JSONFields(try JSONFields(json, "DidChangeWorkspaceFoldersParams").decode("event"), "event")
      do throws(JSONDecodingError) {
        added = try event.decode("added")
        removed = try event.decode("removed")
      } catch {
        throw error.prefixed(with: .key("event"))
      }
    }

    public func toJSON() -> JSON { ["event": ["added": added.toJSON(), "removed": removed.toJSON()]] }
  }

  /// Which settings section (and for which document) a `workspace/configuration` request asks for.
  public struct ConfigurationItem: Hashable, Sendable, JSONConvertible {
    public var scopeUri: DocumentURI?
    public var section: String?

    public init(scopeUri: DocumentURI? = nil, section: String? = nil) {
      self.scopeUri = scopeUri
      self.section = section
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "ConfigurationItem")
      scopeUri = try fields.decodeIfPresent("scopeUri")
      section = try fields.decodeIfPresent("section")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("scopeUri", ifPresent: scopeUri)
      object.put("section", ifPresent: section)
      return .object(object)
    }
  }

  /// `workspace/configuration` params, sent by the server; the client answers with one JSON value per item.
  public struct ConfigurationParams: Hashable, Sendable, JSONConvertible {
    public var items: [ConfigurationItem]

    public init(items: [ConfigurationItem]) { self.items = items }

    public init(json: JSON) throws(JSONDecodingError) {
      items = try JSONFields(json, "ConfigurationParams").decode("items")
    }

    public func toJSON() -> JSON { ["items": items.toJSON()] }
  }

  /// Severity of a `window/showMessage` or `window/logMessage`.
  public struct MessageType: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let error = MessageType(rawValue: 1)
    public static let warning = MessageType(rawValue: 2)
    public static let info = MessageType(rawValue: 3)
    public static let log = MessageType(rawValue: 4)
  }

  /// Params of `window/showMessage` (a pop-up) and `window/logMessage` (the server's output panel).
  public struct MessageParams: Hashable, Sendable, JSONConvertible {
    public var type: MessageType
    public var message: String

    public init(type: MessageType, message: String) {
      self.type = type
      self.message = message
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "MessageParams")
      type = try fields.decode("type")
      message = try fields.decode("message")
    }

    public func toJSON() -> JSON { ["type": type.toJSON(), "message": .string(message)] }
  }

  /// `$/cancelRequest` params. The `Connection` handles these itself; the type is here for clients and tests.
  public struct CancelParams: Hashable, Sendable, JSONConvertible {
    public var id: RequestID

    public init(id: RequestID) { self.id = id }

    public init(json: JSON) throws(JSONDecodingError) {
      id = try JSONFields(json, "CancelParams").decode("id")
    }

    public func toJSON() -> JSON { ["id": id.toJSON()] }
  }
}
