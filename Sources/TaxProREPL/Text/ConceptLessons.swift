/// The concept lessons, in the order `:lesson` lists them: from the first idea of income tax to the layers and
/// benefits around it. Each is one screen; every figure in braces is computed when it is shown (see `ConceptLesson`).
///
/// To add one: a `static let` here, its name in `all`, its terms in `Glossary.terms`. The tests check that it fits
/// the screen, that its example computes, that its terms are in the glossary and that `docs/lessons/` is current
/// (`scripts/lessons` rewrites it).
extension ConceptLesson {
  static let all: [ConceptLesson] = [
    brackets, marginal, deductions, bpa, provincial, cppEI, takeHome, rrsp, tfsa, dividends, capitalGains, clawback,
  ]

  static let brackets = ConceptLesson(
    name: "brackets", title: "Tax brackets",
    words: ["bracket", "tax", "threshold", "thresholds", "progressive", "slice", "slices", "income tax brackets"],
    definition: """
      Income tax is charged in slices. A bracket is a range of income with its own rate, and a threshold is where \
      the next bracket starts. Each rate applies only to the slice of income inside its bracket, so crossing a \
      threshold raises the tax on the dollars above it, never on the ones below.
      """,
    inputs: """
      Your taxable income: what is left of your income after deductions. The federal brackets apply everywhere in \
      Canada; your province or territory adds brackets of its own (:lesson provincial).
      """,
    given: [("income", "$85,000")],
    example: [
      .text("Federal tax on {income}, slice by slice:"),
      .brackets("tax(federal.income_tax, income)"),
      .text("""
        Your next dollar would be taxed at {marginal_rate(federal.income_tax, income)}: that is your marginal rate. \
        The whole tax is {average_rate(federal.income_tax, income)} of your income: your average rate.
        """),
    ],
    tip: """
      A raise never leaves you with less after income tax: only the dollars above a threshold pay the higher rate. \
      Credits then come off the tax the brackets give (:lesson deductions).
      """,
    tryIt: "tax(federal.income_tax, $120,000)",
    terms: ["bracket", "threshold", "taxable income", "marginal rate", "average rate"],
    formulas: ["federal_tax", "provincial_tax"],
    chart: LessonChart(
      expression: "average_rate(federal.income_tax, income)", variable: "income", from: "$0", to: "$300,000",
      caption: "the average rate climbs towards the top rate but never reaches it"))

  static let marginal = ConceptLesson(
    name: "marginal", title: "Marginal and average rates",
    words: [
      "marginal rate", "average", "average rate", "effective rate", "tax rate", "rate", "rates", "marginal tax rate",
    ],
    definition: """
      Your marginal rate is the share of your next dollar of income that goes to tax. Your average rate is all your \
      tax divided by all your income. The average is always lower, because your first dollars are taxed at lower \
      rates, or not at all (:lesson bpa).
      """,
    inputs: """
      Your taxable income and province. The marginal rate decides what a raise, a deduction or an RRSP \
      contribution is worth; the average rate is your overall burden.
      """,
    given: [("income", "$85,000"), ("province", "ON")],
    example: [
      .text("On {income} in {province}, side by side:"),
      .table(
        header: ["", "marginal", "average"],
        rows: [
          ["federal brackets", "{marginal_rate(federal.income_tax, income)}", "{average_rate(federal.income_tax, income)}"],
          ["{province} brackets", "{marginal_rate(province.income_tax, income)}", "{average_rate(province.income_tax, income)}"],
          ["both, after credits", "{combined_marginal_rate(income, province)}", "{combined_average_rate(income, province)}"],
        ]),
      .text("""
        A $1,000 raise costs {combined_marginal_rate(income, province) * $1,000} in tax, yet the tax on the whole \
        {income} is {combined_tax(income, province)}: {combined_average_rate(income, province)} of it.
        """),
    ],
    tip: """
      Judge a change (a raise, a deduction) with the marginal rate; compare your burden with someone else's with \
      the average rate. Nobody pays their marginal rate on all their income.
      """,
    tryIt: "combined_marginal_rate($120,000, BC)",
    terms: ["marginal rate", "average rate", "bracket"],
    formulas: ["combined_marginal_rate", "combined_average_rate"],
    limits: ["combined_tax"])

