import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `Checker.recheck` must give exactly what checking the edited program from scratch gives, whenever it gives
/// anything: after every random edit of a document, the re-checked program (or a whole check where the re-check
/// declined) is compared with a fresh check, and the next edit starts from it.
@Suite struct RecheckTests {
  /// Applies `edits` random edits to `text` (checked with `library`); returns how many were re-checked.
  /// `defersFormulaBodies`: the programs re-checked are checked as the language server checks them, with the
  /// formula bodies left to be checked when read, and compared with whole checks that keep them.
  static func run(
    text initial: String, library: [SyntaxTree], edits: Int, seed: UInt64, defersFormulaBodies: Bool = false
  ) -> Int {
    var random = SeededGenerator(seed: seed)
    var bytes = Array(initial.utf8)
    let id = FileID(library.count + 5)
    var tree = Parser.parse(SourceFile(id: id, name: "doc.tax", bytes: bytes))
    func check(_ trees: [SyntaxTree]) -> Program {
      guard defersFormulaBodies else { return Checker.check(trees) }
      return Checker.check(trees, defersFormulaBodies: true, isCancelled: { false }) ?? Checker.check(trees)
    }
    var program = check(library + [tree])
    var rechecked = 0
    for step in 0..<edits {
      var (range, replacement) = EditScenarios.edit(bytes, using: &random)
      // Errors pile up and soon stop every re-check: now and then the text goes back to the start (one more edit).
      if step % 5 == 4 { (range, replacement) = (0..<bytes.count, Array(initial.utf8)) }
      let previous = bytes
      bytes.replaceSubrange(range, with: replacement)
      // As the language server re-parses: with the edit as the editor sent it, or two of them as one (a burst).
      let known = EditScenarios.knownEdit(step, range, replacement, &bytes, using: &random)
      let source = SourceFile(id: id, name: "doc.tax", bytes: bytes)
      // Repaired, if an edit split a character: the next edit is made on the text as it is.
      bytes = source.bytes
      let reparse = Parser.reparse(tree, as: source, edit: EditScenarios.sent(known, tree.source, source))
      let fresh = Checker.check(library + [reparse.tree])
      guard let incremental = Checker.recheck(program, after: reparse) else {
        program = check(library + [reparse.tree])
        tree = reparse.tree
        continue
      }
      rechecked += 1
      let context = "seed \(seed), edit \(step): \(range) ← \(String(decoding: replacement, as: UTF8.self).debugDescription)"
      let (got, expected) = (
        ProgramDump.program(incremental, files: [id]) + ProgramDump.tables(incremental, file: id),
        ProgramDump.program(fresh, files: [id]) + ProgramDump.tables(fresh, file: id)
      )
      let sameDiagnostics = incremental.diagnostics.map(ProgramDump.text) == fresh.diagnostics.map(ProgramDump.text)
      guard got == expected, sameDiagnostics else {
        #expect(got == expected, "\(context)")
        #expect(sameDiagnostics, "\(context)")
        // TAXPRO_RECHECK_DEBUG=directory keeps the texts and dumps of the first difference there.
        if let directory = ProcessInfo.processInfo.environment["TAXPRO_RECHECK_DEBUG"] {
          FileManager.default.createFile(atPath: directory + "/before.tax", contents: Data(previous))
          FileManager.default.createFile(atPath: directory + "/after.tax", contents: Data(bytes))
          try? got.write(toFile: directory + "/rechecked.dump", atomically: true, encoding: .utf8)
          try? expected.write(toFile: directory + "/fresh.dump", atomically: true, encoding: .utf8)
        }
        // Every later program would differ too.
        break
      }
      program = incremental
      tree = reparse.tree
    }
    return rechecked
  }

  @Test func sortingByPlaceIsStable() {
    var random = SeededGenerator(seed: 9)
    for _ in 0..<500 {
      let items = (0..<Int.random(in: 0...60, using: &random)).map { position in
        (Span(file: FileID(Int.random(in: -2...2, using: &random)), start: Int.random(in: 0...9, using: &random), end: 0),
          position)
      }
      let expected = items.sorted { a, b in
        (a.0.file, a.0.start, a.1) < (b.0.file, b.0.start, b.1)
      }
      let sorted = Checker.sortedByPlace(items[...], by: \.0)
      #expect(sorted.map(\.1) == expected.map(\.1))
    }
  }

  @Test func randomEditsOfGeneratedFormulas() {
    let library = StandardLibrary.trees()
    let rechecked = onLargeStack { Self.run(text: EditScenarios.formulas(60), library: library, edits: 150, seed: 11) }
    // A quarter of the edits change one digit, most of them in a formula's body or a test: those are re-checked.
    #expect(rechecked > 150 / 6)
  }

