import Foundation
import Testing

@testable import TaxProCore
import TestSupport

/// No input makes the core run away: floods of errors stop at a bound, deep nesting and huge numbers are diagnostics,
/// and every evaluation ends, within its step and depth limits, in a value or a diagnostic.
@Suite struct BoundsTests {
  static func parse(_ text: String, mode: ParseMode = .file) -> SyntaxTree {
    let source = SourceFile(id: FileID(0), name: "bounds.tax", text: text)
    return onLargeStack { Parser.parse(source, mode: mode) }
  }

  static func codes(_ diagnostics: [Diagnostic]) -> Set<String> { Set(diagnostics.map(\.code.rawValue)) }

  @Test func aFloodOfStrayCharactersStopsTheLexerAfterItsErrorLimit() {
    for text in [String(repeating: "$", count: 200_000), String(repeating: "§ ", count: 100_000),
      "let x = 1 " + String(repeating: "! ", count: 100_000)]
    {
      let tree = Self.parse(text)
      #expect(tree.diagnostics.count <= Lexer.maximumErrors + 2)
      #expect(tree.diagnostics.last?.code == .tooManyErrors)
      #expect(!tree.isIncomplete)
    }
  }

  @Test func anInteractiveLineThatFloodsTheLexerIsNotTakenAsUnfinished() {
    #expect(!Session.isIncomplete("min(" + String(repeating: "$", count: 2_000)))
    #expect(Session.isIncomplete("min("))
  }

  @Test func aFloodOfTopLevelExpressionsStopsTheParser() {
    let tree = Self.parse(String(repeating: "1\n", count: 200_000))
    #expect(tree.diagnostics.count <= Parser.maximumDiagnostics + 1)
    #expect(tree.diagnostics.last?.code == .tooManyErrors)
    #expect(tree.declarations.count <= Parser.maximumDiagnostics + 1)
  }

  @Test func a100000LevelNestingIsADiagnostic() {
    let depth = 100_000
    let inputs = [
      String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth),
      String(repeating: "-", count: depth) + "1",
      String(repeating: "not ", count: depth) + "true",
      String(repeating: "abs(", count: depth) + "1" + String(repeating: ")", count: depth),
      String(repeating: "if true then ", count: depth) + "1" + String(repeating: " else 2", count: depth),
      "1" + String(repeating: " + 1", count: depth),
      "ON" + String(repeating: ".name", count: depth),
    ]
    for expression in inputs {
      let tree = Self.parse("let x = " + expression + "\n")
      #expect(tree.diagnostics.hasErrors || tree.declarations.count == 1)
      if expression.hasPrefix("(") || expression.hasPrefix("-") || expression.hasPrefix("abs") {
        #expect(Self.codes(tree.diagnostics).contains("too-deep"), "\(expression.prefix(12))…")
      }
      // Checking what parsed is bounded too.
      _ = onLargeStack { Checker.check([tree]) }
    }
  }

  @Test func hugeNumbersAreDiagnostics() {
    let literal = "1" + String(repeating: "0", count: 10_000)
    for text in ["let x = \(literal)\n", "let x = $\(literal)\n", "let x = \(literal)%\n"] {
      #expect(Self.codes(Self.parse(text).diagnostics).contains("number-too-large"))
    }
    let longDigits = "0." + String(repeating: "3", count: 10_000)
    #expect(Self.codes(Self.parse("let x = \(longDigits)\n").diagnostics).contains("inexact-literal"))
  }

  /// A check can be abandoned between declarations (the server drops the check of a version already replaced).
  @Test func aCheckIsAbandonedWhenCancelled() {
    var text = ""
    for index in 0..<2_000 { text += "formula f\(index)(x: Number): Number = x + \(index)\n" }
    let tree = Self.parse(text)
    let asked = LockedCounter()
    let abandoned = onLargeStack { Checker.check([tree], isCancelled: { asked.increment() >= 3 }) }
    #expect(abandoned == nil)
    #expect(asked.value == 3)
    let finished = onLargeStack { Checker.check([tree], isCancelled: { false }) }
    #expect(finished?.formulas.count == 2_000)
    #expect(finished?.diagnostics.isEmpty == true)
  }

  /// More digits than are kept is a diagnostic and a marked value, never a silent rounding (which made a difference of
  /// two long numbers print as an exact 0). Since the calculator's display marks rounded values, the literal is a
  /// warning (the issue's "a diagnostic") and what is computed from it prints with `…` or `≈`.
  @Test func literalsBeyond34DigitsAreFlaggedAndMarked() {
    let difference = "1234567890123456789012345678901234567890 - 1234567890123456789012345678901234567000"
    let diagnostics = Self.parse("let d = \(difference)\n").diagnostics
    #expect(diagnostics.filter { $0.code == .inexactLiteral && $0.severity == .warning }.count == 2)
    #expect(diagnostics.first?.message.contains("more digits than TaxPro keeps exactly") == true)
    guard case .value(let value) = Self.evaluate("", difference) else {
      Issue.record("the difference was not evaluated")
      return
    }
    let shown = ValueFormatter.format(value)
    #expect(shown.contains("…") || shown.contains("≈"), "\(shown) looks exact")
    let exact = "let e = 1234567890123456789012345678901234 + 1" + String(repeating: "0", count: 60) + "\n"
    #expect(Self.parse(exact).diagnostics.isEmpty)
  }

  static func evaluate(_ files: String, _ expression: String, limits: EvaluationLimits = EvaluationLimits())
    -> SessionOutcome
  {
    onLargeStack {
      let tree = Parser.parse(SourceFile(id: FileID(0), name: "bounds.tax", text: files))
      let session = Session(trees: [tree], firstInputFileID: 1, limits: limits)
      return session.submit(expression)
    }
  }

  static func failureCodes(_ outcome: SessionOutcome) -> Set<String> {
    if case .failed(let diagnostics) = outcome { return codes(diagnostics) }
    return []
  }

  @Test func resultsBeyondTheDecimalRangeAreOverflowDiagnostics() {
    let big = "1" + String(repeating: "0", count: 60)
    #expect(Self.failureCodes(Self.evaluate("", "\(big) * \(big)")) == ["overflow"])
    #expect(Self.failureCodes(Self.evaluate("", "$\(big) * \(big)")) == ["overflow"])
    #expect(Self.failureCodes(Self.evaluate("", "1 / 0")) == ["division-by-zero"])
    let table = "let b = brackets { $0 -> 10%, $1 -> \(big)% }\n"
    #expect(Self.failureCodes(Self.evaluate(table, "tax(b, $\(big))")) == ["overflow"])
  }

  @Test func anExponentialEvaluationStopsAtTheStepLimit() {
    // f(k) calls f(k-1) twice: 2^60 calls, unless stopped.
    var text = "formula f0(x: Number): Number = x + 1\n"
    for k in 1...60 { text += "formula f\(k)(x: Number): Number = f\(k - 1)(x) + f\(k - 1)(x)\n" }
    let outcome = Self.evaluate(text, "f60(1)", limits: EvaluationLimits(steps: 100_000, depth: 1_500))
    #expect(Self.failureCodes(outcome) == ["step-limit"])
    // Tests of such formulas end the same way.
    let withTest = text + "test \"t\" { f60(1) > 0 }\n"
    let program = onLargeStack {
      Checker.check([Parser.parse(SourceFile(id: FileID(0), name: "t.tax", text: withTest))])
    }
    let outcomes = onLargeStack { TestRunner.run(program, limits: EvaluationLimits(steps: 100_000, depth: 1_500)) }
    #expect(outcomes.first?.failures.map(\.code) == [.stepLimit])
  }

  @Test func aLongChainOfCallsStopsAtTheDepthLimit() {
    // Each formula calls the next: 3,000 nested calls, deeper than the 1,500 levels an evaluation may go.
    var text = "formula g0(x: Number): Number = x\n"
    for k in 1...3_000 { text += "formula g\(k)(x: Number): Number = g\(k - 1)(x) + 1\n" }
    #expect(Self.failureCodes(Self.evaluate(text, "g3000(1)")) == ["depth-limit"])
    if case .value(let value) = Self.evaluate(text, "g300(1)") {
      #expect(value == .number(ExactDecimal(301)))
    } else {
      Issue.record("g300(1) should evaluate")
    }
  }

  @Test func aDiagnosticOnAVeryLongLineShowsAWindowOfIt() {
    let text = "let x = " + String(repeating: "1 + ", count: 250_000) + "$\n"
    let tree = Self.parse(text)
    let rendered = DiagnosticRenderer(sources: [tree.source.id: tree.source]).render(tree.diagnostics)
    #expect(rendered.contains("…"))
    #expect(rendered.utf8.count < 2_000)
  }
}