  static let deductions = ConceptLesson(
    name: "deductions", title: "Deductions and credits",
    words: [
      "deduction", "credit", "credits", "tax credit", "tax credits", "non-refundable", "non-refundable credit",
      "write-off", "deduction vs credit", "deductions and credits",
    ],
    definition: """
      A deduction comes off your income before the brackets apply, so it saves tax at your marginal rate. A \
      non-refundable credit comes off the tax itself: the credit amount times the lowest rate, the same for \
      everyone who owes tax. A credit can bring your tax down to zero, never below.
      """,
    inputs: "The amount (the same $1,000 both ways here), your taxable income and your province.",
    given: [("low", "$30,000"), ("high", "$90,000")],
    example: [
      .text("$1,000 both ways in Ontario, at two incomes:"),
      .table(
        header: ["", "income {low}", "income {high}"],
        rows: [
          ["a $1,000 deduction saves", "{deduction_tax_savings($1,000, low)}", "{deduction_tax_savings($1,000, high)}"],
          [
            "a $1,000 credit amount saves", "{combined_tax(low) - combined_tax(low, other_credits: $1,000)}",
            "{combined_tax(high) - combined_tax(high, other_credits: $1,000)}",
          ],
        ]),
      .text("""
        The deduction saves at the marginal rate, {combined_marginal_rate(low)} and {combined_marginal_rate(high)}; \
        the credit at the lowest rates, {federal.credit_rate} federal plus {ON.credit_rate} Ontario, at both.
        """),
    ],
    tip: """
      A deduction is worth more the higher your income; a credit is worth the same to everyone who owes tax. RRSP \
      contributions, union dues and child care are deductions; the basic personal amount, CPP and EI are credits.
      """,
    tryIt: "deduction_tax_savings($1,000, $150,000)",
    terms: ["deduction", "credit", "marginal rate", "taxable income"],
    formulas: ["deduction_tax_savings", "taxable_income", "federal_credits", "provincial_credits"],
    limits: ["combined_tax"])

  static let bpa = ConceptLesson(
    name: "bpa", title: "The basic personal amount",
    words: [
      "basic personal amount", "personal amount", "tax-free amount", "personal exemption", "exemption", "tax free",
      "tax-free",
    ],
    definition: """
      Everyone may earn a first slice of income free of tax: the basic personal amount. It works as a credit, not \
      a deduction: the amount times the lowest rate comes off your tax. The federal amount is \
      {federal.basic_personal_amount}, shrinking to {federal.basic_personal_amount_min} at high incomes; each \
      province and territory has its own.
      """,
    inputs: "Your net income (it decides the federal phase-down) and your province.",
    given: [
      ("income", "$60,000"),
      ("high", "federal.bpa_phaseout_start + (federal.bpa_phaseout_end - federal.bpa_phaseout_start) / 2"),
    ],
    example: [
      .table(
        header: ["", "amount", "credit"],
        rows: [
          [
            "federal, on {income}", "{federal_basic_personal_amount(income)}",
            "{federal.credit_rate * federal_basic_personal_amount(income)}",
          ],
          [
            "federal, on {high}", "{federal_basic_personal_amount(high)}",
            "{federal.credit_rate * federal_basic_personal_amount(high)}",
          ],
          [
            "Ontario", "{provincial_basic_personal_amount(income, ON)}",
            "{ON.credit_rate * provincial_basic_personal_amount(income, ON)}",
          ],
        ]),
      .text("""
        The federal credit, {federal.credit_rate} of {federal.basic_personal_amount}, cancels the tax on the first \
        {federal.basic_personal_amount} of income. On {high}, halfway through the phase-down, half the extra \
        amount is gone.
        """),
    ],
    tip: """
      Between {federal.bpa_phaseout_start} and {federal.bpa_phaseout_end} of net income the federal amount shrinks, \
      which lifts the marginal rate a little above the bracket rate there.
      """,
    tryIt: "federal_basic_personal_amount($220,000)",
    terms: ["basic personal amount", "credit", "net income"],
    formulas: ["federal_basic_personal_amount", "provincial_basic_personal_amount"])

