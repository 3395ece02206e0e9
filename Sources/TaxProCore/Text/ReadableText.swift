/// Names and prose a learner reads instead of code: `federal.oas_recovery_threshold` is "the OAS recovery threshold
/// ($93,454.00)", `federal.rrsp_earned_income_rate (18%) of earned income` is "18% of earned income", a default of
/// `income` is "the same as income".
///
/// The library's documentation is written for people who also read the formulas, so it names parameters as code.
/// Lessons, explanation summaries and the notes shown beside a result pass that prose through here; the code stays in
/// the documentation (and in hover, which is for formula writers), where it links to its definition.
public struct ReadableText {
  public let program: Program
  public let year: Int
  let evaluator: Evaluator
  /// Titles that several parameters' documentation shares ("Ontario Health Premium, tier 4" names the tier's start,
  /// rate and cap): a parameter with one of them is named by its identifier instead.
  let sharedTitles: Set<String>

  public init(program: Program, year: Int) {
    self.program = program
    self.year = year
    self.evaluator = Evaluator(program: program, year: year)
    var seen: [String: String] = [:]
    var shared: Set<String> = []
    func consider(_ name: String, _ summary: String) {
      guard let title = Self.title(fromSummary: summary) else { return }
      if let other = seen[title], other != name { shared.insert(title) }
      seen[title] = name
    }
    for interface in program.interfaces.values {
      for member in interface.members { consider(member.name, member.documentation.summary) }
    }
    for jurisdiction in program.jurisdictions.values {
      for (name, definition) in jurisdiction.years[year] ?? [:] { consider(name, definition.documentation.summary) }
    }
    sharedTitles = shared
  }

  // MARK: Names

  /// Words for an identifier: `net_income` → "net income", `oas_recovery_rate` → "OAS recovery rate".
  public static func humanise(_ identifier: String) -> String {
    var words: [String] = []
    for part in identifier.split(separator: "_") {
      let word = String(part)
      if let last = words.last, last.allSatisfy(\.isNumber), word.allSatisfy(\.isNumber) {
        words.append("to")  // ages 65_74
      } else if word == "plus", let last = words.last, last.allSatisfy(\.isNumber) {
        words.append("and over")  // 75_plus
        continue
      }
      // `cpp_qpp_contributions`: one plan or the other, by province.
      if word.lowercased() == "qpp", words.last == "CPP" { words.append("or") }
      words.append(abbreviations[word.lowercased()] ?? word)
    }
    return words.joined(separator: " ")
  }

  static let abbreviations: [String: String] = [
    "oas": "OAS", "rrsp": "RRSP", "rrif": "RRIF", "tfsa": "TFSA", "cpp": "CPP", "cpp2": "CPP2", "qpp": "QPP",
    "qpp2": "QPP2", "ei": "EI", "qpip": "QPIP", "ympe": "YMPE", "yampe": "YAMPE", "bpa": "basic personal amount",
    "dtc": "dividend tax credit", "nrtc": "non-refundable tax credit", "lift": "LIFT", "qc": "Quebec", "q1": "Q1",
    "q2": "Q2", "q3": "Q3", "q4": "Q4", "phaseout": "phase-out", "noneligible": "non-eligible",
    "grossup": "gross-up", "max": "maximum", "min": "minimum",
    // Proper names: `quebec_net_income` → "Quebec net income".
    "canada": "Canada", "quebec": "Quebec", "ontario": "Ontario", "alberta": "Alberta", "manitoba": "Manitoba",
    "saskatchewan": "Saskatchewan", "yukon": "Yukon", "nunavut": "Nunavut",
  ]

  /// The documented name of a jurisdiction's parameter: the first phrase of its documentation when short
  /// ("OAS recovery threshold" from "Old Age Security recovery ("clawback") threshold: net world income above …"),
  /// else its identifier in words.
  public func title(ofParameter name: String, in code: String) -> String {
    if let summary = parameterDocumentation(name, in: code)?.summary, let title = Self.title(fromSummary: summary),
      !sharedTitles.contains(title)
    {
      return title
    }
    return Self.humanise(name)
  }

