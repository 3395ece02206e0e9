import Testing

@testable import TaxProCore
@testable import TaxProLibrary

/// `LibraryReach`: a one-shot command parses and checks only the library files its text reaches, and what it computes
/// is what the whole library computes.
@Suite struct LibraryReachTests {
  static let library = StandardLibrary.files()

  static func names(_ positions: [Int]) -> [String] { positions.map { library[$0].name } }

  @Test func declarationsAreFoundOutsideCommentsAndText() {
    let scan = LibraryReach.scan(
      """
      # formula hidden_in_a_comment(x: Number) = x
      ## let documented = 1
      formula shown(x: Number): Number =
        let inner = x # a formula's own let declares nothing
        x + "formula not_a_declaration \\" # still text" + later
      let constant = 2
      province QQ "Somewhere" { year 2031 { rate = 1% } }
      parameters Shape { rate: Rate }
      federal "Canada" { year 2029 { } }
      """, mentions: true)
    #expect(scan.declared == ["shown", "constant", "QQ", "Shape", "federal"])
    #expect(scan.declaresJurisdiction && scan.declaresInterface)
    #expect(scan.years == [2031, 2029])
    #expect(scan.mentioned.contains("later") && scan.mentioned.contains("x"))
    #expect(!scan.mentioned.contains("hidden_in_a_comment") && !scan.mentioned.contains("not_a_declaration"))
    #expect(!scan.mentioned.contains("documented"))
  }

  @Test func aCalculationReachesNoLibraryFile() {
    let reach = LibraryReach.files(Self.library, reachedFrom: ["1+1"])
    #expect(reach.positions.isEmpty)
    // The default year is still the whole library's.
    let whole = Checker.check(StandardLibrary.parse(Self.library))
    #expect(reach.latestYear == whole.latestYear)
  }

  @Test func aJurisdictionBringsItsInterfacesAndNothingElse() {
    let reach = LibraryReach.files(Self.library, reachedFrom: ["tax(ON.income_tax, $50,000)"])
    #expect(Self.names(reach.positions) == ["<std>/interfaces.tax", "<std>/ON.tax"])
  }

  @Test func aFormulaBringsWhatItCallsTransitively() {
    let whole = Checker.check(StandardLibrary.parse(Self.library))
    guard let formula = whole.formulas.first(where: { !$0.parameters.isEmpty && $0.name.contains("tax") }) else {
      Issue.record("no library formula to call")
      return
    }
    let reach = LibraryReach.files(Self.library, reachedFrom: [formula.name])
    let trees = reach.positions.map { position in
      StandardLibrary.parse([Self.library[position]], firstFileID: position)[0]
    }
    let program = Checker.check(trees)
    #expect(program.diagnostics.isEmpty, "\(program.diagnostics.prefix(3))")
    #expect(program.formula(named: formula.name) != nil)
    #expect(reach.positions.count < Self.library.count)
  }

  /// An argument of each type a library formula takes.
  static func argument(_ type: TaxType) -> String? {
    switch type {
    case .money: "$61,234.56"
    case .rate: "7.5%"
    case .number: "2"
    case .bool: "true"
    case .text: "\"x\""
    case .province: "MB"
    case .brackets: "ON.income_tax"
    case .federal, .error: nil
    }
  }

  /// Every library formula called, every constant and every jurisdiction's figures read: a session over the files the
  /// expression reaches gives exactly the whole library's value, and never fails where the whole library does not.
  @Test func everyDeclarationGivesTheWholeLibrarysValue() {
    let whole = SourceImporter(library: Self.library).session()
    #expect(whole.programDiagnostics.isEmpty)
    var expressions: [String] = []
    for formula in whole.program.formulas {
      let arguments = formula.parameters.map { Self.argument($0.type) }
      guard !arguments.contains(where: { $0 == nil }) else { continue }
      expressions.append("\(formula.name)(\(arguments.compactMap { $0 }.joined(separator: ", ")))")
    }
    expressions += whole.program.constants.map(\.name)
    for (code, jurisdiction) in whole.program.jurisdictions {
      for name in jurisdiction.parameterTypes.keys.sorted() {
        expressions.append("\(code == "federal" ? "federal" : code).\(name)")
      }
    }
    #expect(expressions.count > 100)
    var compared = 0
    // Many expressions reach the same files: one session per set of files.
    var sessions: [[Int]: Session] = [:]
    for expression in expressions {
      let reach = LibraryReach.files(Self.library, reachedFrom: [expression])
      let reached =
        sessions[reach.positions]
        ?? SourceImporter(library: Self.library, only: reach.positions).session(year: reach.latestYear)
      sessions[reach.positions] = reached
      #expect(reached.programDiagnostics.isEmpty, "\(expression)")
      let expected = describe(whole.submit(expression, name: "<expr>"))
      let found = describe(reached.submit(expression, name: "<expr>"))
      if expected.hasPrefix("value") { compared += 1 }
      #expect(found == expected, "\(expression) reaches \(Self.names(reach.positions))")
    }
    #expect(compared > 100)
  }

  func describe(_ outcome: SessionOutcome) -> String {
    switch outcome {
    case .value(let value): "value \(ValueFormatter.format(value))"
    case .failed(let diagnostics): "failed \(diagnostics.map(\.message))"
    default: "other \(outcome)"
    }
  }
}
