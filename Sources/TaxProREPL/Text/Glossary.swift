/// The words the lessons use, each said in a sentence or two and linked to the lesson that teaches it
/// (`:glossary`, `:glossary WORD`). A test checks that every term's lesson exists and uses the term, and that every
/// term a lesson lists is here.
enum Glossary {
  struct Term: Sendable {
    var term: String
    /// Other spellings that find it.
    var aliases: [String] = []
    var meaning: String
    /// The concept lesson (`ConceptLesson.name`) where it is taught.
    var lesson: String
  }

  static let terms: [Term] = [
    Term(
      term: "average rate", aliases: ["effective rate", "average tax rate"],
      meaning: "All your tax divided by all your income.", lesson: "marginal"),
    Term(
      term: "basic personal amount", aliases: ["bpa", "personal amount"],
      meaning: "The income everyone may earn free of tax, given as a credit at the lowest rate.", lesson: "bpa"),
    Term(
      term: "bracket", aliases: ["brackets", "tax bracket"],
      meaning: "A range of income taxed at one rate; only the income inside it pays that rate.", lesson: "brackets"),
    Term(
      term: "capital gain", aliases: ["capital gains", "gain"],
      meaning: "What you make selling something for more than it cost; only part of it is taxed.",
      lesson: "capital-gains"),
    Term(
      term: "clawback", aliases: ["recovery tax", "oas clawback", "claw back"],
      meaning: "The OAS you repay when your net income is above the recovery threshold.", lesson: "clawback"),
    Term(
      term: "CPP", aliases: ["canada pension plan", "qpp", "cpp contributions"],
      meaning: "Canada Pension Plan contributions: a share of your pay, up to a ceiling, towards your pension.",
      lesson: "cpp"),
    Term(
      term: "credit", aliases: ["tax credit", "non-refundable credit", "credits", "credit amount"],
      meaning: "An amount that comes off your tax (a credit amount times the lowest rate), never below zero.",
      lesson: "deductions"),
    Term(
      term: "deduction", aliases: ["deductions"],
      meaning: "An amount that comes off your income before the brackets apply; it saves your marginal rate.",
      lesson: "deductions"),
    Term(
      term: "dividend", aliases: ["dividends", "eligible dividend"],
      meaning: "A share of a company's profit paid to its shareholders.", lesson: "dividends"),
    Term(
      term: "dividend tax credit", aliases: ["dtc"],
      meaning: "The credit that gives back, roughly, the corporate tax already paid on a dividend.",
      lesson: "dividends"),
    Term(
      term: "EI", aliases: ["employment insurance", "ei premiums"],
      meaning: "Employment Insurance premiums: a share of your pay, up to a ceiling, that insures your income.",
      lesson: "cpp"),
    Term(
      term: "gross-up", aliases: ["grossup", "gross up"],
      meaning: "The amount added to a dividend to get the taxable amount, standing for the corporate tax paid.",
      lesson: "dividends"),
    Term(
      term: "inclusion rate",
      meaning: "The share of a capital gain that is added to your income and taxed.", lesson: "capital-gains"),
    Term(
      term: "marginal rate", aliases: ["marginal tax rate", "marginal"],
      meaning: "The share of your next dollar of income that goes to tax.", lesson: "marginal"),
    Term(
      term: "net income", aliases: ["line 23600"],
      meaning: "Total income minus deductions (line 23600 of the return); benefits and clawbacks look at it.",
      lesson: "clawback"),
    Term(
      term: "OAS", aliases: ["old age security"],
      meaning: "Old Age Security: the federal pension paid from 65, partly repaid at high incomes.",
      lesson: "clawback"),
    Term(
      term: "payroll deductions", aliases: ["source deductions"],
      meaning: "What an employer takes off your pay for CPP (or QPP), EI and income tax.", lesson: "cpp"),
    Term(
      term: "province of residence", aliases: ["province", "residence"],
      meaning: "Where you live on December 31: its tax applies to the whole year's income.", lesson: "provincial"),
    Term(
      term: "Quebec abatement", aliases: ["abatement"],
      meaning: "The share of federal tax given back to Quebec residents, who pay for some programs through Quebec.",
      lesson: "provincial"),
    Term(
      term: "refund", aliases: ["tax refund", "rrsp refund"],
      meaning: "Tax paid during the year that comes back; an RRSP refund is the tax a contribution saves.",
      lesson: "rrsp"),
    Term(
      term: "RRSP", aliases: ["registered retirement savings plan"],
      meaning: "A savings plan whose contributions are deducted now and taxed when withdrawn.", lesson: "rrsp"),
    Term(
      term: "surtax", aliases: ["ontario surtax"],
      meaning: "A tax on tax: Ontario adds a share of its own tax above two thresholds.", lesson: "provincial"),
    Term(
      term: "take-home pay", aliases: ["take home pay", "net pay"],
      meaning: "Salary minus CPP, EI and income tax: what reaches your bank account.", lesson: "take-home"),
    Term(
      term: "taxable income", aliases: ["line 26000"],
      meaning: "Income minus deductions: the amount the brackets apply to (line 26000 of the return).",
      lesson: "brackets"),
    Term(
      term: "TFSA", aliases: ["tax-free savings account"],
      meaning: "A savings account paid into from taxed income, whose growth and withdrawals are tax-free.",
      lesson: "tfsa"),
    Term(
      term: "threshold", aliases: ["thresholds"],
      meaning: "The income where the next bracket, or a clawback or phase-out, starts.", lesson: "brackets"),
  ]

  /// The term a word names, ignoring case and a final "s".
  static func term(named word: String) -> Term? {
    let wanted = ConceptLesson.normalised(word)
    return terms.first { term in
      ([term.term] + term.aliases).contains { ConceptLesson.normalised($0) == wanted }
    }
  }
}
