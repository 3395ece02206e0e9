import LanguageServerProtocol
import TaxProCore

extension LanguageServer {
  /// `textDocument/formatting`: the canonical layout of the core's formatter, as one edit covering only the part
  /// that changed (so the cursor and folds outside it stay put). A file with syntax errors is left alone, and the user
  /// is told why (`window/showMessage`), since an empty answer alone looks like "already formatted".
  func formatting(_ request: LSP.DocumentFormattingRequest) -> [LSP.TextEdit]? {
    guard let (tree, source) = formattable(request.textDocument) else { return nil }
    guard !refuseToFormat(tree) else { return [] }
    guard let edit = LanguageServer.minimalEdit(from: source, in: 0..<source.bytes.count, to: Formatter.format(tree))
    else { return [] }
    return [edit]
  }

  /// `textDocument/rangeFormatting`: the top-level declarations the range touches, laid out as `formatting` lays them
  /// out, and nothing else. Each is formatted as a file of its own (with the comments above it), which gives the text
  /// formatting the whole file gives it: the layout of a declaration depends on nothing outside it, and blank lines
  /// between declarations are left as they are.
  func rangeFormatting(_ request: LSP.DocumentRangeFormattingRequest) -> [LSP.TextEdit]? {
    guard let (tree, source) = formattable(request.textDocument) else { return nil }
    guard !refuseToFormat(tree) else { return [] }
    let selection = source.byteRange(of: request.range)
    guard let region = LanguageServer.declarationRegion(tree, touching: selection) else { return [] }
    let text = String(decoding: source.bytes[region], as: UTF8.self)
    guard let edit = LanguageServer.minimalEdit(from: source, in: region, to: Formatter.format(text)) else { return [] }
    return [edit]
  }

  private func formattable(_ document: LSP.TextDocumentIdentifier) -> (SyntaxTree, LineMap)? {
    guard let id = workspace.id(for: document.uri), let tree = workspace.tree(id) else { return nil }
    return (tree, LineMap(tree.source))
  }

  /// Whether the tree has syntax errors, which the formatter leaves alone; if so, says so to the user.
  private func refuseToFormat(_ tree: SyntaxTree) -> Bool {
    guard let error = tree.diagnostics.first(where: { $0.severity == .error }) else { return false }
    let line = tree.source.lineColumn(of: error.span.start).line
    let name = tree.source.name.split(separator: "/").last.map(String.init) ?? tree.source.name
    connection?.send(
      LSP.ShowMessageNotification(
        type: .warning, message: "TaxPro: \(name) was not formatted: line \(line) has a syntax error (\(error.message))"))
    return true
  }

  /// The bytes of the top-level declarations that `selection` touches: from the end of the declaration before the
  /// first (so its comments come along, but not the blank lines after that declaration) to the end of the last one's
  /// line. Nil when the selection touches no declaration.
  static func declarationRegion(_ tree: SyntaxTree, touching selection: Range<Int>) -> Range<Int>? {
    let bytes = tree.source.bytes
    let declarations = tree.declarations.map(\.span)
    let touched = declarations.indices.filter { index in
      let span = declarations[index]
      return span.start <= selection.upperBound && selection.lowerBound <= span.end
    }
    guard let first = touched.first, let last = touched.last else { return nil }
    let target = declarations[first].start
    func lineEnd(_ offset: Int) -> Int {
      var index = offset
      while index < bytes.count, bytes[index] != 10 { index += 1 }
      return index
    }
    // After the previous declaration's line (a comment at its end stays with it), then past the blank lines.
    var start = first > 0 ? min(lineEnd(declarations[first - 1].end) + 1, target) : 0
    while start < target, bytes[start..<lineEnd(start)].allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
      start = min(lineEnd(start) + 1, target)
    }
    let end = min(lineEnd(declarations[last].end) + 1, bytes.count)
    return start..<max(start, end)
  }

  /// One edit that turns `source` into `target`.
  static func minimalEdit(from source: LineMap, to target: String) -> LSP.TextEdit? {
    minimalEdit(from: source, in: 0..<source.bytes.count, to: target)
  }

  /// One edit that turns `region` of `source` into `target`: the common prefix and suffix are kept, cut at scalar
  /// boundaries. Nil when nothing changes.
  static func minimalEdit(from source: LineMap, in region: Range<Int>, to target: String) -> LSP.TextEdit? {
    let old = source.bytes[region]
    let new = Array(target.utf8)
    if old.elementsEqual(new) { return nil }
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[region.lowerBound + prefix] == new[prefix] { prefix += 1 }
    while prefix > 0, prefix < old.count, old[region.lowerBound + prefix] & 0xC0 == 0x80 { prefix -= 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[region.upperBound - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    while suffix > 0, suffix < old.count, old[region.upperBound - suffix] & 0xC0 == 0x80 { suffix -= 1 }
    let range = source.range(
      of: Span(file: source.source.id, start: region.lowerBound + prefix, end: region.upperBound - suffix))
    let replacement = String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self)
    return LSP.TextEdit(range: range, newText: replacement)
  }
}
