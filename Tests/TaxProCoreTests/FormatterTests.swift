import Foundation
import Testing

@testable import TaxProCore
import TestSupport

/// The structure of a syntax tree without spans or layout: two trees with the same shape mean the same.
enum Shape {
  static func of(_ tree: SyntaxTree) -> String {
    tree.declarations.map(declaration).joined(separator: "\n")
  }

  static func documentation(_ doc: Documentation) -> String {
    let fields: [String] = [
      doc.summary, doc.definition ?? "", doc.instruction ?? "", doc.tip ?? "", doc.topic.joined(separator: "/"),
      doc.references.joined(separator: " "), doc.notes.joined(separator: " "),
    ]
    return "doc(" + fields.joined(separator: "|") + ")"
  }

  static func declaration(_ declaration: Declaration) -> String {
    switch declaration {
    case .formula(let formula):
      let parameters = formula.parameters.map { parameter -> String in
        let range: String = parameter.range.map { expression($0.lower) + ".." + expression($0.upper) } ?? ""
        let defaultText: String = parameter.defaultValue.map(expression) ?? ""
        let head = documentation(parameter.documentation) + " " + parameter.name.name + ":" + parameter.type.name
        return head + " [" + range + "] =" + defaultText
      }
      let lets: String = formula.lets.map(binding).joined(separator: "; ")
      let head = "formula " + documentation(formula.documentation) + " " + formula.name.name
      return head + "(" + parameters.joined(separator: ", ") + "):" + (formula.returnType?.name ?? "?") + " lets[" + lets
        + "] " + expression(formula.result)
    case .constant(let constant): return "const \(documentation(constant.documentation)) \(binding(constant.binding))"
    case .test(let test):
      let items = test.items.map { item -> String in
        switch item {
        case .binding(let value): return binding(value)
        case .check(let check): return expression(check)
        }
      }
      return "test \(test.name) \(test.year.map(String.init) ?? "-") {\(items.joined(separator: "; "))}"
    case .interface(let interface):
      let members: [String] = interface.members.map { member in
        documentation(member.documentation) + " " + member.name.name + ":" + member.type.name
      }
      return "parameters " + interface.name.name + " {" + members.joined(separator: "; ") + "}"
    case .jurisdiction(let jurisdiction):
      let years: [String] = jurisdiction.years.map { year in
        let definitions: [String] = year.definitions.map { definition in
          documentation(definition.documentation) + " " + definition.name.name + "=" + expression(definition.value)
        }
        return "year \(year.year) {" + definitions.joined(separator: "; ") + "}"
      }
      return "\(jurisdiction.kind) \(jurisdiction.code.name) \(jurisdiction.fullName ?? "") {\(years.joined(separator: " "))}"
    case .expression(let value): return "expr \(expression(value))"
    }
  }

  static func binding(_ binding: LetBinding) -> String {
    "let \(binding.name.name):\(binding.type?.name ?? "?")=\(expression(binding.value))"
  }

  static func expression(_ value: TaxProCore.Expression) -> String {
    switch value.kind {
    case .number(let number): return "n\(number.trimmed)"
    case .money(let money): return "m\(money.trimmed)"
    case .rate(let rate): return "r\(rate.trimmed)"
    case .text(let text): return "t\"\(text)\""
    case .bool(let flag): return "\(flag)"
    case .name(let name): return name
    case .federal: return "federal"
    case .missing: return "<missing>"
    case .unary(let op, let operand, _): return "(\(op.rawValue) \(expression(operand)))"
    case .binary(let op, let left, let right, _): return "(\(op.rawValue) \(expression(left)) \(expression(right)))"
    case .call(let callee, let arguments):
      let list: [String] = arguments.map { argument in
        let label: String = argument.label.map { $0.name + ":" } ?? ""
        return label + expression(argument.value)
      }
      return "(call " + callee.name + " " + list.joined(separator: " ") + ")"
    case .member(let object, let member): return "(. \(expression(object)) \(member.name))"
    case .conditional(let c, let t, let e): return "(if \(expression(c)) \(expression(t)) \(expression(e)))"
    case .parenthesized(let inner): return "(paren \(expression(inner)))"
    case .brackets(let rows):
      let list: [String] = rows.map { row in expression(row.threshold) + "->" + expression(row.rate) }
      return "(brackets " + list.joined(separator: " ") + ")"
    }
  }
}