  /// The documented name of a formula ("federal income tax" from "Federal income tax: basic federal tax, minus …").
  public func title(ofFormula name: String) -> String {
    if let summary = program.formula(named: name)?.documentation.summary, let title = Self.title(fromSummary: summary) {
      return title
    }
    return Self.humanise(name)
  }

  /// The documentation of `code.name`: the interface member's, else the jurisdiction's own definition's.
  func parameterDocumentation(_ name: String, in code: String) -> Documentation? {
    let interfaceName: String
    if code == "province" {
      interfaceName = "Province"
    } else if let jurisdiction = program.jurisdictions[code] {
      interfaceName = jurisdiction.kind.interfaceName
      if program.interfaces[interfaceName]?.member(name) == nil {
        let definition = jurisdiction.years[year]?[name]
          ?? jurisdiction.sortedYears.reversed().lazy.compactMap { jurisdiction.years[$0]?[name] }.first
        if let documentation = definition?.documentation, !documentation.summary.isEmpty { return documentation }
      }
    } else {
      return nil
    }
    return program.interfaces[interfaceName]?.member(name)?.documentation
  }

  /// The phrase that names a thing, from its summary: up to the first colon, full stop, parenthesis or dash, when
  /// that is short enough to read as a name; its first letter lowered unless it begins a proper name or an acronym.
  static func title(fromSummary summary: String) -> String? {
    // Asides in parentheses are not part of the name: `recovery ("clawback") threshold`.
    var flat = ""
    var depth = 0
    for character in flatten(summary) {
      if character == "(" { depth += 1 }
      if depth == 0 { flat.append(character) }
      if character == ")", depth > 0 { depth -= 1 }
    }
    flat = flatten(flat)
    var end = flat.endIndex
    var index = flat.startIndex
    while index < flat.endIndex {
      let character = flat[index]
      let next = flat.index(after: index)
      if character == ":" || character == "—" || character == ";"
        || (character == "." && (next == flat.endIndex || flat[next] == " "))
      {
        end = index
        break
      }
      index = next
    }
    var title = String(flat[..<end])
    while title.last == " " || title.last == "," { title.removeLast() }
    guard !title.isEmpty, title.count <= 60, title.split(separator: " ").count <= 9 else { return nil }
    return lowercasingFirstWord(title)
  }

  /// "Federal basic personal amount" → "federal basic personal amount", "Base CPP or QPP contributions" → "base CPP
  /// or QPP contributions"; "Old Age Security …", "RRSP dollar limit" and "Ontario surtax" keep their capitals.
  static func lowercasingFirstWord(_ text: String) -> String {
    let words = text.split(separator: " ", maxSplits: 2)
    guard let first = words.first, let initial = first.first, initial.isUppercase else { return text }
    if first.dropFirst().contains(where: \.isUppercase) { return text }  // an acronym: RRSP, OAS
    if properWords.contains(String(first)) { return text }
    // "Old Age Security": a capitalised second word makes a name of the two; an acronym ("Base CPP") does not.
    if words.count > 1, let second = words[1].first, second.isUppercase, words[1].contains(where: \.isLowercase) {
      return text
    }
    return initial.lowercased() + text.dropFirst()
  }

  static let properWords: Set<String> = [
    "Canada", "Canadian", "Ontario", "Quebec", "Alberta", "British", "Manitoba", "Saskatchewan", "Nova", "New",
    "Newfoundland", "Prince", "Yukon", "Northwest", "Nunavut", "Old", "Ontario's", "Quebec's",
  ]

  /// A jurisdiction as an adjective: "federal", "Ontario".
  public func adjective(_ code: String) -> String {
    guard let jurisdiction = program.jurisdictions[code] else { return code }
    return jurisdiction.kind == .federal ? "federal" : jurisdiction.fullName
  }

  /// The name of a bracket table from its origin (`ON.income_tax (2026)`): "the Ontario brackets".
  public func tableName(origin: String?) -> String {
    guard let origin, let (code, name, _) = ExplanationRenderer.parseOrigin(origin) else { return "the brackets" }
    if name == "income_tax" { return "the \(adjective(code)) brackets" }
    return "the \(adjective(code)) " + title(ofParameter: name, in: code)
  }

