/// `taxpro man`: the manual page `taxpro(1)` in roff, from the command table, for `scripts/package` (and for
/// `taxpro man | man -l -` where no package installed it). Hidden: the page itself documents the commands.
struct ManualCommand: Command {
  static let help = CommandHelp(
    name: "man", summary: "the manual page taxpro(1), as roff",
    discussion: "Prints taxpro(1) made from the same table as --help; man -l - shows it.",
    examples: [HelpEntry(name: "taxpro man | man -l -", meaning: "read the manual without installing it")],
    isHidden: true)

  init(_ arguments: ParsedArguments) throws(UsageError) {}

  func run() throws(UsageError) -> Int32 {
    Output.write(ManPage.taxpro())
    return 0
  }
}
