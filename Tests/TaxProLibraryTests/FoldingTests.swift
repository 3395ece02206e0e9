import Foundation
import Testing

@testable import TaxProCore
@testable import TaxProLibrary
import TestSupport

/// `Folding.regions` skips the expressions of a formula or constant without a `{` and reads a closing brace by its
/// bytes; it must answer exactly as its first form did, which walked every expression and trimmed each last line.
@Suite struct FoldingTests {
  static func reference(_ tree: SyntaxTree) -> [FoldingRegion] {
    let source = tree.source
    var result: [FoldingRegion] = []
    func add(_ span: Span, _ kind: FoldingRegion.Kind = .code) {
      let start = source.lineIndex(of: span.start)
      var end = source.lineIndex(of: max(span.start, span.end - 1))
      if kind == .code, end > start, source.lineText(end).trimmingSpaces.hasPrefix("}") { end -= 1 }
      if end > start { result.append(FoldingRegion(startLine: start, endLine: end, kind: kind)) }
    }
    func visit(_ expression: TaxProCore.Expression) {
      if case .brackets = expression.kind { return add(expression.span) }
      expression.forEachChild(visit)
    }
    for declaration in tree.declarations {
      add(declaration.span)
      switch declaration {
      case .formula(let formula):
        for binding in formula.lets { visit(binding.value) }
        visit(formula.result)
      case .constant(let constant): visit(constant.binding.value)
      case .jurisdiction(let jurisdiction):
        for block in jurisdiction.years {
          add(block.span)
          for definition in block.definitions { visit(definition.value) }
        }
      case .test, .interface, .expression: break
      }
    }
    var runStart: Int? = nil
    var previousLine = -2
    for comment in tree.comments where comment.ownLine {
      let line = source.lineIndex(of: comment.span.start)
      if line != previousLine + 1 {
        if let start = runStart, previousLine > start {
          result.append(FoldingRegion(startLine: start, endLine: previousLine, kind: .comment))
        }
        runStart = line
      }
      previousLine = line
    }
    if let start = runStart, previousLine > start {
      result.append(FoldingRegion(startLine: start, endLine: previousLine, kind: .comment))
    }
    return result.sorted { ($0.startLine, -$0.endLine) < ($1.startLine, -$1.endLine) }
  }

  /// Tables in formulas, constants and year blocks, braces at the start of lines after spaces, tabs and `\r`, and
  /// broken splices of the library and the examples.
  @Test func theRegionsAreTheFirstFormsRegions() throws {
    var texts = StandardLibraryTests.program(includeTests: true).trees.map { String(decoding: $0.source.bytes, as: UTF8.self) }
    texts += try EditScenarios.examples().map(\.text)
    texts.append("""
      formula f(x: Money): Money =
        let t = brackets {
          $0 -> 10%
          $100 -> 20%
        }
        tax(t, x)
      let table = brackets {
        $0 -> 1%
      \t }
      formula g(x: Money): Money =
        x * 2 # no table {
      formula h(x: Money): Money = x +
        tax(brackets { $0 -> 5%
       \r}, x)
      """)
    var random = SeededGenerator(seed: 11)
    texts += EditScenarios.spliced(texts.prefix(40), cuts: 6, longest: 20, using: &random)
    var regions = 0
    for (offset, text) in texts.enumerated() {
      let tree = Parser.parse(SourceFile(id: FileID(offset), name: "f\(offset).tax", text: text))
      let fast = Folding.regions(tree)
      #expect(fast == Self.reference(tree), "text \(offset)")
      regions += fast.count
    }
    #expect(regions > 1_000)
  }
}
