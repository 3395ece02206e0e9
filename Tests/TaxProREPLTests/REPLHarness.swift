import Foundation
import LineEditing
import TaxProCore

@testable import TaxProREPL

/// A REPL over a small program of its own, a scripted editor and a temporary data directory.
final class REPLHarness {
  static let library = """
    ## What every province defines.
    parameters Province {
      ## Taxable-income brackets.
      income_tax: Brackets
      ## Income everyone may earn free of tax.
      basic_personal_amount: Money
    }

    parameters Federal {
      income_tax: Brackets
    }

    province ON "Ontario" {
      year 2025 {
        income_tax = brackets {
          $0      -> 5%
          $50,000 -> 10%
        }
        basic_personal_amount = $12,000
      }
      year 2026 {
        income_tax = brackets {
          $0      -> 5%
          $60,000 -> 10%
        }
        basic_personal_amount = $12,500
      }
    }

    province QC "Quebec" {
      year 2025 {
        income_tax = brackets {
          $0 -> 14%
        }
        basic_personal_amount = $18,000
      }
      year 2026 {
        income_tax = brackets {
          $0 -> 14%
        }
        basic_personal_amount = $18,500
      }
    }

    federal "Canada" {
      year 2025 {
        income_tax = brackets {
          $0      -> 15%
          $50,000 -> 20%
        }
      }
      year 2026 {
        income_tax = brackets {
          $0      -> 15%
          $60,000 -> 20%
        }
      }
    }

    ## Tax owed to one province on taxable income.
    ## definition: Each bracket's rate applies only to the part of income inside it.
    ## tip: A raise never lowers take-home pay.
    ## topic: Income / Income tax
    formula provincial_tax(
      ## Taxable income for the year.
      income: Money in $0..$100,000,000,
      province: Province = ON
    ): Money =
      tax(province.income_tax, income)

    ## Tax saved by an RRSP contribution.
    ## definition: A contribution is deducted from income, so it saves tax at the marginal rates it skips.
    ## instruction: Enter the contribution and your taxable income before it.
    ## tip: The refund is largest when the contribution brings income down across a bracket threshold.
    ## topic: Income / RRSP
    formula refund(
      ## The amount you put into your RRSP.
      contribution: Money in $0..$32,490,
      ## Taxable income before the contribution.
      income: Money in $0..$10,000,000,
      province: Province = ON
    ): Money =
      let before = provincial_tax(income, province) + tax(federal.income_tax, income)
      let after = provincial_tax(income - contribution, province) + tax(federal.income_tax, income - contribution)
      before - after

    formula d0(x: Money): Money = x + x
    formula d1(x: Money): Money = d0(x) + d0(x)
    formula d2(x: Money): Money = d1(x) + d1(x)
    formula d3(x: Money): Money = d2(x) + d2(x)
    formula d4(x: Money): Money = d3(x) + d3(x)
    formula d5(x: Money): Money = d4(x) + d4(x)
    formula d6(x: Money): Money = d5(x) + d5(x)
    formula d7(x: Money): Money = d6(x) + d6(x)
    formula d8(x: Money): Money = d7(x) + d7(x)
    formula d9(x: Money): Money = d8(x) + d8(x)
    formula d10(x: Money): Money = d9(x) + d9(x)
    formula d11(x: Money): Money = d10(x) + d10(x)
    formula d12(x: Money): Money = d11(x) + d11(x)
    """

  static let libraryTrees: [SyntaxTree] = [
    Parser.parse(SourceFile(id: FileID(0), name: "<library>", text: library))
  ]

  let directory: TemporaryDirectory
  let editor: ScriptedLineEditor
  let transcript = Transcript()
  let session: Session
  let repl: REPL

  /// `directory` is shared between harnesses to test what survives a restart. `width` is the terminal's: wide by
  /// default, so that what a test looks for is not wrapped (a temporary file's path is long); tests of layout give
  /// their own.
  /// `trees` is the library (this small one unless a test brings the standard library); `year` nil is the latest.
  init(
    _ script: [LineInput], directory: TemporaryDirectory? = nil, color: Bool = false, width: Int = 120,
    trees: [SyntaxTree] = REPLHarness.libraryTrees, year: Int? = 2025
  ) throws {
    self.directory = try directory ?? TemporaryDirectory()
    editor = ScriptedLineEditor(script, colorEnabled: color)
    session = Session(trees: trees, year: year, firstInputFileID: 100_000)
    let configuration = REPL.Configuration(
      userFiles: UserFiles(directory: self.directory.file("data/taxpro")), color: color, width: { width },
      handlesInterrupts: false, now: { Date(timeIntervalSince1970: 1_767_225_600) })
    repl = REPL(
      session: session, libraryTrees: trees, editor: editor, output: transcript.output,
      configuration: configuration)
  }

  convenience init(
    lines: [String], directory: TemporaryDirectory? = nil, color: Bool = false, width: Int = 120,
    trees: [SyntaxTree] = REPLHarness.libraryTrees, year: Int? = 2025
  ) throws {
    try self.init(
      lines.map { LineInput.line($0) }, directory: directory, color: color, width: width, trees: trees, year: year)
  }

  /// Runs the script to its end (the scripted editor then answers Ctrl-D).
  @discardableResult
  func run() -> Int32 { repl.run() }

  var text: String { transcript.text }
  var errors: String { transcript.errorText }
  var recordsPath: String { directory.file("data/taxpro/records.json") }
  var profilePath: String { directory.file("data/taxpro/profile.json") }
}
