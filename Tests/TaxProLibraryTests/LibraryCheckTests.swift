import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// Checking documents on top of the library checked once (`CheckedLibrary`, `Checker.check(_:after:)`) must give the
/// program of the whole check of the library's trees and the documents': every input is checked both ways and the
/// two programs compared — trees, typed formulas (their types, parameters, bodies), constants, tests, jurisdictions,
/// diagnostics with all their fields in order, occurrences with their symbols, the checker's tables of the
/// documents, and each symbol's references found through the program's symbol table.
@Suite struct LibraryCheckTests {
  static let library = StandardLibrary.trees()
  static let checkedLibrary = onLargeStack { CheckedLibrary(library) }

  /// Everything a query reads of a program, as text: of the documents' files, or of every file (`all`).
  static func dump(_ program: Program, documents: [SyntaxTree], all: Bool = false) -> String {
    var output = ProgramDump.program(program, files: all ? nil : Set(documents.map(\.source.id)))
    for tree in documents { output += ProgramDump.tables(program, file: tree.source.id) }
    output += "diagnostics in order\n"
    for diagnostic in program.diagnostics { output += ProgramDump.text(diagnostic) }
    // What references, rename and highlights answer: for each symbol written in a document, the places whose stored
    // symbol is the one the table finds for it.
    output += "references\n"
    let stored = program.storedOccurrences.all
    var seen: Set<String> = []
    for occurrence in program.occurrences where documents.contains(where: { $0.source.id == occurrence.span.file }) {
      let name = ProgramDump.text(occurrence.symbol)
      guard seen.insert(name).inserted else { continue }
      guard let key = program.symbols.key(of: occurrence.symbol) else {
        output += "\(name) not found\n"
        continue
      }
      let places = stored.filter {
        $0.symbol == key.id && (key.definition == .nowhere || $0.definition == key.definition)
      }.map(\.span)
      output += "\(name) \(places)\n"
    }
    output += "formula types\n"
    for formula in program.formulas { output += "\(formula.name): \(formula.returnType) \(formula.hasErrors)\n" }
    return output
  }

  /// Checks `documents` both ways and records any difference; returns whether they were checked on top of the
  /// library (rather than whole, as `admits` decides).
  @discardableResult
  static func compare(_ documents: [SyntaxTree], _ context: String, whole all: Bool = false) -> Bool {
    let whole = onLargeStack { Checker.check(library + documents) }
    let onTop = onLargeStack { Checker.check(documents, after: checkedLibrary) }
    let (expected, got) = (
      dump(whole, documents: documents, all: all), dump(onTop, documents: documents, all: all)
    )
    if expected != got {
      let line = zip(expected.split(separator: "\n"), got.split(separator: "\n")).first { $0 != $1 }
      Issue.record(
        "\(context): the programs differ; first different line: \(line.map { "\($0.0)\n vs \($0.1)" } ?? "(one is longer)")"
      )
    }
    return checkedLibrary.admits(documents)
  }

  static func tree(_ text: String, id: Int, name: String = "doc.tax") -> SyntaxTree {
    Parser.parse(SourceFile(id: FileID(id), name: name, bytes: Array(text.utf8)))
  }

  @Test func theStandardLibraryIsCheckedOnceWithoutErrors() {
    let library = Self.checkedLibrary
    #expect(library.isReusable, "\(library.checker.checkDiagnostics.first.map { "\($0)" } ?? "")")
    #expect(library.uncheckedAfterFormulas < 200, "\(library.uncheckedAfterFormulas) unchecked")
    let admitted = Self.compare([], "the library alone", whole: true)
    #expect(admitted)
  }

  /// Each `.tax` file of the repository as the one document, then all of them at once (names clashing).
  @Test func everyTaxFileOfTheRepository() throws {
    // Those git keeps: not the generated benchmark files (`bench/out`), which took the test from seconds to over ten
    // minutes in a working copy that had run the benchmark.
    let files = try ParallelParseTests.repositoryFiles()
    #expect(files.count > 40)
    var trees: [SyntaxTree] = []
    var onTop = 0
    for (number, (path, text)) in files.enumerated() {
      let name = URL(fileURLWithPath: path).lastPathComponent
      let tree = Self.tree(text, id: FileIDRange.files.lowerBound + number, name: name)
      if Self.compare([tree], path) { onTop += 1 }
      trees.append(tree)
    }
    // The examples, fixtures and samples declare formulas, constants and tests: most are checked on top.
    #expect(onTop > 15)
    Self.compare(trees, "every .tax file at once", whole: true)
  }

  @Test func generatedFormulasLikeTheBenchmarks() {
    var text = ""
    for index in 0..<300 {
      text += "formula g\(index)(income: Money, rate: Rate): Money =\n"
      text += "  let base = income * rate - 1% * income\n"
      text += "  max(base, $0) + tax(ON.income_tax, income) / 2"
      text += index > 0 ? " + g\(index - 1)(income, rate) / 100\n" : "\n"
    }
    let admitted = Self.compare([Self.tree(text, id: FileIDRange.files.lowerBound)], "generated formulas")
    #expect(admitted)
  }

  /// A library formula's name, to clash with.
  static var libraryFormula: String {
    for tree in library {
      for declaration in tree.declarations { if case .formula(let formula) = declaration { return formula.name.name } }
    }
    return "missing"
  }

