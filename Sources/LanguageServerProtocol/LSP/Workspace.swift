extension LSP {
  /// What happened to a watched file.
  public struct FileChangeType: OpenEnumeration {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let deleted = FileChangeType(rawValue: 3)
  }

  /// One watched-file change.
  public struct FileEvent: Hashable, Sendable, Codable {
    public var uri: DocumentURI
    public var type: FileChangeType
  }

  /// `workspace/didChangeWatchedFiles`: changes to files the editor does not have open (edited by another tool, or
  /// by git).
  public struct DidChangeWatchedFilesNotification: NotificationType, Hashable {
    public static let method = "workspace/didChangeWatchedFiles"

    public var changes: [FileEvent]
  }

  /// `workspace/didChangeConfiguration`: the settings are whatever the client chose to send (often `null`), so they
  /// stay raw JSON.
  public struct DidChangeConfigurationNotification: NotificationType, Equatable {
    public static let method = "workspace/didChangeConfiguration"

    public var settings: JSON?
  }

  /// `client/registerCapability`, sent by the server: asks the client to start something it declared it can
  /// register dynamically (watching files).
  public struct RegisterCapabilityRequest: RequestType, Equatable {
    public static let method = "client/registerCapability"
    public typealias Response = VoidResponse

    public var registrations: [Registration]

    public init(registrations: [Registration]) { self.registrations = registrations }
  }

  /// One registration: an id to unregister it by, the method it enables, and that method's options.
  public struct Registration: Equatable, Sendable, Codable {
    public var id: String
    public var method: String
    public var registerOptions: JSON?

    /// The options are the registered message's own (`DidChangeWatchedFilesRegistrationOptions`…), written as JSON.
    public init(id: String, method: String, registerOptions: (some Encodable)?) {
      self.id = id
      self.method = method
      self.registerOptions = registerOptions?.toJSON()
    }
  }

  /// The files `workspace/didChangeWatchedFiles` should report.
  public struct DidChangeWatchedFilesRegistrationOptions: Hashable, Sendable, Codable {
    public var watchers: [FileSystemWatcher]

    public init(watchers: [FileSystemWatcher]) { self.watchers = watchers }
  }

  /// A glob of files to watch, e.g. `**/*.tax`.
  public struct FileSystemWatcher: Hashable, Sendable, Codable {
    public var globPattern: String

    public init(globPattern: String) { self.globPattern = globPattern }
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

  /// `window/showMessage`: a message the editor shows the user (a pop-up or the echo area).
  public struct ShowMessageNotification: NotificationType, Hashable {
    public static let method = "window/showMessage"

    public var type: MessageType
    public var message: String

    public init(type: MessageType, message: String) {
      self.type = type
      self.message = message
    }
  }

  /// `window/logMessage`: a message for the server's output panel.
  public struct LogMessageNotification: NotificationType, Hashable {
    public static let method = "window/logMessage"

    public var type: MessageType
    public var message: String

    public init(type: MessageType, message: String) {
      self.type = type
      self.message = message
    }
  }
}
