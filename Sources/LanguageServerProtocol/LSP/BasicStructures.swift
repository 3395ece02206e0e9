import Foundation

/// The namespace of the LSP 3.17 data types.
///
/// The specification's names (`Range`, `Position`, `Location`, `Diagnostic`, `Command`) collide with Swift's own
/// and with those of any compiler a server wraps, so they live here as `LSP.Range`, `LSP.Diagnostic`, and so on.
/// Field names match the specification exactly; optional fields are Swift optionals and are omitted from the
/// JSON when nil. Positions stay the protocol's zero-based line and UTF-16 character offsets: converting them is
/// the server's business, because only the server knows the text.
public enum LSP {}

extension LSP {
  /// A document's URI as the client wrote it. Kept as the exact string because clients compare URIs textually,
  /// and re-encoding (e.g. `%3A` vs `:`) would make the client miss its own documents.
  public struct DocumentURI: Hashable, Sendable, Comparable, JSONConvertible, ExpressibleByStringLiteral,
    CustomStringConvertible
  {
    public var stringValue: String

    public init(_ stringValue: String) { self.stringValue = stringValue }
    public init(stringLiteral value: String) { self.stringValue = value }

    /// A `file://` URI for an absolute path, percent-encoded the way Foundation does it.
    public init(filePath: String) {
      self.stringValue = URL(fileURLWithPath: filePath).absoluteString
    }

    /// The local path of a `file://` URI, percent-decoded; nil for other schemes.
    public var filePath: String? {
      guard let url = URL(string: stringValue), url.isFileURL else { return nil }
      return url.path
    }

    public init(json: JSON) throws(JSONDecodingError) { stringValue = try String(json: json) }
    public func toJSON() -> JSON { .string(stringValue) }
    public var description: String { stringValue }
    public static func < (lhs: DocumentURI, rhs: DocumentURI) -> Bool { lhs.stringValue < rhs.stringValue }
  }

  /// A zero-based line and a character offset in the encoding negotiated at initialization (UTF-16 unless the
  /// server chose otherwise).
  public struct Position: Hashable, Sendable, Comparable, JSONConvertible, CustomStringConvertible {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
      self.line = line
      self.character = character
    }

