// Wrapping and tables are the core's `TextLayout` (shared with the explanation renderer and the command line);
// these are the small string helpers the REPL's text uses.

extension String {
  var trimmingTrailingSpaces: String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}

extension StringProtocol {
  /// Without leading and trailing white space.
  var trimmed: String {
    var copy = Substring(self)
    while let first = copy.first, first.isWhitespace { copy.removeFirst() }
    while let last = copy.last, last.isWhitespace { copy.removeLast() }
    return String(copy)
  }
}
