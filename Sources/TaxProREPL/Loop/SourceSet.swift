import TaxProCore
import TaxProLibrary

/// The standard library and the files loaded with `:load`: what a session's base trees are made of.
struct SourceSet {
  struct LoadedFile {
    /// As the user wrote it, for messages and `:reload`.
    var path: String
    var tree: SyntaxTree
  }

  let library: [SyntaxTree]
  var files: [LoadedFile] = []

  init(library: [SyntaxTree]) {
    self.library = library
  }

  /// A loaded copy of a library file (the library being edited in a checkout) replaces the library's own.
  var trees: [SyntaxTree] {
    let replaced = Set(files.compactMap { StandardLibrary.libraryName(ofCopy: $0.path) })
    return library.filter { !replaced.contains($0.source.name) } + files.map(\.tree)
  }
}