  /// The value of `code.name` in the year, when it can be read.
  public func value(ofParameter name: String, in code: String) -> Value? {
    guard program.jurisdictions[code]?.parameterTypes[name] != nil else { return nil }
    let span = Span(file: FileID(-1), start: 0, end: 0)
    return try? evaluator.parameter(code, name, at: span)
  }

  /// "the OAS recovery threshold ($93,454.00)", "15%" for a rate, "the Ontario brackets" for a table; in another
  /// jurisdiction than the federal one, its name is added when the title lacks it ("Ontario's LIFT maximum").
  /// `withValue` false leaves the value out (the prose gives it already).
  public func phrase(forParameter name: String, in code: String, withValue: Bool = true) -> String {
    let value = code == "province" ? nil : self.value(ofParameter: name, in: code)
    if case .brackets = value { return "the \(adjective(code)) " + (name == "income_tax" ? "brackets" : title(ofParameter: name, in: code)) }
    if case .rate(let rate) = value, withValue { return ValueFormatter.rate(rate) }
    var title = self.title(ofParameter: name, in: code)
    if code == "province" {
      if program.interfaces["Province"]?.member(name)?.type == .brackets { return "the province's brackets" }
      title = "the province's " + title
    } else if let jurisdiction = program.jurisdictions[code], jurisdiction.kind != .federal,
      !title.contains(jurisdiction.fullName)
    {
      title = jurisdiction.fullName + "'s " + title
    } else if !Self.startsWithDeterminer(title) {
      title = "the " + title
    }
    guard withValue, let value else { return title }
    return title + " (" + ValueFormatter.format(value) + ")"
  }

  static func startsWithDeterminer(_ text: String) -> Bool {
    let first = text.split(separator: " ").first.map { $0.lowercased() } ?? ""
    return ["the", "a", "an", "each", "every", "its", "your"].contains(first)
  }

  // MARK: Prose

  /// Documentation prose with its code names made readable: `federal.x`, `ON.x` and `province.x` become their
  /// phrases (a rate its value), bare parameter names of the library's interfaces their titles, formula names their
  /// titles; an input's name between backticks (`oas_received`) its words. Other text between backticks is code to
  /// type and stays as it is.
  public func prose(_ text: String) -> String {
    let characters = Array(flatten(text))
    var result = ""
    var index = 0
    var inCode = false
    while index < characters.count {
      let character = characters[index]
      if character == "`" {
        // `formula_name` alone is a cross-reference: its title reads better than its name.
        if !inCode, let close = characters[(index + 1)...].firstIndex(of: "`") {
          let name = String(characters[(index + 1)..<close])
          if program.formula(named: name) != nil, let replacement = replacement(for: name, isCrossReference: true) {
            result += Self.atSentenceStart(result) ? Self.capitalised(replacement.text) : replacement.text
            index = close + 1
            continue
          }
          // `oas_received`, an input's name, reads as words; code with anything else in it stays code.
          if name.contains("_"), let first = name.first, first.isLetter,
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
          {
            let words = Self.humanise(name)
            result += Self.atSentenceStart(result) ? Self.capitalised(words) : words
            index = close + 1
            continue
          }
        }
        inCode.toggle()
        result.append(character)
        index += 1
        continue
      }
      guard !inCode, Self.isIdentifierStart(character),
        index == 0 || !Self.isIdentifierCharacter(characters[index - 1])
      else {
        result.append(character)
        index += 1
        continue
      }
      var end = index
      while end < characters.count, Self.isIdentifierCharacter(characters[end]) || characters[end] == "." {
        end += 1
      }
      // A full stop that ends a sentence is not part of the name.
      while end > index, characters[end - 1] == "." { end -= 1 }
      let token = String(characters[index..<end])
      guard let replacement = replacement(for: token) else {
        result += token
        index = end
        continue
      }
      // `its own brackets (province.income_tax)`: a name alone in parentheses points at the code; in words it would
      // only repeat what the sentence says.
      if index > 0, characters[index - 1] == "(", end < characters.count, characters[end] == ")" {
        result.removeLast()
        while result.last == " " { result.removeLast() }
        index = end + 1
        continue
      }
      index = end
      // `federal.oas_recovery_rate (15%)`: the parenthesis repeats the value; keep one of them.
      if let (inside, after) = Self.parenthesis(in: characters, at: index), let value = replacement.value {
        if inside.contains(value) || (replacement.isRate && inside.contains("%")) {
          result += replacement.isRate ? inside : replacement.withoutValue + " (" + inside + ")"
          index = after
          continue
        }
        if inside.contains("$") {
          result += replacement.withoutValue + " (" + inside + ")"
          index = after
          continue
        }
      }
      result += Self.atSentenceStart(result) ? Self.capitalised(replacement.text) : replacement.text
    }
    return result
  }

