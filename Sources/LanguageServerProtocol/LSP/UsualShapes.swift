import JSONValue

/// A message whose params are read straight from the JSON tree when they have the usual shape, without `Decodable`'s
/// containers; anything else — a field of another kind, a number written as a float, a negative position — makes the
/// reader give up (`UnusualShape`), and the params go through `Decodable` as any message's do, so the value and every
/// error are the same either way (`UsualShapeTests` holds the two to the same values).
///
/// These are the messages every session starts with and every keystroke sends: `initialize`, `didOpen`, `didChange`.
/// The first decoding of a `Decodable` type makes the runtime look for its coding keys' conformance among all of the
/// binary's (some 6,700 records, one scan per type): a fresh server's `initialize` alone paid 0.6 ms for its dozen
/// nested capability types (release build, perf samples of 40 starts), before it could answer.
protocol UsualShapeReadable: Decodable, Sendable {
  /// The message read from `params`; throws `UnusualShape` for anything `Decodable` must judge.
  init(usualParams params: JSON?) throws(UnusualShape)
}

/// The messages above, found by type without asking the runtime whether a type conforms (see
/// `textDocumentPositionRequests`).
let usualShapeMessages: [any UsualShapeReadable.Type] = [
  LSP.InitializeRequest.self, LSP.DidOpenTextDocumentNotification.self, LSP.DidChangeTextDocumentNotification.self,
]

extension UsualShapeReadable {
  /// The message read from `params` as an `R` (which it is: the caller asked with `R.self`), or nil when they do not
  /// have the usual shape.
  static func read<R>(as type: R.Type, _ params: JSON?) -> R? {
    (try? Self(usualParams: params)) as? R
  }
}

/// Thrown by a usual-shape reader: these params are for `Decodable` to judge.
struct UnusualShape: Error {}

/// How the readers take a value apart: each throws `UnusualShape` for a value of another kind.
enum Usual {
  static func object(_ json: JSON?) throws(UnusualShape) -> JSONObject {
    guard case .object(let object)? = json else { throw UnusualShape() }
    return object
  }

  static func string(_ json: JSON) throws(UnusualShape) -> String {
    guard case .string(let string) = json else { throw UnusualShape() }
    return string
  }

  static func bool(_ json: JSON) throws(UnusualShape) -> Bool {
    guard case .bool(let bool) = json else { throw UnusualShape() }
    return bool
  }

  /// An integer, but not 9.0, which `Decodable` accepts (it is read there).
  static func integer(_ json: JSON) throws(UnusualShape) -> Int {
    guard case .integer(let integer) = json else { throw UnusualShape() }
    return integer
  }

  static func uri(_ json: JSON) throws(UnusualShape) -> LSP.DocumentURI { LSP.DocumentURI(try string(json)) }

  static func array<Element>(_ json: JSON, _ element: (JSON) throws(UnusualShape) -> Element) throws(UnusualShape)
    -> [Element]
  {
    guard case .array(let elements) = json else { throw UnusualShape() }
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for value in elements { result.append(try element(value)) }
    return result
  }

  /// An optional member: absent and `null` are nil, as `Decodable` reads them.
  static func optional<Value>(
    _ object: JSONObject, _ key: String, _ read: (JSON) throws(UnusualShape) -> Value
  ) throws(UnusualShape) -> Value? {
    guard let value = object[key], !value.isNull else { return nil }
    return try read(value)
  }

  /// A required member.
  static func required<Value>(
    _ object: JSONObject, _ key: String, _ read: (JSON) throws(UnusualShape) -> Value
  ) throws(UnusualShape) -> Value {
    guard let value = object[key] else { throw UnusualShape() }
    return try read(value)
  }

  /// A position: non-negative integers only (`Position`'s own decoding rejects the rest).
  static func position(_ json: JSON) throws(UnusualShape) -> LSP.Position {
    let object = try Usual.object(json)
    let line = try required(object, "line", integer)
    let character = try required(object, "character", integer)
    guard line >= 0, character >= 0 else { throw UnusualShape() }
    return LSP.Position(line: line, character: character)
  }

  static func range(_ json: JSON) throws(UnusualShape) -> LSP.Range {
    let object = try Usual.object(json)
    return LSP.Range(start: try required(object, "start", position), end: try required(object, "end", position))
  }

  static func markupKinds(_ json: JSON) throws(UnusualShape) -> [LSP.MarkupKind] {
    try array(json) { value throws(UnusualShape) in LSP.MarkupKind(rawValue: try string(value)) }
  }
}

