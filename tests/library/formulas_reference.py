#!/usr/bin/env python3
"""Independent reference for the standard library's formulas (income_tax.tax, credits.tax, ontario.tax, …).

It reads the verified CSV directly (never the .tax files) and re-implements each formula with Python's
`fractions`, rounding the way TaxPro's money does: every operation whose result is an amount of money is
rounded to the cent, half away from zero, and a bracket sum is computed exactly and rounded once.

The CLI tests (tests/cli/test_formulas_cross_check.py) compare `taxpro eval` with these functions over a grid
of incomes, provinces and both years; test_formulas_reference.py checks them against figures worked by hand.

Usage, to print one figure:
    python3 tests/library/formulas_reference.py 2025 'combined_tax(f, 85000, "ON")'

Python 3.11, standard library only.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import brackets_reference as br  # noqa: E402

CENT = Fraction(1, 100)


def cents(x: Fraction) -> Fraction:
    """Rounds to the cent, half away from zero (TaxPro's money rounding)."""
    scaled = x * 100
    sign = -1 if scaled < 0 else 1
    magnitude = abs(scaled)
    whole = magnitude.numerator // magnitude.denominator
    if magnitude - whole >= Fraction(1, 2):
        whole += 1
    return Fraction(sign * whole, 100)


def fr(text: str) -> Fraction:
    return Fraction(Decimal(text))


@dataclass
class Figures:
    """One year's figures: `fed[name]`, `prov[code][name]`, bracket tables, health-premium tiers, surtax."""

    year: str
    fed: dict[str, Fraction]
    prov: dict[str, dict[str, Fraction]]
    brackets: dict[str, list[tuple[Fraction, Fraction]]]
    health_tiers: list[tuple[Fraction, Fraction, Fraction]]  # (start, rate, cap)
    surtax: list[tuple[Fraction, Fraction]]  # (threshold, rate)


def load(year: str, rows: list[dict[str, str]] | None = None) -> Figures:
    rows = rows if rows is not None else br.read_rows(br.csv_path())
    fed: dict[str, Fraction] = {}
    prov: dict[str, dict[str, Fraction]] = {}
    brackets: dict[str, list[tuple[Fraction, Fraction]]] = {}
    rates: dict[int, tuple[Fraction, Fraction]] = {}
    caps: dict[int, Fraction] = {}
    surtax: dict[int, tuple[Fraction, Fraction]] = {}
    for r in rows:
        if r["year"] != year:
            continue
        code, name = r["jurisdiction"], r["parameter"]
        if name == "bracket":
            brackets.setdefault(code, []).append((int(r["index"]), fr(r["threshold"]), fr(r["value"])))
        elif code == "ON" and name == "health_premium_tier_rate":
            rates[int(r["index"])] = (fr(r["threshold"]), fr(r["value"]))
        elif code == "ON" and name == "health_premium_tier_max":
            caps[int(r["index"])] = fr(r["value"])
        elif code == "ON" and name == "surtax":
            surtax[int(r["index"])] = (fr(r["threshold"]), fr(r["value"]))
        elif r["index"] == "":
            (fed if code == "FED" else prov.setdefault(code, {}))[name] = fr(r["value"])
        elif code == "FED" and r["index"] == "1":
            # Quarterly figures: the first quarter (January to March) is the one every year has.
            fed[name + "_q1"] = fr(r["value"])
    tables = {code: [(t, rate) for _, t, rate in sorted(items)] for code, items in brackets.items()}
    tiers = [(rates[i][0], rates[i][1], caps[i]) for i in sorted(rates)]
    return Figures(year, fed, prov, tables, tiers, [surtax[i] for i in sorted(surtax)])


# ----------------------------------------------------------------------------------------------------------
# income_tax.tax, credits.tax and ontario.tax


def bracket_tax(table: list[tuple[Fraction, Fraction]], income: Fraction) -> Fraction:
    total = Fraction(0)
    for i, (threshold, rate) in enumerate(table):
        if income <= threshold:
            break
        upper = table[i + 1][0] if i + 1 < len(table) else None
        top = income if upper is None else min(income, upper)
        total += (top - threshold) * rate
    return cents(total)


def share_crossed(income: Fraction, start: Fraction, end: Fraction) -> Fraction:
    return min(Fraction(1), max(Fraction(0), (income - start) / (end - start)))


def federal_bpa(f: Figures, net_income: Fraction) -> Fraction:
    lost = share_crossed(net_income, f.fed["bpa_phaseout_start"], f.fed["bpa_phaseout_end"])
    return f.fed["basic_personal_amount"] - cents(f.fed["bpa_enhanced_additional_amount"] * lost)


def provincial_bpa(f: Figures, code: str, net_income: Fraction) -> Fraction:
    p = f.prov[code]
    if code == "MB":
        return cents(p["basic_personal_amount"] * (1 - share_crossed(net_income, p["bpa_phaseout_start"], p["bpa_phaseout_end"])))
    if code == "YT":
        # Yukon mirrors the federal rule over the federal thresholds (the CSV gives them once, under FED).
        lost = share_crossed(net_income, f.fed["bpa_phaseout_start"], f.fed["bpa_phaseout_end"])
        return p["basic_personal_amount"] - cents((p["basic_personal_amount"] - p["basic_personal_amount_min"]) * lost)
    return p["basic_personal_amount"]


def basic_federal_tax(f: Figures, income: Fraction, net_income: Fraction | None = None,
                      other_credits: Fraction = Fraction(0), dividend_credit: Fraction = Fraction(0)) -> Fraction:
    net = income if net_income is None else net_income
    credits = cents(f.fed["credit_rate"] * (federal_bpa(f, net) + other_credits))
    return max(Fraction(0), bracket_tax(f.brackets["FED"], income) - credits - dividend_credit)


def federal_tax(f: Figures, income: Fraction, code: str = "ON", **kw) -> Fraction:
    basic = basic_federal_tax(f, income, **kw)
    return basic - cents(f.fed["quebec_abatement_rate"] * basic) if code == "QC" else basic


def ontario_surtax(f: Figures, ontario_tax: Fraction) -> Fraction:
    return sum((cents(rate * max(Fraction(0), ontario_tax - threshold)) for threshold, rate in f.surtax), Fraction(0))


def ontario_health_premium(f: Figures, income: Fraction) -> Fraction:
    premium = Fraction(0)
    previous_cap = Fraction(0)
    for start, rate, cap in f.health_tiers:
        if income <= start:
            break
        premium = min(cap, previous_cap + cents(rate * (income - start)))
        previous_cap = cap
    return premium


def provincial_basic_tax(f: Figures, income: Fraction, code: str, net_income: Fraction | None = None,
                         other_credits: Fraction = Fraction(0)) -> Fraction:
    net = income if net_income is None else net_income
    credits = cents(f.prov[code]["credit_rate"] * (provincial_bpa(f, code, net) + other_credits))
    return max(Fraction(0), bracket_tax(f.brackets[code], income) - credits)


def provincial_tax(f: Figures, income: Fraction, code: str, net_income: Fraction | None = None,
                   other_credits: Fraction = Fraction(0)) -> Fraction:
    basic = provincial_basic_tax(f, income, code, net_income, other_credits)
    if code == "ON":
        return basic + ontario_surtax(f, basic) + ontario_health_premium(f, income)
    return basic


def combined_tax(f: Figures, income: Fraction, code: str = "ON", net_income: Fraction | None = None,
                 other_credits: Fraction = Fraction(0), dividend_credit: Fraction = Fraction(0)) -> Fraction:
    return (federal_tax(f, income, code, net_income=net_income, other_credits=other_credits, dividend_credit=dividend_credit)
            + provincial_tax(f, income, code, net_income, other_credits))


def combined_marginal_rate(f: Figures, income: Fraction, code: str = "ON") -> Fraction:
    """The combined tax on the next $100, divided by $100."""
    return (combined_tax(f, income + 100, code) - combined_tax(f, income, code)) / 100


def tax_on_extra_income(f: Figures, extra: Fraction, income: Fraction, code: str = "ON") -> Fraction:
    return combined_tax(f, income + extra, code) - combined_tax(f, income, code)


# ----------------------------------------------------------------------------------------------------------
# rrsp.tax, employment.tax, investment.tax, oas.tax


def rrsp_limit(f: Figures, earned: Fraction, pension_adjustment: Fraction = Fraction(0), unused: Fraction = Fraction(0)) -> Fraction:
    new_room = min(cents(f.fed["rrsp_earned_income_rate"] * earned), f.fed["rrsp_dollar_limit"])
    return unused + max(Fraction(0), new_room - pension_adjustment)


def rrsp_refund(f: Figures, contribution: Fraction, income: Fraction, code: str = "ON") -> Fraction:
    return combined_tax(f, income, code) - combined_tax(f, max(Fraction(0), income - contribution), code)


def cpp(f: Figures, earnings: Fraction) -> Fraction:
    pensionable = max(Fraction(0), min(earnings, f.fed["cpp_ympe"]) - f.fed["cpp_basic_exemption"])
    return min(cents(f.fed["cpp_rate_employee"] * pensionable), f.fed["cpp_max_employee_contribution"])


def cpp2(f: Figures, earnings: Fraction) -> Fraction:
    band = max(Fraction(0), min(earnings, f.fed["cpp_yampe"]) - f.fed["cpp_ympe"])
    return min(cents(f.fed["cpp2_rate_employee"] * band), f.fed["cpp2_max_employee_contribution"])


def ei(f: Figures, earnings: Fraction, code: str = "ON") -> Fraction:
    insurable = min(earnings, f.fed["ei_max_insurable_earnings"])
    if code == "QC":
        return min(cents(f.fed["ei_rate_employee_qc"] * insurable), f.fed["ei_max_employee_premium_qc"])
    return min(cents(f.fed["ei_rate_employee"] * insurable), f.fed["ei_max_employee_premium"])


def take_home_pay(f: Figures, salary: Fraction, code: str = "ON") -> Fraction:
    c, c2, e = cpp(f, salary), cpp2(f, salary), ei(f, salary, code)
    return salary - c - c2 - e - combined_tax(f, salary - c2, code, other_credits=c + e)


def taxable_dividend(f: Figures, dividend: Fraction, eligible: bool = True) -> Fraction:
    grossup = f.fed["dividend_grossup_eligible" if eligible else "dividend_grossup_noneligible"]
    return cents(dividend + dividend * grossup)


def federal_dtc(f: Figures, dividend: Fraction, eligible: bool = True) -> Fraction:
    rate = f.fed["dtc_eligible" if eligible else "dtc_noneligible"]
    return cents(rate * taxable_dividend(f, dividend, eligible))


def dividend_tax(f: Figures, dividend: Fraction, other: Fraction, code: str = "ON", eligible: bool = True) -> Fraction:
    taxable = taxable_dividend(f, dividend, eligible)
    with_dividend = combined_tax(f, other + taxable, code, dividend_credit=federal_dtc(f, dividend, eligible))
    return with_dividend - combined_tax(f, other, code)


def foreign_tax_credit(f: Figures, foreign: Fraction, paid: Fraction, other: Fraction, code: str = "ON") -> Fraction:
    income = other + foreign
    share = Fraction(foreign) / income if income > 0 else Fraction(0)
    federal_credit = min(paid, cents(basic_federal_tax(f, income) * share))
    premium = ontario_health_premium(f, income) if code == "ON" else Fraction(0)
    provincial_limit = cents((provincial_tax(f, income, code) - premium) * share)
    return federal_credit + min(paid - federal_credit, provincial_limit)


def foreign_income_tax(f: Figures, foreign: Fraction, paid: Fraction, other: Fraction, code: str = "ON") -> Fraction:
    extra = tax_on_extra_income(f, foreign, other, code)
    return max(Fraction(0), extra - foreign_tax_credit(f, foreign, paid, other, code))


def capital_gains_tax(f: Figures, gain: Fraction, other: Fraction, code: str = "ON") -> Fraction:
    return tax_on_extra_income(f, cents(f.fed["capital_gains_inclusion_rate"] * gain), other, code)


def oas_recovery_tax(f: Figures, net_income: Fraction, age: int = 65, received: Fraction | None = None) -> Fraction:
    if received is None:
        monthly = f.fed["oas_max_monthly_75_plus_q1" if age >= 75 else "oas_max_monthly_65_74_q1"]
        received = 12 * monthly
    excess = max(Fraction(0), net_income - f.fed["oas_recovery_threshold"])
    return min(received, cents(f.fed["oas_recovery_rate"] * excess))


def money_text(x: Fraction) -> str:
    """`$1,234.56`, as TaxPro prints money."""
    c = cents(x)
    sign = "-" if c < 0 else ""
    hundredths = abs(c.numerator * 100 // c.denominator)
    return f"{sign}${hundredths // 100:,}.{hundredths % 100:02d}"


def main(argv: list[str]) -> int:
    """`formulas_reference.py YEAR 'EXPRESSION'`: evaluates a Python expression over these functions, with `f`
    the year's figures and plain numbers read as exact fractions (`combined_tax(f, 85000, "ON")`)."""
    if len(argv) != 2:
        print(__doc__)
        return 2
    year, expression = argv
    scope = dict(globals(), f=load(year))
    result = eval(expression, scope)  # a developer's calculator, never fed untrusted input
    print(money_text(Fraction(result)) if not isinstance(result, bool) else result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
