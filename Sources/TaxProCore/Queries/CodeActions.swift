/// Code actions: the fixes that diagnostics carry ("did you mean", "add the missing parameter", "write `$1200`"),
/// offered where the cursor or selection meets the diagnostic.
public struct CodeActionInfo: Sendable, Equatable {
  public var title: String
  /// The diagnostic the fix resolves.
  public var diagnostic: Diagnostic
  public var replacements: [TextReplacement]
  /// True when the fix is the diagnostic's only one, so an editor may apply it without asking.
  public var isPreferred: Bool
}

/// The fixes are the checker's own (`Diagnostic.fixes`): an editor offers exactly what `taxpro check` suggests.
public enum CodeActions {
  /// Fixes of the diagnostics of `file` that touch `range` (byte offsets), in diagnostic order.
  public static func fixes(for diagnostics: [Diagnostic], in file: FileID, range: Range<Int>) -> [CodeActionInfo] {
    var result: [CodeActionInfo] = []
    for diagnostic in diagnostics where diagnostic.span.file == file && !diagnostic.fixes.isEmpty {
      let span = diagnostic.span
      guard span.start <= range.upperBound && span.end >= range.lowerBound else { continue }
      for fix in diagnostic.fixes {
        result.append(
          CodeActionInfo(
            title: fix.title, diagnostic: diagnostic, replacements: fix.replacements,
            isPreferred: diagnostic.fixes.count == 1))
      }
    }
    return result
  }
}