  static let provincial = ConceptLesson(
    name: "provincial", title: "The provincial layer",
    words: [
      "province", "provinces", "territory", "territories", "provincial tax", "layer", "where you live", "quebec",
      "ontario", "alberta", "moving", "federal", "federal tax",
    ],
    definition: """
      Income tax comes in two layers. The federal layer is the same across Canada. On top of it, the province or \
      territory you live in on December 31 charges its own tax, with its own brackets and credits, and sometimes \
      extras: Ontario's surtax and health premium, Quebec's own return.
      """,
    inputs: "Your taxable income and your province or territory.",
    given: [("income", "$85,000")],
    example: [
      .text("The same {income} in four provinces:"),
      .table(
        header: ["", "federal", "provincial", "together"],
        rows: ["ON", "QC", "AB", "BC"].map { code in
          ["{\(code)}", "{federal_tax(income, \(code))}", "{provincial_tax(income, \(code))}", "{combined_tax(income, \(code))}"]
        }),
      .text("""
        Federal tax is the same everywhere except in Quebec, whose residents get {federal.quebec_abatement_rate} of \
        it back (the Quebec abatement) because Quebec runs some programs itself. In Ontario, layer by layer:
        """),
      .chart("combined_tax(income, ON)"),
    ],
    tip: """
      Only where you live on December 31 counts, for the whole year's income. Provincial credits use the \
      province's lowest rate, so they differ from the federal ones for the same amount.
      """,
    tryIt: "combined_tax($85,000, AB) - combined_tax($85,000, ON)",
    terms: ["province of residence", "bracket", "Quebec abatement", "surtax"],
    formulas: ["provincial_tax", "federal_tax", "combined_tax"],
    limits: ["combined_tax"],
    chart: LessonChart(
      expression: "provincial_tax(income, ON)", variable: "income", from: "$0", to: "$250,000",
      caption: "Ontario tax as income grows"))

  static let cppEI = ConceptLesson(
    name: "cpp", title: "CPP and EI: what comes off a paycheque",
    words: [
      "cpp", "qpp", "ei", "cpp/ei", "cpp and ei", "canada pension plan", "employment insurance", "payroll",
      "payroll deductions", "premiums", "contributions", "cpp2",
    ],
    definition: """
      Besides income tax, employees pay Canada Pension Plan (CPP) contributions and Employment Insurance (EI) \
      premiums on their pay. Each is a rate on earnings up to a yearly ceiling, so both stop growing once your pay \
      passes it. Quebec workers pay QPP and QPIP instead.
      """,
    inputs: "Your employment earnings for the year and your province of employment.",
    given: [("salary", "$85,000")],
    example: [
      .table(
        header: ["", "on {salary}", "charged on earnings up to"],
        rows: [
          ["CPP", "{cpp_contribution(salary)}", "{federal.cpp_ympe}"],
          ["CPP2, the second tier", "{cpp2_contribution(salary)}", "{federal.cpp_yampe}"],
          ["EI", "{ei_premium(salary)}", "{federal.ei_max_insurable_earnings}"],
        ]),
      .text("""
        CPP is {federal.cpp_rate_employee} of earnings between {federal.cpp_basic_exemption} and {federal.cpp_ympe}: \
        the first {federal.cpp_basic_exemption} is exempt, and nothing more is due above the ceiling. Together \
        these payroll deductions take {payroll_deductions(salary)} from {salary}.
        """),
    ],
    tip: """
      Above the ceilings take-home pay grows faster, because these deductions stop. Both also earn you tax credits \
      (and part of CPP a deduction), so some of it comes back at tax time.
      """,
    tryIt: "payroll_deductions($50,000)",
    terms: ["CPP", "EI", "payroll deductions", "credit"],
    formulas: ["cpp_contribution", "cpp2_contribution", "ei_premium", "payroll_deductions"],
    limits: ["cpp_contribution"])

  static let takeHome = ConceptLesson(
    name: "take-home", title: "Take-home pay",
    words: [
      "take home", "take home pay", "take-home pay", "net pay", "paycheque", "paycheck", "after tax", "after-tax",
      "salary after tax", "pay",
    ],
    definition: """
      Take-home pay is your salary minus what comes off it: CPP (or QPP) contributions, EI premiums and income \
      tax. It estimates what reaches your bank account over the year.
      """,
    inputs: "Your salary and your province.",
    given: [("salary", "$85,000")],
    example: [
      .text("Where a salary of {salary} goes in Ontario:"),
      .chart("take_home_pay(salary, ON)"),
      .text("""
        The payroll deductions take {payroll_deductions(salary, ON)} together. Of a $1,000 raise you would keep \
        {take_home_pay(salary + $1,000, ON) - take_home_pay(salary, ON)}: the rest goes to income tax at your \
        marginal rate and to payroll deductions.
        """),
    ],
    tip: """
      Take-home pay rises with every raise: each threshold only raises the tax on the dollars above it. An RRSP \
      contribution lowers the income tax line (:lesson rrsp).
      """,
    tryIt: "take_home_pay($60,000, QC)",
    terms: ["take-home pay", "payroll deductions", "marginal rate"],
    formulas: ["take_home_pay", "payroll_deductions"],
    limits: ["take_home_pay"],
    chart: LessonChart(
      expression: "take_home_pay(salary)", variable: "salary", from: "$0", to: "$200,000",
      caption: "take-home pay as the salary grows"))

