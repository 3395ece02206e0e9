import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// `textDocument/formatting`: the canonical layout of the core's formatter, as one edit covering only the part
  /// that changed (so the cursor and folds outside it stay put). A file with syntax errors is left alone.
  func formatting(_ request: LSP.DocumentFormattingRequest) -> [LSP.TextEdit]? {
    guard let id = workspace.id(for: request.textDocument.uri), let tree = workspace.tree(id) else { return nil }
    if tree.diagnostics.hasErrors { return [] }
    let formatted = Formatter.format(tree)
    guard let edit = LanguageServer.minimalEdit(from: LineMap(tree.source), to: formatted) else { return [] }
    return [edit]
  }

  /// One edit that turns `source` into `target`: the common prefix and suffix are kept, cut at scalar boundaries.
  static func minimalEdit(from source: LineMap, to target: String) -> LSP.TextEdit? {
    let old = source.bytes
    let new = Array(target.utf8)
    if old == new { return nil }
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    while prefix > 0, prefix < old.count, old[prefix] & 0xC0 == 0x80 { prefix -= 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    while suffix > 0, old.count - suffix < old.count, old[old.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
    let range = source.range(of: Span(file: source.source.id, start: prefix, end: old.count - suffix))
    let replacement = String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self)
    return LSP.TextEdit(range: range, newText: replacement)
  }
}
