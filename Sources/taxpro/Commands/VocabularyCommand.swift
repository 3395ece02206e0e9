import TaxProCore

/// `taxpro vocabulary`: the core's tables — keywords, symbols, types, built-ins, diagnostic codes and the fields of a
/// documentation comment, a line each — for
/// the tests that hold the editor grammars, `grammar/taxpro.lark`, the fuzz dictionary and `docs/LANGUAGE.md` to them
/// (and `grammar/sync_vocabulary.py`, which writes the built-ins into the editor grammars). Not for people: hidden.
struct VocabularyCommand: Command {
  static let help = CommandHelp(
    name: "vocabulary", summary: "the language's keywords, symbols, types, built-ins and diagnostic codes",
    isHidden: true)

  init(_ arguments: ParsedArguments) throws(UsageError) {}

  func run() throws(UsageError) -> Int32 {
    Output.write(Vocabulary.listing)
    return 0
  }
}