  static let rrsp = ConceptLesson(
    name: "rrsp", title: "RRSP: deduct now, pay tax later",
    words: [
      "rrsps", "registered retirement savings plan", "retirement savings", "rrsp refund", "refund", "contribution",
      "rrsp room", "room", "rrsp deduction",
    ],
    definition: """
      A Registered Retirement Savings Plan (RRSP) lets you deduct what you put in from this year's income. The \
      money grows untaxed, and you pay tax when you take it out, ideally in retirement at a lower rate. New room \
      each year is {federal.rrsp_earned_income_rate} of last year's earned income, up to {federal.rrsp_dollar_limit}.
      """,
    inputs: "The contribution, your taxable income before it, and your province.",
    given: [("contribution", "$5,000"), ("income", "$60,000")],
    example: [
      .explain("rrsp_refund(contribution, income, ON)"),
      .text("""
        The deduction comes off the top of your income: the dollars above a threshold save its higher rate, the \
        ones below it less. All told the refund is {rrsp_refund(contribution, income, ON) / contribution} of the \
        contribution.
        """),
    ],
    tip: """
      The refund is tax deferred, not forgiven. What makes an RRSP pay is contributing in a high-income year and \
      withdrawing in a low one. Compare with a TFSA: :lesson tfsa.
      """,
    tryIt: "rrsp_refund($5,000, $120,000, ON)",
    terms: ["RRSP", "deduction", "threshold", "refund"],
    formulas: ["rrsp_refund", "rrsp_limit"])

  static let tfsa = ConceptLesson(
    name: "tfsa", title: "TFSA or RRSP?",
    words: ["tfsas", "tax-free savings account", "tfsa vs rrsp", "rrsp vs tfsa", "savings", "save", "saving"],
    definition: """
      A Tax-Free Savings Account (TFSA) works the other way round from an RRSP: you put in money you have already \
      paid tax on, and everything you take out later, growth included, is tax-free. Every adult gets \
      {federal.tfsa_annual_limit} of new room a year.
      """,
    inputs: "Your marginal rate now, when you save, and your marginal rate later, when you withdraw.",
    given: [("now", "$85,000"), ("later", "$40,000")],
    example: [
      .text("$1,000 of salary saved at {now} of income now and {later} in retirement, in Ontario:"),
      .table(
        header: ["", "TFSA", "RRSP"],
        rows: [
          ["tax going in", "{combined_marginal_rate(now) * $1,000}", "$0.00"],
          ["tax coming out", "$0.00", "{combined_marginal_rate(later) * $1,000}"],
          [
            "you keep", "{$1,000 - combined_marginal_rate(now) * $1,000}",
            "{$1,000 - combined_marginal_rate(later) * $1,000}",
          ],
        ]),
      .text("""
        Growth multiplies both alike, so it changes nothing here. The RRSP wins when your rate at withdrawal \
        ({combined_marginal_rate(later)}) is below your rate now ({combined_marginal_rate(now)}); equal rates tie.
        """),
    ],
    tip: """
      TFSA withdrawals are not income: they never trigger the OAS clawback (:lesson clawback). Unsure of your \
      future rate? The TFSA is the safer bet.
      """,
    tryIt: "combined_marginal_rate($40,000)",
    terms: ["TFSA", "RRSP", "marginal rate"],
    formulas: ["rrsp_refund", "combined_marginal_rate"])

