/// A protocol message: a type that knows its method and carries its params as its own fields, so a message is
/// decoded from its params and encoded into them with no field written twice.
public protocol MessageType: Codable, Sendable {
  /// The method name on the wire, e.g. `textDocument/hover`.
  static var method: String { get }

  /// Whether the message is decoded leniently: true exactly when it is `LenientDecodable` (the default for each
  /// conformance says so). Asked instead of `is any LenientDecodable.Type`, which, for a type that is not, makes
  /// the runtime look through every conformance in the program (some 180,000 instructions, paid by a table of
  /// forty messages at start-up).
  static var decodesLeniently: Bool { get }
}

extension MessageType {
  public static var decodesLeniently: Bool { false }
}

extension MessageType where Self: LenientDecodable {
  public static var decodesLeniently: Bool { true }
}

/// A request, which gets exactly one reply: `Response` (or an error).
public protocol RequestType: MessageType {
  associatedtype Response: Codable & Sendable

  /// The member of the server's capabilities that announces this request (`hoverProvider`), or nil for a request
  /// that needs none (`shutdown`) or is announced with another (`prepareRename`, in `renameProvider`'s options). A
  /// server's `MessageTable` announces what it handles, so no capability is claimed without its handler.
  static var capability: String? { get }
}

extension RequestType {
  public static var capability: String? { nil }
}

/// A notification, which gets no reply.
public protocol NotificationType: MessageType {}

/// The reply of requests whose result is `null` (`shutdown`, the refresh requests a server sends).
public struct VoidResponse: Codable, Sendable, Equatable {
  public init() {}

  public init(from decoder: any Decoder) throws {}

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encodeNil()
  }
}
