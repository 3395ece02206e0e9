"""`taxpro explain`: the text a learner reads, and the JSON other tools read."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest


@pytest.fixture(scope="module")
def ontario(taxpro):
    result = taxpro.run("explain", "--year", "2025", "tax(ON.income_tax, $85,000)")
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_headline_and_result(ontario):
    lines = ontario.splitlines()
    assert lines[0] == "tax(ON.income_tax, $85,000) = $5,609.17"
    assert "Result: $5,609.17" in lines


def test_each_bracket_with_its_range_portion_rate_and_tax(ontario):
    # first bracket: all of 52,886 at 5.05% = 2,670.743; second: 85,000 − 52,886 = 32,114 at 9.15% = 2,938.431
    first = [line for line in ontario.splitlines() if "$0.00 to $52,886.00" in line]
    second = [line for line in ontario.splitlines() if "$52,886.00 to $105,775.00" in line]
    assert len(first) == 1 and len(second) == 1, ontario
    assert re.search(r"\$52,886\.00\s+5\.05%\s+\$2,670\.743$", first[0]), first[0]
    assert re.search(r"\$32,114\.00\s+9\.15%\s+\$2,938\.431$", second[0]), second[0]
    # the brackets it does not reach are not listed as used
    assert "$105,775.00 to $150,000.00" not in ontario
    # the exact sum, then rounded once
    assert "$5,609.174" in ontario
    assert "rounded to the cent: $5,609.17" in ontario


def test_where_the_table_came_from_and_the_rates(ontario):
    assert "ON.income_tax (Ontario, 2025)" in ontario
    assert "marginal rate 9.15%" in ontario
    # 5,609.17 ÷ 85,000 = 6.59902…%: four decimals of a percent, cut, and marked as not the whole value
    assert "average rate 6.5990…%" in ontario
    assert "The next bracket, at 11.16%, starts at $105,775.00." in ontario


def test_definition_and_tip(ontario):
    assert re.search(r"^Definition: .*bracket", ontario, re.MULTILINE)
    assert re.search(r"^Tip: ", ontario, re.MULTILINE)


# Every step (--full), on lines wide enough that the steps these tests look for are not wrapped.
WIDE = {"COLUMNS": "250"}


def test_a_formula_shows_inputs_lets_parameters_and_its_documentation(taxpro):
    result = taxpro.run("explain", "--full", "--year", "2025", "combined_tax($85,000)", env=WIDE)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert text.splitlines()[0] == "combined_tax($85,000) = $17,359.24"
    # the call with every input, defaults included
    assert re.search(r"^combined_tax\(income = \$85,000\.00, province = ON, .*\) = \$17,359\.24$", text, re.MULTILINE)
    # let steps with their value: the credit is 5.05% × 12,747 = 643.7235 → 643.72
    assert re.search(r"let credits = provincial_credits\(.*\) = \$643\.72$", text, re.MULTILINE)
    assert re.search(r"let basic = max\(\$0, bracket_tax - credits\) = \$4,965\.45$", text, re.MULTILINE)
    # parameters with jurisdiction and year
    assert "ON.credit_rate = 5.05%  (Ontario, 2025)" in text
    assert "federal.credit_rate = 14.5%  (Canada, 2025)" in text
    # both bracket tables, federal and Ontario
    assert "federal.income_tax (Canada, 2025)" in text and "ON.income_tax (Ontario, 2025)" in text
    # the outermost formula's definition and tip
    assert "Definition: The income tax on a year's taxable income" in text
    assert "Tip: " in text
    # noise is left out: nothing adds or subtracts $0.00
    assert not re.search(r"[+-] \$0\.00 = ", text), text


def test_percentage_of_an_amount_is_spelled_out(taxpro):
    result = taxpro.run("explain", "$100 + 15%")
    assert "$100.00 + 15% of $100.00 = $115.00" in result.stdout


def test_conditions_say_which_branch(taxpro):
    result = taxpro.run("explain", "--full", "--year", "2025", "federal_tax($85,000, QC)", env=WIDE)
    assert "if province == QC: QC == QC is true, so the 'then' branch applies" in result.stdout
    # 16.5% × 11,643.79 = 1,921.22535 → 1,921.23; 11,643.79 − 1,921.23 = 9,722.56
    assert "$11,643.79 - $1,921.23 = $9,722.56" in result.stdout


def test_default_arguments_are_shown_under_their_call(taxpro):
    result = taxpro.run("explain", "--full", "--year", "2025", "oas_recovery_tax($100,000)", env=WIDE)
    lines = result.stdout.splitlines()
    call = next(i for i, line in enumerate(lines) if line.startswith("oas_recovery_tax(net_income"))
    assert lines[call + 2].strip().startswith("default oas_received = oas_maximum_pension(age)")
    # the year's maximum, quarter by quarter: 3 × (727.67 + 727.67 + 734.95 + 740.09) = 3 × 2,930.38 = 8,791.14
    assert any("3 × $2,930.38 = $8,791.14" in line for line in lines[call:])


def test_json_is_complete(taxpro):
    result = taxpro.run("explain", "--json", "--year", "2025", "tax(ON.income_tax, $85,000)")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["expression"] == "tax(ON.income_tax, $85,000)"
    assert data["year"] == 2025
    assert data["value"] == {"type": "Money", "text": "$5,609.17", "exact": "5609.17"}
    assert data["documentation"]["name"] == "income_tax" and data["documentation"]["definition"]
    (step,) = data["steps"]
    assert step["kind"] == "brackets" and step["function"] == "tax"
    assert (step["jurisdiction"], step["parameter"], step["tableYear"]) == ("ON", "income_tax", 2025)
    assert step["brackets"] == [
        {"lower": "0", "upper": "52886", "rate": "0.0505", "portion": "52886", "tax": "2670.743"},
        {"lower": "52886", "upper": "105775", "rate": "0.0915", "portion": "32114", "tax": "2938.431"},
    ]
    assert sum(Decimal(row["tax"]) for row in step["brackets"]) == Decimal(step["exactTotal"]) == Decimal("5609.174")
    assert step["total"] == "5609.17"
    assert step["marginalRate"] == "0.0915"
    assert len(step["rows"]) == 5 and step["nextBracket"] == {"threshold": "105775", "rate": "0.1116"}
    assert step["location"] == {"file": "<expr>", "line": 1, "column": 1}
    (parameter,) = step["steps"]
    assert parameter["kind"] == "parameter" and parameter["year"] == 2025 and parameter["jurisdictionName"] == "Ontario"


def test_json_of_a_formula_has_every_kind_of_step(taxpro):
    result = taxpro.run("explain", "--json", "--year", "2025", "combined_tax($85,000, QC)")
    data = json.loads(result.stdout)
    kinds = set()

    def walk(steps):
        for step in steps:
            kinds.add(step["kind"])
            assert "value" in step
            walk(step.get("steps", []))

    walk(data["steps"])
    assert {"formula", "let", "parameter", "brackets", "builtin", "arithmetic", "comparison", "condition"} <= kinds
    top = data["steps"][0]
    assert top["name"] == "combined_tax"
    assert top["arguments"]["income"]["exact"] == "85000" and top["arguments"]["province"]["text"] == "QC"
    assert [s["name"] for s in top["steps"] if s["kind"] == "let"] == ["federal_part", "provincial_part"]
    # (a call written over several lines reads "federal_tax( income, …" once its lines are joined)
    assert top["steps"][0]["expression"].replace("( ", "(").startswith("federal_tax(income, province")
    assert data["value"]["text"] == "$20,609.87"


# Layout and limits (issue 13): every line fits the terminal, words are never broken, the notes are by the result.
ANSI = re.compile(r"\x1b\[[0-9;]*m")
EXPRESSIONS = [
    "combined_tax($85,000)", "take_home_pay($85,000)", "rrsp_refund($5,000, $60,000)", "tax(ON.income_tax, $85,000)",
]


@pytest.mark.parametrize("color", [False, True], ids=["plain", "colour"])
@pytest.mark.parametrize("columns", [None, "60"], ids=["80-when-not-a-terminal", "COLUMNS=60"])
def test_every_line_fits_the_width_and_no_word_is_broken(taxpro, color, columns):
    width = int(columns or 80)
    for expression in EXPRESSIONS:
        for full in ([], ["--full"]):
            colour = ["--color"] if color else []
            result = taxpro.run("explain", *colour, *full, expression, env={"COLUMNS": columns} if columns else {})
            assert result.returncode == 0, result.stderr
            plain = ANSI.sub("", result.stdout)
            assert plain != result.stdout if color else plain == result.stdout
            for line in plain.splitlines():
                assert len(line) <= width, f"{expression} {full}: {len(line)} columns: {line}"
            # The same words, in the same order, as on a line too wide to wrap: only spaces were turned into breaks.
            # (Narrower than a bracket table, its rows become sentences, so only 80 columns is compared.)
            if columns is None:
                wide = taxpro.run("explain", *full, expression, env={"COLUMNS": "1000"})
                assert plain.split() == wide.stdout.split(), expression


def test_the_summary_is_short_and_says_where_the_whole_trace_is(taxpro):
    summary = taxpro.run("explain", "combined_tax($85,000)").stdout
    full = taxpro.run("explain", "--full", "combined_tax($85,000)").stdout
    assert summary.rstrip().endswith("The whole trace: taxpro explain --full 'combined_tax($85,000)'")
    assert summary.splitlines()[0] == full.splitlines()[0]
    assert "bracket by bracket" in full and "bracket by bracket" not in summary
    assert 3 * len(summary.splitlines()) < len(full.splitlines())


def test_the_summary_leaves_out_values_that_repeat_one_shown_beside_them(taxpro):
    # Outside Quebec, Quebec's net income is the net income and the abatement is $0: neither says anything. In the
    # full trace every step stays.
    ontario = taxpro.run("explain", "take_home_pay($85,000, ON)", env={"COLUMNS": "1000"}).stdout
    assert "net income before adjustments = $83,873.00" in ontario
    assert "quebec" not in ontario.lower(), ontario
    assert "after tax income = $63,679.28" in ontario
    full = taxpro.run("explain", "--full", "take_home_pay($85,000, ON)").stdout
    assert "quebec_net_income" in full
    # In Quebec they change the result, and are shown.
    quebec = taxpro.run("explain", "take_home_pay($85,000, QC)", env={"COLUMNS": "1000"}).stdout
    assert "Quebec abatement = $1,678.47" in quebec and "Quebec net income = $82,423.00" in quebec
    # Names in words: proper names capitalised, one plan or the other.
    assert "CPP or QPP contributions = $4,646.45" in ontario


@pytest.mark.parametrize(
    "expression", ["take_home_pay($85,000)", "dividend_tax($5,000, $60,000)", "oas_recovery_tax($120,000)"]
)
def test_a_formulas_notes_are_beside_its_result_in_text_and_json(taxpro, expression):
    document = json.loads(taxpro.run("explain", "--json", expression).stdout)
    notes = document["notes"]
    assert notes and notes == document["documentation"]["notes"]
    assert list(document)[list(document).index("value") + 1] == "notes"
    for full in ([], ["--full"]):
        text = taxpro.run("explain", *full, expression, env={"COLUMNS": "1000"}).stdout
        after = text.split("\nResult: ", 1)[1].splitlines()[1:]
        shown = [line.strip() for line in after[: len(notes)]]
        for line, note in zip(shown, notes):
            # The note in words (an input's or formula's name between backticks is said in words): its opening.
            opening = " ".join(note.split("`")[0].split()[:4])
            assert line.startswith("Note: " + opening), f"{expression}: {line!r} for {note!r}"
