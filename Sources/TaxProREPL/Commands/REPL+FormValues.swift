import Foundation
import TaxProCore

/// What forms (`:ask`) and the profile accept beyond expressions: a plain number where Money is wanted is that many
/// dollars, and a province or territory may be named by its code or its name in any case. The form knows the type it
/// wants, so there is nothing to guess (as `taxpro eval --csv` reads a Money column).
extension REPL {
  /// The value `text` stands for as an answer of `type`, when it is one of the forms above; nil otherwise (the text is
  /// then read as an expression). An amount with more than two decimals is a problem, not a value.
  func formValue(_ text: String, for type: TaxType) -> Result<Value, AnswerProblem>? {
    switch type {
    case .money:
      let digits = text.replacingOccurrences(of: ",", with: "").replacingOccurrences(of: "_", with: "")
      guard !digits.contains("e"), !digits.contains("E"), let amount = ExactDecimal(digits) else { return nil }
      if amount.rounded(places: 2, .halfAwayFromZero) != amount {
        return .failure(AnswerProblem(message: "an amount is kept in whole cents: '\(text)' has more than two decimals"))
      }
      return .success(.money(amount))
    case .province:
      return province(named: text).map { .success(.province($0)) }
    default:
      return nil
    }
  }

  /// The code of the province or territory written `text`: its code or its full name, in any case.
  func province(named text: String) -> String? {
    let wanted = text.trimmed.lowercased()
    for code in session.program.provinceCodes {
      if code.lowercased() == wanted { return code }
      if let name = session.program.jurisdictions[code]?.fullName, name.lowercased() == wanted { return code }
    }
    return nil
  }

  /// "AB (Alberta), BC (British Columbia), …": every choice of a Province input.
  var provinceChoices: String {
    session.program.provinceCodes.sorted().map { code in
      let name = session.program.jurisdictions[code]?.fullName ?? ""
      return name.isEmpty ? code : "\(code) (\(name))"
    }.joined(separator: ", ")
  }

  /// The type the formulas' inputs named `name` have, when they agree (for a profile value): nil when no formula has
  /// such an input, or when they differ.
  func inputType(named name: String) -> (type: TaxType, formula: String)? {
    var found: (type: TaxType, formula: String)? = nil
    for formula in session.program.formulas {
      for parameter in formula.parameters where parameter.name == name {
        if let earlier = found, earlier.type != parameter.type { return nil }
        if found == nil { found = (parameter.type, formula.name) }
      }
    }
    return found
  }
}
