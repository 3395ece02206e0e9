@testable import TaxProCore

/// A source with cursor markers (`1️⃣`, `2️⃣`, …) taken out, and where each marker was, in UTF-8 bytes.
struct Marked {
  var text: String
  var markers: [String: Int]

  init(_ marked: String) {
    var text = ""
    var markers: [String: Int] = [:]
    for character in marked {
      if let scalar = character.unicodeScalars.first, character.unicodeScalars.count >= 2,
        ("0"..."9").contains(Character(scalar)), character.unicodeScalars.contains("\u{20E3}")
      {
        markers[String(scalar)] = text.utf8.count
      } else {
        text.append(character)
      }
    }
    self.text = text
    self.markers = markers
  }

  subscript(_ marker: String) -> Int {
    guard let offset = markers[marker] else { preconditionFailure("no marker \(marker)") }
    return offset
  }
}

/// A small world for the query tests: an interface, two provinces with two years, federal figures, and the file
/// under test (file 1). File 0 stands for a read-only library.
enum QueryWorld {
  static let library = """
    ## What every province defines.
    parameters Province {
      ## The bracket table.
      income_tax: Brackets
      ## The credit rate.
      credit_rate: Rate
    }

    province ON "Ontario" {
      year 2025 {
        income_tax = brackets { $0 -> 5%, $50,000 -> 10% }
        credit_rate = 5%
      }
      year 2026 {
        income_tax = brackets { $0 -> 6%, $50,000 -> 11% }
        credit_rate = 6%
        surtax = $100
      }
    }

    province QC "Québec" {
      year 2026 {
        income_tax = brackets { $0 -> 14% }
        credit_rate = 14%
      }
    }

    ## Tax on income in a province.
    ## definition: Bracket by bracket.
    formula provincial(income: Money, province: Province = ON): Money =
      tax(province.income_tax, income)
    """

  static func trees(_ text: String) -> [SyntaxTree] {
    [
      Parser.parse(SourceFile(id: FileID(0), name: "<std>/lib.tax", text: library)),
      Parser.parse(SourceFile(id: FileID(1), name: "user.tax", text: text)),
    ]
  }

  static func program(_ text: String) -> Program { Checker.check(trees(text)) }

  static let user = FileID(1)
  static func isEditable(_ file: FileID) -> Bool { file != FileID(0) }
}