  static let dividends = ConceptLesson(
    name: "dividends", title: "Dividends: the gross-up and the credit",
    words: [
      "dividend", "gross-up", "grossup", "gross up", "dividend tax credit", "eligible dividend", "eligible",
      "non-eligible", "dtc",
    ],
    definition: """
      A company pays dividends from profit it has already paid corporate tax on. So you are taxed on a grossed-up \
      amount, larger than the cash, and then get a dividend tax credit that roughly gives that corporate tax \
      back. Eligible dividends (mostly from large public companies) get the larger gross-up and credit.
      """,
    inputs: "The cash dividend, whether it is eligible, your other income and your province.",
    given: [("dividend", "$5,000"), ("other", "$60,000")],
    example: [
      .text("An eligible dividend of {dividend} on top of {other} of income, in Ontario:"),
      .table(
        header: [],
        rows: [
          ["gross-up, {federal.dividend_grossup_eligible}", "{taxable_dividend(dividend) - dividend}"],
          ["taxable amount", "{taxable_dividend(dividend)}"],
          ["federal dividend tax credit", "{federal_dividend_tax_credit(dividend)}"],
          ["Ontario dividend tax credit", "{provincial_dividend_tax_credit(dividend, ON)}"],
          ["tax on the dividend", "{dividend_tax(dividend, other, ON)}"],
        ]),
      .text("""
        That is {dividend_tax(dividend, other, ON) / dividend} of the cash, against {combined_marginal_rate(other)} \
        on the same amount of salary.
        """),
    ],
    tip: """
      The credits make eligible dividends lightly taxed in low and middle brackets. But the gross-up raises your \
      net income, which can trigger the OAS clawback even as the credit lowers your tax.
      """,
    tryIt: "dividend_tax($5,000, $120,000, eligible: false)",
    terms: ["dividend", "gross-up", "dividend tax credit", "net income"],
    formulas: ["dividend_tax", "taxable_dividend", "federal_dividend_tax_credit", "provincial_dividend_tax_credit"],
    limits: ["dividend_tax"])

  static let capitalGains = ConceptLesson(
    name: "capital-gains", title: "Capital gains: only part is taxed",
    words: [
      "capital gain", "capital gains", "gain", "gains", "inclusion", "inclusion rate", "selling", "shares", "stocks",
      "capital",
    ],
    definition: """
      A capital gain is what you make when you sell something (shares, a cottage) for more than it cost you. Only \
      part of the gain, the inclusion rate of {federal.capital_gains_inclusion_rate}, is added to your income and \
      taxed at your marginal rate; the rest is tax-free.
      """,
    inputs: "The gain (the sale price minus the cost and selling expenses), your other income and your province.",
    given: [("gain", "$10,000"), ("other", "$85,000")],
    example: [
      .text("A gain of {gain} on top of {other} of income, in Ontario:"),
      .table(
        header: [],
        rows: [
          ["taxable part, {federal.capital_gains_inclusion_rate}", "{taxable_capital_gain(gain)}"],
          ["tax on it", "{capital_gains_tax(gain, other)}"],
          ["as a share of the gain", "{capital_gains_tax(gain, other) / gain}"],
        ]),
      .text("""
        So the gain is taxed at {federal.capital_gains_inclusion_rate} of your marginal rate, \
        {combined_marginal_rate(other)}, unless the taxable part crosses a threshold.
        """),
    ],
    tip: """
      Capital losses offset gains, of this year or others. Gains inside an RRSP or a TFSA are not capital gains at \
      all: in a TFSA they are never taxed.
      """,
    tryIt: "capital_gains_tax($50,000, $85,000, BC)",
    terms: ["capital gain", "inclusion rate", "marginal rate"],
    formulas: ["capital_gains_tax", "taxable_capital_gain", "capital_gain"],
    limits: ["capital_gains_tax"])

  static let clawback = ConceptLesson(
    name: "clawback", title: "Old Age Security and the clawback",
    words: [
      "oas", "old age security", "oas clawback", "claw back", "claw-back", "recovery tax", "pension recovery",
      "recovery", "pension",
    ],
    definition: """
      Old Age Security (OAS) is a federal pension paid from age 65: {oas_maximum_pension(65)} this year at most. If \
      your net income is above the recovery threshold, {federal.oas_recovery_threshold}, you repay \
      {federal.oas_recovery_rate} of the excess, up to the whole pension. That repayment is the clawback.
      """,
    inputs: "Your net world income (line 23400 of the return), your age and the OAS you received.",
    given: [("income", "federal.oas_recovery_threshold + $20,000")],
    example: [
      .explain("oas_recovery_tax(income)"),
      .text("""
        So you keep {oas_after_recovery(income)} of the pension. It is all gone at about \
        {federal.oas_recovery_max_threshold_65_74} of income.
        """),
    ],
    tip: """
      In the clawback range each extra dollar of income costs {federal.oas_recovery_rate} more, on top of income \
      tax. TFSA withdrawals are not income; splitting pension income with a spouse can keep you under the threshold.
      """,
    tryIt: "oas_recovery_tax($120,000)",
    terms: ["OAS", "clawback", "net income", "threshold"],
    formulas: ["oas_recovery_tax", "oas_after_recovery", "oas_maximum_pension"])
}