    /// Negative values are rejected here, since the specification's `uinteger` makes them meaningless and a
    /// server would otherwise have to check for them everywhere.
    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "Position")
      line = try fields.decodeNonNegative("line")
      character = try fields.decodeNonNegative("character")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("line", line)
      object.put("character", character)
      return .object(object)
    }

    public static func < (lhs: Position, rhs: Position) -> Bool {
      (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }

    public var description: String { "\(line):\(character)" }
  }

  /// A half-open span `[start, end)` between two positions.
  public struct Range: Hashable, Sendable, JSONConvertible, CustomStringConvertible {
    public var start: Position
    public var end: Position

    public init(start: Position, end: Position) {
      self.start = start
      self.end = end
    }

    /// An empty range, e.g. for an insertion point.
    public init(at position: Position) {
      self.init(start: position, end: position)
    }

    public func contains(_ position: Position) -> Bool { start <= position && position < end }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "Range")
      start = try fields.decode("start")
      end = try fields.decode("end")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("start", start)
      object.put("end", end)
      return .object(object)
    }

    public var description: String { "\(start)-\(end)" }
  }

  /// A range in a specific document: the answer to "where is it defined / used".
  public struct Location: Hashable, Sendable, JSONConvertible {
    public var uri: DocumentURI
    public var range: Range

    public init(uri: DocumentURI, range: Range) {
      self.uri = uri
      self.range = range
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "Location")
      uri = try fields.decode("uri")
      range = try fields.decode("range")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("uri", uri)
      object.put("range", range)
      return .object(object)
    }
  }

  /// A richer definition result: the client can highlight the origin span and reveal a target range while
  /// selecting only the name.
  public struct LocationLink: Hashable, Sendable, JSONConvertible {
    public var originSelectionRange: Range?
    public var targetUri: DocumentURI
    public var targetRange: Range
    public var targetSelectionRange: Range

    public init(
      originSelectionRange: Range? = nil, targetUri: DocumentURI, targetRange: Range, targetSelectionRange: Range
    ) {
      self.originSelectionRange = originSelectionRange
      self.targetUri = targetUri
      self.targetRange = targetRange
      self.targetSelectionRange = targetSelectionRange
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "LocationLink")
      originSelectionRange = try fields.decodeIfPresent("originSelectionRange")
      targetUri = try fields.decode("targetUri")
      targetRange = try fields.decode("targetRange")
      targetSelectionRange = try fields.decode("targetSelectionRange")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("originSelectionRange", ifPresent: originSelectionRange)
      object.put("targetUri", targetUri)
      object.put("targetRange", targetRange)
      object.put("targetSelectionRange", targetSelectionRange)
      return .object(object)
    }
  }

  /// Names a document the client has open (or a file on disk) without carrying its text.
  public struct TextDocumentIdentifier: Hashable, Sendable, JSONConvertible {
    public var uri: DocumentURI

    public init(uri: DocumentURI) { self.uri = uri }

    public init(json: JSON) throws(JSONDecodingError) {
      uri = try JSONFields(json, "TextDocumentIdentifier").decode("uri")
    }

    public func toJSON() -> JSON { ["uri": uri.toJSON()] }
  }

  /// Identifies a specific version of a document, so a server can tell whether an edit applies to what it has.
  public struct VersionedTextDocumentIdentifier: Hashable, Sendable, JSONConvertible {
    public var uri: DocumentURI
    public var version: Int

    public init(uri: DocumentURI, version: Int) {
      self.uri = uri
      self.version = version
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "VersionedTextDocumentIdentifier")
      uri = try fields.decode("uri")
      version = try fields.decode("version")
    }

    public func toJSON() -> JSON { ["uri": uri.toJSON(), "version": .integer(version)] }
  }

  /// As `VersionedTextDocumentIdentifier`, but `version: null` means "the file on disk", as used in edits.
  public struct OptionalVersionedTextDocumentIdentifier: Hashable, Sendable, JSONConvertible {
    public var uri: DocumentURI
    public var version: Int?

    public init(uri: DocumentURI, version: Int?) {
      self.uri = uri
      self.version = version
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "OptionalVersionedTextDocumentIdentifier")
      uri = try fields.decode("uri")
      version = try fields.decodeIfPresent("version")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("uri", uri)
      object.put("version", orNull: version)
      return .object(object)
    }
  }

  /// A whole document as the client opened it.
  public struct TextDocumentItem: Hashable, Sendable, JSONConvertible {
    public var uri: DocumentURI
    public var languageId: String
    public var version: Int
    public var text: String

    public init(uri: DocumentURI, languageId: String, version: Int, text: String) {
      self.uri = uri
      self.languageId = languageId
      self.version = version
      self.text = text
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "TextDocumentItem")
      uri = try fields.decode("uri")
      languageId = try fields.decode("languageId")
      version = try fields.decode("version")
      text = try fields.decode("text")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("uri", uri)
      object.put("languageId", languageId)
      object.put("version", version)
      object.put("text", text)
      return .object(object)
    }
  }

  /// The params shared by every request about one position in one document (hover, definition, highlight...).
  public struct TextDocumentPositionParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier
    public var position: Position

    public init(textDocument: TextDocumentIdentifier, position: Position) {
      self.textDocument = textDocument
      self.position = position
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "TextDocumentPositionParams")
      textDocument = try fields.decode("textDocument")
      position = try fields.decode("position")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON(), "position": position.toJSON()] }
  }

  /// Params of requests that only name a document (document symbols, folding, semantic tokens, code lens...).
  public struct TextDocumentParams: Hashable, Sendable, JSONConvertible {
    public var textDocument: TextDocumentIdentifier

    public init(textDocument: TextDocumentIdentifier) { self.textDocument = textDocument }

    public init(json: JSON) throws(JSONDecodingError) {
      textDocument = try JSONFields(json, "params").decode("textDocument")
    }

    public func toJSON() -> JSON { ["textDocument": textDocument.toJSON()] }
  }

  /// Which markup a client can render; the server picks per response.
  public struct MarkupKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let plaintext = MarkupKind(rawValue: "plaintext")
    public static let markdown = MarkupKind(rawValue: "markdown")
  }

  /// Documentation text with its format. Fields that the specification types as `string | MarkupContent`
  /// decode a bare string as plain text, so servers deal with one shape only.
  public struct MarkupContent: Hashable, Sendable, JSONConvertible {
    public var kind: MarkupKind
    public var value: String

    public init(kind: MarkupKind, value: String) {
      self.kind = kind
      self.value = value
    }

    public static func markdown(_ value: String) -> MarkupContent { MarkupContent(kind: .markdown, value: value) }
    public static func plaintext(_ value: String) -> MarkupContent { MarkupContent(kind: .plaintext, value: value) }

    public init(json: JSON) throws(JSONDecodingError) {
      if case .string(let text) = json {
        self.init(kind: .plaintext, value: text)
        return
      }
      let fields = try JSONFields(json, "MarkupContent")
      self.init(kind: try fields.decode("kind"), value: try fields.decode("value"))
    }

    public func toJSON() -> JSON { ["kind": kind.toJSON(), "value": .string(value)] }
  }

  /// A command the client can run (usually by sending `workspace/executeCommand` back to the server).
  public struct Command: Equatable, Sendable, JSONConvertible {
    public var title: String
    public var command: String
    public var arguments: [JSON]?

    public init(title: String, command: String, arguments: [JSON]? = nil) {
      self.title = title
      self.command = command
      self.arguments = arguments
    }

    public init(json: JSON) throws(JSONDecodingError) {
      let fields = try JSONFields(json, "Command")
      title = try fields.decode("title")
      command = try fields.decode("command")
      arguments = try fields.decodeIfPresent("arguments")
    }

    public func toJSON() -> JSON {
      var object = JSONObject()
      object.put("title", title)
      object.put("command", command)
      object.put("arguments", ifPresent: arguments)
      return .object(object)
    }
  }
}

extension JSONFields {
  /// Reads a specification `uinteger`.
  public func decodeNonNegative(_ key: String) throws(JSONDecodingError) -> Int {
    let value: Int = try decode(key)
    guard value >= 0 else { throw JSONDecodingError("expected a non-negative integer", path: [.key(key)]) }
    return value
  }
}
