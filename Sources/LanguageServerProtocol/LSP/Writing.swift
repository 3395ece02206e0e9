import JSONValue

// The replies on the latency path write themselves (`JSONWritable`): hover, completion, and what they and
// go-to-definition are made of, and the `initialize` result, which every session waits for before anything else.
// Each writes its members in declaration order, as the synthesized `encode(to:)` does, and leaves a `nil` optional
// out; `JSONWritableTests` holds each to `JSONStreamEncoder`'s bytes. So do the replies whose size grows with the
// document (below). The other messages keep only `Codable`: they are small, or not answered while the user types.

/// An open enumeration is written as its raw value, as `RawRepresentable`'s `Codable` conformance does.
extension OpenEnumeration where RawValue: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { rawValue.writeJSON(to: &writer) }
}

extension LSP.DocumentURI: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) { writer.string(stringValue) }
}

extension LSP.Position: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("line", line)
      $0.member("character", character)
    }
  }
}

extension LSP.Range: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("start", start)
      $0.member("end", end)
    }
  }
}

extension LSP.Location: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("uri", uri)
      $0.member("range", range)
    }
  }
}

extension LSP.TextEdit: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("range", range)
      $0.member("newText", newText)
    }
  }
}

extension LSP.MarkupKind: JSONWritable {}

extension LSP.MarkupContent: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("kind", kind)
      $0.member("value", value)
    }
  }
}

extension LSP.StringOrMarkupContent: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    switch self {
    case .string(let text): writer.string(text)
    case .markupContent(let content): content.writeJSON(to: &writer)
    }
  }
}

extension LSP.Hover: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("contents", contents)
      $0.member("range", range)
    }
  }
}

extension LSP.CompletionItemKind: JSONWritable {}

extension LSP.CompletionItem: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("label", label)
      $0.member("kind", kind)
      $0.member("detail", detail)
      $0.member("documentation", documentation)
      $0.member("sortText", sortText)
      $0.member("filterText", filterText)
      $0.member("textEdit", textEdit)
    }
  }
}

extension LSP.CompletionList: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("isIncomplete", isIncomplete)
      $0.member("items", items)
    }
  }
}

/// The `initialize` result: written through `Codable` (the capabilities a tree of some sixty values, each through a
/// container of its own), it took 1.4 ms of a fresh server's 7.8 ms to its answer, median of 30 (4,000-line document
/// opened next, release build); what the client sends next waits for it.
extension LSP.InitializeResult: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("capabilities", capabilities)
      $0.member("serverInfo", serverInfo)
    }
  }
}

extension LSP.ServerInfo: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("name", name)
      $0.member("version", version)
    }
  }
}

// The options the server announces its requests with (`MessageTable.on(_:options:_:)`) write themselves too, and the
// table reads the text back as a tree. Encoded through `Codable`, each type's first encoding made the runtime look up
// its coding keys' conformances among all of the binary's (some 6,700, one scan per type): the table a fresh server
// builds before it can answer `initialize` took 1.5 ms the first time and 0.1 ms the second (release build, medians
// of 30). A fresh server's first open of 4,000 lines: 16.7 ms before, 16.0 after (medians of 200, interleaved).

extension LSP.PositionEncodingKind: JSONWritable {}

extension LSP.TextDocumentSyncKind: JSONWritable {}

extension LSP.CodeActionKind: JSONWritable {}

extension LSP.TextDocumentSyncOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("openClose", openClose)
      $0.member("change", change)
    }
  }
}

extension LSP.CompletionOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("triggerCharacters", triggerCharacters)
      $0.member("resolveProvider", resolveProvider)
    }
  }
}

extension LSP.SignatureHelpOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("triggerCharacters", triggerCharacters)
      $0.member("retriggerCharacters", retriggerCharacters)
    }
  }
}

extension LSP.CodeActionOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object { $0.member("codeActionKinds", codeActionKinds) }
  }
}

extension LSP.ResolveOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object { $0.member("resolveProvider", resolveProvider) }
  }
}

extension LSP.RenameOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object { $0.member("prepareProvider", prepareProvider) }
  }
}

extension LSP.ExecuteCommandOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object { $0.member("commands", commands) }
  }
}

extension LSP.SemanticTokensLegend: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("tokenTypes", tokenTypes)
      $0.member("tokenModifiers", tokenModifiers)
    }
  }
}

extension LSP.SemanticTokensOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("legend", legend)
      $0.member("full", full)
    }
  }
}

extension LSP.DiagnosticOptions: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("identifier", identifier)
      $0.member("interFileDependencies", interFileDependencies)
      $0.member("workspaceDiagnostics", workspaceDiagnostics)
    }
  }
}

// Diagnostics, pushed after every check (`Connection.send(_:)` writes a notification that writes itself without a
// tree in between): through `Codable`, a fresh server's first push paid a conformance scan per type on the way to
// the first diagnostics the editor shows, and every push built the whole tree of its diagnostics first.

extension LSP.DiagnosticSeverity: JSONWritable {}

extension LSP.DiagnosticRelatedInformation: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("location", location)
      $0.member("message", message)
    }
  }
}

extension LSP.Diagnostic: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("range", range)
      $0.member("severity", severity)
      $0.member("code", code)
      $0.member("source", source)
      $0.member("message", message)
      $0.member("relatedInformation", relatedInformation)
    }
  }
}

extension LSP.PublishDiagnosticsNotification: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("uri", uri)
      $0.member("version", version)
      $0.member("diagnostics", diagnostics)
    }
  }
}

// The replies an editor asks for again after every change, or every move of the cursor, whose size grows with the
// document: through `Codable`, the semantic tokens of a 40,000-line document (1.5 million integers) took a third of
// their request's 220 ms, and its symbols, folding ranges, lenses and highlights were written member by member too.

extension LSP.SemanticTokens: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object { $0.member("data", data) }
  }
}

extension LSP.SymbolKind: JSONWritable {}

extension LSP.DocumentSymbol: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("name", name)
      $0.member("detail", detail)
      $0.member("kind", kind)
      $0.member("range", range)
      $0.member("selectionRange", selectionRange)
      $0.member("children", children)
    }
  }
}

extension LSP.WorkspaceSymbol: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("name", name)
      $0.member("kind", kind)
      $0.member("containerName", containerName)
      $0.member("location", location)
    }
  }
}

extension LSP.FoldingRangeKind: JSONWritable {}

extension LSP.FoldingRange: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("startLine", startLine)
      $0.member("endLine", endLine)
      $0.member("kind", kind)
    }
  }
}

extension LSP.DocumentHighlightKind: JSONWritable {}

extension LSP.DocumentHighlight: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("range", range)
      $0.member("kind", kind)
    }
  }
}

extension LSP.Command: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("title", title)
      $0.member("command", command)
      $0.member("arguments", arguments)
    }
  }
}

extension LSP.CodeLens: JSONWritable {
  public func writeJSON(to writer: inout JSONWriter) {
    writer.object {
      $0.member("range", range)
      $0.member("command", command)
    }
  }
}
