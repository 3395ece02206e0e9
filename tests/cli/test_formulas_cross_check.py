"""The standard library's formulas, run by the real binary, against an independent Python implementation that
reads the verified CSV (tests/library/formulas_reference.py), over a grid of incomes, jurisdictions and both years.

The .tax tests hold hand-worked figures at chosen points; this covers the space between them, so that TaxPro is never
only checking itself."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

import brackets_reference as br
import formulas_reference as ref

PROVINCES = [code for code in br.JURISDICTIONS if code != "FED"]
INCOMES = ["0", "15000", "45000.55", "85000", "150000", "215648", "300000", "1000000"]
FIGURES = {year: ref.load(year) for year in br.YEARS}


def money(text: str) -> str:
    return br.money(Decimal(text))


def rate_text(fraction: Fraction) -> str:
    """As TaxPro prints a rate: a percentage with at most four decimals, no trailing zeros."""
    percent = Decimal(fraction.numerator) / Decimal(fraction.denominator) * 100
    text = format(percent.quantize(Decimal("0.0001")).normalize(), "f")
    return text + "%"


def cases(year: str) -> list[tuple[str, str]]:
    f = FIGURES[year]
    F = Fraction
    out: list[tuple[str, str]] = []
    for code in PROVINCES:
        for income in INCOMES:
            out.append((f"combined_tax({money(income)}, {code})", ref.money_text(ref.combined_tax(f, F(income), code))))
            out.append((f"provincial_tax({money(income)}, {code})", ref.money_text(ref.provincial_tax(f, F(income), code))))
        out.append((f"federal_tax({money('85000')}, {code})", ref.money_text(ref.federal_tax(f, F(85000), code))))
        for salary in ("30000", "72000", "90000", "250000"):
            out.append((f"take_home_pay({money(salary)}, {code})", ref.money_text(ref.take_home_pay(f, F(salary), code))))
        for income in ("60000", "120000", "240000"):
            out.append((f"rrsp_refund($7,500, {money(income)}, {code})",
                        ref.money_text(ref.rrsp_refund(f, F(7500), F(income), code))))
            out.append((f"combined_marginal_rate({money(income)}, {code})",
                        rate_text(ref.combined_marginal_rate(f, F(income), code))))
        for eligible in (True, False):
            flag = "true" if eligible else "false"
            out.append((f"dividend_tax($10,000, $70,000, {code}, {flag})",
                        ref.money_text(ref.dividend_tax(f, F(10000), F(70000), code, eligible))))
        out.append((f"interest_tax($10,000, $70,000, {code})",
                    ref.money_text(ref.tax_on_extra_income(f, F(10000), F(70000), code))))
        out.append((f"capital_gains_tax($40,000, $70,000, {code})",
                    ref.money_text(ref.capital_gains_tax(f, F(40000), F(70000), code))))
        out.append((f"foreign_income_tax($3,000, $600, $70,000, {code})",
                    ref.money_text(ref.foreign_income_tax(f, F(3000), F(600), F(70000), code))))
    for income in ("20000", "20000.01", "25000", "36500", "38500", "48100", "60000", "72300", "150000", "200100", "500000"):
        out.append((f"ontario_health_premium({money(income)})", ref.money_text(ref.ontario_health_premium(f, F(income)))))
    for income in ("90000", "93454", "95323", "120000", "160000", "300000"):
        for age in (65, 80):
            out.append((f"oas_recovery_tax({money(income)}, {age})", ref.money_text(ref.oas_recovery_tax(f, F(income), age))))
    for earned in ("0", "50000", "180500", "187833.33", "400000"):
        out.append((f"rrsp_limit({money(earned)})", ref.money_text(ref.rrsp_limit(f, F(earned)))))
    for earnings in ("3500", "40000", "71300", "74600", "81200", "85000", "200000"):
        for code in ("QC", "ON"):
            out.append((f"payroll_deductions({money(earnings)}, {code})",
                        ref.money_text(ref.payroll_deductions(f, F(earnings), code))))
    for net in ("150000", "177882", "200000", "230000", "253414", "260000"):
        out.append((f"federal_basic_personal_amount({money(net)})", ref.money_text(ref.federal_bpa(f, F(net)))))
        out.append((f"provincial_basic_personal_amount({money(net)}, YT)", ref.money_text(ref.provincial_bpa(f, "YT", F(net)))))
    for net in ("199999", "250000", "333333.33", "400000"):
        out.append((f"provincial_basic_personal_amount({money(net)}, MB)", ref.money_text(ref.provincial_bpa(f, "MB", F(net)))))
    return out


@pytest.mark.parametrize("year", br.YEARS)
def test_formulas_agree_with_the_python_reference(taxpro, year):
    grid = cases(year)
    result = taxpro.run("--year", year, stdin="\n".join(expression for expression, _ in grid) + "\n")
    assert result.returncode == 0, result.stderr[:2000]
    got = result.stdout.splitlines()
    assert len(got) == len(grid)
    disagreements = [(expression, printed, expected) for (expression, expected), printed in zip(grid, got)
                     if printed != expected]
    assert not disagreements, disagreements[:20]
    assert len(grid) > 400