extension LSP.InitializeRequest: UsualShapeReadable {
  init(usualParams params: JSON?) throws(UnusualShape) {
    let object = try Usual.object(params)
    self.init(
      rootPath: try Usual.optional(object, "rootPath", Usual.string),
      rootUri: try Usual.optional(object, "rootUri", Usual.uri),
      initializationOptions: try Usual.optional(object, "initializationOptions") { $0 },
      capabilities: try Usual.optional(object, "capabilities", LSP.ClientCapabilities.init(usual:)),
      workspaceFolders: try Usual.optional(object, "workspaceFolders") { value throws(UnusualShape) in
        try Usual.array(value) { folder throws(UnusualShape) in
          let folder = try Usual.object(folder)
          return LSP.WorkspaceFolder(
            uri: try Usual.required(folder, "uri", Usual.uri), name: try Usual.required(folder, "name", Usual.string))
        }
      })
  }
}

extension LSP.ClientCapabilities {
  /// The parts of the capabilities the server reads (see the type); the rest of the tree is not looked at.
  init(usual json: JSON) throws(UnusualShape) {
    let object = try Usual.object(json)
    self.init()
    workspace = try Usual.optional(object, "workspace") { value throws(UnusualShape) in
      let object = try Usual.object(value)
      return Workspace(
        workspaceEdit: try Usual.optional(object, "workspaceEdit") { value throws(UnusualShape) in
          WorkspaceEditCapabilities(
            documentChanges: try Usual.optional(try Usual.object(value), "documentChanges", Usual.bool))
        },
        didChangeWatchedFiles: try Usual.optional(object, "didChangeWatchedFiles") { value throws(UnusualShape) in
          DynamicRegistration(
            dynamicRegistration: try Usual.optional(try Usual.object(value), "dynamicRegistration", Usual.bool))
        },
        inlayHint: try Usual.optional(object, "inlayHint", Self.refresh),
        codeLens: try Usual.optional(object, "codeLens", Self.refresh),
        diagnostics: try Usual.optional(object, "diagnostics", Self.refresh))
    }
    textDocument = try Usual.optional(object, "textDocument") { value throws(UnusualShape) in
      let object = try Usual.object(value)
      return TextDocument(
        completion: try Usual.optional(object, "completion") { value throws(UnusualShape) in
          Completion(
            completionItem: try Usual.optional(try Usual.object(value), "completionItem") { value throws(UnusualShape) in
              CompletionItem(
                documentationFormat: try Usual.optional(try Usual.object(value), "documentationFormat", Usual.markupKinds))
            })
        },
        hover: try Usual.optional(object, "hover") { value throws(UnusualShape) in
          Hover(contentFormat: try Usual.optional(try Usual.object(value), "contentFormat", Usual.markupKinds))
        },
        signatureHelp: try Usual.optional(object, "signatureHelp") { value throws(UnusualShape) in
          SignatureHelp(
            signatureInformation: try Usual.optional(try Usual.object(value), "signatureInformation") {
              value throws(UnusualShape) in
              SignatureInformation(
                documentationFormat: try Usual.optional(try Usual.object(value), "documentationFormat", Usual.markupKinds))
            })
        },
        diagnostic: try Usual.optional(object, "diagnostic") { value throws(UnusualShape) in
          Diagnostic(
            relatedDocumentSupport: try Usual.optional(try Usual.object(value), "relatedDocumentSupport", Usual.bool))
        })
    }
  }

  private static func refresh(_ json: JSON) throws(UnusualShape) -> Refresh {
    Refresh(refreshSupport: try Usual.optional(try Usual.object(json), "refreshSupport", Usual.bool))
  }
}

extension LSP.DidOpenTextDocumentNotification: UsualShapeReadable {
  init(usualParams params: JSON?) throws(UnusualShape) {
    let document = try Usual.object(try Usual.object(params)["textDocument"])
    self.init(
      textDocument: LSP.TextDocumentItem(
        uri: try Usual.required(document, "uri", Usual.uri),
        languageId: try Usual.required(document, "languageId", Usual.string),
        version: try Usual.required(document, "version", Usual.integer),
        text: try Usual.required(document, "text", Usual.string)))
  }
}

extension LSP.DidChangeTextDocumentNotification: UsualShapeReadable {
  init(usualParams params: JSON?) throws(UnusualShape) {
    let object = try Usual.object(params)
    let document = try Usual.object(object["textDocument"])
    self.init(
      textDocument: LSP.VersionedTextDocumentIdentifier(
        uri: try Usual.required(document, "uri", Usual.uri),
        version: try Usual.required(document, "version", Usual.integer)),
      contentChanges: try Usual.required(object, "contentChanges") { value throws(UnusualShape) in
        try Usual.array(value) { change throws(UnusualShape) in
          let change = try Usual.object(change)
          return LSP.TextDocumentContentChangeEvent(
            range: try Usual.optional(change, "range", Usual.range), text: try Usual.required(change, "text", Usual.string))
        }
      })
  }
}
