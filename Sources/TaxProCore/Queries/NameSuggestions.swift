/// "Did you mean" for front ends: the same edit-distance rule the checker uses for its hints, so the REPL's unknown
/// commands and the checker's unknown names are corrected alike.
public enum NameSuggestions {
  /// The closest candidate when it is close enough to be a likely typo; a difference of case alone always matches.
  public static func closest(to name: String, among candidates: [String]) -> String? {
    Suggestions.closest(to: name, among: candidates)
  }
}