/// A counter shared with a closure that may run on another thread.
final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

/// Operators in a row are not nesting (issue 15: 257 flat `+` terms said "nested too deeply").
@Suite struct FlatChainTests {
  static func evaluate(_ text: String, limits: EvaluationLimits = EvaluationLimits()) -> SessionOutcome {
    BoundsTests.evaluate("", text, limits: limits)
  }

  @Test func longFlatChainsEvaluateAndTheirBoundIsNotANestingBound() {
    let sum = Array(repeating: "1", count: 10_001).joined(separator: " + ")
    guard case .value(let value) = Self.evaluate(sum) else {
      Issue.record("a 10,001-term sum did not evaluate")
      return
    }
    #expect(value == .number(ExactDecimal(10_001)))
    let mixed = (0..<3_000).map { "$\($0) * 2" }.joined(separator: " - ") + " + 10%"
    if case .value(let money) = Self.evaluate(mixed) {
      #expect(money.type == .money)
    } else {
      Issue.record("a 3,000-term mixed chain did not evaluate")
    }
    let logic = Array(repeating: "true", count: 4_000).joined(separator: " and ") + " or false"
    if case .value(let flag) = Self.evaluate(logic) {
      #expect(flag == .bool(true))
    } else {
      Issue.record("a 4,000-term logical chain did not evaluate")
    }
    let tooLong = BoundsTests.parse("let s = " + Array(repeating: "1", count: 10_002).joined(separator: " + ") + "\n")
    #expect(tooLong.diagnostics.map(\.code) == [.tooManyOperators])
    #expect(!tooLong.diagnostics.contains { $0.message.contains("nested") })
    // Nesting still counts: 257 parentheses are too deep.
    let nested = BoundsTests.parse("let n = " + String(repeating: "(", count: 257) + "1" + String(repeating: ")", count: 257) + "\n")
    #expect(nested.diagnostics.map(\.code).contains(.tooDeep))
  }

  /// A chain takes one step per operator, as before, and stops at the step limit with the same span.
  @Test func chainsCountTheirStepsAndStopAtTheLimit() {
    let sum = Array(repeating: "1", count: 2_000).joined(separator: " + ")
    guard case .failed(let diagnostics) = Self.evaluate(sum, limits: EvaluationLimits(steps: 1_000, depth: 1_500)) else {
      Issue.record("the step limit did not stop a 2,000-term sum")
      return
    }
    #expect(diagnostics.map(\.code) == [.stepLimit])
  }
}
