import TaxProCore

/// `taxpro explain [--json] EXPR [FILE…]`.
struct ExplainCommand: Command {
  static let help = CommandHelp(
    name: "explain", summary: "an expression evaluated step by step, with the parameters it read",
    discussion: """
      Shows each formula called, each bracket computation and each parameter read on the way to EXPR's value. \
      --json prints the same steps as JSON (docs/EXPLAIN_JSON.md), for other programs.
      """,
    arguments: [.expression(example: "'tax(ON.income_tax, $85,000)'"), .formulaFiles],
    options: [.json, .year],
    examples: [HelpEntry(name: "taxpro explain 'tax(ON.income_tax, $85,000)'", meaning: "each bracket's share")])

  var expression: String
  var inputs: ProgramInputs
  var json: Bool

  init(_ arguments: ParsedArguments) throws(UsageError) {
    expression = arguments.positionals[0]
    inputs = try ProgramInputs(arguments, after: 1)
    json = arguments.has(.json)
  }

  func run() throws(UsageError) -> Int32 {
    guard let session = try inputs.session() else { return 1 }
    switch session.explain(expression, name: "<expr>") {
    case .success(let (value, steps)):
      let renderer = ExplanationRenderer(
        program: session.program, sources: session.sources, style: Output.style(color: Output.colorOut))
      if json {
        Output.write(
          ExplanationJSON.render(expression: expression, value: value, steps: steps, year: session.year, renderer: renderer)
            + "\n")
      } else {
        Output.write(renderer.render(expression: expression, value: value, steps: steps))
      }
      return 0
    case .failure(let list):
      Output.writeError(Output.renderer(session.sources).render(list.diagnostics))
      return 1
    }
  }
}

extension OptionSpec {
  static let json = OptionSpec(name: "--json", summary: "the steps as JSON (docs/EXPLAIN_JSON.md)")
}
