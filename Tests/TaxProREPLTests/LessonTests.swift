import Foundation
import TaxProCore
import TaxProLibrary
import Testing

@testable import TaxProREPL

/// The lessons as a learner reads them, over the real standard library: one screen each, no line past the terminal's
/// edge with colour on or off, figures computed (never a lesson that could not work out its example), the points the
/// issue asked for made (the threshold an RRSP deduction crosses, a clawback that bites), found by plain words, and
/// every formula's notes beside its result.
@Suite struct LessonTests {
  static let trees = StandardLibrary.trees()

  /// A REPL over the standard library at `width` columns that runs `lines`.
  func run(_ lines: [String], width: Int = 80, color: Bool = false) throws -> REPLHarness {
    let repl = try REPLHarness(lines: lines, color: color, width: width, trees: Self.trees, year: nil)
    repl.run()
    return repl
  }

  @Test func searchFindsWordsByTheirStartNotInsideOtherWords() throws {
    let text = try run([":search age", ":search income_tax"], width: 200).text
    // "age" is a word of federal_age_amount's name; inside "average" and "wages" it is not the word searched for.
    #expect(text.contains("federal_age_amount — "))
    #expect(!text.contains("combined_average_rate — "))
    // A word with a '_' in it is found anywhere in the text, as written.
    #expect(text.contains("Province.income_tax — "))
  }

  /// Lines as they appear on screen.
  func screenLines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  func expectFits(_ text: String, width: Int, _ what: String) {
    for line in screenLines(text) {
      #expect(TextLayout.width(line) <= width, "\(what): \(TextLayout.width(line)) columns: \(line)")
    }
  }

  @Test func everyConceptLessonIsOneScreenWithItsExampleWorkedOut() throws {
    for color in [false, true] {
      for lesson in ConceptLesson.all {
        let repl = try run([":lesson " + lesson.name], color: color)
        let lines = screenLines(repl.text)
        #expect(lines.count <= REPL.lessonScreen, "\(lesson.name): \(lines.count) lines")
        expectFits(repl.text, width: 80, lesson.name)
        #expect(repl.errors.isEmpty, "\(lesson.name): \(repl.errors)")
        #expect(!repl.text.contains("not worked out"), "\(lesson.name): \(repl.text)")
        let plain = TextLayout.plain(repl.text)
        for section in ["1. What it is", "2. What goes in", "3. A worked example", "4. Tip", "Try it: "] {
          #expect(plain.contains(section), "\(lesson.name) lacks \(section)")
        }
        // Its figures are the language's: every template was filled (no braces left).
        #expect(!plain.contains("{") && !plain.contains("}"), "\(lesson.name): \(plain)")
      }
    }
  }

  @Test func everyLessonsMoreAndEveryFormulasLessonFitTheWidth() throws {
    let formulas = try REPLHarness(lines: [], trees: Self.trees, year: nil).session.program.formulas.map(\.name)
    #expect(formulas.count > 40)
    let lines = formulas.map { ":lesson " + $0 } + ConceptLesson.all.map { ":lesson \($0.name) more" }
    for width in [80, 60] {
      let repl = try run(lines, width: width, color: width == 60)
      expectFits(repl.text, width: width, "lessons at \(width)")
      #expect(!repl.text.contains("No example could be worked out"))
      #expect(repl.errors.isEmpty, "\(repl.errors)")
    }
    // Each formula's lesson alone is one screen at 80 columns.
    for formula in formulas {
      let repl = try run([":lesson " + formula])
      #expect(screenLines(repl.text).count <= REPL.lessonScreen, "\(formula): \(screenLines(repl.text).count) lines")
    }
  }

