/// A `:command` as documentation outside the REPL sees it: the manual page lists the REPL's commands from the same
/// table `:help` reads, so the two cannot differ.
public struct REPLCommandDescription: Sendable, Equatable {
  /// `help`, without the colon.
  public var name: String
  public var aliases: [String]
  /// `[NAME]`, `EXPR`; empty when the command takes nothing.
  public var usage: String
  public var summary: String
  /// What `:help :name` adds after the summary; may be empty.
  public var details: String
}

extension REPLCommandDescription {
  /// Every command, in the order `:help` lists them.
  public static var all: [REPLCommandDescription] {
    CommandTable.all.map {
      REPLCommandDescription(
        name: $0.name, aliases: $0.aliases, usage: $0.usage, summary: $0.summary, details: $0.details)
    }
  }
}
