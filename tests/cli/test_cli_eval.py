"""`taxpro eval`: bracket tax for every jurisdiction and both years agrees to the cent with an independent
calculation from the verified CSV (tests/library/brackets_reference.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

import brackets_reference as br

ROWS = br.read_rows(br.csv_path())
TABLES = br.bracket_tables(ROWS)
INCOMES = [Decimal(x) for x in ("0", "1", "12345.67", "50000", "85000", "123456.78", "250000", "1500000")]


def reference_text(code: str, year: str, income: Decimal) -> str:
    return br.money(br.bracket_tax(TABLES[(code, year)], income))


def literal(income: Decimal) -> str:
    return br.money(income)


def test_ontario_85000_in_2025(taxpro):
    result = taxpro.run("eval", "--year", "2025", "tax(ON.income_tax, $85,000)")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "$5,609.17\n"
    # and the independent reference agrees: 52,886 × 5.05% + 32,114 × 9.15% = 5,609.174
    assert reference_text("ON", "2025", Decimal(85000)) == "$5,609.17"


@pytest.mark.parametrize("year", br.YEARS)
@pytest.mark.parametrize("code", br.JURISDICTIONS)
def test_every_table_agrees_with_the_csv(taxpro, code, year):
    table = "federal.income_tax" if code == "FED" else f"{code}.income_tax"
    # A threshold of each table too, where rounding and the change of rate meet.
    incomes = INCOMES + [TABLES[(code, year)][-1].threshold + 1]
    expressions = [f"tax({table}, {literal(income)})" for income in incomes]
    # Line mode evaluates one expression per line, so one process serves the whole list.
    result = taxpro.run("--year", year, stdin="\n".join(expressions) + "\n")
    assert result.returncode == 0, result.stderr
    got = result.stdout.splitlines()
    want = [reference_text(code, year, income) for income in incomes]
    assert got == want, list(zip(expressions, got, want))
    # `eval` itself for one of them
    single = taxpro.run("eval", "--year", year, expressions[4])
    assert single.stdout == want[4] + "\n"


def test_money_and_rates_print_as_the_brief_says(taxpro):
    cases = {
        "0.1 + 0.2": "0.3",
        "$10 / 3": "$3.33",
        "$1,234.56 * 13%": "$160.49",
        "$100 + 15%": "$115.00",
        "$200 / $800": "25%",
        "-$12": "-$12.00",
        "marginal_rate(federal.income_tax, $60,000)": "20.5%",
    }
    result = taxpro.run("--year", "2025", stdin="\n".join(cases) + "\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == list(cases.values())
