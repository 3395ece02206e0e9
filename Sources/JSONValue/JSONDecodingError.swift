/// A decoding failure with the path to the offending value, so that a reply like
/// `textDocument.position.line: expected integer, found string` tells a peer exactly what was wrong.
///
/// `JSONValueDecoder` throws Swift's own `DecodingError` (so that `init(from:)` implementations and their callers
/// see the standard cases); `init(json:)` turns it into this, the form that goes into messages and logs.
public struct JSONDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// One step into the JSON: an object member or an array element.
  public enum PathComponent: Sendable, Equatable {
    case key(String)
    case index(Int)
  }

  /// From the outermost value inwards.
  public var path: [PathComponent]
  public var message: String

  public init(_ message: String, path: [PathComponent] = []) {
    self.message = message
    self.path = path
  }

  /// The same failure, described with the coding path the decoder reported.
  public init(_ error: any Error) {
    guard let error = error as? DecodingError else {
      self.init(String(describing: error))
      return
    }
    switch error {
    case .keyNotFound(let key, let context):
      self.init("missing required field", path: JSONDecodingError.path(context.codingPath + [key]))
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      self.init(context.debugDescription, path: JSONDecodingError.path(context.codingPath))
    @unknown default:
      self.init(String(describing: error))
    }
  }

  static func path(_ codingPath: [any CodingKey]) -> [PathComponent] {
    codingPath.map { key in key.intValue.map(PathComponent.index) ?? .key(key.stringValue) }
  }

  public var description: String {
    guard !path.isEmpty else { return message }
    var text = ""
    for component in path {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index):
        text += "[\(index)]"
      }
    }
    return "\(text): \(message)"
  }
}
