"""`taxpro chart`: the parts of a result as shares of a whole.

The terminal rendering at 80 columns, with and without colour, is a golden file (tests/cli/chart/, rewritten by
TAXPRO_UPDATE_GOLDEN=1); besides it, every figure the chart shows is checked against the independent Python
implementation (tests/library/formulas_reference.py) or against `taxpro eval` of the part alone, and the SVG is parsed
as XML: one slice per part, labels and amounts equal to the parts, shares adding up to 100% within rounding.
"""

from __future__ import annotations

import os
import re
import subprocess
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest

import formulas_reference as ref

GOLDEN = Path(__file__).resolve().parent / "chart"
UPDATE = bool(os.environ.get("TAXPRO_UPDATE_GOLDEN"))
SVG = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
ROW = re.compile(r"^(?P<label>.+?)\s+(?P<amount>-?\$[\d,]+\.\d\d)\s+(?P<share>\d+\.\d)%\s*(?P<bar>.*)$")


def chart(taxpro, *arguments, columns=80, color=False, cwd=None):
    environment = dict(os.environ, COLUMNS=str(columns))
    environment.pop("NO_COLOR", None)
    if not color:
        environment["NO_COLOR"] = "1"
    return subprocess.run(
        [taxpro.path, "chart", *arguments, *(["--color"] if color else [])], capture_output=True, text=True,
        timeout=120, env=environment, cwd=cwd)


def money(text: str) -> Decimal:
    return Decimal(text.replace("$", "").replace(",", ""))


def rows(output: str) -> list[dict]:
    """The part rows of a terminal chart (the title line and the whole's row left out)."""
    found = []
    for line in ANSI.sub("", output).splitlines()[1:]:
        match = ROW.match(line)
        if match:
            found.append(match.groupdict())
    return found


def check_golden(name: str, text: str):
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with TAXPRO_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


TAKE_HOME = "take_home_pay($85,000, ON)"


RETURN = "return_summary(employment_income: $85,000)"


@pytest.mark.parametrize("color", [False, True], ids=["no-color", "color"])
@pytest.mark.parametrize("name, expression", [("take_home_pay", TAKE_HOME), ("return_summary", RETURN)])
def test_the_chart_at_80_columns_is_the_golden_rendering(taxpro, name, expression, color):
    result = chart(taxpro, expression, "--year", "2025", color=color)
    assert result.returncode == 0, result.stderr
    check_golden(f"{name}_color.txt" if color else f"{name}.txt", result.stdout)
    lines = result.stdout.splitlines()
    assert all(len(ANSI.sub("", line)) <= 80 for line in lines)
    assert ("\x1b[" in result.stdout) == color


def test_take_home_pay_parts_are_the_independent_figures(taxpro):
    figures = ref.load("2025")
    salary = ref.Fraction(85000)
    expected = {
        "CPP or QPP": ref.pension_contribution(figures, salary, "ON"),
        "CPP2 or QPP2": ref.pension2_contribution(figures, salary, "ON"),
        "EI premiums": ref.ei(figures, salary, "ON"),
        "Income tax": ref.tax_return(figures, ref.Household(employment_income=salary, province="ON"))["income_tax"],
        "Take-home pay": ref.take_home_pay(figures, salary, "ON"),
    }
    result = chart(taxpro, TAKE_HOME, "--year", "2025")
    assert result.returncode == 0, result.stderr
    parts = rows(result.stdout)
    whole = parts.pop()
    assert whole["label"].startswith("Gross employment income")
    assert money(whole["amount"]) == 85000 and whole["share"] == "100.0"
    assert {part["label"]: money(part["amount"]) for part in parts} == {
        label: Decimal(value.numerator) / value.denominator for label, value in expected.items()}
    amounts = [money(part["amount"]) for part in parts]
    assert amounts == sorted(amounts, reverse=True), "largest first"
    for part in parts:
        assert abs(Decimal(part["share"]) - money(part["amount"]) / 850) <= Decimal("0.05")
    # Without colour each part has its own glyph, and the whole's bar is made of them, as wide as the others allow.
    glyphs = [set(part["bar"]) for part in parts]
    assert all(len(glyph) == 1 for glyph in glyphs) and len(set.union(*glyphs)) == len(parts)
    assert set(whole["bar"]) <= set.union(*glyphs)


