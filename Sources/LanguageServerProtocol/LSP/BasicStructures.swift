import Foundation

/// The namespace of the LSP 3.17 data types.
///
/// The specification's names (`Range`, `Position`, `Location`, `Diagnostic`, `Command`) collide with Swift's own
/// and with those of any compiler a server wraps, so they live here as `LSP.Range`, `LSP.Diagnostic`, and so on.
/// Field names match the specification exactly, and each is written once: the types are synthesized `Codable`,
/// read and written through `JSONValue`'s coders (optional fields nil are omitted, not `null`). Only what a server
/// of this project reads or writes is here. Positions stay the protocol's zero-based line and UTF-16 character
/// offsets: converting them is the server's business, because only the server knows the text.
public enum LSP {}

/// LSP enumerations are open: a newer client may send a value this module has never heard of, and the
/// specification asks servers to tolerate it. Types conforming to this protocol wrap the raw value instead of
/// being Swift enums, so unknown values decode instead of failing the whole message. (`Codable` comes from the
/// standard library's conformance for `RawRepresentable` types: the raw value is written alone.)
public protocol OpenEnumeration: RawRepresentable, Hashable, Sendable, Codable
where RawValue: Codable & Hashable & Sendable {
  init(rawValue: RawValue)
}

extension LSP {
  /// A document's URI as the client wrote it. Kept as the exact string because clients compare URIs textually,
  /// and re-encoding (e.g. `%3A` vs `:`) would make the client miss its own documents. Written as a plain string,
  /// also as the key of a map (`WorkspaceEdit.changes`).
  public struct DocumentURI: Hashable, Sendable, Comparable, Codable, CodingKeyRepresentable, ExpressibleByStringLiteral,
    CustomStringConvertible
  {
    public var stringValue: String

    public init(_ stringValue: String) { self.stringValue = stringValue }
    public init(stringLiteral value: String) { self.stringValue = value }

    /// A `file://` URI for an absolute path, percent-encoded the way Foundation's `URL(fileURLWithPath:)` does it
    /// (`LSPTypesTests` compares the two), with a slash at the end for a directory; written byte by byte rather than
    /// through a `URL`, which a fresh server paid 0.2 ms for, for the library's files, before it could answer
    /// `initialize`. A relative path (resolved against the current directory) still goes through `URL`.
    public init(filePath: String) {
      guard filePath.utf8.first == UInt8(ascii: "/") else {
        self.stringValue = URL(fileURLWithPath: filePath).absoluteString
        return
      }
      var bytes = Array("file://".utf8)
      bytes.reserveCapacity(filePath.utf8.count + 16)
      let hex = Array("0123456789ABCDEF".utf8)
      for byte in filePath.utf8 {
        if DocumentURI.keptInPath(byte) {
          bytes.append(byte)
        } else {
          bytes.append(UInt8(ascii: "%"))
          bytes.append(hex[Int(byte >> 4)])
          bytes.append(hex[Int(byte & 15)])
        }
      }
      if filePath.utf8.last != UInt8(ascii: "/") {
        var status = stat()
        if stat(filePath, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { bytes.append(UInt8(ascii: "/")) }
      }
      self.stringValue = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a byte of a path is written as it is in a `file:` URI: letters, digits, `/` and
    /// `-._~!$&'()*+,;=:@`; anything else (space, `%`, `#`, `?`, non-ASCII, …) is percent-encoded.
    static func keptInPath(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
        UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
        UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
        true
      default:
        false
      }
    }

    /// The local path of a `file://` URI, percent-decoded; nil for other schemes.
    public var filePath: String? {
      guard let url = URL(string: stringValue), url.isFileURL else { return nil }
      return url.path
    }

    public init(from decoder: any Decoder) throws {
      stringValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(stringValue)
    }

    public var codingKey: any CodingKey { URIKey(stringValue: stringValue) }

    public init?<Key: CodingKey>(codingKey: Key) { stringValue = codingKey.stringValue }

    private struct URIKey: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    public var description: String { stringValue }
    public static func < (lhs: DocumentURI, rhs: DocumentURI) -> Bool { lhs.stringValue < rhs.stringValue }
  }

  /// A zero-based line and a character offset in the encoding negotiated at initialization (UTF-16 unless the
  /// server chose otherwise).
  public struct Position: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
      self.line = line
      self.character = character
    }

