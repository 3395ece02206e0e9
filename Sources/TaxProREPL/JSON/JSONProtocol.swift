import JSONValue
import TaxProCore

// The messages of `taxpro repl --json` (docs/REPL_JSON.md): one JSON object per line each way. Each request is one
// type with the fields it takes; each reply and event one type with the fields it gives. Fields are only ever added.

/// A request's id, as the client wrote it (a string or an integer): its reply carries it back.
enum RequestID: Codable, Hashable, Sendable {
  case integer(Int)
  case string(String)

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let integer = try? container.decode(Int.self) {
      self = .integer(integer)
    } else {
      self = .string(try container.decode(String.self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .integer(let integer): try container.encode(integer)
    case .string(let string): try container.encode(string)
    }
  }
}

/// What every request line has: its id and what it asks for. The rest of the line is the request's own fields.
struct RequestEnvelope: Decodable {
  enum Kind: String, Decodable, CaseIterable {
    case execute, complete, inspect, isComplete, interrupt, input, info
  }
  var id: RequestID
  var request: Kind
}

/// Run code as if its lines were typed at the prompt.
struct ExecuteRequest: Decodable {
  var code: String
  /// Whether the lines after the first error or interruption are left unrun (a notebook cell's habit).
  var stopOnError: Bool?
}

/// What could be typed at `cursor` (Unicode scalars into `code`; its end when absent).
struct CompleteRequest: Decodable {
  var code: String
  var cursor: Int?
}

/// What the name at `cursor` is: its declaration, documentation and value.
struct InspectRequest: Decodable {
  var code: String
  var cursor: Int?
}

/// Whether `code` is finished, or the prompt would ask for another line.
struct IsCompleteRequest: Decodable {
  var code: String
}

/// Stop the request `target` (an `execute` running or waiting): the evaluation in progress is cancelled.
struct InterruptRequest: Decodable {
  var target: RequestID
}

/// The answer to an `input` event of the request `target`; no `line` (or null) means the input ended (Ctrl-D).
struct InputRequest: Decodable {
  var target: RequestID
  var line: String?
}

// MARK: Replies

/// How a request went.
enum ReplyStatus: String, Encodable {
  case ok
  /// The code had a problem: a diagnostic, a command's complaint, a failed test.
  case error
  /// An interruption stopped it.
  case cancelled
  /// The request itself was not understood (not JSON, an unknown `request`, a missing field).
  case invalid
}

struct ExecuteReply: Encodable {
  var id: RequestID
  var status: ReplyStatus
  /// What the code showed, in order.
  var outputs: [OutputItem]
  /// The tax year after the code ran (`:year` changes it).
  var year: Int
  /// Set when the code said `:quit`: the process ends after this reply.
  var quit: Bool?
}

struct CompleteReply: Encodable {
  var id: RequestID
  var status: ReplyStatus
  var matches: [String]
  /// The part of `code` a match replaces, in Unicode scalars.
  var start: Int
  var end: Int
}

struct InspectReply: Encodable {
  var id: RequestID
  var status: ReplyStatus
  var found: Bool
  /// The declaration line, in TaxPro: `formula provincial_tax(…): Money`, `ON.credit_rate: Rate`.
  var code: String?
  /// The value for the tax year, when the name has one.
  var value: HoverValueData?
  var documentation: DocumentationData?
  var notes: [String]?
  /// The whole hover, as the language server gives it (Markdown) and as plain text.
  var markdown: String?
  var text: String?
}

struct IsCompleteReply: Encodable {
  enum Completeness: String, Encodable {
    case complete, incomplete, invalid
  }
  var id: RequestID
  var status: ReplyStatus
  var completeness: Completeness
  /// For an incomplete entry: what to put at the start of the next line.
  var indent: String?
}

struct InterruptReply: Encodable {
  var id: RequestID
  var status: ReplyStatus
  /// Whether `target` was running or waiting, and is now stopped.
  var interrupted: Bool
}

struct InputReply: Encodable {
  var id: RequestID
  var status: ReplyStatus
  /// Whether `target` was waiting for input.
  var accepted: Bool
}

struct InfoReply: Encodable {
  var id: RequestID
  var status: ReplyStatus
  var info: SessionInfo
}

struct InvalidReply: Encodable {
  /// Absent when the line had no id that could be read.
  var id: RequestID?
  var status = ReplyStatus.invalid
  var message: String
}

// MARK: Events

/// The first line the process writes: it is ready for requests.
struct ReadyEvent: Encodable {
  var event = "ready"
  var info: SessionInfo
  /// What loading the files named on the command line showed.
  var outputs: [OutputItem]
}

/// A command (`:ask`) reads a line: the client answers with an `input` request naming `id`.
struct InputEvent: Encodable {
  var event = "input"
  /// The request that asks.
  var id: RequestID
  var prompt: String
}

/// The language and the session, for a notebook's `kernel_info` and a client's first look.
struct SessionInfo: Encodable {
  var name = "TaxPro"
  var language = "taxpro"
  var version: String
  var fileExtension = ".tax"
  var mimeType = "text/x-taxpro"
  var year: Int
  var years: [Int]
  var commands: [CommandData]
}

struct CommandData: Encodable {
  var name: String
  var aliases: [String]
  var usage: String
  var summary: String
}

// MARK: Outputs

/// One thing code showed. `text` is what the terminal would have shown (without colour); the other fields carry
/// the same thing as data, by `kind`.
struct OutputItem: Encodable {
  enum Kind: String, Encodable {
    case value, definitions, tests, diagnostics, error, cancelled, explanation, image, text
  }
  enum Stream: String, Encodable {
    case stdout, stderr
  }

