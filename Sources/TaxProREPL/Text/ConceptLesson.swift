import TaxProCore

/// A lesson on one idea of tax (brackets, the clawback, the dividend gross-up), written for someone who has never
/// filed a return: definition → the inputs → a worked example with the one or two steps that matter → a tip → a
/// line to type. It fits one screen of 40 lines at 80 columns; `more` holds what does not.
///
/// The words are written here; every figure is computed when the lesson is shown, by the language, from the
/// standard library for the session's year. A template's `{EXPR}` is an expression whose value is printed in its
/// place; the names in `given` stand for the example's inputs (`income` for `$85,000`) inside them.
struct ConceptLesson: Sendable {
  /// What `:lesson NAME` calls it.
  var name: String
  var title: String
  /// Other words that find it (`clawback`, `oas`, `old age security`), lower case.
  var words: [String]
  var definition: String
  var inputs: String
  /// The example's inputs: each a name and an expression (`income`, `federal.oas_recovery_threshold + $20,000`),
  /// worked out in order; later ones may use earlier ones.
  var given: [(name: String, expression: String)]
  var example: [LessonBlock]
  var tip: String
  /// A line to type at the prompt to try it yourself.
  var tryIt: String
  /// Glossary terms the lesson uses (`:glossary TERM`).
  var terms: [String]
  /// The library formulas the lesson is about, for `:lesson NAME more`.
  var formulas: [String]
  /// Formulas whose notes (what they leave out, what they estimate) are said under the example, where its figures
  /// are: the first sentence of each; `more` has them whole.
  var limits: [String] = []
  /// A line chart of the example as an input grows, offered in `more` as the `:plot` line that draws it. (The parts
  /// of the example's result are drawn in the example itself, by a `.chart` block.)
  var chart: LessonChart? = nil
  /// Shown by `:lesson NAME more`.
  var more: [LessonBlock] = []
}

/// One piece of a worked example.
enum LessonBlock: Sendable {
  /// A paragraph (a template).
  case text(String)
  /// Rows of template cells under an optional header; amounts line up on the right.
  case table(header: [String], rows: [[String]])
  /// The summarised explanation of an expression (a template): the steps that change its result, the result and
  /// what the formula leaves out.
  case explain(String)
  /// The bracket table of `tax(TABLE, AMOUNT)` (a template): each bracket reached, its slice and its tax.
  case brackets(String)
  /// The parts of a formula call (a template) as `taxpro chart` and `:chart` draw them in a terminal: one bar per
  /// part, at the lesson's width, in colour only where the REPL uses colour.
  case chart(String)
}

/// A chart of a lesson's example: `expression` as `variable` goes from `from` to `to` (all templates), with a caption.
/// The REPL's `:plot` can draw it today (`plotCommand`); a lesson shows it as the command that draws it.
struct LessonChart: Sendable {
  var expression: String
  var variable: String
  var from: String
  var to: String
  var caption: String

  /// The `:plot` line that draws it.
  var plotCommand: String { ":plot \(expression) over \(variable) from \(from) to \(to)" }
}

/// Fills a lesson's templates with values the language computes.
struct LessonTemplates {
  /// Evaluates a self-contained expression (no session names), or says why it could not.
  var evaluate: (String) -> Result<Value, LessonProblem>
  /// The literal text of each given name, in order of definition.
  var given: [(name: String, literal: String)] = []
  var program: Program

  /// Works out the given names in order; a problem stops at the first one that fails.
  mutating func define(_ given: [(name: String, expression: String)]) -> LessonProblem? {
    for (name, expression) in given {
      switch evaluate(substitute(expression)) {
      case .success(let value):
        self.given.append((name, REPL.exampleLiteral(value)))
      case .failure(let problem): return problem
      }
    }
    return nil
  }

  /// `expression` with the given names replaced by their values' literals (whole names only, not after a `.`).
  func substitute(_ expression: String) -> String {
    guard !given.isEmpty else { return expression }
    var result = ""
    let characters = Array(expression)
    var index = 0
    var inString = false
    while index < characters.count {
      let character = characters[index]
      if character == "\"" { inString.toggle() }
      guard !inString, character == "_" || character.isLetter else {
        result.append(character)
        index += 1
        continue
      }
      var end = index
      while end < characters.count, characters[end] == "_" || characters[end].isLetter || characters[end].isNumber {
        end += 1
      }
      let word = String(characters[index..<end])
      let afterDot = index > 0 && characters[index - 1] == "."
      let isArgumentName = end < characters.count && characters[end] == ":"
      if !afterDot, !isArgumentName, let literal = given.last(where: { $0.name == word })?.literal {
        result += literal
      } else {
        result += word
      }
      index = end
    }
    return result
  }

  /// A template with each `{EXPR}` replaced by its value as TaxPro prints it (a province by its full name).
  func fill(_ template: String) -> Result<String, LessonProblem> {
    var result = ""
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
      result += rest[..<open]
      guard let close = rest[open...].firstIndex(of: "}") else {
        return .failure(LessonProblem(message: "a '{' without its '}' in the lesson's text"))
      }
      let expression = String(rest[rest.index(after: open)..<close])
      switch evaluate(substitute(expression)) {
      case .success(let value): result += display(value)
      case .failure(let problem): return .failure(problem)
      }
      rest = rest[rest.index(after: close)...]
    }
    return .success(result + rest)
  }

  func display(_ value: Value) -> String {
    if case .province(let code) = value { return program.jurisdictions[code]?.fullName ?? code }
    return ValueFormatter.format(value)
  }
}

/// Why a lesson's example could not be worked out (a formula it needs is missing, a figure has no value this year).
struct LessonProblem: Error, Sendable {
  var message: String
}

extension ConceptLesson {
  /// A word as lessons and terms are matched: lower case, single spaces, `-` and `_` as spaces, no final "s".
  static func normalised(_ word: String) -> String {
    var text = word.lowercased().map { $0 == "-" || $0 == "_" ? " " : $0 }.reduce(into: "") { $0.append($1) }
    text = text.split(separator: " ").joined(separator: " ")
    if text.count > 3, text.hasSuffix("s"), !text.hasSuffix("ss") { text.removeLast() }
    return text
  }

  /// The lesson a word names: its name, or one of its words.
  static func named(_ word: String) -> ConceptLesson? {
    let wanted = normalised(word)
    return all.first { normalised($0.name) == wanted } ?? all.first { lesson in
      lesson.words.contains { normalised($0) == wanted }
    }
  }
}