    /// Negative values are rejected here, since the specification's `uinteger` makes them meaningless and a
    /// server would otherwise have to check for them everywhere.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      func nonNegative(_ key: CodingKeys) throws -> Int {
        let value = try container.decode(Int.self, forKey: key)
        guard value >= 0 else {
          throw DecodingError.dataCorruptedError(
            forKey: key, in: container, debugDescription: "expected a non-negative integer")
        }
        return value
      }
      line = try nonNegative(.line)
      character = try nonNegative(.character)
    }

    public static func < (lhs: Position, rhs: Position) -> Bool {
      (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }

    public var description: String { "\(line):\(character)" }
  }

  /// A half-open span `[start, end)` between two positions.
  public struct Range: Hashable, Sendable, Codable, CustomStringConvertible {
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

    public var description: String { "\(start)-\(end)" }
  }

  /// A range in a specific document: the answer to "where is it defined / used".
  public struct Location: Hashable, Sendable, Codable {
    public var uri: DocumentURI
    public var range: Range

    public init(uri: DocumentURI, range: Range) {
      self.uri = uri
      self.range = range
    }
  }

  /// Names a document the client has open (or a file on disk) without carrying its text.
  public struct TextDocumentIdentifier: Hashable, Sendable, Codable {
    public var uri: DocumentURI

    public init(uri: DocumentURI) { self.uri = uri }
  }

  /// Identifies a specific version of a document, so a server can tell whether an edit applies to what it has.
  public struct VersionedTextDocumentIdentifier: Hashable, Sendable, Codable {
    public var uri: DocumentURI
    public var version: Int
  }

  /// As `VersionedTextDocumentIdentifier`, but `version: null` means "the file on disk", as used in edits.
  public struct OptionalVersionedTextDocumentIdentifier: Hashable, Sendable, Codable {
    public var uri: DocumentURI
    public var version: Int?

    public init(uri: DocumentURI, version: Int?) {
      self.uri = uri
      self.version = version
    }

    /// The specification requires `version` even when it is `null`, so it is written with `encode`, not
    /// `encodeIfPresent` (with `Position`'s check, the only hand-written coding of a structure here).
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(uri, forKey: .uri)
      try container.encode(version, forKey: .version)
    }
  }

  /// A whole document as the client opened it.
  public struct TextDocumentItem: Hashable, Sendable, Codable {
    public var uri: DocumentURI
    public var languageId: String
    public var version: Int
    public var text: String
  }

  /// Which markup a client can render; the server picks per response.
  public struct MarkupKind: OpenEnumeration {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let plaintext = MarkupKind(rawValue: "plaintext")
    public static let markdown = MarkupKind(rawValue: "markdown")
  }

  /// Documentation text with its format.
  public struct MarkupContent: Hashable, Sendable, Codable {
    public var kind: MarkupKind
    public var value: String

    public init(kind: MarkupKind, value: String) {
      self.kind = kind
      self.value = value
    }

    public static func markdown(_ value: String) -> MarkupContent { MarkupContent(kind: .markdown, value: value) }
    public static func plaintext(_ value: String) -> MarkupContent { MarkupContent(kind: .plaintext, value: value) }
  }

  /// A field the specification types `string | MarkupContent`: a bare string is plain text for clients that name no
  /// documentation format at all.
  public enum StringOrMarkupContent: Hashable, Sendable, Codable {
    case string(String)
    case markupContent(MarkupContent)

    public init(from decoder: any Decoder) throws {
      if let text = try? decoder.singleValueContainer().decode(String.self) {
        self = .string(text)
      } else {
        self = .markupContent(try MarkupContent(from: decoder))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      switch self {
      case .string(let text):
        var container = encoder.singleValueContainer()
        try container.encode(text)
      case .markupContent(let content):
        try content.encode(to: encoder)
      }
    }
  }

  /// A command the client can run (usually by sending `workspace/executeCommand` back to the server).
  public struct Command: Equatable, Sendable, Codable {
    public var title: String
    public var command: String
    public var arguments: [JSON]?

    public init(title: String, command: String, arguments: [JSON]? = nil) {
      self.title = title
      self.command = command
      self.arguments = arguments
    }
  }
}