  @Test func randomEditsOfTheExamples() throws {
    let library = StandardLibrary.trees()
    var rechecked = 0
    for (number, (_, text)) in try EditScenarios.examples().enumerated() {
      rechecked += onLargeStack { Self.run(text: text, library: library, edits: 40, seed: UInt64(200 + number)) }
    }
    #expect(rechecked > 0)
  }

  @Test func randomEditsOfLibraryFiles() {
    // A library file edited in place of the library's own (as when the editor opens a copy of it).
    let files = StandardLibrary.files()
    for (number, name) in ["<std>/income_tax.tax", "<std>/ON.tax"].enumerated() {
      guard let file = files.first(where: { $0.name == name }) else {
        Issue.record("no \(name) in the library")
        continue
      }
      let library = files.filter { $0.name != name }.enumerated().map { offset, file in
        Parser.parse(SourceFile(id: FileID(offset), name: file.name, text: file.text))
      }
      _ = onLargeStack { Self.run(text: file.text, library: library, edits: 40, seed: UInt64(300 + number)) }
    }
  }

  @Test func theBenchmarkEditIsRechecked() {
    // Checking runs on a large stack, as the tools run it (the library's inferences nest deeply in a debug build).
    onLargeStack { Self.benchmarkEdit() }
  }

  /// One digit of a formula's body in the middle of a long chain of formulas: only that formula is checked again.
  static func benchmarkEdit() {
    let library = StandardLibrary.trees()
    let text = EditScenarios.formulas(300)
    var bytes = Array(text.utf8)
    let id = FileID(library.count)
    let tree = Parser.parse(SourceFile(id: id, name: "doc.tax", bytes: bytes))
    let program = Checker.check(library + [tree])
    guard let digit = moneyDigit(in: bytes, from: bytes.count / 2) else {
      Issue.record("no digit")
      return
    }
    bytes[digit] = bytes[digit] == UInt8(ascii: "3") ? UInt8(ascii: "4") : UInt8(ascii: "3")
    let reparse = Parser.reparse(tree, as: SourceFile(id: id, name: "doc.tax", bytes: bytes))
    let rechecked = Checker.recheck(program, after: reparse)
    #expect(rechecked != nil)
    if let rechecked {
      let fresh = Checker.check(library + [reparse.tree])
      #expect(ProgramDump.program(rechecked, files: [id]) == ProgramDump.program(fresh, files: [id]))
    }
  }

  /// The first digit of the money amount in a `let base = income * rate + $…` line from `offset` on.
  static func moneyDigit(in bytes: [UInt8], from offset: Int) -> Int? {
    let marker = Array("rate + $".utf8)
    guard
      let found = (offset..<(bytes.count - marker.count)).first(where: { Array(bytes[$0..<($0 + marker.count)]) == marker })
    else { return nil }
    return (found + marker.count..<bytes.count).first(where: { bytes[$0] >= 48 && bytes[$0] <= 57 })
  }

  @Test func typingNearTheTopMovesLaterFormulasWithoutRebuildingThem() {
    onLargeStack { Self.typeNearTheTop() }
  }

