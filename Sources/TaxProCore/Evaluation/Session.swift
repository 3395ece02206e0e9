/// What happened to one piece of interactive input.
public enum SessionOutcome: Sendable {
  /// The input stops in the middle of something: ask for another line.
  case incomplete
  /// Nothing to do (a blank line or a comment).
  case nothing
  /// An expression's value.
  case value(Value)
  /// Declarations made: `let` names with their values, formulas and others by name.
  case defined([Definition])
  /// Test blocks typed in were run.
  case tested([TestOutcome])
  /// Problems; nothing of the input was kept.
  case failed([Diagnostic])

  public struct Definition: Sendable {
    public var name: String
    public var kind: String
    /// The value of a `let`, or the signature of a formula.
    public var detail: String
  }
}

/// An interactive session over a program: the REPL, the non-interactive line mode and `taxpro eval` all use it.
///
/// It keeps `ans`, `let` values and declarations typed in. A declaration that fails to check leaves nothing behind.
public final class Session {
  public private(set) var program: Program
  public private(set) var year: Int
  var baseTrees: [SyntaxTree]
  var sessionTrees: [SyntaxTree] = []
  /// The warnings of the last input given to `submit` (a number with leading zeros, a rounded literal), for the front
  /// end to show beside its result.
  public private(set) var warnings: [Diagnostic] = []
  /// `ans` and the values of `let`s typed in.
  public private(set) var values: [String: Value] = [:]
  var inputs: [FileID: SourceFile] = [:]
  var nextFileID: Int
  var evaluatorCache: Evaluator?
  public var limits: EvaluationLimits
  /// Polled during evaluation: true stops it (Ctrl-C).
  public var isCancelled: (() -> Bool)?

  /// `trees` are the standard library and loaded files; input sources get ids from `firstInputFileID` on.
  public init(trees: [SyntaxTree], year: Int? = nil, firstInputFileID: Int, limits: EvaluationLimits = EvaluationLimits()) {
    self.baseTrees = trees
    self.program = Checker.check(trees)
    self.year = year ?? program.latestYear ?? 2025
    self.nextFileID = firstInputFileID
    self.limits = limits
  }

  /// Every source the session knows: the program's and every input, for rendering diagnostics.
  public var sources: [FileID: SourceFile] { program.sources.merging(inputs) { first, _ in first } }

  /// Diagnostics of the loaded files (errors there make formulas unusable).
  public var programDiagnostics: [Diagnostic] { program.diagnostics }

  var evaluator: Evaluator {
    if let cached = evaluatorCache, cached.program === program, cached.year == year { return cached }
    let evaluator = Evaluator(program: program, year: year, limits: limits)
    evaluatorCache = evaluator
    return evaluator
  }

  /// Chooses the tax year; false when no jurisdiction has figures for it.
  @discardableResult
  public func setYear(_ newYear: Int) -> Bool {
    guard program.years.isEmpty || program.years.contains(newYear) else { return false }
    year = newYear
    return true
  }

  /// Replaces the loaded files (`:reload`, `:load`); keeps the session's own declarations if they still check.
  public func replaceBase(_ trees: [SyntaxTree]) -> [Diagnostic] {
    baseTrees = trees
    program = Checker.check(baseTrees + sessionTrees, predefined: values)
    if !program.years.isEmpty && !program.years.contains(year) { year = program.latestYear ?? year }
    return program.diagnostics.filter { $0.severity == .error }
  }

  /// Forgets `ans`, the `let` values and the declarations typed in (`:reset`); the loaded files and the year stay.
  public func reset() {
    values = [:]
    sessionTrees = []
    program = Checker.check(baseTrees)
  }

  /// A new source for input text.
  public func makeSource(_ text: String, name: String, firstLine: Int = 1) -> SourceFile {
    let source = SourceFile(id: FileID(nextFileID), name: name, text: text, firstLine: firstLine)
    nextFileID += 1
    inputs[source.id] = source
    return source
  }

  /// Parses input without running it: tells whether it is complete, for multi-line entry.
  public static func isIncomplete(_ text: String) -> Bool {
    Parser.parse(SourceFile(id: FileID(-1), name: "", text: text), mode: .interactive).isIncomplete
  }

  /// Checks an expression and returns its type (`:type`).
  public func type(of text: String, name: String = "<input>") -> (TaxType?, [Diagnostic]) {
    switch checkExpression(text, name: name) {
    case .success(let typed): return (typed.type, [])
    case .failure(let list): return (nil, list.diagnostics)
    }
  }

  func checkExpression(_ text: String, name: String) -> Result<TypedExpression, DiagnosticList> {
    compile(text, name: name, locals: [])
  }

