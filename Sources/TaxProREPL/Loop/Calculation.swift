import TaxProCore
import TaxProLibrary

/// The last thing computed, as `:save` keeps it.
///
/// `expression` is what was typed; `selfContained` has the session's values (`ans`, `let`s) written in as literals,
/// so it means the same thing later, when those names are gone or changed, and can still be explained.
struct Calculation {
  var expression: String
  var selfContained: String
  /// Each input's value as TaxPro source text, by name.
  var inputs: [String: String]
  var value: Value
  var year: Int
  /// Kept when it was already worked out (`:explain`, `:ask`); otherwise `:save` works it out.
  var explanation: String?

  init(expression: String, selfContained: String, inputs: [String: String], value: Value, year: Int) {
    self.expression = expression
    self.selfContained = selfContained
    self.inputs = inputs
    self.value = value
    self.year = year
  }

  /// An expression typed in, with the session values it names written in; `values` must be taken before the
  /// expression ran, since running it changes `ans`.
  init(expression: String, values: [String: Value], year: Int, value: Value) {
    let source = SourceFile(id: FileIDRange.standalone, name: "", text: expression)
    let tokens = Lexer.lex(source).tokens
    var text = ""
    var inputs: [String: String] = [:]
    var copied = 0
    let bytes = source.bytes
    for (index, token) in tokens.enumerated() where token.kind == .identifier {
      let name = String(decoding: bytes[token.range], as: UTF8.self)
      guard let value = values[name] else { continue }
      // A member (`x.name`) or an argument's label (`name: …`) is not the session's value.
      if index > 0, tokens[index - 1].kind == .dot { continue }
      if index + 1 < tokens.count, tokens[index + 1].kind == .colon { continue }
      let literal = ValueFormatter.literal(value)
      inputs[name] = literal
      text += String(decoding: bytes[copied..<token.range.lowerBound], as: UTF8.self)
      text += value.decimal.map { $0.isNegative } == true ? "(\(literal))" : literal
      copied = token.range.upperBound
    }
    text += String(decoding: bytes[copied...], as: UTF8.self)
    self.init(expression: expression, selfContained: text, inputs: inputs, value: value, year: year)
  }
}
