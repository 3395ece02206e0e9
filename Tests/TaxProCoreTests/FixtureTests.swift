import Foundation
import Testing

@testable import TaxProCore
import TestSupport

/// Data-driven tests: every `.tax` file under `Fixtures/<outcome>/` is run, and what it produces is compared with the
/// golden rendering beside it (`NAME.expected`). Adding a case is adding a file. Run with `TAXPRO_UPDATE_GOLDEN=1` to
/// write the renderings after checking them by eye.
struct FixtureTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func fixtures(_ outcome: String) -> [String] {
    let directory = root.appendingPathComponent(outcome)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".tax") }.sorted().map { "\(outcome)/\($0)" }
  }

  static func load(_ relative: String) throws -> SourceFile {
    let data = try Data(contentsOf: root.appendingPathComponent(relative))
    return SourceFile(id: FileID(0), name: relative, text: String(decoding: data, as: UTF8.self))
  }

  /// Compares with the golden file, or writes it when updating.
  static func compare(_ rendered: String, golden relative: String) throws {
    let url = root.appendingPathComponent(relative.replacingOccurrences(of: ".tax", with: ".expected"))
    if ProcessInfo.processInfo.environment["TAXPRO_UPDATE_GOLDEN"] != nil {
      try Data(rendered.utf8).write(to: url)
      return
    }
    let expected = try String(decoding: Data(contentsOf: url), as: UTF8.self)
    #expect(rendered == expected, "rendering of \(relative) differs from \(url.lastPathComponent)")
  }

  @Test(arguments: fixtures("ok"))
  func ok(_ fixture: String) throws {
    let source = try Self.load(fixture)
    let program = onLargeStack { Checker.check([Parser.parse(source)]) }
    let rendered = DiagnosticRenderer(sources: program.sources).render(program.diagnostics)
    #expect(program.diagnostics.isEmpty, "\(fixture):\n\(rendered)")
    let outcomes = onLargeStack { TestRunner.run(program) }
    #expect(!outcomes.isEmpty, "\(fixture) has no tests")
    for outcome in outcomes {
      let failures = DiagnosticRenderer(sources: program.sources).render(outcome.failures)
      #expect(outcome.passed, "\(fixture): \(outcome.name)\n\(failures)")
    }
  }

  @Test(arguments: fixtures("parse_error"))
  func parseError(_ fixture: String) throws {
    let source = try Self.load(fixture)
    let tree = onLargeStack { Parser.parse(source) }
    #expect(tree.diagnostics.hasErrors, "\(fixture) should not parse")
    try Self.compare(DiagnosticRenderer(sources: [source.id: source]).render(tree.diagnostics), golden: fixture)
  }

  @Test(arguments: fixtures("type_error"))
  func typeError(_ fixture: String) throws {
    let source = try Self.load(fixture)
    let tree = onLargeStack { Parser.parse(source) }
    let parseErrors = DiagnosticRenderer(sources: [source.id: source]).render(tree.diagnostics)
    #expect(!tree.diagnostics.hasErrors, "\(fixture) should parse:\n\(parseErrors)")
    let program = onLargeStack { Checker.check([tree]) }
    #expect(program.diagnostics.hasErrors, "\(fixture) should not check")
    try Self.compare(DiagnosticRenderer(sources: program.sources).render(program.diagnostics), golden: fixture)
  }

  @Test(arguments: fixtures("runtime_error"))
  func runtimeError(_ fixture: String) throws {
    let source = try Self.load(fixture)
    let program = onLargeStack { Checker.check([Parser.parse(source)]) }
    let rendered = DiagnosticRenderer(sources: program.sources).render(program.diagnostics)
    #expect(program.diagnostics.isEmpty, "\(fixture) should check:\n\(rendered)")
    let outcomes = onLargeStack { TestRunner.run(program, year: 2025) }
    #expect(outcomes.allSatisfy { !$0.passed }, "every test in \(fixture) should fail")
    let failures = outcomes.flatMap(\.failures)
    try Self.compare(DiagnosticRenderer(sources: program.sources).render(failures), golden: fixture)
  }
}
