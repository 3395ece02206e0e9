"""The whole return, run by the real binary, against the independent Python implementation that reads the verified
CSV (tests/library/formulas_reference.py), over a grid of households (tests/library/return_grid.py): every
jurisdiction, both years, 2,600 households a year with employment income, interest, eligible and other dividends,
capital gains, an RRSP deduction, age, pension income, OAS and tax deducted. Each year is one
`taxpro eval --csv` process.

Also the figures the return gives for the examples of issue 14, end to end, against both the figure worked by hand
(data/NOTES.md shows the arithmetic) and the Python implementation.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

import formulas_reference as ref
import return_grid as grid

YEARS = ("2025", "2026")


@pytest.mark.parametrize("year", YEARS)
def test_every_household_agrees_to_the_cent(taxpro, tmp_path, year):
    households = grid.households(year)
    path = tmp_path / f"households_{year}.csv"
    path.write_text(grid.csv_text(households), encoding="utf-8")
    expected = grid.expected(ref.load(year), households)
    result = taxpro.run("eval", "--year", year, "--csv", str(path), grid.EXPRESSION)
    assert result.returncode == 0, result.stderr[:2000]
    # The output is an RFC 4180 column: amounts of $1,000 and more come quoted for their comma.
    got = [row[0] if row else "" for row in csv.reader(io.StringIO(result.stdout))]
    assert len(got) == len(expected) == 4 * len(households)
    disagreements = []
    for index, household in enumerate(households):
        for offset, line in enumerate(grid.lines_checked(index)):
            row = 4 * index + offset
            if got[row] != expected[row]:
                disagreements.append((household, line, got[row], expected[row]))
    assert not disagreements, disagreements[:10]
    assert len(households) * len(YEARS) >= 5_000


def test_the_grid_covers_the_household_inputs():
    for year in YEARS:
        households = grid.households(year)
        assert {h.province for h in households} == set(grid.PROVINCES)
        for name in ("employment_income", "interest", "eligible_dividends", "other_dividends", "capital_gains",
                     "rrsp_deduction", "pension_income", "tax_deducted"):
            assert sum(1 for h in households if getattr(h, name) > 0) >= 200, (year, name)
        assert {h.age for h in households} >= {40, 64, 65, 74, 75}
        assert any(h.oas_pension is None and h.age >= 65 for h in households)
        assert any(h.oas_pension is not None for h in households)
        assert any(h.proposed for h in households) == (year == "2026")
        checked = [line for index in range(len(households)) for line in grid.lines_checked(index)]
        assert {line: checked.count(line) >= 300 for line in ref.RETURN_LINES} == {line: True for line in ref.RETURN_LINES}
        # Some households owe nothing, some get a refund, some have OAS recovered.
        f = ref.load(year)
        returns = [ref.tax_return(f, h) for h in households]
        assert any(r["income_tax"] == 0 for r in returns)
        assert any(r["balance"] < 0 for r in returns)
        assert any(r["oas_recovery"] > 0 for r in returns)
        # Low incomes and seniors reach the parts of the provincial forms that depend on them: each jurisdiction's
        # age amount and pension income amount, the low-income reductions, Manitoba's family tax benefit and
        # Quebec's deduction for workers.
        for code in grid.PROVINCES:
            mine = [h for h in households if h.province == code]
            assert any(ref.provincial_age_amount(f, ref.tax_return(f, h)["net_income"], h.age, code) > 0
                       for h in mine), (year, code)
            assert any(h.age >= 65 and 0 < h.pension_income for h in mine), (year, code)
        for code in ("BC", "NS", "NB", "NL", "PE"):  # (Ontario's reduction depends on the tax, not the income)
            reduced = [h for h in households if h.province == code and 0 < ref.provincial_reduction(
                f, Fraction(10**6), ref.tax_return(f, h)["net_income"], code)]
            assert len(reduced) >= 10, (year, code, len(reduced))
        assert sum(1 for h in households if h.province == "MB"
                   and ref.manitoba_family_tax_benefit(f, ref.tax_return(f, h)["net_income"], h.age) > 0) >= 10
        assert any(r["quebec_workers_deduction"] > 0 for r in returns)
        assert sum(1 for r in returns if 0 < r["income_tax"] < 1_000) >= 100


# The examples of issue 14: the expression, the year, and the figure worked by hand in data/NOTES.md.
EXAMPLES = [
    ("take_home_pay($85,000, ON)", "2025", "$63,531.68", lambda f: ref.take_home_pay(f, Fraction(85_000), "ON")),
    ("take_home_pay($60,000, AB)", "2026", "$47,690.52", lambda f: ref.take_home_pay(f, Fraction(60_000), "AB")),
    ("payroll_deductions($85,000, QC)", "2025", "$6,015.77", lambda f: ref.payroll_deductions(f, Fraction(85_000), "QC")),
    ("dividend_tax($10,000, $85,000, ON, true)", "2025", "$742.60",
     lambda f: ref.dividend_tax(f, Fraction(10_000), Fraction(85_000), "ON", True)),
    ("foreign_tax_credit($10,000, $3,000, $85,000, ON)", "2025", "$1,500.00",
     lambda f: ref.foreign_tax_credit(f, Fraction(10_000), Fraction(3_000), Fraction(85_000), "ON")),
    ("oas_maximum_pension()", "2025", "$8,791.14", lambda f: ref.oas_maximum_pension(f, 65)),
]


@pytest.mark.parametrize("expression,year,figure,reference", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_the_issues_examples_give_the_returns_figures(taxpro, expression, year, figure, reference):
    result = taxpro.run("eval", "--year", year, expression)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == figure
    assert ref.money_text(reference(ref.load(year))) == figure


def test_a_band_that_ends_where_it_starts_is_not_a_division_by_zero(taxpro):
    result = taxpro.run("eval", "phase_out_share($5, $10, $10)")
    assert (result.returncode, result.stdout.strip()) == (0, "0%")
    result = taxpro.run("eval", "phase_out_share($11, $10, $10)")
    assert (result.returncode, result.stdout.strip()) == (0, "100%")


def test_british_columbias_proposed_rate_is_chosen_not_assumed(taxpro):
    enacted = taxpro.run("eval", "--year", "2026", "provincial_tax($50,000, BC)")
    proposed = taxpro.run("eval", "--year", "2026", "provincial_tax($50,000, BC, proposed: true)")
    f = ref.load("2026")
    assert enacted.stdout.strip() == ref.money_text(ref.provincial_tax(f, Fraction(50_000), "BC"))
    assert proposed.stdout.strip() == ref.money_text(ref.provincial_tax(f, Fraction(50_000), "BC", proposed=True))
    assert enacted.stdout.strip() != proposed.stdout.strip()
    # 2025 has no proposal: asking for one is an error that says so, not a silent figure.
    result = taxpro.run("eval", "--year", "2025", "provincial_tax($50,000, BC, proposed: true)")
    assert result.returncode == 1
    assert "income_tax_proposed" in result.stderr and "2025" in result.stderr


def test_an_unknown_return_line_is_an_error(taxpro):
    result = taxpro.run("eval", "--year", "2025", 'return_summary($50,000, line: "net_incme")')
    assert result.returncode == 1
    assert "line_name_must_be_one_of_return_summary_lines" in result.stderr
    assert "return_summary" in result.stderr


def test_explain_walks_the_return_line_by_line(taxpro):
    result = taxpro.run(
        "explain", "--full", "--year", "2025", "return_summary(employment_income: $85,000)", env={"COLUMNS": "250"}
    )
    assert result.returncode == 0, result.stderr
    steps = [line.strip().split(" = ")[0] for line in result.stdout.splitlines() if line.startswith("  let ")]
    lines = [step.removeprefix("let ") for step in steps]
    order = ["cpp_qpp_contributions", "ei_premiums", "total_income", "enhanced_contributions", "net_income",
             "taxable_income", "federal_tax", "provincial_tax", "income_tax", "total_payable", "balance",
             "after_tax_income"]
    assert [name for name in lines if name in order] == order
    assert "let net_income = net_income_before_adjustments - oas_recovery = $83,926.00" in result.stdout
    assert "Result: $15,960.74" in result.stdout