@pytest.mark.parametrize("household", [
    {"employment_income": 85000, "province": "ON"},
    {"employment_income": 60000, "province": "QC"},
    {"age": 72, "pension_income": 120000, "other_dividends": 8000, "capital_gains": 20000, "province": "BC"},
], ids=["ON-salary", "QC-salary", "BC-pensioner"])
def test_the_return_summarys_parts_are_the_independent_return_lines(taxpro, household):
    figures = ref.load("2025")
    arguments = ", ".join(f"{name}: {value if name in ('age', 'province') else f'${value:,}'}"
                          for name, value in household.items())
    amounts = {name: ref.Fraction(value) if name not in ("age", "province") else value
               for name, value in household.items()}
    lines = ref.tax_return(figures, ref.Household(**amounts))
    received = sum((amounts.get(name, ref.ZERO) for name in (
        "employment_income", "pension_income", "interest", "eligible_dividends", "other_dividends", "capital_gains")),
        ref.ZERO) + (ref.oas_maximum_pension(figures, amounts["age"]) if amounts.get("age", 40) >= 65 else ref.ZERO)
    expected = {
        "After-tax income": lines["after_tax_income"],
        "Federal tax": lines["federal_tax"] - lines["quebec_abatement"],
        "Provincial tax": lines["provincial_tax"],
        "CPP or QPP": lines["cpp_qpp_contributions"],
        "EI premiums": lines["ei_premiums"],
        "QPIP premiums": lines["qpip_premiums"],
        "OAS recovery": lines["oas_recovery"],
    }
    result = chart(taxpro, f"return_summary({arguments})", "--year", "2025")
    assert result.returncode == 0, result.stderr
    parts = rows(result.stdout)
    whole = parts.pop()
    assert whole["label"] == "Income received" and money(whole["amount"]) == received
    # Parts of $0.00 (no QPIP outside Quebec, no clawback under the threshold) are left out.
    assert {part["label"]: money(part["amount"]) for part in parts} == {
        label: Decimal(value.numerator) / value.denominator for label, value in expected.items() if value != 0}


def test_a_parts_line_that_does_not_add_up_is_a_diagnostic(taxpro, tmp_path):
    (tmp_path / "mine.tax").write_text(
        USER_FORMULA.replace("## Household spending in a month.", "## Household spending in a month.\n"
                             "## parts: pay = rent + groceries"), encoding="utf-8")
    result = chart(taxpro, "spending($4,000)", "mine.tax", cwd=tmp_path)
    assert result.returncode == 1
    assert ("error[chart-parts]: the parts that spending's documentation names add up to $2,650.50, which is not "
            "Net pay for the month ($4,000.00)") in result.stderr, result.stderr
    assert "mine.tax:8:7" in result.stderr and "mine.tax:9:7" in result.stderr, "a note points at each part"


def test_terminal_width_follows_columns(taxpro):
    for columns in (60, 120):
        result = chart(taxpro, TAKE_HOME, columns=columns)
        assert result.returncode == 0, result.stderr
        lengths = [len(line) for line in result.stdout.splitlines()]
        assert max(lengths) <= columns
        assert lengths[-1] == columns, "the whole's stacked bar fills the line"


def svg_parts(path: Path):
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    slices = [element for element in root.iter() if element.get("class") == "slice"]
    return root, slices


@pytest.mark.parametrize("shape", [[], ["--bars"]], ids=["donut", "bars"])
def test_svg_slices_are_the_parts(taxpro, tmp_path, shape):
    terminal = rows(chart(taxpro, TAKE_HOME, "--year", "2025").stdout)[:-1]
    path = tmp_path / "chart.svg"
    result = chart(taxpro, TAKE_HOME, "--year", "2025", "--svg", str(path), *shape)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    root, slices = svg_parts(path)
    assert len(slices) == len(terminal)
    assert [s.get("data-label") for s in slices] == [part["label"] for part in terminal]
    assert [s.get("data-amount") for s in slices] == [part["amount"] for part in terminal]
    shares = [Decimal(s.get("data-share").rstrip("%")) for s in slices]
    assert abs(sum(shares) - 100) <= Decimal("0.1") * len(shares)
    title = root.find(f"{SVG}title").text
    assert TAKE_HOME in title and "2025" in title
    description = root.find(f"{SVG}desc").text
    assert all(part["label"] in description and part["amount"] in description for part in terminal)
    legend = [entry.find(f"{SVG}text[@class='label']").text for entry in root.iter(f"{SVG}g")
              if entry.get("class") == "legend-entry"]
    assert legend == [part["label"] for part in terminal]
    assert len({s.get("fill") for s in slices}) == len(slices)


