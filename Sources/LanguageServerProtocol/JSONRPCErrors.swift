/// A JSON-RPC error code. Open rather than an enum, because servers may define their own codes and peers may
/// send codes this module has never heard of.
public struct ErrorCode: OpenEnumeration, CustomStringConvertible {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The body was not JSON at all.
  public static let parseError = ErrorCode(rawValue: -32700)
  /// The JSON was not a valid JSON-RPC message.
  public static let invalidRequest = ErrorCode(rawValue: -32600)
  public static let methodNotFound = ErrorCode(rawValue: -32601)
  public static let invalidParams = ErrorCode(rawValue: -32602)
  public static let internalError = ErrorCode(rawValue: -32603)
  /// LSP: a request arrived before `initialize`.
  public static let serverNotInitialized = ErrorCode(rawValue: -32002)
  /// LSP: the catch-all for errors without a more specific code.
  public static let unknownErrorCode = ErrorCode(rawValue: -32001)
  /// LSP: the server no longer considers the request valid (e.g. the file was deleted meanwhile).
  public static let requestFailed = ErrorCode(rawValue: -32803)
  /// LSP: the server has noticed the document changed under the request, so its result would be stale.
  public static let serverCancelled = ErrorCode(rawValue: -32802)
  /// LSP: the document changed while the request was queued or running.
  public static let contentModified = ErrorCode(rawValue: -32801)
  /// LSP: the client cancelled the request with `$/cancelRequest`.
  public static let requestCancelled = ErrorCode(rawValue: -32800)

  public var description: String { String(rawValue) }
}

/// The `error` member of a response. It is also a Swift `Error`, so request handlers can simply `throw` one and
/// the connection sends it back unchanged.
public struct ResponseError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
  public var code: ErrorCode
  public var message: String
  public var data: JSON?

  public init(code: ErrorCode, message: String, data: JSON? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  public var description: String { "\(message) (\(code))" }

  /// The factories below prefix the standard JSON-RPC wording, so every server phrases errors alike.
  public static func parseError(_ detail: String) -> ResponseError {
    ResponseError(code: .parseError, message: "Parse error: \(detail)")
  }

  public static func invalidRequest(_ detail: String) -> ResponseError {
    ResponseError(code: .invalidRequest, message: "Invalid request: \(detail)")
  }

  public static func methodNotFound(_ method: String) -> ResponseError {
    ResponseError(code: .methodNotFound, message: "Method not found: \(method)")
  }

  /// Built from a decoding error, whose path tells the client which field was wrong.
  public static func invalidParams(_ detail: String) -> ResponseError {
    ResponseError(code: .invalidParams, message: "Invalid params: \(detail)")
  }

  public static func internalError(_ detail: String) -> ResponseError {
    ResponseError(code: .internalError, message: "Internal error: \(detail)")
  }

  public static var serverNotInitialized: ResponseError {
    ResponseError(code: .serverNotInitialized, message: "Server not initialized")
  }

  public static var requestCancelled: ResponseError {
    ResponseError(code: .requestCancelled, message: "Request cancelled")
  }

  public static var contentModified: ResponseError {
    ResponseError(code: .contentModified, message: "Content modified")
  }
}
