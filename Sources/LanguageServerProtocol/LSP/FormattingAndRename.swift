extension LSP {
  /// The editor's whitespace settings, which every formatting request carries. Required by the specification, and
  /// so by decoding, though a language with one canonical layout does not follow them.
  public struct FormattingOptions: Hashable, Sendable, Codable {
    public var tabSize: Int
    public var insertSpaces: Bool
  }

  /// `textDocument/formatting`: edits that lay the whole document out.
  public struct DocumentFormattingRequest: RequestType, Hashable {
    public static let method = "textDocument/formatting"

    public static let capability: String? = "documentFormattingProvider"
    public typealias Response = [TextEdit]?

    public var textDocument: TextDocumentIdentifier
    public var options: FormattingOptions
  }

  /// `textDocument/rangeFormatting`: edits that lay out a selection, as `formatting` does the whole document.
  public struct DocumentRangeFormattingRequest: RequestType, Hashable {
    public static let method = "textDocument/rangeFormatting"

    public static let capability: String? = "documentRangeFormattingProvider"
    public typealias Response = [TextEdit]?

    public var textDocument: TextDocumentIdentifier
    public var range: Range
    public var options: FormattingOptions
  }

  /// `textDocument/prepareRename`: whether the symbol under the cursor can be renamed, and its range.
  public struct PrepareRenameRequest: RequestType, Hashable {
    public static let method = "textDocument/prepareRename"
    public typealias Response = PrepareRenameResult?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
  }

  /// The range of the name to rename and the text to propose.
  public struct PrepareRenameResult: Hashable, Sendable, Codable {
    public var range: Range
    public var placeholder: String

    public init(range: Range, placeholder: String) {
      self.range = range
      self.placeholder = placeholder
    }
  }

  /// `textDocument/rename`: a `WorkspaceEdit` touching every reference.
  public struct RenameRequest: RequestType, Hashable {
    public static let method = "textDocument/rename"

    public static let capability: String? = "renameProvider"
    public typealias Response = WorkspaceEdit?

    public var textDocument: TextDocumentIdentifier
    public var position: Position
    public var newName: String
  }
}
