import TaxProCore
import TaxProLibrary

/// What `taxpro --version` prints: the version, the commit it was built from (`BuildCommit`, written by the
/// `RecordBuildCommit` build plugin; `unknown` outside git) and the tax years whose figures it carries — what a bug
/// report needs to say which program and which figures gave an answer.
enum VersionText {
  static func text() -> String {
    var lines = ["taxpro \(TaxPro.version)", "commit \(BuildCommit.id)"]
    switch SourceImporter.standardLibrary() {
    case .success(let importer):
      let session = importer.session()
      KeptUntilExit.keep(session)
      let years = session.program.years.map(String.init).joined(separator: ", ")
      var line = "tax years " + (years.isEmpty ? "none" : years)
      if case .directory(let directory) = StandardLibrary.origin() { line += " (library from TAXPRO_LIBRARY=\(directory))" }
      lines.append(line)
    case .failure(let error):
      lines.append("tax years unknown: the standard library could not be loaded: \(error.message)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
