import Foundation
import TaxProCore
import TaxProLibrary

/// `taxpro fmt [--check] FILE…`.
struct FormatCommand: Command {
  static let help = CommandHelp(
    name: "fmt", summary: "format files in the canonical style",
    discussion: """
      Rewrites each file in the one canonical layout (the language server's too); - formats standard input to \
      standard output. A file with syntax errors is left as it is. With --check nothing is written: each file that \
      is not formatted is named, and the exit status is 1.
      """,
    arguments: [
      ArgumentSpec(
        name: "FILE", summary: "formula files, or - for standard input",
        kind: .file(extensions: ["tax"], standardInput: true), needed: "at least one file (or -)", repeats: true)
    ],
    options: [.check],
    exitStatuses: [
      ExitStatus(code: 0, meaning: "every file is formatted (or was rewritten)"),
      ExitStatus(code: 1, meaning: "a file has syntax errors, or with --check, is not formatted"),
      ExitStatus(code: 2, meaning: "a usage error, or a file that cannot be read or written"),
    ])

  var paths: [String]
  var check: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    paths = arguments.positionals
    check = arguments.has(.check)
  }

  /// Standard input can be read once.
  func validate() throws(UsageError) {
    if paths.filter({ $0 == "-" }).count > 1 { throw UsageError(message: "fmt reads standard input once: give - once") }
  }

  /// Formats files in place (or checks that they are formatted); `-` formats standard input to standard output.
  func run() throws(UsageError) -> Int32 {
    var status: Int32 = 0
    for path in paths {
      let text: String
      if path == "-" {
        text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      } else {
        guard let data = FileManager.default.contents(atPath: path) else {
          throw UsageError(message: "cannot read '\(path)'")
        }
        text = String(decoding: data, as: UTF8.self)
      }
      let source = SourceFile(id: FileIDRange.standalone, name: path == "-" ? "<stdin>" : path, text: text)
      let tree = Parser.parse(source)
      if tree.diagnostics.hasErrors {
        Output.writeError(Output.renderer([source.id: source]).render(tree.diagnostics))
        Output.writeError("\(source.name): not formatted: it has syntax errors\n")
        status = 1
        continue
      }
      let formatted = Formatter.format(tree)
      if path == "-" {
        Output.write(formatted)
      } else if formatted != text {
        if check {
          Output.writeError("\(path): not formatted\n")
          status = 1
        } else {
          do {
            try Data(formatted.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
          } catch {
            throw UsageError(message: "cannot write '\(path)': \(error.localizedDescription)")
          }
        }
      }
    }
    return status
  }
}

extension OptionSpec {
  static let check = OptionSpec(name: "--check", summary: "write nothing; name each file that is not formatted")
}