  /// A digit typed in the first formula's body, then deleted: every later formula moves by a character and back.
  /// The re-parse and the re-check must equal a fresh parse and check, field by field (as queries read them, and as
  /// `dump` shows them), and the moved formulas must still share their fields with the previous tree and program:
  /// moving them costs the same however large they are.
  static func typeNearTheTop() {
    let library = StandardLibrary.trees()
    let text = EditScenarios.formulas(120)
    var bytes = Array(text.utf8)
    let id = FileID(library.count)
    var tree = Parser.parse(SourceFile(id: id, name: "doc.tax", bytes: bytes))
    var program = Checker.check(library + [tree])
    guard let digit = moneyDigit(in: bytes, from: 0) else {
      Issue.record("no digit")
      return
    }
    for (step, inserting) in [true, false].enumerated() {
      if inserting { bytes.insert(UInt8(ascii: "7"), at: digit) } else { bytes.remove(at: digit) }
      let reparse = Parser.reparse(tree, as: SourceFile(id: id, name: "doc.tax", bytes: bytes))
      let fresh = Checker.check(library + [reparse.tree])
      guard let rechecked = Checker.recheck(program, after: reparse) else {
        Issue.record("keystroke \(step) was not re-checked")
        return
      }
      #expect(ProgramDump.program(rechecked, files: [id]) == ProgramDump.program(fresh, files: [id]))
      #expect(ProgramDump.tables(rechecked, file: id) == ProgramDump.tables(fresh, file: id))
      let freshTree = Parser.parse(SourceFile(id: id, name: "doc.tax", bytes: bytes))
      var moved = 0
      for (index, origin) in reparse.origins.enumerated() {
        guard let origin, case .formula(let formula) = reparse.tree.declarations[index],
          case .formula(let old) = tree.declarations[origin], case .formula(let expected) = freshTree.declarations[index]
        else { continue }
        // Each field as read, against the fresh parse's.
        #expect(formula.span == expected.span && formula.name.span == expected.name.span)
        #expect(ProgramDump.text(formula.parameters) == ProgramDump.text(expected.parameters))
        #expect(ProgramDump.text(formula.lets) == ProgramDump.text(expected.lets))
        #expect(ProgramDump.text(formula.result) == ProgramDump.text(expected.result))
        #expect(ProgramDump.text(formula.documentation) == ProgramDump.text(expected.documentation))
        if formula.span.start > digit + 1 {
          #expect(Self.sameFields(formula, old), "formula \(formula.name.name) was rebuilt")
          moved += 1
        }
      }
      #expect(moved > 100)
      for (index, formula) in rechecked.formulas.enumerated() where formula.span.file == id && formula.span.start > digit + 1 {
        let expected = fresh.formulas[index]
        #expect(formula.nameSpan == expected.nameSpan && formula.span == expected.span)
        #expect(ProgramDump.text(formula.parameters) == ProgramDump.text(expected.parameters))
        #expect(ProgramDump.text(formula.lets) == ProgramDump.text(expected.lets))
        #expect(ProgramDump.text(formula.result) == ProgramDump.text(expected.result))
        #expect(Self.sameFields(formula, program.formulas[index]), "checked formula \(formula.name) was rebuilt")
      }
      program = rechecked
      tree = reparse.tree
    }
    // Typed and deleted: back where everything started, with nothing left to move.
    #expect(ProgramDump.tree(tree) == ProgramDump.tree(Parser.parse(SourceFile(id: id, name: "doc.tax", text: text))))
    for case .formula(let formula) in tree.declarations { #expect(formula.offset == 0) }
  }

  /// Whether two values share one buffer of fields.
  static func sameFields<Fields>(_ a: CopyOnWrite<Fields>, _ b: CopyOnWrite<Fields>) -> Bool {
    a.storage.withUnsafeBufferPointer { a in b.storage.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
  }

  @Test func symbolsAddedByManyRechecksStayFindable() {
    onLargeStack { Self.renameLetsOneByOne() }
  }

  /// Each edit renames one more `let` to a name no program had: every re-check adds a layer of symbols to the
  /// table, which must stay shallow (flattened) while every old and new name keeps its own references.
  static func renameLetsOneByOne() {
    let id = FileID(0)
    let count = 3 * SymbolTableBuilder.maximumDepth
    var text = ""
    for index in 0..<count {
      text += "formula f\(index)(income: Money): Money =\n  let part = income * 2\n  part + part\n\n"
    }
    var tree = Parser.parse(SourceFile(id: id, name: "doc.tax", text: text))
    var program = Checker.check([tree])
    for index in 0..<count {
      let old = "formula f\(index)(income: Money): Money =\n  let part = income * 2\n  part + part\n"
      let new = "formula f\(index)(income: Money): Money =\n  let renamed\(index) = income * 2\n  renamed\(index) + renamed\(index)\n"
      text = text.replacingOccurrences(of: old, with: new)
      let reparse = Parser.reparse(tree, as: SourceFile(id: id, name: "doc.tax", text: text))
      guard let rechecked = Checker.recheck(program, after: reparse) else {
        Issue.record("edit \(index) was not re-checked")
        return
      }
      #expect(rechecked.symbols.depth < SymbolTableBuilder.maximumDepth, "edit \(index)")
      let fresh = Checker.check([reparse.tree])
      #expect(ProgramDump.program(rechecked, files: [id]) == ProgramDump.program(fresh, files: [id]), "edit \(index)")
      (tree, program) = (reparse.tree, rechecked)
    }
    // Every renamed `let` and every unrenamed one: its definition and its two uses, and nothing of the others.
    let index = SymbolIndex(program)
    let bytes = Array(text.utf8)
    for name in ["renamed0", "renamed\(count / 2)", "renamed\(count - 1)"] {
      let word = Array(name.utf8)
      guard let start = (0...(bytes.count - word.count)).first(where: { Array(bytes[$0..<($0 + word.count)]) == word }),
        let occurrence = index.occurrence(at: start, in: id)
      else {
        Issue.record("\(name) not found")
        continue
      }
      let places = index.occurrences(of: occurrence.symbol)
      #expect(places.count == 3, "\(name)")
      #expect(places.allSatisfy { String(decoding: bytes[$0.span.start..<$0.span.end], as: UTF8.self) == name })
    }
  }
}