struct FormatterTests {
  /// Every fixture that parses, plus the standard library found next to the sources.
  static func corpus() -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let library = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Sources/TaxProLibrary/Resources")
    let examples = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples")
    var paths: [String] = []
    for directory in [
      root.appendingPathComponent("Fixtures/ok"), root.appendingPathComponent("Fixtures/type_error"),
      root.appendingPathComponent("Fixtures/runtime_error"), library, library.appendingPathComponent("tests"), examples,
    ] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
      paths += names.filter { $0.hasSuffix(".tax") }.sorted().map { directory.appendingPathComponent($0).path }
    }
    return paths
  }

  static func parse(_ text: String) -> SyntaxTree {
    Parser.parse(SourceFile(id: FileID(0), name: "f.tax", text: text))
  }

  @Test(arguments: corpus())
  func formattingIsIdempotentAndKeepsMeaningAndComments(_ path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let original = onLargeStack { Self.parse(text) }
    let once = onLargeStack { Formatter.format(original) }
    let reparsed = onLargeStack { Self.parse(once) }
    #expect(!reparsed.diagnostics.hasErrors, "\(path): formatted text does not parse:\n\(once)")
    #expect(Shape.of(reparsed) == Shape.of(original), "\(path): formatting changed the meaning")
    let twice = onLargeStack { Formatter.format(reparsed) }
    #expect(twice == once, "\(path): formatting is not idempotent")
    let before = original.comments.map { Array($0.text.utf8) }
    let after = reparsed.comments.map { Array($0.text.utf8) }
    #expect(before == after, "\(path): comments were lost, changed or reordered")
  }

  /// The standard library and the examples are kept in the canonical layout.
  @Test(arguments: corpus().filter { $0.contains("/Resources/") || $0.contains("/examples/") })
  func shippedFilesAreFormatted(_ path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let formatted = onLargeStack { Formatter.format(Self.parse(text)) }
    #expect(formatted == text, "\(path) is not formatted: run taxpro fmt on it")
  }

  @Test func elseIfChainsTakeOneLinePerBranch() {
    let input = "formula f(x: Money): Money = if x > $10 then $1 else if x > $5 then $2 else $3\n"
    let expected = """
      formula f(x: Money): Money =
        if x > $10 then
          $1
        else if x > $5 then
          $2
        else
          $3

      """
    #expect(Formatter.format(input) == expected)
  }

  @Test func canonicalLayout() {
    let input = """
      ## Tax.
      formula f(income:Money,province:Province=ON):Money=tax(province.income_tax,income)+$85000*2%  # why
      let a=1
      let b = brackets { $0 -> 5%, $10,000 -> 10% }
      test "t" year 2025 { f($1,000) == $1 }
      """
    let expected = """
      ## Tax.
      formula f(income: Money, province: Province = ON): Money =
        tax(province.income_tax, income) + $85,000 * 2%  # why

      let a = 1
      let b = brackets {
        $0      -> 5%
        $10,000 -> 10%
      }

      test "t" year 2025 {
        f($1,000) == $1
      }

      """
    #expect(Formatter.format(input) == expected)
  }

  /// Comments inside a bracket table stay at the rows they were written at, not gathered after the closing brace.
  @Test func commentsInsideBracketTablesStayWhereTheyAre() {
    let input = """
      province ON {
        year 2025 {
          income_tax = brackets {  # from the 2025 budget
            # the first bracket
            $0 -> 5.05%  # low
            # the middle one
            $52,886 -> 9.15%
            $105,775 -> 11.16%  # top
            # more to come
          }
          credit_rate = 5.05%
        }
      }

      """
    let expected = """
      province ON {
        year 2025 {
          income_tax = brackets {  # from the 2025 budget
            # the first bracket
            $0       -> 5.05%  # low
            # the middle one
            $52,886  -> 9.15%
            $105,775 -> 11.16%  # top
            # more to come
          }
          credit_rate = 5.05%
        }
      }

      """
    #expect(Formatter.format(input) == expected)
    #expect(Formatter.format(expected) == expected)
  }

  @Test func sourceWithErrorsIsLeftAlone() {
    let input = "formula f(x: Money = x +\n"
    #expect(Formatter.format(input) == input)
  }
}
