#!/usr/bin/env python3
"""A grid of households for checking the standard library's `return_summary` against formulas_reference.py.

Each household is one person's common inputs: employment income, interest, eligible and other dividends, capital
gains, an RRSP deduction, age, eligible pension income, OAS (the default maximum, or a given amount), tax deducted
and, for British Columbia in 2026, the proposed rate. The grid mixes amounts at the places where the return changes
(the CPP, EI and QPIP ceilings, the low-income reductions, the age amount and OAS thresholds, the basic personal
amount phase-down) with random ones, for every jurisdiction; it is the same on every run (a fixed seed).

`csv_text(households)` writes a row for each line checked of each household, to be read by ONE
`taxpro eval --year YEAR --csv FILE EXPRESSION` process; `expected(figures, households)` gives, in the same order,
what the independent implementation prints. Every household is checked on its balance and income tax (which
depend on every other line) and on two more lines in turn, so that each of the 16 lines is compared on hundreds
of households a year while a run stays short (each row evaluates the whole return).

Usage, to look at the grid:
    python3 tests/library/return_grid.py 2025 > households.csv
    taxpro eval --year 2025 --csv households.csv "$(python3 tests/library/return_grid.py --expression)"

Python 3.11, standard library only.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import formulas_reference as ref  # noqa: E402

PROVINCES = ("AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")
HOUSEHOLDS_PER_PROVINCE = 200  # per year: 13 × 200 × 2 years = 5,200 households

# Where the return changes: zero, the CPP basic exemption, low incomes where the reductions and LIFT phase out
# (Ontario, British Columbia, Nova Scotia, New Brunswick, Newfoundland and Labrador, Prince Edward Island, Manitoba's
# family tax benefit, Quebec's deduction for workers), the YMPE and YAMPE of both years, EI's and QPIP's ceilings,
# the age amount thresholds, the OAS threshold, the BPA phase-down, high incomes.
EMPLOYMENT = ("0", "1000", "3500", "9999.99", "15000", "18000", "20000", "21919", "22250", "22944", "23666.67",
              "23928", "25020", "29250", "30000", "30159", "32500", "40000", "43062", "45522", "50000", "60000",
              "65700", "68900", "71300", "74600", "81200", "85000", "98000", "103000", "120000", "177882", "200000",
              "253414", "300000", "1000000")
AGES = (19, 30, 40, 64, 65, 66, 70, 74, 75, 80, 90)

EXPRESSION = (
    "if oas_given then "
    "return_summary(employment_income: employment, province: province, interest: interest, "
    "eligible_dividends: eligible, other_dividends: other, capital_gains: gains, rrsp_deduction: rrsp, age: age, "
    "pension_income: pension, oas_pension: oas, tax_deducted: deducted, proposed: proposed, line: line) "
    "else "
    "return_summary(employment_income: employment, province: province, interest: interest, "
    "eligible_dividends: eligible, other_dividends: other, capital_gains: gains, rrsp_deduction: rrsp, age: age, "
    "pension_income: pension, tax_deducted: deducted, proposed: proposed, line: line)"
)
HEADER = ("employment:Money,province:Province,interest:Money,eligible:Money,other:Money,gains:Money,rrsp:Money,"
          "age:Number,pension:Money,oas_given:Bool,oas:Money,deducted:Money,proposed:Bool,line:Text")


def money(rng: random.Random, top: int) -> Fraction:
    """A random amount in cents below `top`."""
    return Fraction(rng.randrange(0, top * 100), 100)


def sometimes(rng: random.Random, chance: float, amount: Fraction) -> Fraction:
    return amount if rng.random() < chance else Fraction(0)


def households(year: str) -> list[ref.Household]:
    rng = random.Random(f"return-grid-{year}")
    out: list[ref.Household] = []
    for code in PROVINCES:
        for i in range(HOUSEHOLDS_PER_PROVINCE):
            typical = i % 2 == 0
            employment = Fraction(ref.fr(rng.choice(EMPLOYMENT))) if typical else money(rng, 260_000)
            age = rng.choice(AGES)
            retired = age >= 60
            if i % 5 == 1:
                # A low-income senior: a small pension, a little interest, the default OAS, no salary.
                out.append(ref.Household(
                    province=code, age=rng.choice(AGES[4:]), pension_income=money(rng, 30_000),
                    interest=sometimes(rng, 0.5, money(rng, 5_000)),
                    tax_deducted=sometimes(rng, 0.3, money(rng, 3_000))))
                continue
            h = ref.Household(
                employment_income=sometimes(rng, 0.35 if retired else 0.9, employment),
                province=code,
                interest=sometimes(rng, 0.4, money(rng, 40_000)),
                eligible_dividends=sometimes(rng, 0.35, money(rng, 80_000)),
                other_dividends=sometimes(rng, 0.2, money(rng, 50_000)),
                capital_gains=sometimes(rng, 0.25, money(rng, 150_000)),
                age=age,
                pension_income=sometimes(rng, 0.8 if retired else 0.1, money(rng, 90_000)),
                tax_deducted=sometimes(rng, 0.5, money(rng, 60_000)),
                proposed=code == "BC" and year == "2026" and rng.random() < 0.5,
            )
            # The RRSP deduction is at most the year's income.
            h.rrsp_deduction = sometimes(rng, 0.3, min(money(rng, 32_000), h.employment_income + h.pension_income))
            if age >= 65 and rng.random() < 0.3:
                # A given OAS pension: deferred (nothing), partial, or more than the recovery can take.
                h.oas_pension = rng.choice((Fraction(0), money(rng, 9_000), Fraction(9_999)))
            out.append(h)
    return out


ALWAYS = ("balance", "income_tax")
ROTATING = tuple(name for name in ref.RETURN_LINES if name not in ALWAYS)


def lines_checked(index: int) -> tuple[str, ...]:
    """The lines compared for the household at `index`: the balance, income tax and two others in turn."""
    return ALWAYS + (ROTATING[(2 * index) % len(ROTATING)], ROTATING[(2 * index + 1) % len(ROTATING)])


def literal(amount: Fraction) -> str:
    """A money field as the language writes it, without commas: `$85000.00`."""
    c = ref.cents(amount)
    hundredths = c.numerator * 100 // c.denominator
    return f"${hundredths // 100}.{hundredths % 100:02d}"


def csv_text(rows: list[ref.Household]) -> str:
    lines = [HEADER]
    for index, h in enumerate(rows):
        oas_given = h.oas_pension is not None
        fields = [literal(h.employment_income), h.province, literal(h.interest), literal(h.eligible_dividends),
                  literal(h.other_dividends), literal(h.capital_gains), literal(h.rrsp_deduction), str(h.age),
                  literal(h.pension_income), "true" if oas_given else "false",
                  literal(h.oas_pension if oas_given else Fraction(0)), literal(h.tax_deducted),
                  "true" if h.proposed else "false"]
        prefix = ",".join(fields)
        lines += [f"{prefix},{line}" for line in lines_checked(index)]
    return "\n".join(lines) + "\n"


def expected(figures: ref.Figures, rows: list[ref.Household]) -> list[str]:
    out: list[str] = []
    for index, h in enumerate(rows):
        lines = ref.tax_return(figures, h)
        out += [ref.money_text(lines[name]) for name in lines_checked(index)]
    return out


def main(argv: list[str]) -> int:
    if argv == ["--expression"]:
        print(EXPRESSION)
        return 0
    if len(argv) != 1 or argv[0] not in ("2025", "2026"):
        print(__doc__)
        return 2
    sys.stdout.write(csv_text(households(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
