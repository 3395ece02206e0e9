import Foundation

@testable import TaxProCore

/// A canonical text of what the parser and checker produce, for comparing two ways of producing it (an incremental
/// re-check against a fresh one, a faster parser against the old one's output). Everything is printed through
/// `dump`, except dictionaries, which are printed in key order so that the text does not depend on hashing.
enum ProgramDump {
  static func text(_ value: Any) -> String {
    var output = ""
    dump(value, to: &output)
    return output
  }

  /// The declarations, comments, diagnostics and completeness of a tree, without its source.
  static func tree(_ tree: SyntaxTree) -> String {
    var output = "tree \(tree.source.id.rawValue) \(tree.source.name) incomplete=\(tree.isIncomplete)\n"
    for declaration in tree.declarations { output += text(declaration) }
    for comment in tree.comments { output += text(comment) }
    for diagnostic in tree.diagnostics { output += text(diagnostic) }
    return output
  }

  /// A formula as queries and the evaluator read it: with its body, whether the check kept it or deferred it
  /// (`Program.body(ofFormula:)`).
  static func formula(_ program: Program, _ index: Int) -> String {
    var fields = program.formulas[index].fields
    let body = program.body(ofFormula: index)
    fields.lets = body.lets
    fields.result = body.result
    fields.bodyDeferred = false
    return text(fields)
  }

  /// Everything a program holds that queries and the evaluator read, restricted to `files` where it says where it is
  /// (nil: every file).
  static func program(_ program: Program, files: Set<FileID>? = nil) -> String {
    func included(_ span: Span) -> Bool { files?.contains(span.file) ?? true }
    var output = ""
    for tree in program.trees where files?.contains(tree.source.id) ?? true { output += self.tree(tree) }
    output += "formulas\n"
    for index in program.formulas.indices where included(program.formulas[index].span) {
      output += formula(program, index)
    }
    for (name, index) in program.formulaIndex.sorted(by: { $0.key < $1.key })
    where included(program.formulas[index].span) {
      output += "\(name) -> \(program.formulas[index].span)\n"
    }
    output += "constants\n"
    for constant in program.constants where included(constant.span) { output += text(constant) }
    output += "tests\n"
    for test in program.tests where included(test.span) { output += text(test) }
    output += "jurisdictions \(program.provinceCodes)\n"
    for (code, jurisdiction) in program.jurisdictions.sorted(by: { $0.key < $1.key }) where included(jurisdiction.span) {
      output += "\(code) \(jurisdiction.kind) \(jurisdiction.fullName) \(jurisdiction.codeSpan) \(jurisdiction.span)\n"
      output += text(jurisdiction.documentation)
      for (year, definitions) in jurisdiction.years.sorted(by: { $0.key < $1.key }) {
        output += "year \(year) \(jurisdiction.yearSpans[year].map { "\($0)" } ?? "-")\n"
        for (_, definition) in definitions.sorted(by: { $0.key < $1.key }) { output += text(definition) }
      }
      for (name, type) in jurisdiction.parameterTypes.sorted(by: { $0.key < $1.key }) { output += "\(name): \(type)\n" }
    }
    output += "interfaces\n"
    for (_, interface) in program.interfaces.sorted(by: { $0.key < $1.key }) where included(interface.span) {
      output += text(interface)
    }
    output += "diagnostics\n"
    for diagnostic in program.diagnostics where included(diagnostic.span) { output += text(diagnostic) }
    output += "occurrences\n"
    for occurrence in program.occurrences where included(occurrence.span) { output += text(occurrence) }
    return output
  }

  /// The checker's own tables, which the next re-check and checks against the program (the REPL) read.
  static func tables(_ program: Program, file: FileID) -> String {
    let tables = program.tables
    var output = "declarations\n"
    for declaration in tables.formulaDeclarations where declaration.span.file == file {
      output += "\(declaration.name) \(declaration.span) \(declaration.parameters.map(\.span))\n"
    }
    for declaration in tables.constantDeclarations where declaration.span.file == file {
      output += "\(declaration.binding.name) \(declaration.span)\n"
    }
    for (code, declaration) in tables.jurisdictionDeclarations.sorted(by: { $0.key < $1.key })
    where declaration.span.file == file {
      output += "\(code) \(declaration.span)\n"
    }
    output += "edges \(tables.formulaEdges) \(tables.constantEdges)\n"
    output += "parameter edges \(tables.parameterEdges.count) on demand \(tables.onDemandCount)\n"
    output += "check diagnostics\n"
    for diagnostic in tables.checkDiagnostics { output += text(diagnostic) }
    return output
  }
}