  /// A formula's lesson names parameters in words: no `federal.x` or `ON.x` outside code to type (between
  /// backticks, the example's call, `:explain full` and `Try it:` lines) or a file's name (`see ON.tax`).
  @Test func formulaLessonsNameParametersInWords() throws {
    let formulas = try REPLHarness(lines: [], trees: Self.trees, year: nil).session.program.formulas.map(\.name)
    let repl = try run(formulas.map { ":lesson " + $0 })
    let code = /(federal|province|[A-Z]{2})\.[a-z][a-z_0-9]*/
    var prose = repl.text.split(separator: "\n").map(String.init).filter { line in
      !line.contains(":explain full") && !line.hasPrefix("Try it:") && !line.contains(") = ")
    }.joined(separator: " ")
    // Code between backticks, which may run over a line break, is code to type.
    prose = prose.replacing(/`[^`]*`/, with: "")
    // Not a file (`ON.tax`, `NOTES.md`) or a family of names (`federal.cpp_*`).
    let names = prose.matches(of: code).map { String($0.output.0) }.filter {
      !$0.hasSuffix(".tax") && !$0.hasSuffix(".md") && !$0.hasSuffix("_")
    }
    #expect(names.isEmpty, "\(Set(names).sorted())")
  }

  /// The chart a lesson offers is a `:plot` line that works when typed.
  @Test func aLessonsChartCommandDrawsTheChart() throws {
    let charted = ConceptLesson.all.filter { $0.chart != nil }
    #expect(!charted.isEmpty)
    for lesson in charted {
      let more = try run([":lesson \(lesson.name) more"], width: 200)
      guard let command = screenLines(more.text).map({ $0.trimmingCharacters(in: .whitespaces) })
        .first(where: { $0.hasPrefix(":plot ") })
      else {
        Issue.record("\(lesson.name): no :plot line in \(more.text)")
        continue
      }
      #expect(command.contains(" over \(lesson.chart?.variable ?? "") from "), "\(command)")
      let plot = try run([command])
      #expect(plot.errors.isEmpty, "\(lesson.name): \(command): \(plot.errors)")
      #expect(screenLines(plot.text).count > 5, "\(lesson.name): \(plot.text)")
    }
  }

  /// A lesson whose example is a result with parts draws it as `:chart` and `taxpro chart` do (the same renderer),
  /// indented under the example, at the lesson's width, in colour only when the REPL has colour.
  @Test(arguments: [("take-home", "take_home_pay($85,000, ON)"), ("provincial", "combined_tax($85,000, ON)")])
  func aLessonDrawsTheChartOfItsExample(lesson: String, call: String) throws {
    for width in [80, 120] {
      for color in [false, true] {
        let repl = try run([":lesson " + lesson], width: width, color: color)
        let breakdown = try repl.session.breakdown(call).get()
        #expect(breakdown.parts.count >= 2)
        let chart = screenLines(BreakdownBars(width: width - 2, color: color).render(breakdown)).map { "  " + $0 }
        let lines = screenLines(repl.text)
        let start = lines.firstIndex { $0 == chart.first }
        #expect(start.map { Array(lines[$0..<min(lines.count, $0 + chart.count)]) } == chart, "\(repl.text)")
        #expect(chart.contains { $0.contains("\u{1B}[") } == color)
        // The whole's stacked bar fills the lesson's width.
        #expect(chart.last.map(TextLayout.width) == width)
        #expect(lines.count <= REPL.lessonScreen)
        expectFits(repl.text, width: width, "\(lesson) at \(width)")
      }
    }
  }

  @Test func theRRSPRefundLessonNamesTheThresholdTheDeductionCrosses() throws {
    let repl = try run([":lesson rrsp_refund"])
    // The threshold is the year's second federal bracket, read from the library rather than written here.
    let evaluator = Evaluator(program: repl.session.program, year: repl.session.year)
    guard case .brackets(let table) = try evaluator.parameter("federal", "income_tax", at: Span(file: FileID(-1), start: 0, end: 0))
    else {
      Issue.record("federal.income_tax is not a table")
      return
    }
    let threshold = ValueFormatter.money(table.rows[1].threshold)
    let text = repl.text.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
    #expect(text.contains("of it lies above the \(threshold) threshold, at \(ValueFormatter.rate(table.rows[1].rate))"), "\(repl.text)")
    #expect(text.contains("below it, at \(ValueFormatter.rate(table.rows[0].rate))"))
    // The trace's noise is gone: no comparison of provinces, no clamp of a negative share.
    #expect(!repl.text.contains("==") && !repl.text.contains("clamp("))
    // The summary is said once.
    let summary = "Tax refund from an RRSP contribution"
    #expect(repl.text.components(separatedBy: summary).count == 2)
    // Names in prose are readable: no parameter written as code.
    #expect(!repl.text.contains("federal."))
  }

  @Test func theClawbackLessonsExampleHasAClawbackThatBites() throws {
    let repl = try run([":lesson clawback"])
    let plain = TextLayout.plain(repl.text)
    let pattern = /oas_recovery_tax\(\$[0-9,]+\) = \$([0-9,]+\.[0-9]{2})/
    guard let match = plain.firstMatch(of: pattern) else {
      Issue.record("no worked example in \(plain)")
      return
    }
    let amount = Decimal(string: String(match.1).replacingOccurrences(of: ",", with: "")) ?? 0
    #expect(amount > 0, "the clawback is \(match.1)")
    #expect(plain.contains("above the Old Age Security recovery threshold"))
  }

  @Test func lessonsAreFoundByPlainWords() throws {
    let cases: [(String, String)] = [
      ("brackets", "Tax brackets"), ("bracket", "Tax brackets"), ("tax", "Tax brackets"),
      ("clawback", "Old Age Security and the clawback"), ("OAS", "Old Age Security and the clawback"),
      ("marginal", "Marginal and average rates"), ("average rate", "Marginal and average rates"),
      ("TFSA", "TFSA or RRSP?"), ("gross-up", "Dividends: the gross-up and the credit"),
      ("basic personal amount", "The basic personal amount"), ("EI", "CPP and EI: what comes off a paycheque"),
      ("surtax", "The provincial layer"),
    ]
    for (word, title) in cases {
      let repl = try run([":lesson " + word])
      #expect(repl.text.hasPrefix("Lesson: " + title), "\(word) → \(repl.text.prefix(60))")
    }
    // A formula's own name is its lesson, not the concept's.
    #expect(try run([":lesson rrsp_refund"]).text.hasPrefix("Lesson: rrsp_refund"))
    // A word that names no lesson shows what :search finds.
    let lift = try run([":lesson lift"])
    #expect(lift.text.contains("no lesson called 'lift'"))
    #expect(lift.text.contains("ontario_lift_credit"))
    let none = try run([":lesson zyzzyva"])
    #expect(none.errors.contains("no lesson, formula or topic 'zyzzyva'"))
  }

  @Test func theGlossaryLinksEachTermToALessonThatUsesIt() throws {
    let names = Set(ConceptLesson.all.map(\.name))
    for term in Glossary.terms {
      #expect(names.contains(term.lesson), "\(term.term) → \(term.lesson)")
    }
    for lesson in ConceptLesson.all {
      for term in lesson.terms { #expect(Glossary.term(named: term) != nil, "\(lesson.name) uses \(term)") }
      let text = TextLayout.plain(try run([":lesson " + lesson.name]).text).lowercased()
        .replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
      for term in lesson.terms {
        guard let entry = Glossary.term(named: term) else { continue }
        let spellings = ([entry.term] + entry.aliases).map { $0.lowercased() }
        #expect(spellings.contains { text.contains($0) }, "\(lesson.name) lists \(term) but never says it")
      }
    }
    let repl = try run([":glossary", ":glossary clawbacks", ":glossary zzz"])
    #expect(repl.text.contains("marginal rate — The share of your next dollar"))
    #expect(repl.text.contains("Learn it: :lesson clawback (Old Age Security and the clawback)"))
    #expect(repl.errors.contains("'zzz' is not in the glossary"))
  }

  @Test func explainSummarisesAndFullShowsEveryStep() throws {
    let repl = try run([":explain combined_tax($85,000)", ":explain full combined_tax($85,000)"])
    let parts = repl.text.components(separatedBy: "combined_tax($85,000) = ")
    #expect(parts.count == 3)
    let summary = parts[1]
    let full = parts[2]
    #expect(summary.contains("The whole trace: :explain full combined_tax($85,000)"))
    #expect(summary.contains("the federal brackets on $85,000.00:"))
    #expect(!summary.contains("bracket by bracket") && !summary.contains(" == "))
    #expect(full.contains("bracket by bracket") && full.contains("province == QC"))
    #expect(screenLines(summary).count * 3 < screenLines(full).count)
    // The formula's notes are beside the result.
    #expect(summary.contains("Note: Everything the federal income tax"))
  }

  /// `:explain ans` explains the last calculation, the session's values it read written in; once `ans` no longer
  /// holds that result (or there is none), it is the value alone.
  @Test func explainAnsExplainsTheLastCalculation() throws {
    let repl = try run([
      "let income = $85,000", "combined_tax(income)", ":explain ans", ":explain full ans", "let other = 1",
      ":explain ans",
    ])
    let parts = repl.text.components(separatedBy: "combined_tax($85,000.00) = ")
    // A `let` leaves `ans` as it was: the third is the same calculation again.
    #expect(parts.count == 4, "\(repl.text)")
    #expect(parts.count == 4 && parts[1].contains("The whole trace: :explain full combined_tax($85,000.00)"))
    #expect(parts.count == 4 && parts[2].contains("bracket by bracket"))
    #expect(!repl.errors.contains("error"), "\(repl.errors)")
    let fresh = try run([":explain ans"])
    #expect(!fresh.text.contains("combined_tax"))
    let changed = try run(["combined_tax($85,000)", "2 + 3", ":explain ans"])
    #expect(changed.text.contains("2 + 3 = 5"), "\(changed.text)")
    #expect(!changed.text.contains("combined_tax"))
  }

  /// Every library formula with a `## note:` shows it beside the result when its worked example is explained.
  @Test func everyFormulaWithANoteShowsItInItsExplanation() throws {
    let repl = try REPLHarness(lines: [], width: 80, trees: Self.trees, year: nil)
    let program = repl.session.program
    let readable = ReadableText(program: program, year: repl.session.year)
    func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    var checked = 0
    for formula in program.formulas where !formula.documentation.notes.isEmpty {
      guard case .success(let (text, value, steps)) = repl.repl.workedExample(formula) else {
        Issue.record("\(formula.name) has no worked example")
        continue
      }
      let explanation = words(
        repl.repl.explanation(text, value: value, steps: steps, colored: false, detail: .summary(depth: 2)))
      for note in formula.documentation.notes {
        #expect(explanation.contains("Note: " + words(readable.prose(note))), "\(formula.name): \(note)")
      }
      checked += 1
    }
    #expect(checked > 20)
  }

  @Test func helpSearchAndExplainFitTheWidthWithColourOnAndOff() throws {
    for width in [80, 50] {
      for color in [false, true] {
        let repl = try run(
          [
            ":help", ":help :lesson", ":help provincial_tax", ":search tax", ":topics", ":glossary",
            ":explain rrsp_refund($5,000, $60,000)", ":explain full combined_tax($85,000, QC)",
            ":explain take_home_pay($85,000)", ":lesson",
          ], width: width, color: color)
        expectFits(repl.text, width: width, "width \(width), colour \(color)")
      }
    }
  }
}
