import Foundation
import TaxProCore
import TaxProLibrary

extension REPL {
  /// Loads files before the first prompt (`taxpro repl FILE…`); false when one of them could not be loaded.
  @discardableResult
  public func load(_ paths: [String]) -> Bool {
    var allLoaded = true
    for path in paths where !loadFile(path) { allLoaded = false }
    return allLoaded
  }

  func loadCommand(_ argument: String) {
    loadFile(REPL.unquoted(argument))
  }

  /// Adds (or replaces) one file; a file with errors is not taken and the session stays as it was.
  @discardableResult
  func loadFile(_ path: String) -> Bool {
    let expanded = REPL.expandingTilde(path)
    let bytes: [UInt8]
    do {
      bytes = try FileReading.contents(of: expanded)
    } catch {
      complain("cannot read '\(path)': \(error.reason)")
      return false
    }
    var candidate = sources
    let isReload = candidate.contains(path: path)
    let tree = candidate.importFile(path: path, bytes: bytes, location: expanded)
    guard adopt(candidate, checking: [tree.source.id]) else {
      complain("\(path) was not loaded" + (isReload ? "; the version loaded before stays" : ""))
      return false
    }
    let formulas = tree.declarations.filter { if case .formula = $0 { true } else { false } }.count
    say("\(isReload ? "reloaded" : "loaded") \(path): \(formulas) formula\(formulas == 1 ? "" : "s")")
    return true
  }

  func reloadCommand() {
    guard !sources.files.isEmpty else {
      note("no files are loaded; use :load FILE")
      return
    }
    var candidate = sources
    var ids: [FileID] = []
    for file in sources.files {
      let expanded = REPL.expandingTilde(file.path)
      let bytes: [UInt8]
      do {
        bytes = try FileReading.contents(of: expanded)
      } catch {
        complain("cannot read '\(file.path)': \(error.reason); nothing was reloaded")
        return
      }
      ids.append(candidate.importFile(path: file.path, bytes: bytes, location: expanded).source.id)
    }
    guard adopt(candidate, checking: ids) else {
      complain("nothing was reloaded; the files loaded before stay")
      return
    }
    say("reloaded \(candidate.files.map(\.path).joined(separator: ", "))")
  }

  /// Makes `candidate` the session's base unless the files in `checking` have errors; reports what it found.
  func adopt(_ candidate: SourceImporter, checking files: [FileID]) -> Bool {
    let errors = session.replaceBase(candidate.trees)
    let inFiles = errors.filter { files.contains($0.span.file) }
    if !inFiles.isEmpty {
      report(inFiles)
      _ = session.replaceBase(sources.trees)
      return false
    }
    sources = candidate
    // Something typed in earlier may now clash with the file (a formula of the same name): say so.
    report(errors)
    return true
  }

  func yearCommand(_ argument: String) {
    let years = session.program.years.map(String.init).joined(separator: ", ")
    guard !argument.isEmpty else {
      say("the tax year is \(style(String(session.year), .value))" + (years.isEmpty ? "" : " (figures for \(years))"))
      return
    }
    guard let year = Int(argument) else {
      complain("a year is a number such as 2025, not '\(argument)'")
      return
    }
    guard session.setYear(year) else {
      complain("there are no figures for \(year); the years with figures are \(years)")
      return
    }
    say("the tax year is now \(style(String(year), .value))")
  }

  static func expandingTilde(_ path: String) -> String {
    (path as NSString).expandingTildeInPath
  }

  /// `'my file.tax'` or `"my file.tax"` → `my file.tax`.
  static func unquoted(_ text: String) -> String {
    guard text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first else { return text }
    return String(text.dropFirst().dropLast())
  }
}
