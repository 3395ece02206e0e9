import TaxProCore

/// Something the REPL shows that has a form of its own besides its text: a value with its type, diagnostics with
/// their spans, an explanation's steps, a chart.
///
/// A terminal only ever sees the text. A front end that renders these itself (the JSON mode, for notebooks) sets the
/// REPL's `presenter` and gets each one as data, with the text the terminal would have shown, in the order they
/// happen; what a command only says in words (`:help`, `:year`) still goes through `REPLOutput` as text. So a new
/// command reaches every front end by writing text, and a command that draws calls `showImage` to reach those that
/// show images.
enum REPLDisplay {
  case value(Value)
  case definitions([SessionOutcome.Definition])
  case tests([TestOutcome])
  /// Problems with spans; never empty.
  case diagnostics([Diagnostic])
  /// An evaluation stopped by Ctrl-C (or the JSON mode's interrupt).
  case cancelled
  /// A command's complaint in words, without a span: "no such file", "usage: …".
  case problem(String)
  case explanation(expression: String, value: Value, steps: [ExplanationStep])
  /// An SVG image; the text says what it shows.
  case image(svg: String)
}

extension REPL {
  /// Whether the front end shows images: commands that draw then make SVG instead of characters.
  var showsImages: Bool { presenter != nil }

  /// Shows `item`: to the presenter when there is one, else as `text` on the stream it belongs to.
  func present(_ item: REPLDisplay, text: String) {
    if let presenter {
      presenter(item, text)
      return
    }
    switch item {
    case .diagnostics, .cancelled, .problem:
      output.writeError(text.hasSuffix("\n") ? text : text + "\n")
    default:
      say(text)
    }
  }

  /// Shows an SVG image where images are shown; `description` is its text (what a terminal or a reader without
  /// images gets). Call it only when `showsImages`: a terminal needs a drawing of its own.
  func showImage(svg: String, description: String) {
    present(.image(svg: svg), text: description)
  }
}