  /// Checks an expression in which `locals` are names whose values are given at each evaluation (`:plot`, CSV rows).
  public func compile(_ text: String, name: String, locals: [(name: String, type: TaxType)]) -> Result<
    TypedExpression, DiagnosticList
  > {
    let source = makeSource(text, name: name)
    let tree = Parser.parse(source, mode: .interactive)
    if tree.diagnostics.hasErrors { return .failure(DiagnosticList(tree.diagnostics)) }
    guard tree.declarations.count == 1, case .expression(let expression) = tree.declarations[0] else {
      let span = Span(file: source.id, start: 0, end: source.bytes.count)
      return .failure(DiagnosticList([.error(.expectedOneExpression, at: span)]))
    }
    let (typed, diagnostics) = Checker.check(
      expression, source: source, against: program, predefined: values, locals: locals)
    if diagnostics.hasErrors { return .failure(DiagnosticList(diagnostics)) }
    return .success(typed)
  }

  /// Evaluates a compiled expression with its locals' values.
  public func evaluate(_ typed: TypedExpression, locals: [Value]) -> Result<Value, DiagnosticList> {
    let evaluator = self.evaluator
    evaluator.isCancelled = isCancelled
    do {
      return .success(try evaluator.evaluate(typed, locals: locals))
    } catch {
      return .failure(DiagnosticList([error.diagnostic]))
    }
  }

  /// Evaluates one expression with its explanation (`:explain`, `taxpro explain`).
  public func explain(_ text: String, name: String = "<input>") -> Result<(Value, [ExplanationStep]), DiagnosticList> {
    switch checkExpression(text, name: name) {
    case .failure(let list): return .failure(list)
    case .success(let typed):
      let evaluator = self.evaluator
      evaluator.isCancelled = isCancelled
      do {
        let (value, steps) = try evaluator.explain(typed)
        values["ans"] = value
        return .success((value, steps))
      } catch {
        return .failure(DiagnosticList([error.diagnostic]))
      }
    }
  }

  /// Evaluates a typed expression of this program (used by `:ask` and batch evaluation).
  public func evaluate(_ typed: TypedExpression) -> Result<Value, DiagnosticList> {
    let evaluator = self.evaluator
    evaluator.isCancelled = isCancelled
    do {
      return .success(try evaluator.evaluate(typed))
    } catch {
      return .failure(DiagnosticList([error.diagnostic]))
    }
  }

  /// Calls a formula with named arguments (`:ask`).
  public func call(_ formula: String, arguments: [String: Value]) -> Result<Value, DiagnosticList> {
    let evaluator = self.evaluator
    evaluator.isCancelled = isCancelled
    let span = Span(file: FileID(-1), start: 0, end: 0)
    do {
      let value = try evaluator.call(formula, arguments: arguments, at: span)
      values["ans"] = value
      return .success(value)
    } catch {
      return .failure(DiagnosticList([error.diagnostic]))
    }
  }

  /// Runs one piece of input: an expression, `let`, a formula or other declarations.
  /// `firstLine` numbers the text's lines when it is part of a longer input.
  public func submit(_ text: String, name: String = "<input>", firstLine: Int = 1) -> SessionOutcome {
    let source = makeSource(text, name: name, firstLine: firstLine)
    let tree = Parser.parse(source, mode: .interactive)
    warnings = tree.diagnostics.filter { $0.severity == .warning }
    if tree.isIncomplete { return .incomplete }
    // The warnings are `warnings`, which every front end shows before the outcome: the failure carries the rest.
    if tree.diagnostics.hasErrors { return .failed(tree.diagnostics.filter { $0.severity != .warning }) }
    if tree.declarations.isEmpty { return .nothing }
    var expressions: [Expression] = []
    var lets: [ConstantDeclaration] = []
    var declarations: [Declaration] = []
    for declaration in tree.declarations {
      switch declaration {
      case .expression(let expression): expressions.append(expression)
      case .constant(let constant): lets.append(constant)
      default: declarations.append(declaration)
      }
    }
    var definitions: [SessionOutcome.Definition] = []
    var testOutcomes: [TestOutcome] = []
    if !declarations.isEmpty {
      switch define(declarations, tree: tree) {
      case .failure(let list): return .failed(list.diagnostics)
      case .success(let (made, outcomes)):
        definitions += made
        testOutcomes += outcomes
      }
    }
    var lastValue: Value? = nil
    for declaration in tree.declarations {
      switch declaration {
      case .constant(let constant):
        let name = constant.binding.name
        if let problem = conflict(name) { return .failed([problem]) }
        switch evaluate(constant.binding.value, source: source) {
        case .failure(let list): return .failed(list.diagnostics)
        case .success(let value):
          if let annotation = constant.binding.type, let declared = TaxType(name: annotation.name), declared != value.type
          {
            return .failed([
              .error(
                .declaredAs(name.name, declared: declared, found: value.type),
                at: constant.binding.value.span)
            ])
          }
          values[name.name] = value
          definitions.append(.init(name: name.name, kind: "let", detail: ValueFormatter.format(value)))
        }
      case .expression(let expression):
        switch evaluate(expression, source: source) {
        case .failure(let list): return .failed(list.diagnostics)
        case .success(let value):
          values["ans"] = value
          lastValue = value
          if let warning = Self.rateOfNumberWarning(expression, value, source) { warnings.append(warning) }
        }
      default:
        break
      }
    }
    if let lastValue { return .value(lastValue) }
    if !testOutcomes.isEmpty { return .tested(testOutcomes) }
    return .defined(definitions)
  }

