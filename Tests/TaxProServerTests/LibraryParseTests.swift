import Foundation
import TaxProCore
@testable import TaxProLibrary
import Testing

@testable import TaxProServer

/// The server parses the library on a thread of its own (`LibraryParse`); the trees it hands out, to whichever thread
/// asks first, are the ones a parse on the spot gives, with each file's id its position.
struct LibraryParseTests {
  @Test func theTreesAreTheLibraryParsedInPlace() {
    let files = StandardLibrary.files()
    #expect(!files.isEmpty)
    let parse = LibraryParse(files)
    let expected = StandardLibrary.parse(files, firstFileID: FileIDRange.library.lowerBound)
    // Asked from several threads at once, while the parse may still run.
    let group = DispatchGroup()
    let lock = NSLock()
    nonisolated(unsafe) var answers: [[SyntaxTree]] = []
    for _ in 0..<4 {
      DispatchQueue.global().async(group: group) {
        let trees = parse.trees
        lock.lock()
        answers.append(trees)
        lock.unlock()
      }
    }
    group.wait()
    #expect(parse.isDone)
    #expect(answers.count == 4)
    for trees in answers {
      #expect(trees.map(\.source.id) == expected.map(\.source.id))
      #expect(trees.map(\.source.bytes) == expected.map(\.source.bytes))
      #expect(trees.map(\.declarations.count) == expected.map(\.declarations.count))
      #expect(trees.map(\.diagnostics.count) == expected.map(\.diagnostics.count))
    }
  }

  @Test func noFilesIsDoneAtOnce() {
    let parse = LibraryParse([])
    #expect(parse.isDone)
    #expect(parse.trees.isEmpty)
  }

  /// The workspace's program reads the library's trees through the parse: the same trees, in the same order.
  @Test func theWorkspaceChecksTheParsedLibrary() {
    let files = StandardLibrary.files()
    let workspace = Workspace(library: files)
    let trees = workspace.programTrees()
    #expect(trees.map(\.source.id) == (0..<files.count).map(FileID.init))
    #expect(trees.map(\.source.name) == files.map(\.name))
  }
}
