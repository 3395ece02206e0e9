/// Go to definition: where the name under the cursor is declared.
public enum Definition {
  /// The declarations of the symbol at `offset`, best first. Empty for built-ins and types, which have no source.
  ///
  /// A jurisdiction parameter read from a known jurisdiction (`ON.income_tax`) leads to that jurisdiction's
  /// definition for `year` first, then its other years, then the interface member: the figure is usually what the
  /// reader wants to see. Read through a `Province` value, it leads to the interface member and then every definition.
  public static func locations(
    at offset: Int, in file: FileID, program: Program, index: SymbolIndex, year: Int?
  ) -> [Span] {
    guard let occurrence = index.occurrence(at: offset, in: file) else { return [] }
    return locations(of: occurrence, program: program, index: index, year: year)
  }

  /// As `locations(at:in:program:index:year:)`, for an occurrence already found.
  public static func locations(
    of occurrence: SymbolOccurrence, program: Program, index: SymbolIndex, year: Int?
  ) -> [Span] {
    switch occurrence.symbol {
    case .builtin, .type:
      return []
    case .local(_, let definition):
      return [definition]
    case .jurisdictionParameter(let kind, let name):
      var result: [Span] = []
      let member = index.occurrences(of: occurrence.symbol).filter { candidate in
        candidate.isDefinition && candidate.jurisdiction == nil
      }.map(\.span)
      let code = occurrence.jurisdiction ?? (kind == .federal ? "federal" : nil)
      if let code, let jurisdiction = program.jurisdictions[code] {
        let selected = year ?? program.latestYear
        let years = jurisdiction.sortedYears.sorted { a, b in
          (a == selected ? 0 : 1, -a) < (b == selected ? 0 : 1, -b)
        }
        for candidateYear in years {
          if let definition = jurisdiction.years[candidateYear]?[name] { result.append(definition.nameSpan) }
        }
        result += member
      } else {
        result = member
        for code in program.provinceCodes {
          guard let jurisdiction = program.jurisdictions[code] else { continue }
          for candidateYear in jurisdiction.sortedYears.reversed() {
            if let definition = jurisdiction.years[candidateYear]?[name] { result.append(definition.nameSpan) }
          }
        }
      }
      return unique(result)
    default:
      let definitions = index.occurrences(of: occurrence.symbol).filter(\.isDefinition).map(\.span)
      return unique(definitions)
    }
  }

  static func unique(_ spans: [Span]) -> [Span] {
    var seen: Set<Span> = []
    return spans.filter { seen.insert($0).inserted }
  }
}
