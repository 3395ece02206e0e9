/// The parsed command line.
struct Options {
  var command: String?
  var arguments: [String] = []
  var year: Int?
  var color: Bool?
  var help = false
  var version = false
  var json = false
  var check = false
  var syntaxOnly = false
  var svg: String?
  var over: String?
  var csv: String?
  var width: Int?
  var height: Int?

  struct UsageError: Error {
    var message: String
  }

  static let commands: Set<String> = ["eval", "explain", "check", "test", "fmt", "lsp", "plot", "repl"]

  /// Flags may come anywhere; `--` ends them.
  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var index = 0
    var positional: [String] = []
    var flagsDone = false
    func value(_ flag: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
      return arguments[index]
    }
    while index < arguments.count {
      var argument = arguments[index]
      var inlineValue: String? = nil
      if !flagsDone, argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        inlineValue = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
      }
      func flagValue() throws(UsageError) -> String {
        if let inlineValue { return inlineValue }
        return try value(argument)
      }
      if flagsDone || !argument.hasPrefix("-") || argument == "-" {
        positional.append(argument)
      } else {
        switch argument {
        case "--": flagsDone = true
        case "--help", "-h": options.help = true
        case "--version", "-V": options.version = true
        case "--no-color": options.color = false
        case "--color": options.color = true
        case "--json": options.json = true
        case "--check": options.check = true
        case "--syntax": options.syntaxOnly = true
        case "--year":
          let text = try flagValue()
          guard let year = Int(text), year >= 1900, year <= 2200 else {
            throw UsageError(message: "--year needs a year such as 2025, not '\(text)'")
          }
          options.year = year
        case "--svg": options.svg = try flagValue()
        case "--over": options.over = try flagValue()
        case "--csv": options.csv = try flagValue()
        case "--width":
          guard let width = Int(try flagValue()), width >= 20, width <= 1000 else {
            throw UsageError(message: "--width needs a number from 20 to 1000")
          }
          options.width = width
        case "--height":
          guard let height = Int(try flagValue()), height >= 5, height <= 500 else {
            throw UsageError(message: "--height needs a number from 5 to 500")
          }
          options.height = height
        default:
          // A negative number is an argument (`taxpro eval -- -5` is not needed for `-5`).
          if argument.dropFirst().first?.isNumber == true || argument.dropFirst().first == "$" {
            positional.append(argument)
          } else {
            throw UsageError(message: "unknown option '\(argument)'")
          }
        }
      }
      index += 1
    }
    if let first = positional.first, commands.contains(first) {
      options.command = first
      options.arguments = Array(positional.dropFirst())
    } else if let first = positional.first, first != "-" {
      throw UsageError(message: "unknown command '\(first)'")
    } else {
      options.arguments = positional
    }
    return options
  }

  static let usage = """
    TaxPro — a typed language for tax formulas and an exact money calculator.

    Usage:
      taxpro                                   the REPL (or, with input piped in, one result per line)
      taxpro repl [FILE…]                      the REPL, with FILEs loaded
      taxpro eval 'EXPR' [FILE…]               print the value of EXPR
      taxpro eval --csv FILE 'EXPR' [FILE…]    one result per CSV row; the row's columns are names in EXPR
      taxpro explain [--json] 'EXPR' [FILE…]   explain EXPR step by step
      taxpro check [--syntax] FILE…            report problems in formula files (--syntax: parse only)
      taxpro test [FILE|DIR…]                  run test blocks (the standard library's when none are given)
      taxpro fmt [--check] FILE…               format files in the canonical style
      taxpro plot 'EXPR' --over NAME=FROM..TO [--svg FILE] [--width N] [--height N] [FILE…]
                                               chart EXPR as NAME goes from FROM to TO, in the terminal
                                               (N in characters) or as an SVG file (N in pixels)
      taxpro lsp                               the language server on standard input and output

    Options:
      --year YYYY     the tax year whose figures are used (default: the latest with data)
      --no-color      no colour (also when NO_COLOR is set or output is not a terminal)
      --help, -h      this help
      --version, -V   the version

    Exit status: 0 success, 1 a diagnostic, failed test or run-time error, 2 a usage error.

    """
}
