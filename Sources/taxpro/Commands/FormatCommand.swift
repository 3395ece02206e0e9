import Foundation
import TaxProCore
import TaxProLibrary
import TaxProREPL

/// `taxpro fmt [--check] FILE…`.
struct FormatCommand: Command {
  static let help = CommandHelp(
    name: "fmt", summary: "format files in the canonical style",
    discussion: """
      Rewrites each file in the one canonical layout (the language server's too); - formats standard input to \
      standard output. A file with syntax errors, or that is not UTF-8 text, is left as it is. A rewrite keeps the \
      file's mode, owner and links (a symbolic link is written through); anything but a regular file is refused. \
      With --check nothing is written: each file that is not formatted is named, and the exit status is 1.
      """,
    arguments: [
      ArgumentSpec(
        name: "FILE", summary: "formula files, or - for standard input",
        kind: .file(extensions: ["tax"], standardInput: true), needed: "at least one file (or -)", repeats: true)
    ],
    options: [.check],
    exitStatuses: [
      ExitStatus(code: 0, meaning: "every file is formatted (or was rewritten)"),
      ExitStatus(code: 1, meaning: "a file has syntax errors or is not UTF-8, or with --check, is not formatted"),
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
      let bytes: [UInt8]
      if path == "-" {
        bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
      } else {
        do {
          bytes = try FileReading.contents(of: path)
        } catch {
          throw UsageError(message: error.description)
        }
      }
      let name = path == "-" ? "<stdin>" : path
      // Latin-1 bytes would come back as U+FFFD: refused, never rewritten.
      if let bad = FileReading.firstInvalidUTF8(bytes) {
        let byte = String(bad.byte, radix: 16, uppercase: true)
        Output.writeError(
          "\(name):\(bad.line):\(bad.column): error: not valid UTF-8 (byte 0x\(byte)); TaxPro files are UTF-8 text\n"
            + "\(name): not formatted: it would have to be rewritten with replacement characters\n")
        status = 1
        continue
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let source = SourceFile(id: FileIDRange.standalone, name: name, text: text)
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
            try AtomicFile.write(Data(formatted.utf8), to: path, permissions: 0o644)
          } catch {
            throw UsageError(message: "cannot write '\(path)': \(error.reason)")
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
