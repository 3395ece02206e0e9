#!/usr/bin/env python3
"""Independent reference for the standard library's formulas (income_tax.tax, credits.tax, return.tax, …).

It reads the verified CSV directly (never the .tax files) and re-implements each formula with Python's
`fractions`, rounding the way TaxPro's money does: every operation whose result is an amount of money is
rounded to the cent, half away from zero, and a bracket sum is computed exactly and rounded once.

The CLI tests (tests/cli/test_formulas_cross_check.py and test_return_cross_check.py) compare `taxpro eval` with
these functions over grids of incomes, households, provinces and both years; test_formulas_reference.py checks them
against figures worked by hand.

Usage, to print one figure:
    python3 tests/library/formulas_reference.py 2025 'combined_tax(f, 85000, "ON")'
    python3 tests/library/formulas_reference.py 2025 'tax_return(f, Household(employment_income=85000))["balance"]'

Python 3.11, standard library only.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import brackets_reference as br  # noqa: E402

CENT = Fraction(1, 100)
ZERO = Fraction(0)


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
    """One year's figures: `fed[name]`, `prov[code][name]`, bracket tables, health-premium tiers, surtax.

    Quarterly federal figures are `fed[name + "_q1"]` … `_q4`; a credit rate with a threshold column (the federal
    top-up, Alberta's supplemental credit) also gives `…_threshold`."""

    year: str
    fed: dict[str, Fraction]
    prov: dict[str, dict[str, Fraction]]
    brackets: dict[str, list[tuple[Fraction, Fraction]]]
    proposed_brackets: dict[str, list[tuple[Fraction, Fraction]]]
    health_tiers: list[tuple[Fraction, Fraction, Fraction]]  # (start, rate, cap)
    surtax: list[tuple[Fraction, Fraction]]  # (threshold, rate)


def load(year: str, rows: list[dict[str, str]] | None = None) -> Figures:
    rows = rows if rows is not None else br.read_rows(br.csv_path())
    fed: dict[str, Fraction] = {}
    prov: dict[str, dict[str, Fraction]] = {}
    tables: dict[str, dict[str, list]] = {"bracket": {}, "bracket_proposed": {}}
    rates: dict[int, tuple[Fraction, Fraction]] = {}
    caps: dict[int, Fraction] = {}
    surtax: dict[int, tuple[Fraction, Fraction]] = {}
    for r in rows:
        if r["year"] != year:
            continue
        code, name = r["jurisdiction"], r["parameter"]
        if name in tables:
            tables[name].setdefault(code, []).append((int(r["index"]), fr(r["threshold"]), fr(r["value"])))
        elif code == "ON" and name == "health_premium_tier_rate":
            rates[int(r["index"])] = (fr(r["threshold"]), fr(r["value"]))
        elif code == "ON" and name == "health_premium_tier_max":
            caps[int(r["index"])] = fr(r["value"])
        elif code == "ON" and name == "surtax":
            surtax[int(r["index"])] = (fr(r["threshold"]), fr(r["value"]))
        elif r["index"] == "":
            target = fed if code == "FED" else prov.setdefault(code, {})
            target[name] = fr(r["value"])
            if r["threshold"] and name in ("supplemental_credit_rate", "nrtc_topup_rate"):
                # The rate's threshold column: the credit amounts above which it applies.
                target[name.removesuffix("_rate") + "_threshold"] = fr(r["threshold"])
        elif code == "FED":
            fed[f"{name}_q{r['index']}"] = fr(r["value"])  # quarterly OAS maximums
    def ordered(found):
        return {code: [(t, rate) for _, t, rate in sorted(items)] for code, items in found.items()}
    tiers = [(rates[i][0], rates[i][1], caps[i]) for i in sorted(rates)]
    return Figures(year, fed, prov, ordered(tables["bracket"]), ordered(tables["bracket_proposed"]), tiers,
                   [surtax[i] for i in sorted(surtax)])


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
    """0 at or below start, 1 at or above end (a band with end == start is a cliff), in proportion between."""
    if income <= start:
        return ZERO
    if income >= end:
        return Fraction(1)
    return (income - start) / (end - start)


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


def federal_age_amount(f: Figures, net_income: Fraction, age: int) -> Fraction:
    if age < 65:
        return ZERO
    reduction = cents(f.fed["age_amount_reduction_rate"] * max(ZERO, net_income - f.fed["age_amount_threshold"]))
    return max(ZERO, f.fed["age_amount"] - reduction)


def federal_pension_amount(f: Figures, pension_income: Fraction) -> Fraction:
    return min(pension_income, f.fed["pension_income_amount"])


def employment_amount(f: Figures, employment_income: Fraction) -> Fraction:
    return min(employment_income, f.fed["canada_employment_amount"])


def topup_credit(f: Figures, amounts: Fraction) -> Fraction:
    """Line 34990: the difference between the 15% top-up rate and the credit rate on amounts above the threshold."""
    rate = f.fed["nrtc_topup_rate"] - f.fed["credit_rate"]
    return cents(rate * max(ZERO, amounts - f.fed["nrtc_topup_threshold"]))


def federal_credits(f: Figures, net_income: Fraction, other_credits: Fraction = ZERO) -> Fraction:
    amounts = federal_bpa(f, net_income) + other_credits
    return cents(f.fed["credit_rate"] * amounts) + topup_credit(f, amounts)


def basic_federal_tax(f: Figures, income: Fraction, net_income: Fraction | None = None,
                      other_credits: Fraction = ZERO, dividend_credit: Fraction = ZERO) -> Fraction:
    net = income if net_income is None else net_income
    credits = federal_credits(f, net, other_credits)
    return max(ZERO, bracket_tax(f.brackets["FED"], income) - credits - dividend_credit)


def federal_tax(f: Figures, income: Fraction, code: str = "ON", **kw) -> Fraction:
    basic = basic_federal_tax(f, income, **kw)
    return basic - cents(f.fed["quebec_abatement_rate"] * basic) if code == "QC" else basic


def ontario_surtax(f: Figures, ontario_tax: Fraction) -> Fraction:
    return sum((cents(rate * max(ZERO, ontario_tax - threshold)) for threshold, rate in f.surtax), ZERO)


def ontario_health_premium(f: Figures, income: Fraction) -> Fraction:
    premium = ZERO
    previous_cap = ZERO
    for start, rate, cap in f.health_tiers:
        if income <= start:
            break
        premium = min(cap, previous_cap + cents(rate * (income - start)))
        previous_cap = cap
    return premium


def reduced_amount(amount: Fraction, income: Fraction, threshold: Fraction, rate: Fraction) -> Fraction:
    """The amount less `rate` of the income above the threshold (rounded to the cent), not below zero."""
    return max(ZERO, amount - cents(rate * max(ZERO, income - threshold)))


def provincial_age_amount(f: Figures, net_income: Fraction, age: int, code: str) -> Fraction:
    """Line 58080 of Form 428 (for Quebec: the TP-1's age amount, reduced alone)."""
    if age < 65:
        return ZERO
    p = f.prov[code]
    return reduced_amount(p["age_amount"], net_income, p["age_amount_threshold"], p["age_amount_reduction_rate"])


def provincial_pension_amount(f: Figures, pension_income: Fraction, code: str) -> Fraction:
    return min(pension_income, f.prov[code]["pension_income_amount"])


def senior_supplementary_amount(f: Figures, age: int, code: str) -> Fraction:
    return f.prov["SK"]["senior_supplementary_amount"] if code == "SK" and age >= 65 else ZERO


def manitoba_family_tax_benefit(f: Figures, net_income: Fraction, age: int) -> Fraction:
    mb = f.prov["MB"]
    amounts = mb["family_tax_benefit_basic"] + (mb["family_tax_benefit_age"] if age >= 65 else ZERO)
    return max(ZERO, amounts - cents(mb["family_tax_benefit_rate"] * net_income))


def provincial_personal_amounts(f: Figures, net_income: Fraction, age: int, pension_income: Fraction,
                                code: str) -> Fraction:
    """The age-, pension- and income-tested credit amounts of the province's form (the TP-1's for Quebec)."""
    if code == "QC":
        return quebec_senior_amounts(f, net_income, age, pension_income)
    total = (provincial_age_amount(f, net_income, age, code) + provincial_pension_amount(f, pension_income, code)
             + senior_supplementary_amount(f, age, code))
    if code == "MB":
        total += manitoba_family_tax_benefit(f, net_income, age)
    return total


def provincial_credits(f: Figures, net_income: Fraction, code: str, other_credits: Fraction = ZERO,
                       proposed: bool = False) -> Fraction:
    p = f.prov[code]
    amounts = provincial_bpa(f, code, net_income) + other_credits
    # The proposal's credit rate is its lowest bracket rate (the CSV's bracket_rate_proposed row repeats it).
    rate = f.proposed_brackets["BC"][0][1] if proposed and code == "BC" else p["credit_rate"]
    credits = cents(rate * amounts)
    if code == "AB":
        credits += cents(p["supplemental_credit_rate"] * max(ZERO, amounts - p["supplemental_credit_threshold"]))
    return credits


def provincial_reduction(f: Figures, tax: Fraction, net_income: Fraction, code: str) -> Fraction:
    """The Ontario tax reduction, the BC tax reduction credit and the low-income tax reductions of Nova Scotia, New
    Brunswick, Newfoundland and Labrador and Prince Edward Island."""
    p = f.prov[code]
    if code == "ON":
        available = max(ZERO, 2 * p["tax_reduction_basic"] - tax)
    elif code == "BC":
        available = max(ZERO, p["tax_reduction_maximum"]
                        - cents(p["tax_reduction_rate"] * max(ZERO, net_income - p["tax_reduction_threshold"])))
    elif code in ("NS", "NB", "NL", "PE"):
        available = reduced_amount(p["low_income_reduction_maximum"], net_income, p["low_income_reduction_threshold"],
                                   p["low_income_reduction_rate"])
    else:
        available = ZERO
    return min(tax, available)


def ontario_lift(f: Figures, employment_income: Fraction, net_income: Fraction) -> Fraction:
    on = f.prov["ON"]
    earned = min(cents(on["lift_employment_rate"] * employment_income), on["lift_maximum"])
    reduction = cents(on["lift_reduction_rate"] * max(ZERO, net_income - on["lift_threshold"]))
    return max(ZERO, earned - reduction)


def provincial_tax(f: Figures, income: Fraction, code: str, net_income: Fraction | None = None,
                   other_credits: Fraction = ZERO, dividend_credit: Fraction = ZERO,
                   employment_income: Fraction = ZERO, proposed: bool = False, age: int = 40,
                   pension_income: Fraction = ZERO) -> Fraction:
    net = income if net_income is None else net_income
    table = f.proposed_brackets["BC"] if proposed and code == "BC" else f.brackets[code]
    amounts = other_credits + provincial_personal_amounts(f, net, age, pension_income, code)
    basic = max(ZERO, bracket_tax(table, income) - provincial_credits(f, net, code, amounts, proposed))
    surtax = ontario_surtax(f, basic) if code == "ON" else ZERO
    after_dividend_credit = max(ZERO, basic + surtax - dividend_credit)
    reduction = provincial_reduction(f, after_dividend_credit, net, code)
    lift = ontario_lift(f, employment_income, net) if code == "ON" else ZERO
    premium = ontario_health_premium(f, income) if code == "ON" else ZERO
    return max(ZERO, after_dividend_credit - reduction - lift) + premium


def combined_tax(f: Figures, income: Fraction, code: str = "ON", net_income: Fraction | None = None,
                 other_credits: Fraction = ZERO, dividend_credit: Fraction = ZERO,
                 provincial_dividend_credit: Fraction = ZERO, proposed: bool = False, age: int = 40,
                 pension_income: Fraction = ZERO) -> Fraction:
    net = income if net_income is None else net_income
    federal_amounts = other_credits + federal_age_amount(f, net, age) + federal_pension_amount(f, pension_income)
    return (federal_tax(f, income, code, net_income=net_income, other_credits=federal_amounts,
                        dividend_credit=dividend_credit)
            + provincial_tax(f, income, code, net_income, other_credits, provincial_dividend_credit, proposed=proposed,
                             age=age, pension_income=pension_income))


def combined_marginal_rate(f: Figures, income: Fraction, code: str = "ON") -> Fraction:
    """The combined tax on the next $100, divided by $100."""
    return (combined_tax(f, income + 100, code) - combined_tax(f, income, code)) / 100


def tax_on_extra_income(f: Figures, extra: Fraction, income: Fraction, code: str = "ON") -> Fraction:
    return combined_tax(f, income + extra, code) - combined_tax(f, income, code)


# ----------------------------------------------------------------------------------------------------------
# rrsp.tax, employment.tax, investment.tax, oas.tax


def rrsp_limit(f: Figures, earned: Fraction, pension_adjustment: Fraction = ZERO, unused: Fraction = ZERO) -> Fraction:
    new_room = min(cents(f.fed["rrsp_earned_income_rate"] * earned), f.fed["rrsp_dollar_limit"])
    return unused + max(ZERO, new_room - pension_adjustment)


def rrsp_refund(f: Figures, contribution: Fraction, income: Fraction, code: str = "ON") -> Fraction:
    return combined_tax(f, income, code) - combined_tax(f, max(ZERO, income - contribution), code)


def pensionable(f: Figures, earnings: Fraction) -> Fraction:
    return max(ZERO, min(earnings, f.fed["cpp_ympe"]) - f.fed["cpp_basic_exemption"])


def second_band(f: Figures, earnings: Fraction) -> Fraction:
    return max(ZERO, min(earnings, f.fed["cpp_yampe"]) - f.fed["cpp_ympe"])


def cpp(f: Figures, earnings: Fraction) -> Fraction:
    return min(cents(f.fed["cpp_rate_employee"] * pensionable(f, earnings)), f.fed["cpp_max_employee_contribution"])


def cpp_base(f: Figures, earnings: Fraction) -> Fraction:
    return cents(f.fed["cpp_base_rate_employee"] * pensionable(f, earnings))


def cpp2(f: Figures, earnings: Fraction) -> Fraction:
    return min(cents(f.fed["cpp2_rate_employee"] * second_band(f, earnings)), f.fed["cpp2_max_employee_contribution"])


def qpp(f: Figures, earnings: Fraction) -> Fraction:
    qc = f.prov["QC"]
    return cents((qc["qpp_base_rate_employee"] + qc["qpp_first_additional_rate_employee"]) * pensionable(f, earnings))


def qpp_base(f: Figures, earnings: Fraction) -> Fraction:
    return cents(f.prov["QC"]["qpp_base_rate_employee"] * pensionable(f, earnings))


def qpp2(f: Figures, earnings: Fraction) -> Fraction:
    return cents(f.prov["QC"]["qpp2_rate_employee"] * second_band(f, earnings))


def pension_contribution(f: Figures, earnings: Fraction, code: str) -> Fraction:
    return qpp(f, earnings) if code == "QC" else cpp(f, earnings)


def pension2_contribution(f: Figures, earnings: Fraction, code: str) -> Fraction:
    return qpp2(f, earnings) if code == "QC" else cpp2(f, earnings)


def base_contribution(f: Figures, earnings: Fraction, code: str) -> Fraction:
    return qpp_base(f, earnings) if code == "QC" else cpp_base(f, earnings)


def enhanced_deduction(f: Figures, earnings: Fraction, code: str) -> Fraction:
    """Line 22215: the first additional part (contribution − base) plus CPP2 or QPP2."""
    return (pension_contribution(f, earnings, code) - base_contribution(f, earnings, code)
            + pension2_contribution(f, earnings, code))


def ei(f: Figures, earnings: Fraction, code: str = "ON") -> Fraction:
    insurable = min(earnings, f.fed["ei_max_insurable_earnings"])
    if code == "QC":
        return min(cents(f.fed["ei_rate_employee_qc"] * insurable), f.fed["ei_max_employee_premium_qc"])
    return min(cents(f.fed["ei_rate_employee"] * insurable), f.fed["ei_max_employee_premium"])


def qpip(f: Figures, earnings: Fraction, code: str = "QC") -> Fraction:
    if code != "QC":
        return ZERO
    qc = f.prov["QC"]
    return cents(qc["qpip_rate_employee"] * min(earnings, qc["qpip_max_insurable_earnings"]))


def payroll_deductions(f: Figures, salary: Fraction, code: str = "ON") -> Fraction:
    return (pension_contribution(f, salary, code) + pension2_contribution(f, salary, code) + ei(f, salary, code)
            + qpip(f, salary, code))


def take_home_pay(f: Figures, salary: Fraction, code: str = "ON", proposed: bool = False) -> Fraction:
    lines = tax_return(f, Household(employment_income=salary, province=code, proposed=proposed))
    return salary - payroll_deductions(f, salary, code) - lines["income_tax"]


def taxable_dividend(f: Figures, dividend: Fraction, eligible: bool = True) -> Fraction:
    grossup = f.fed["dividend_grossup_eligible" if eligible else "dividend_grossup_noneligible"]
    return cents(dividend + dividend * grossup)


def federal_dtc(f: Figures, dividend: Fraction, eligible: bool = True) -> Fraction:
    rate = f.fed["dtc_eligible" if eligible else "dtc_noneligible"]
    return cents(rate * taxable_dividend(f, dividend, eligible))


def provincial_dtc(f: Figures, dividend: Fraction, code: str = "ON", eligible: bool = True) -> Fraction:
    rate = f.prov[code]["dtc_eligible" if eligible else "dtc_noneligible"]
    return cents(rate * taxable_dividend(f, dividend, eligible))


def dividend_tax(f: Figures, dividend: Fraction, other: Fraction, code: str = "ON", eligible: bool = True) -> Fraction:
    taxable = taxable_dividend(f, dividend, eligible)
    with_dividend = combined_tax(f, other + taxable, code, dividend_credit=federal_dtc(f, dividend, eligible),
                                 provincial_dividend_credit=provincial_dtc(f, dividend, code, eligible))
    return with_dividend - combined_tax(f, other, code)


def foreign_tax_credit(f: Figures, foreign: Fraction, paid: Fraction, other: Fraction, code: str = "ON") -> Fraction:
    creditable = min(paid, cents(f.fed["foreign_property_tax_credit_limit"] * foreign))
    net_foreign = max(ZERO, foreign - (paid - creditable))
    income = other + net_foreign
    share = Fraction(net_foreign) / income if income > 0 else ZERO
    federal_credit = min(creditable, cents(basic_federal_tax(f, income) * share))
    premium = ontario_health_premium(f, income) if code == "ON" else ZERO
    provincial_limit = cents((provincial_tax(f, income, code) - premium) * share)
    return federal_credit + min(creditable - federal_credit, provincial_limit)


def foreign_income_tax(f: Figures, foreign: Fraction, paid: Fraction, other: Fraction, code: str = "ON") -> Fraction:
    deducted = max(ZERO, paid - cents(f.fed["foreign_property_tax_credit_limit"] * foreign))
    extra = tax_on_extra_income(f, max(ZERO, foreign - deducted), other, code)
    return max(ZERO, extra - foreign_tax_credit(f, foreign, paid, other, code))


def capital_gains_tax(f: Figures, gain: Fraction, other: Fraction, code: str = "ON") -> Fraction:
    return tax_on_extra_income(f, cents(f.fed["capital_gains_inclusion_rate"] * gain), other, code)


def oas_maximum_pension(f: Figures, age: int = 65) -> Fraction:
    group = "oas_max_monthly_75_plus" if age >= 75 else "oas_max_monthly_65_74"
    return 3 * sum((f.fed[f"{group}_q{q}"] for q in (1, 2, 3, 4)), ZERO)


def oas_recovery_tax(f: Figures, net_income: Fraction, age: int = 65, received: Fraction | None = None) -> Fraction:
    if received is None:
        received = oas_maximum_pension(f, age)
    excess = max(ZERO, net_income - f.fed["oas_recovery_threshold"])
    return min(received, cents(f.fed["oas_recovery_rate"] * excess))


# ----------------------------------------------------------------------------------------------------------
# return.tax: the Quebec return's parts and the whole return


def quebec_senior_amounts(f: Figures, net_income: Fraction, age: int, retirement_income: Fraction) -> Fraction:
    qc = f.prov["QC"]
    age_part = qc["age_amount"] if age >= 65 else ZERO
    retirement_part = min(retirement_income, qc["pension_income_amount"])
    return reduced_amount(age_part + retirement_part, net_income, qc["age_amount_threshold"],
                          qc["age_amount_reduction_rate"])


def quebec_deduction_for_workers(f: Figures, employment_income: Fraction) -> Fraction:
    """TP-1 line 201: a share of employment income, up to a maximum; deducted on the Quebec return only."""
    qc = f.prov["QC"]
    return min(cents(qc["workers_deduction_rate"] * employment_income), qc["workers_deduction_maximum"])


def quebec_income_tax(f: Figures, income: Fraction, net_income: Fraction, age: int, retirement_income: Fraction,
                      dividend_credit: Fraction) -> Fraction:
    qc = f.prov["QC"]
    credits = cents(qc["credit_rate"] * (qc["basic_personal_amount"]
                                         + quebec_senior_amounts(f, net_income, age, retirement_income)))
    return max(ZERO, bracket_tax(f.brackets["QC"], income) - credits - dividend_credit)


@dataclass
class Household:
    """The inputs of `return_summary`, with its defaults."""

    employment_income: Fraction = ZERO
    province: str = "ON"
    interest: Fraction = ZERO
    eligible_dividends: Fraction = ZERO
    other_dividends: Fraction = ZERO
    capital_gains: Fraction = ZERO
    rrsp_deduction: Fraction = ZERO
    age: int = 40
    pension_income: Fraction = ZERO
    oas_pension: Fraction | None = None  # the year's maximum from 65 when not given
    tax_deducted: Fraction = ZERO
    proposed: bool = False


RETURN_LINES = ("balance", "total_income", "net_income", "taxable_income", "federal_tax", "quebec_abatement",
                "provincial_tax", "cpp_qpp_contributions", "ei_premiums", "qpip_premiums", "oas_recovery",
                "income_tax", "total_payable", "after_tax_income", "enhanced_contributions",
                "net_income_before_adjustments", "quebec_workers_deduction")


def tax_return(f: Figures, h: Household) -> dict[str, Fraction]:
    """Every line of `return_summary` for one household, computed the way the return does, from the CSV."""
    code, emp = h.province, Fraction(h.employment_income)
    oas = h.oas_pension if h.oas_pension is not None else (oas_maximum_pension(f, h.age) if h.age >= 65 else ZERO)
    out: dict[str, Fraction] = {}
    out["cpp_qpp_contributions"] = pension_contribution(f, emp, code) + pension2_contribution(f, emp, code)
    out["ei_premiums"] = ei(f, emp, code)
    out["qpip_premiums"] = qpip(f, emp, code)
    taxable_eligible = taxable_dividend(f, h.eligible_dividends, True)
    taxable_other = taxable_dividend(f, h.other_dividends, False)
    taxable_gains = cents(f.fed["capital_gains_inclusion_rate"] * h.capital_gains)
    total = emp + oas + h.pension_income + h.interest + taxable_eligible + taxable_other + taxable_gains
    out["total_income"] = total
    out["enhanced_contributions"] = enhanced_deduction(f, emp, code)
    before = max(ZERO, total - h.rrsp_deduction - out["enhanced_contributions"])
    out["net_income_before_adjustments"] = before
    recovery = min(oas, cents(f.fed["oas_recovery_rate"] * max(ZERO, before - f.fed["oas_recovery_threshold"])))
    out["oas_recovery"] = recovery
    net = before - recovery
    out["net_income"] = out["taxable_income"] = net
    base = base_contribution(f, emp, code)
    federal_amounts = (federal_age_amount(f, net, h.age) + base + out["ei_premiums"] + out["qpip_premiums"]
                       + employment_amount(f, emp) + federal_pension_amount(f, h.pension_income))
    federal_dividend = federal_dtc(f, h.eligible_dividends, True) + federal_dtc(f, h.other_dividends, False)
    out["federal_tax"] = basic_federal_tax(f, net, net, federal_amounts, federal_dividend)
    out["quebec_abatement"] = cents(f.fed["quebec_abatement_rate"] * out["federal_tax"]) if code == "QC" else ZERO
    provincial_dividend = provincial_dtc(f, h.eligible_dividends, code, True) + provincial_dtc(f, h.other_dividends, code, False)
    out["quebec_workers_deduction"] = quebec_deduction_for_workers(f, emp) if code == "QC" else ZERO
    if code == "QC":
        quebec_net = max(ZERO, net - out["quebec_workers_deduction"])
        out["provincial_tax"] = quebec_income_tax(f, quebec_net, quebec_net, h.age, h.pension_income,
                                                  provincial_dividend)
    else:
        provincial_amounts = base + out["ei_premiums"] + (employment_amount(f, emp) if code == "YT" else ZERO)
        out["provincial_tax"] = provincial_tax(f, net, code, net, provincial_amounts, provincial_dividend, emp, h.proposed,
                                               age=h.age, pension_income=h.pension_income)
    out["income_tax"] = out["federal_tax"] - out["quebec_abatement"] + out["provincial_tax"]
    out["total_payable"] = out["federal_tax"] + out["provincial_tax"] + recovery
    out["balance"] = out["total_payable"] - out["quebec_abatement"] - h.tax_deducted
    cash = emp + oas + h.pension_income + h.interest + h.eligible_dividends + h.other_dividends + h.capital_gains
    out["after_tax_income"] = (cash - out["cpp_qpp_contributions"] - out["ei_premiums"] - out["qpip_premiums"]
                               - out["income_tax"] - recovery)
    assert set(out) == set(RETURN_LINES), set(out) ^ set(RETURN_LINES)
    return out


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
