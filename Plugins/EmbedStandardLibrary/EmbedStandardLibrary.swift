import Foundation
import PackagePlugin

/// Compiles the standard library's `.tax` files into the `TaxProLibrary` module, so that one `taxpro` binary carries
/// its library wherever it is copied or linked (as Numbat carries its prelude). The files stay the source of truth in
/// `Sources/TaxProLibrary/Resources/`; `LibraryEmbedder` turns them into `EmbeddedLibrary.swift` at build time.
@main
struct EmbedStandardLibrary: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let resources = target.directoryURL.appending(path: "Resources")
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedLibrary.swift")
    return [
      .buildCommand(
        displayName: "Embedding the standard library",
        executable: try context.tool(named: "LibraryEmbedder").url,
        arguments: [resources.path, output.path],
        inputFiles: libraryFiles(under: resources),
        outputFiles: [output]
      )
    ]
  }

  /// Every `.tax` file of the library and its tests: a change to any of them regenerates the embedded copy.
  private func libraryFiles(under directory: URL) -> [URL] {
    var found: [URL] = []
    for folder in [directory, directory.appending(path: "tests")] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      found += names.filter { $0.hasSuffix(".tax") }.sorted().map { folder.appending(path: $0) }
    }
    return found
  }
}
