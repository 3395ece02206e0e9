"""Checks the hand-worked expectations of the formula tests against an independent Python implementation.

Sources/TaxProLibrary/Resources/tests/formulas_*.tax hold `test … year YYYY { formula(args) == expected }` lines whose
expected figures were worked by hand from the verified CSV. Here every such line of the simple form
`name(arguments) == $amount` (or `== rate%`) is re-evaluated with formulas_reference.py, which reads the CSV and never
the .tax files, so a slip in the hand arithmetic or in the .tax formulas shows up as a disagreement between two
implementations rather than TaxPro agreeing with itself.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import formulas_reference as ref

TESTS_DIR = Path(__file__).resolve().parents[2] / "Sources" / "TaxProLibrary" / "Resources" / "tests"
Z = Fraction(0)

# TaxPro formula → the reference, with TaxPro's parameter names and defaults so that positional and named
# arguments map the same way.
ADAPTERS = {
    "phase_out_share": lambda f, income, start, end: ref.share_crossed(income, start, end),
    "federal_basic_personal_amount": lambda f, net_income: ref.federal_bpa(f, net_income),
    "federal_age_amount": lambda f, net_income, age=65: ref.federal_age_amount(f, net_income, age),
    "federal_pension_income_amount": lambda f, pension_income: ref.federal_pension_amount(f, pension_income),
    "employment_amount": lambda f, employment_income: ref.employment_amount(f, employment_income),
    "federal_topup_credit": lambda f, credit_amounts: ref.topup_credit(f, credit_amounts),
    "federal_credits": lambda f, net_income, other_credits=Z: ref.federal_credits(f, net_income, other_credits),
    "provincial_basic_personal_amount": lambda f, net_income, province="ON": ref.provincial_bpa(f, province, net_income),
    "provincial_credits": lambda f, net_income, province="ON", other_credits=Z, proposed=False: ref.provincial_credits(
        f, net_income, province, other_credits, proposed),
    "basic_federal_tax": lambda f, income, net_income=None, other_credits=Z, dividend_credit=Z: ref.basic_federal_tax(
        f, income, net_income, other_credits, dividend_credit),
    "quebec_abatement": lambda f, basic_federal_tax: ref.cents(f.fed["quebec_abatement_rate"] * basic_federal_tax),
    "federal_tax": lambda f, income, province="ON", net_income=None, other_credits=Z, dividend_credit=Z: ref.federal_tax(
        f, income, province, net_income=net_income, other_credits=other_credits, dividend_credit=dividend_credit),
    "provincial_tax": lambda f, income, province="ON", net_income=None, other_credits=Z, dividend_credit=Z,
    employment_income=Z, proposed=False, age=40, pension_income=Z: ref.provincial_tax(
        f, income, province, net_income, other_credits, dividend_credit, employment_income, proposed, age,
        pension_income),
    "provincial_tax_reduction": lambda f, tax, net_income, province="ON": ref.provincial_reduction(
        f, tax, net_income, province),
    "ontario_lift_credit": lambda f, employment_income, net_income: ref.ontario_lift(f, employment_income, net_income),
    "combined_tax": lambda f, income, province="ON", net_income=None, other_credits=Z, dividend_credit=Z,
    provincial_dividend_credit=Z, proposed=False, age=40, pension_income=Z: ref.combined_tax(
        f, income, province, net_income, other_credits, dividend_credit, provincial_dividend_credit, proposed, age,
        pension_income),
    "combined_marginal_rate": lambda f, income, province="ON": ref.combined_marginal_rate(f, income, province),
    "combined_average_rate": lambda f, income, province="ON": (
        ref.combined_tax(f, income, province) / income if income > 0 else Z),
    "tax_on_extra_income": lambda f, extra, income=Z, province="ON": ref.tax_on_extra_income(f, extra, income, province),
    "ontario_surtax": lambda f, ontario_tax: ref.ontario_surtax(f, ontario_tax),
    "ontario_health_premium": lambda f, income: ref.ontario_health_premium(f, income),
    "taxable_income": lambda f, total_income, deductions=Z: max(Z, total_income - deductions),
    "deduction_tax_savings": lambda f, deduction, income, province="ON": ref.rrsp_refund(f, deduction, income, province),
    "rrsp_limit": lambda f, earned_income, pension_adjustment=Z, unused_room=Z: ref.rrsp_limit(
        f, earned_income, pension_adjustment, unused_room),
    "rrsp_refund": lambda f, contribution, income, province="ON": ref.rrsp_refund(f, contribution, income, province),
    "cpp_contribution": lambda f, earnings: ref.cpp(f, earnings),
    "cpp_base_contribution": lambda f, earnings: ref.cpp_base(f, earnings),
    "cpp2_contribution": lambda f, earnings: ref.cpp2(f, earnings),
    "qpp_contribution": lambda f, earnings: ref.qpp(f, earnings),
    "qpp_base_contribution": lambda f, earnings: ref.qpp_base(f, earnings),
    "qpp2_contribution": lambda f, earnings: ref.qpp2(f, earnings),
    "pension_plan_contribution": lambda f, earnings, province="ON": ref.pension_contribution(f, earnings, province),
    "base_pension_contribution": lambda f, earnings, province="ON": ref.base_contribution(f, earnings, province),
    "enhanced_pension_deduction": lambda f, earnings, province="ON": ref.enhanced_deduction(f, earnings, province),
    "ei_premium": lambda f, earnings, province="ON": ref.ei(f, earnings, province),
    "qpip_premium": lambda f, earnings, province="QC": ref.qpip(f, earnings, province),
    "payroll_deductions": lambda f, salary, province="ON": ref.payroll_deductions(f, salary, province),
    "take_home_pay": lambda f, salary, province="ON", proposed=False: ref.take_home_pay(f, salary, province, proposed),
    "interest_tax": lambda f, interest, other_income=Z, province="ON": ref.tax_on_extra_income(
        f, interest, other_income, province),
    "taxable_dividend": lambda f, dividend, eligible=True: ref.taxable_dividend(f, dividend, eligible),
    "federal_dividend_tax_credit": lambda f, dividend, eligible=True: ref.federal_dtc(f, dividend, eligible),
    "provincial_dividend_tax_credit": lambda f, dividend, province="ON", eligible=True: ref.provincial_dtc(
        f, dividend, province, eligible),
    "dividend_tax": lambda f, dividend, other_income=Z, province="ON", eligible=True: ref.dividend_tax(
        f, dividend, other_income, province, eligible),
    "foreign_tax_credit": lambda f, foreign_income, foreign_tax_paid, other_income=Z, province="ON": (
        ref.foreign_tax_credit(f, foreign_income, foreign_tax_paid, other_income, province)),
    "foreign_income_tax": lambda f, foreign_income, foreign_tax_paid, other_income=Z, province="ON": (
        ref.foreign_income_tax(f, foreign_income, foreign_tax_paid, other_income, province)),
    "capital_gain": lambda f, proceeds, cost, outlays=Z: proceeds - cost - outlays,
    "taxable_capital_gain": lambda f, gain: ref.cents(f.fed["capital_gains_inclusion_rate"] * gain),
    "capital_gains_tax": lambda f, gain, other_income=Z, province="ON": ref.capital_gains_tax(f, gain, other_income, province),
    "oas_maximum_pension": lambda f, age=65: ref.oas_maximum_pension(f, age),
    "oas_recovery_tax": lambda f, net_income, age=65, oas_received=None: ref.oas_recovery_tax(f, net_income, age, oas_received),
    "oas_after_recovery": lambda f, net_income, age=65, oas_received=None: (
        (oas_received if oas_received is not None else ref.oas_maximum_pension(f, age))
        - ref.oas_recovery_tax(f, net_income, age, oas_received)),
    "reduced_amount": lambda f, amount, income, threshold, rate: ref.reduced_amount(amount, income, threshold, rate),
    "provincial_age_amount": lambda f, net_income, age=65, province="ON": ref.provincial_age_amount(
        f, net_income, age, province),
    "provincial_pension_income_amount": lambda f, pension_income, province="ON": ref.provincial_pension_amount(
        f, pension_income, province),
    "senior_supplementary_amount": lambda f, age=65, province="SK": ref.senior_supplementary_amount(f, age, province),
    "manitoba_family_tax_benefit": lambda f, net_income, age=40: ref.manitoba_family_tax_benefit(f, net_income, age),
    "provincial_personal_amounts": lambda f, net_income, age=40, pension_income=Z, province="ON": (
        ref.provincial_personal_amounts(f, net_income, age, pension_income, province)),
    "quebec_deduction_for_workers": lambda f, employment_income: ref.quebec_deduction_for_workers(f, employment_income),
    "quebec_senior_amounts": lambda f, net_income, age=65, retirement_income=Z: ref.quebec_senior_amounts(
        f, net_income, age, retirement_income),
    "quebec_income_tax": lambda f, income, net_income=None, age=40, retirement_income=Z, dividend_credit=Z: (
        ref.quebec_income_tax(f, income, income if net_income is None else net_income, age, retirement_income,
                              dividend_credit)),
    "return_summary": lambda f, *positional, line="balance", **named: ref.tax_return(
        f, ref.Household(**dict(zip(RETURN_PARAMETERS, positional)), **named))[line],
}
# return_summary's parameters in order (for positional arguments); `line` is separate.
RETURN_PARAMETERS = ("employment_income", "province", "interest", "eligible_dividends", "other_dividends",
                     "capital_gains", "rrsp_deduction", "age", "pension_income", "oas_pension", "tax_deducted",
                     "proposed")

MONEY = r"-?\$(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?"
RATE = r"-?\d+(?:\.\d+)?%"
VALUE = rf'{MONEY}|{RATE}|true|false|[A-Z][A-Z]|\d+(?:\.\d+)?|"[^"]*"'
ARGUMENT = re.compile(rf"\s*(?:(\w+):\s*)?({VALUE})\s*(?:,|$)")
CHECK = re.compile(rf"^\s*(\w+)\((.*)\)\s*==\s*({MONEY}|{RATE})\s*$")
TEST = re.compile(r'^test\s+"([^"]+)"\s+year\s+(\d{4})\s*\{')


def literal(text: str):
    if text.startswith('"'):
        return text[1:-1]
    if text.startswith(("$", "-$")):
        return Fraction(Decimal(text.replace("$", "").replace(",", "")))
    if text.endswith("%"):
        return Fraction(Decimal(text[:-1])) / 100
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"[A-Z][A-Z]", text):
        return text
    return int(text) if re.fullmatch(r"\d+", text) else Fraction(Decimal(text))


def arguments(text: str) -> tuple[list, dict] | None:
    positional, named, position = [], {}, 0
    while position < len(text):
        match = ARGUMENT.match(text, position)
        if not match or match.end() == position:
            return None
        name, value = match.group(1), literal(match.group(2))
        if name:
            named[name] = value
        else:
            positional.append(value)
        position = match.end()
    return positional, named


def checks() -> list[tuple[str, int, str, str, object]]:
    """(file, line, year, call text, expected value) for every simple check of a formula with an adapter."""
    found = []
    for path in sorted(TESTS_DIR.glob("formulas_*.tax")):
        year = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if match := TEST.match(line):
                year = match.group(2)
                continue
            match = CHECK.match(line)
            if match and year and match.group(1) in ADAPTERS:
                found.append((path.name, number, year, f"{match.group(1)}({match.group(2)})", literal(match.group(3))))
    return found


FIGURES = {year: ref.load(year) for year in ("2025", "2026")}
CHECKS = checks()


def test_enough_checks_are_recomputed():
    # Every formula with an adapter is exercised, and most of the hand-worked lines are covered.
    assert len(CHECKS) >= 150, len(CHECKS)
    assert {call.split("(")[0] for _, _, _, call, _ in CHECKS} == set(ADAPTERS)


@pytest.mark.parametrize("file,line,year,call,expected", CHECKS, ids=[f"{c[0]}:{c[1]}" for c in CHECKS])
def test_hand_worked_figure_agrees_with_reference(file, line, year, call, expected):
    name, _, rest = call.partition("(")
    parsed = arguments(rest[:-1])
    assert parsed is not None, f"{file}:{line}: cannot read the arguments of {call}"
    positional, named = parsed
    got = ADAPTERS[name](FIGURES[year], *positional, **named)
    assert Fraction(got) == expected, f"{file}:{line}: {call} is {ref.money_text(Fraction(got))} by the reference"
