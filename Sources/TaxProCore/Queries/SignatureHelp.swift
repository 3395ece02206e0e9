/// Signature help: while arguments are typed, which formula or built-in is being called and which parameter the
/// cursor is on.
///
/// It reads tokens, not the tree, because the call being typed is unfinished (`tax(ON.income_tax, `) and the parser
/// has already turned it into an error.
public struct SignatureInfo: Sendable, Equatable {
  /// A parameter and where its text is in the label, so an editor can highlight the active one.
  public struct ParameterSlot: Sendable, Equatable {
    /// Where the parameter is within `label`, in UTF-8 bytes (front ends convert to their own units).
    public var labelRange: Range<Int>
    public var name: String
    public var documentation: String?
  }
  /// `provincial_tax(income: Money, province: Province): Money`.
  public var label: String
  public var parameters: [ParameterSlot]
  /// Nil when the cursor is past the last parameter.
  public var activeParameter: Int?
  public var documentation: String?
}

/// Signature help reads the text, so it needs no fresh check while the user types.
public enum SignatureHelp {
  /// How far back from the cursor the call is looked for; a call's arguments rarely span more.
  static let window = 16_384

  /// The call enclosing `offset` in `text`, or nil outside any call of a known formula or built-in.
  public static func info(text: String, offset: Int, program: Program) -> SignatureInfo? {
    let bytes = Array(text.utf8)
    let cursor = max(0, min(offset, bytes.count))
    // Lex from a line start (strings and comments end at line ends, so a line start is always a token boundary).
    var start = max(0, cursor - window)
    while start > 0, bytes[start - 1] != 10, bytes[start - 1] != 13 { start -= 1 }
    let slice = String(decoding: bytes[start..<cursor], as: UTF8.self)
    let tokens = Lexer.lex(SourceFile(id: FileID(-1), name: "", text: slice)).tokens.filter {
      $0.kind != .endOfFile && $0.kind != .newline
    }
    guard let call = enclosingCall(tokens) else { return nil }
    let sliceBytes = Array(slice.utf8)
    func spelled(_ token: Token) -> String { String(decoding: sliceBytes[token.range], as: UTF8.self) }
    let callee = spelled(tokens[call.calleeIndex])
    let label = call.label.map(spelled)
    if let formula = program.formula(named: callee) {
      return formulaSignature(formula, argument: call.argumentIndex, label: label)
    }
    if let builtin = Builtin(rawValue: callee) {
      return builtinSignature(builtin, argument: call.argumentIndex)
    }
    return nil
  }

  struct Call {
    var calleeIndex: Int
    var argumentIndex: Int
    /// The label of the argument being typed (`income` in `f(income: `).
    var label: Token?
  }

  /// Walks back from the end to the innermost unclosed `(` that follows a name (and is not a formula's parameter list).
  static func enclosingCall(_ tokens: [Token]) -> Call? {
    var depth = 0
    var commas = 0
    var lastCommaIndex = tokens.count
    var index = tokens.count - 1
    while index >= 0 {
      let token = tokens[index]
      switch token.kind {
      case .rightParen:
        depth += 1
      case .leftParen:
        if depth == 0 {
          guard index > 0, tokens[index - 1].kind == .identifier else {
            // A parenthesized expression: the call, if any, is further out.
            commas = 0
            lastCommaIndex = index
            break
          }
          if index > 1, tokens[index - 2].kind == .kwFormula { return nil }
          var label: Token? = nil
          let argumentStart = commas == 0 ? index + 1 : lastCommaIndex + 1
          if argumentStart + 1 < tokens.count, tokens[argumentStart].kind == .identifier,
            tokens[argumentStart + 1].kind == .colon
          {
            label = tokens[argumentStart]
          }
          return Call(calleeIndex: index - 1, argumentIndex: commas, label: label)
        }
        depth -= 1
      case .comma:
        if depth == 0 {
          if commas == 0 { lastCommaIndex = index }
          commas += 1
        }
      case .leftBrace, .rightBrace, .kwFormula, .kwLet:
        if depth == 0 { return nil }
      default:
        break
      }
      index -= 1
    }
    return nil
  }

  static func formulaSignature(_ formula: FormulaInfo, argument: Int, label: String?) -> SignatureInfo {
    var text = formula.name + "("
    var slots: [SignatureInfo.ParameterSlot] = []
    for (position, parameter) in formula.parameters.enumerated() {
      if position > 0 { text += ", " }
      var piece = "\(parameter.name): \(parameter.type)"
      if let range = parameter.rangeText { piece += " in \(range)" }
      if let defaultText = parameter.defaultText { piece += " = \(defaultText)" }
      let begin = text.utf8.count
      text += piece
      let summary = parameter.documentation.summary
      slots.append(
        .init(labelRange: begin..<text.utf8.count, name: parameter.name, documentation: summary.isEmpty ? nil : summary))
    }
    text += "): \(formula.returnType)"
    var active: Int? = argument < slots.count ? argument : nil
    if let label { active = slots.firstIndex { $0.name == label } }
    let summary = formula.documentation.summary
    return SignatureInfo(
      label: text, parameters: slots, activeParameter: active, documentation: summary.isEmpty ? nil : summary)
  }

  static func builtinSignature(_ builtin: Builtin, argument: Int) -> SignatureInfo {
    let declaration = builtin.declaration
    let (label, parameters) = declaration.labelled
    let slots = parameters.map { SignatureInfo.ParameterSlot(labelRange: $0.range, name: $0.name, documentation: nil) }
    // Every argument after a variadic function's last parameter is its `…`.
    let active: Int? =
      declaration.isVariadic ? min(argument, declaration.parameters.count) : (argument < slots.count ? argument : nil)
    return SignatureInfo(label: label, parameters: slots, activeParameter: active, documentation: declaration.summary)
  }
}
