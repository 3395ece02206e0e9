/// How bad a diagnostic is.
public enum Severity: String, Sendable, Comparable {
  case error
  case warning
  case information

  private var rank: Int {
    switch self {
    case .error: 2
    case .warning: 1
    case .information: 0
    }
  }
  public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A replacement of the text of one span; the unit of every fix the tools can apply.
public struct TextReplacement: Hashable, Sendable {
  public var span: Span
  public var text: String
  public init(span: Span, text: String) {
    self.span = span
    self.text = text
  }
}

/// A fix a tool can offer for a diagnostic: "did you mean", "add the missing parameter".
public struct Fix: Hashable, Sendable {
  public var title: String
  public var replacements: [TextReplacement]
  public init(title: String, replacements: [TextReplacement]) {
    self.title = title
    self.replacements = replacements
  }
}

/// A secondary message: a `note` explains, a `help` suggests. It may point at another place in the source.
public struct DiagnosticNote: Hashable, Sendable {
  public enum Kind: String, Sendable {
    case note
    case help
  }
  public var kind: Kind
  public var message: String
  public var span: Span?

  public init(_ kind: Kind, _ message: String, span: Span? = nil) {
    self.kind = kind
    self.message = message
    self.span = span
  }
}

/// A problem found in user input. Diagnostics are collected, never thrown: every phase keeps going after one.
///
/// Its code and message come from the catalogue (`DiagnosticCode`, `DiagnosticMessage`); its severity is the code's.
public struct Diagnostic: Hashable, Sendable {
  public var severity: Severity
  /// A stable identifier (`unknown-name`, `type-mismatch`, …) that tools and tests can rely on.
  public var code: DiagnosticCode
  public var message: String
  public var span: Span
  public var notes: [DiagnosticNote]
  public var fixes: [Fix]

  public init(_ message: DiagnosticMessage, at span: Span, notes: [DiagnosticNote] = [], fixes: [Fix] = []) {
    self.severity = message.code.severity
    self.code = message.code
    self.message = message.text
    self.span = span
    self.notes = notes
    self.fixes = fixes
  }

  /// The same as `init`; reads well where an array of diagnostics is built (`[.error(.divisionByZero, at: span)]`).
  public static func error(
    _ message: DiagnosticMessage, at span: Span, notes: [DiagnosticNote] = [], fixes: [Fix] = []
  ) -> Diagnostic {
    Diagnostic(message, at: span, notes: notes, fixes: fixes)
  }
}

extension Array where Element == Diagnostic {
  public var hasErrors: Bool { contains { $0.severity == .error } }
}