  /// Whether text added after `text` begins a sentence.
  static func atSentenceStart(_ text: String) -> Bool {
    var trimmed = Substring(text)
    while trimmed.last == " " { trimmed.removeLast() }
    guard let last = trimmed.last else { return true }
    return last == "." || last == "!" || last == "?"
  }

  static func capitalised(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.uppercased() + text.dropFirst()
  }

  struct Replacement {
    var text: String
    var withoutValue: String
    var value: String?
    var isRate: Bool
  }

  /// What a name in prose stands for, or nil when it is not one the library knows.
  func replacement(for token: String, isCrossReference: Bool = false) -> Replacement? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if parts.count == 2 {
      let (owner, name) = (parts[0], parts[1])
      let known: Bool
      if owner == "province" {
        known = program.interfaces["Province"]?.member(name) != nil
      } else {
        known = program.jurisdictions[owner]?.parameterTypes[name] != nil
      }
      guard known else { return nil }
      let value = owner == "province" ? nil : self.value(ofParameter: name, in: owner)
      let valueText = value.flatMap { value -> String? in
        if case .brackets = value { return nil }
        return ValueFormatter.format(value)
      }
      var isRate = false
      if case .rate = value { isRate = true }
      return Replacement(
        text: phrase(forParameter: name, in: owner), withoutValue: phrase(forParameter: name, in: owner, withValue: false),
        value: valueText, isRate: isRate)
    }
    guard parts.count == 1 else { return nil }
    // A formula's name in running text; a word without `_` is more likely an English word.
    if program.formula(named: token) != nil, token.contains("_") || isCrossReference {
      let title = title(ofFormula: token)
      let text = Self.startsWithDeterminer(title) ? title : "the " + title
      return Replacement(text: text, withoutValue: text, value: nil, isRate: false)
    }
    guard token.contains("_") else { return nil }
    for interface in ["Federal", "Province"] where program.interfaces[interface]?.member(token) != nil {
      let code = interface == "Federal" ? program.jurisdictions.values.first { $0.kind == .federal }?.code : nil
      if let code { return replacement(for: code + "." + token) }
      let title = title(ofParameter: token, in: "province")
      let text = Self.startsWithDeterminer(title) ? title : "the " + title
      return Replacement(text: text, withoutValue: text, value: nil, isRate: false)
    }
    return nil
  }

  /// The text inside a parenthesis that follows `index` after one space, and the index after it.
  static func parenthesis(in characters: [Character], at index: Int) -> (String, Int)? {
    guard index + 1 < characters.count, characters[index] == " ", characters[index + 1] == "(" else { return nil }
    var end = index + 2
    var depth = 1
    while end < characters.count {
      if characters[end] == "(" { depth += 1 }
      if characters[end] == ")" {
        depth -= 1
        if depth == 0 { return (String(characters[(index + 2)..<end]), end + 1) }
      }
      end += 1
    }
    return nil
  }

  static func isIdentifierStart(_ character: Character) -> Bool {
    character == "_" || (character.isASCII && character.isLetter)
  }

  static func isIdentifierCharacter(_ character: Character) -> Bool {
    character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
  }

  // MARK: Expressions as prose

  /// A parameter's default as words: `income` → "the same as income", `$0` → "$0.00",
  /// `federal.rrsp_earned_income_rate * earned_income` → "18% of earned income", `oas_maximum_pension(age)` →
  /// "the maximum OAS pension paid in a year, from age". What cannot be said simply is "worked out from" the names
  /// it uses.
  public func describeDefault(_ expression: TypedExpression) -> String {
    if case .local(_, let name) = expression.kind { return "the same as " + Self.humanise(name) }
    return describe(expression, depth: 0, strict: false) ?? fallback(expression)
  }

  /// An expression in words when it can be said simply ("before minus after", "50% of gain"), else nil.
  public func describeIfSimple(_ expression: TypedExpression) -> String? {
    describe(expression, depth: 0, strict: true)
  }

  /// In words; what cannot be said simply is nil when `strict`, else "worked out from" the names it uses.
  func describe(_ expression: TypedExpression, depth: Int, strict: Bool) -> String? {
    func part(_ inner: TypedExpression) -> String? { describe(inner, depth: depth + 1, strict: strict) }
    guard depth < 4 else { return strict ? nil : fallback(expression) }
    switch expression.kind {
    case .literal(let value):
      if case .province(let code) = value { return program.jurisdictions[code]?.fullName ?? code }
      return ValueFormatter.format(value)
    case .local(_, let name):
      return Self.humanise(name)
    case .parameter(let code, let name):
      return phrase(forParameter: name, in: code)
    case .provinceParameter(_, let name):
      return phrase(forParameter: name, in: "province")
    case .arithmetic(let operation, let left, let right):
      guard var a = part(left), var b = part(right) else { return nil }
      // `(next - now) / $100`: a sum inside a product keeps its parentheses.
      if operation == .multiply || operation == .divide {
        if Self.isSum(left) { a = "(" + a + ")" }
        if Self.isSum(right) { b = "(" + b + ")" }
      }
      switch operation {
      case .multiply:
        if left.type == .rate { return a + " of " + b }
        if right.type == .rate { return b + " of " + a }
        return a + " × " + b
      case .add, .addPercentage: return a + " plus " + b
      case .subtract, .subtractPercentage: return a + " minus " + b
      case .divide: return a + " divided by " + b
      case .power:
        if Self.isSum(left) { a = "(" + a + ")" }
        return a + " to the power " + b
      case .modulo: return "the remainder of " + a + " divided by " + b
      }
    case .builtin(.min, let arguments) where arguments.count == 2:
      guard let a = part(arguments[0]), let b = part(arguments[1]) else { return nil }
      return "the lesser of " + a + " and " + b
    case .builtin(.max, let arguments) where arguments.count == 2:
      guard let a = part(arguments[0]), let b = part(arguments[1]) else { return nil }
      if case .literal(let value) = arguments[0].kind, value.decimal?.isZero == true { return b + ", at least " + a }
      return "the greater of " + a + " and " + b
    case .call(let index, let arguments):
      guard index < program.formulas.count else { return nil }
      let title = title(ofFormula: program.formulas[index].name)
      var words = Self.startsWithDeterminer(title) ? title : "the " + title
      // What it is worked out on: the first input, when it says it simply.
      if let first = arguments.first ?? nil, let on = describe(first, depth: depth + 1, strict: true) {
        words += " on " + on
      }
      return words
    default:
      return strict ? nil : fallback(expression)
    }
  }

  static func isSum(_ expression: TypedExpression) -> Bool {
    if case .arithmetic(let operation, _, _) = expression.kind {
      return operation == .add || operation == .subtract
    }
    return false
  }

  func fallback(_ expression: TypedExpression) -> String {
    let inputs = names(in: expression)
    return inputs.isEmpty ? "worked out by the formula" : "worked out from " + Self.list(inputs)
  }

  /// The inputs and parameters an expression reads, in words, each once.
  func names(in expression: TypedExpression) -> [String] {
    var result: [String] = []
    expression.visit { node in
      var name: String? = nil
      switch node.kind {
      case .local(_, let local): name = Self.humanise(local)
      default: break
      }
      if let name, !result.contains(name) { result.append(name) }
      return true
    }
    return result
  }

  /// "a", "a and b", "a, b and c".
  public static func list(_ items: [String]) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + (items.last ?? "")
  }

  /// Lines joined, runs of spaces collapsed.
  func flatten(_ text: String) -> String { Self.flatten(text) }

  static func flatten(_ text: String) -> String {
    var result = ""
    var lastWasSpace = false
    for character in text {
      if character == " " || character == "\n" || character == "\t" || character == "\r" {
        if !lastWasSpace && !result.isEmpty { result.append(" ") }
        lastWasSpace = true
      } else {
        result.append(character)
        lastWasSpace = false
      }
    }
    while result.last == " " { result.removeLast() }
    return result
  }
}