  @Test func documentsWithErrors() {
    let name = Self.libraryFormula
    let documents = [
      // Unknown names, with and without a suggestion; an unknown type; a wrong argument count.
      "formula a(x: Money): Money = x + unknownThing + incme\nformula b(y: Mony): Money = a(y, y)\n",
      // A formula and a constant named like the library's formula; a built-in redefined.
      "formula \(name)(x: Money): Money = x\nlet \(name) = 3\nformula max(a: Number): Number = a\n",
      // Cycles through formulas without result types and constants.
      "formula p(x: Money) = q(x)\nformula q(x: Money) = p(x)\nlet c1 = c2 + 1\nlet c2 = c1 * 2\n",
      // Type errors, a constant used before its declaration, a test that fails to check.
      "formula t(x: Money): Rate = x * 2\nlet k: Money = 5%\nlet early = later + $1\nlet later = $2\n"
        + "test \"t\" { expect t($1) == 3 }\n",
      // A body calling the library's formulas, parameters and jurisdictions, and a duplicate parameter.
      "formula u(x: Money, x: Money): Money = \(name)(x) + tax(ON.income_tax, x) + ON.nope\n1 + $2\nON.income_tax\n",
    ]
    var trees: [SyntaxTree] = []
    for (number, text) in documents.enumerated() {
      let tree = Self.tree(text, id: FileIDRange.files.lowerBound + number, name: "errors\(number).tax")
      let admitted = Self.compare([tree], "errors \(number)")
      #expect(admitted, "errors \(number)")
      trees.append(tree)
    }
    let admitted = Self.compare(trees, "every document with errors at once", whole: true)
    #expect(admitted)
  }

  /// Chains of on-demand inference long enough, with the library's, to reach the depth limit are checked whole.
  @Test func inferenceDeeperThanTheLimit() {
    var text = "let c0 = $1\n"
    for index in 1..<450 { text += "let c\(index) = c\(index - 1) + $1\n" }
    let constants = Self.compare([Self.tree(text, id: FileIDRange.files.lowerBound)], "a long chain of constants")
    #expect(!constants)
    var formulas = "formula f0(x: Money) = x\n"
    for index in 1..<450 { formulas += "formula f\(index)(x: Money) = f\(index - 1)(x) + x\n" }
    let chain = Self.compare([Self.tree(formulas, id: FileIDRange.files.lowerBound)], "a long chain of formulas")
    #expect(!chain)
  }

  /// Jurisdictions, interfaces and parameter definitions are the library's checks' input: documents that declare
  /// them are checked whole.
  @Test func documentsDeclaringJurisdictionsAreCheckedWhole() {
    let documents = [
      "province ZZ \"Zed\" {\n  year 2025 {\n    income_tax = brackets {\n      $0 -> 5%\n    }\n  }\n}\n",
      "parameters Province {\n  extra: Money\n}\n",
      "formula f(x: Money): Money = x\nprovince ON \"Again\" {\n}\n",
    ]
    for (number, text) in documents.enumerated() {
      let tree = Self.tree(text, id: FileIDRange.files.lowerBound + number)
      let admitted = Self.compare([tree], "jurisdiction \(number)")
      #expect(!admitted, "jurisdiction \(number)")
    }
  }

  /// The library's check is only read: checking one document, then another, then the first again gives the same.
  @Test func theLibrarysCheckIsSharedNotChanged() {
    let first = Self.tree("formula one(x: Money): Money = x * 2\nlet k = $3\n", id: FileIDRange.files.lowerBound)
    let second = Self.tree("formula two(x: Money): Money = x + k + nothing\n", id: FileIDRange.files.lowerBound + 1)
    let before = Self.dump(onLargeStack { Checker.check([first], after: Self.checkedLibrary) }, documents: [first])
    _ = onLargeStack { Checker.check([second], after: Self.checkedLibrary) }
    let after = Self.dump(onLargeStack { Checker.check([first], after: Self.checkedLibrary) }, documents: [first])
    #expect(before == after)
    let admitted = Self.compare([second], "the second document")
    #expect(admitted)
  }

  /// A program checked on top of the library is re-checked after body edits (`Checker.recheck`, its symbol table a
  /// layer more each time, flattened past eight) to what the whole check of the edited text gives.
  @Test func reCheckedAfterEditsLikeAWholeCheck() {
    let id = FileIDRange.files.lowerBound
    let name = Self.libraryFormula
    func text(_ step: Int) -> String {
      "formula a(x: Money): Money = x * \(step + 2) + \(name)(x, x, x) * 0 + tax(ON.income_tax, x)\n"
        + "formula b(y: Money): Money = a(y) + k\nlet k = $3\n"
        + "test \"b\" {\n  b($1) > $0\n}\n"
    }
    let first = Self.tree(text(0), id: id)
    var tree = first
    var program = onLargeStack { Checker.check([first], after: Self.checkedLibrary) }
    var rechecked = 0
    for step in 1...12 {
      let source = SourceFile(id: FileID(id), name: "doc.tax", bytes: Array(text(step).utf8))
      let reparse = Parser.reparse(tree, as: source, edit: nil)
      let (previous, edited) = (program, reparse.tree)
      let fresh = onLargeStack { Checker.check(Self.library + [edited]) }
      if let incremental = onLargeStack({ Checker.recheck(previous, after: reparse) }) {
        rechecked += 1
        program = incremental
      } else {
        program = onLargeStack { Checker.check([edited], after: Self.checkedLibrary) }
      }
      tree = edited
      let (expected, got) = (
        Self.dump(fresh, documents: [tree]), Self.dump(program, documents: [tree])
      )
      #expect(expected == got, "edit \(step)")
    }
    #expect(program.diagnostics.filter { $0.span.file == FileID(id) }.isEmpty)
    #expect(rechecked > 8)
  }

  @Test func aCancelledCheckOnTheLibraryIsAbandoned() {
    let tree = Self.tree("formula one(x: Money): Money = x * 2\n", id: FileIDRange.files.lowerBound)
    let result = onLargeStack { Checker.check([tree], after: Self.checkedLibrary, isCancelled: { true }) }
    #expect(result == nil)
  }
}