  /// `15% * 200` typed as a calculation is 3000% (a rate scaled by a number stays a rate, as `13% * 2` is 26%); what a
  /// calculator user most likely wanted is `15% of 200`, 30. Said for a rate literal times a number literal only, when
  /// the result is 100% or more.
  static func rateOfNumberWarning(_ expression: Expression, _ value: Value, _ source: SourceFile) -> Diagnostic? {
    // A result below 100% (`13% * 2`) is most likely a rate scaled on purpose.
    guard case .binary(.multiply, let left, let right, _) = expression.kind, case .rate(let fraction) = value,
      fraction.absoluteValue >= .one
    else { return nil }
    let (rate, number): (Expression, Expression)
    switch (left.kind, right.kind) {
    case (.rate, .number): (rate, number) = (left, right)
    case (.number, .rate): (rate, number) = (right, left)
    default: return nil
    }
    let suggestion = source.text(of: rate.span) + " of " + source.text(of: number.span)
    return Diagnostic(
      .rateTimesNumber(ValueFormatter.format(value)), at: expression.span,
      notes: [DiagnosticNote(.help, "for the rate of the number, write '\(suggestion)'")],
      fixes: [Fix(title: "Write '\(suggestion)'", replacements: [TextReplacement(span: expression.span, text: suggestion)])])
  }

  func conflict(_ name: Identifier) -> Diagnostic? {
    if name.name == "ans" {
      return .error(.ansRedefined, at: name.span)
    }
    let taken =
      program.formulaIndex[name.name] != nil || program.constantIndex[name.name] != nil
      || program.jurisdictions[name.name] != nil || Builtin(rawValue: name.name) != nil
      || TaxType(name: name.name) != nil
    return taken
      ? .error(.notALetName(name.name), at: name.span)
      : nil
  }

  func evaluate(_ expression: Expression, source: SourceFile) -> Result<Value, DiagnosticList> {
    let (typed, diagnostics) = Checker.check(expression, source: source, against: program, predefined: values)
    if diagnostics.hasErrors { return .failure(DiagnosticList(diagnostics)) }
    return evaluate(typed)
  }

  /// Adds declarations to the session; on any error the session is left as it was.
  func define(_ declarations: [Declaration], tree: SyntaxTree) -> Result<
    ([SessionOutcome.Definition], [TestOutcome]), DiagnosticList
  > {
    // A formula typed again replaces the session's earlier definition of the same name.
    let newNames = Set(
      declarations.compactMap { declaration -> String? in
        if case .formula(let formula) = declaration { return formula.name.name }
        return nil
      })
    let keptTrees = sessionTrees.compactMap { existing -> SyntaxTree? in
      var copy = existing
      copy.declarations = existing.declarations.filter { declaration in
        if case .formula(let formula) = declaration { return !newNames.contains(formula.name.name) }
        return true
      }
      return copy.declarations.isEmpty ? nil : copy
    }
    var newTree = tree
    newTree.declarations = declarations
    let candidate = Checker.check(baseTrees + keptTrees + [newTree], predefined: values)
    let errors = candidate.diagnostics.filter { $0.severity == .error && $0.span.file == tree.source.id }
    if !errors.isEmpty { return .failure(DiagnosticList(errors)) }
    // The checker's warnings about what was typed (a documentation's wrong `parts:` line, a jurisdiction without
    // figures) with the parser's, in place order: a definition that checks may still deserve one.
    warnings = candidate.diagnostics.filter { $0.severity == .warning && $0.span.file == tree.source.id }
    program = candidate
    sessionTrees = keptTrees + [newTree]
    var made: [SessionOutcome.Definition] = []
    for declaration in declarations {
      switch declaration {
      case .formula(let formula):
        let detail = program.formula(named: formula.name.name)?.signature ?? formula.name.name
        made.append(.init(name: formula.name.name, kind: "formula", detail: detail))
      case .jurisdiction(let jurisdiction):
        made.append(.init(name: jurisdiction.code.name, kind: jurisdiction.kind.rawValue, detail: jurisdiction.fullName ?? ""))
      case .interface(let interface):
        made.append(.init(name: interface.name.name, kind: "parameters", detail: ""))
      default: break
      }
    }
    let outcomes = TestRunner.run(program, year: year, files: [tree.source.id], limits: limits)
    return .success((made, outcomes))
  }
}

/// Diagnostics as an error value.
public struct DiagnosticList: Error, Sendable {
  public var diagnostics: [Diagnostic]
  public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