  var kind: Kind
  var text: String
  /// `text`: where the terminal writes it.
  var stream: Stream?
  /// `value`.
  var value: ValueData?
  /// `definitions`.
  var definitions: [DefinitionData]?
  /// `tests`.
  var tests: [TestData]?
  /// `diagnostics`, and the failures of `tests`.
  var diagnostics: [DiagnosticData]?
  /// `explanation`: the object of docs/EXPLAIN_JSON.md.
  var explanation: JSON?
  /// `image`: its MIME type (`image/svg+xml`) and content.
  var mimeType: String?
  var data: String?
  /// `error`: the complaint without its `error:` label.
  var message: String?

  init(_ kind: Kind, text: String) {
    self.kind = kind
    self.text = text
  }
}

/// A value as docs/EXPLAIN_JSON.md writes one: its type, its text, and its exact decimal for the numeric types; a
/// bracket table also has its rows, as the explanation's `rows`.
struct ValueData: Encodable {
  struct Row: Encodable {
    var threshold: String
    var rate: String
  }

  var type: String
  var text: String
  var exact: String?
  var rows: [Row]?

  /// `digits`: the REPL's `:digits`, for a Number that is not exact (`exact` keeps every digit).
  init(_ value: Value, digits: Int = ValueFormatter.numberDigits) {
    type = value.type.description
    text = ValueFormatter.format(value, digits: digits)
    exact = value.decimal?.trimmed.description
    if case .brackets(let table) = value {
      rows = table.rows.map { Row(threshold: $0.threshold.trimmed.description, rate: $0.rate.trimmed.description) }
    }
  }
}

struct DefinitionData: Encodable {
  var name: String
  /// `let`, `formula`, `province`, `federal`, `parameters`.
  var kind: String
  /// A `let`'s value as text, a formula's signature, a jurisdiction's name.
  var detail: String
  /// A `let`'s value.
  var value: ValueData?
}

struct TestData: Encodable {
  var name: String
  var passed: Bool
  var year: Int
  var checks: Int
}

struct DiagnosticData: Encodable {
  var severity: String
  /// The stable code (`type-mismatch`, `unknown-name`, …).
  var code: String
  var message: String
  var location: LocationData?
  var notes: [NoteData]
  var fixes: [FixData]
}

/// A span as lines and columns, 1-based; columns count Unicode scalars; the end is just after the span.
struct LocationData: Encodable {
  var file: String
  var line: Int
  var column: Int
  var endLine: Int
  var endColumn: Int
}

struct NoteData: Encodable {
  /// `note` or `help`.
  var kind: String
  var message: String
  var location: LocationData?
}

struct FixData: Encodable {
  var title: String
  var edits: [EditData]
}

struct EditData: Encodable {
  var location: LocationData?
  var text: String
}

struct HoverValueData: Encodable {
  /// `ON.income_tax in 2025`.
  var caption: String
  /// One line per row for a bracket table.
  var lines: [String]
}

/// Documentation as docs/EXPLAIN_JSON.md writes it.
struct DocumentationData: Encodable {
  var summary: String
  var definition: String?
  var instruction: String?
  var tip: String?
  var topic: [String]
  var references: [String]
  var notes: [String]

  init(_ documentation: Documentation) {
    summary = documentation.summary
    definition = documentation.definition
    instruction = documentation.instruction
    tip = documentation.tip
    topic = documentation.topic
    references = documentation.references
    notes = documentation.notes
  }
}
