// Shared by the fuzz targets that check inputs with the standard library (compiled into each by build.sh).
import Foundation
import TaxProCore

/// The standard library's files parsed (from `TAXPRO_LIBRARY`, or the repository's sources), the interfaces and
/// `federal` first; `only` keeps just those files, in its order.
func parseLibraryFiles(only: [String]? = nil) -> [SyntaxTree] {
  let directory = ProcessInfo.processInfo.environment["TAXPRO_LIBRARY"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "../../Sources/TaxProLibrary/Resources"
    ).standardizedFileURL.path
  let all = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tax") }
  let order = ["interfaces.tax": 0, "federal.tax": 1]
  let names = only ?? all.sorted(by: { (order[$0] ?? 2, $0) < (order[$1] ?? 2, $1) })
  var trees: [SyntaxTree] = []
  for name in names {
    guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
    let source = SourceFile(id: FileID(trees.count), name: "<std>/" + name, text: String(decoding: data, as: UTF8.self))
    trees.append(Parser.parse(source))
  }
  if trees.isEmpty { fatalError("fuzz: no standard library in \(directory)") }
  return trees
}