USER_FORMULA = """\
## Household spending in a month.
formula spending(
  ## Net pay for the month.
  pay: Money
): Money =
  ## Rent and utilities.
  let rent = $2,000
  let groceries = $650.50
  pay - rent - groceries
"""


def test_a_users_formula_in_a_file_works_the_same(taxpro, tmp_path):
    (tmp_path / "mine.tax").write_text(USER_FORMULA, encoding="utf-8")
    result = chart(taxpro, "spending($4,000)", "mine.tax", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    parts = {part["label"]: money(part["amount"]) for part in rows(result.stdout)}
    assert parts == {"Rent and utilities": 2000, "Groceries": Decimal("650.50"),
                     "Household spending in a month": Decimal("1349.50"), "Net pay for the month": 4000}


def test_parts_that_do_not_add_up_are_a_diagnostic_with_a_span(taxpro, tmp_path):
    (tmp_path / "mine.tax").write_text(USER_FORMULA.replace("pay - rent - groceries", "pay - rent"), encoding="utf-8")
    result = chart(taxpro, "spending($4,000)", "mine.tax", cwd=tmp_path)
    assert result.returncode == 1
    assert "error[chart-parts]: the let steps of spending add up to $2,650.50" in result.stderr
    assert "<expr>:1:1" in result.stderr
    assert "mine.tax:7:7" in result.stderr and "mine.tax:8:7" in result.stderr, "a note points at each part"


def test_named_amounts(taxpro):
    result = chart(taxpro, 'rent: $2,000, "Food and drink": groceries_spend, transit: $156'.replace(
        "groceries_spend", "$600 + $50"))
    assert result.returncode == 0, result.stderr
    parts = rows(result.stdout)
    assert [(p["label"], p["amount"]) for p in parts] == [
        ("Rent", "$2,000.00"), ("Food and drink", "$650.00"), ("Transit", "$156.00"), ("Total", "$2,806.00")]


@pytest.mark.parametrize("expression, code, message", [
    ("rent: $2,000, share: 13%", "chart-type", "only Money can be shared out in a chart, but 'Share' is Rate"),
    ("tax_rate: 5%", "chart-type", "'Tax rate' is Rate"),
    ("rent: $2,000, refund: -$50", "chart-parts", "'Refund' is -$50.00; a part of a whole cannot be negative"),
    ("$85,000 * 2", "chart-parts", "a chart needs parts"),
    ("combined_marginal_rate($85,000)", "chart-type", "the result is Rate"),
    ("rent: $1 food: $2", "syntax", "expected ',' between named amounts"),
])
def test_what_cannot_be_charted(taxpro, expression, code, message):
    result = chart(taxpro, expression)
    assert result.returncode == 1
    assert f"error[{code}]:" in result.stderr and message in result.stderr, result.stderr
    assert "<expr>:1:" in result.stderr


def test_budget_lines_mark_the_limit_and_call_out_overspending(taxpro):
    result = chart(taxpro, "rent: $2,100 in $0..$2,000, food: $640 in $0..$800, transit: $156")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    rent = next(line for line in lines if line.startswith("Rent"))
    food = next(line for line in lines if line.startswith("Food"))
    assert "over by $100.00" in rent and "│" in rent
    assert "over" not in food and "│" in food
    assert lines[-1].endswith("over budget: Rent")
    # The limit's mark: rent's bar runs on past it, food's stops short of it.
    rent_bar = rent.split("%", 1)[1].split("  over")[0].strip()
    assert 0 < rent_bar.index("│") < len(rent_bar) - 1
    assert food.split("%", 1)[1].strip().endswith(" │")


def test_the_readme_shows_the_chart_as_it_is_drawn():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("$ taxpro chart --year 2025 'take_home_pay($85,000, ON)'\n")
    block = readme[start:readme.index("```", start)].split("\n", 1)[1]
    assert block == (GOLDEN / "take_home_pay.txt").read_text(encoding="utf-8")


def test_bars_without_an_svg_file_is_a_usage_error(taxpro):
    result = taxpro.run("chart", TAKE_HOME, "--bars")
    assert result.returncode == 2
    assert "--bars is for the SVG file" in result.stderr


def test_explain_says_when_a_result_can_be_charted(taxpro):
    with_parts = taxpro.run("explain", TAKE_HOME).stdout
    assert f"Its parts as a chart: taxpro chart '{TAKE_HOME}'" in with_parts
    without = taxpro.run("explain", "rrsp_refund($5,000, $85,000)").stdout
    assert "taxpro chart" not in without and "taxpro chart" not in taxpro.run("explain", "$1 + $2").stdout
