import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary

/// Writes ProgramDump texts of every file listed in TAXPRO_DUMP_INPUTS (one path a line) to TAXPRO_DUMP_DIR.
@Test func dumpForComparison() throws {
  let environment = ProcessInfo.processInfo.environment
  guard let directory = environment["TAXPRO_DUMP_DIR"], let list = environment["TAXPRO_DUMP_INPUTS"] else { return }
  let paths = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").map(String.init)
  let library = StandardLibrary.trees()
  let libraryProgram = Checker.check(library)
  try ProgramDump.program(libraryProgram).write(toFile: directory + "/library.dump", atomically: true, encoding: .utf8)
  for (number, path) in paths.enumerated() {
    let data = FileManager.default.contents(atPath: path) ?? Data()
    let text = String(decoding: data, as: UTF8.self)
    let id = FileID(library.count)
    let tree = Parser.parse(SourceFile(id: id, name: path, text: text))
    let interactive = Parser.parse(SourceFile(id: id, name: path, text: text), mode: .interactive)
    let program = Checker.check(library + [tree])
    var output = ProgramDump.tree(tree) + "interactive\n" + ProgramDump.tree(interactive)
    output += ProgramDump.program(program, files: [id])
    try output.write(toFile: directory + "/\(number).dump", atomically: true, encoding: .utf8)
  }
}
