"""The concept lessons as a reader of docs/lessons/ sees them, and as `taxpro repl` shows them at 80 columns.

scripts/lessons writes the transcripts with the real binary (`$TAXPRO`); here it writes them again into a temporary
folder and each file must equal the one in docs/lessons/ (run scripts/lessons when the library's figures change).
Each lesson must fit one screen, and its worked example's figures must be what `taxpro eval` computes for the same
expression: the lessons compute, they never carry typed-in numbers.
"""

from __future__ import annotations

import os
import re
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from repl_session import TAXPRO, evaluate

REPO = Path(__file__).resolve().parent.parent.parent
DOCS = REPO / "docs" / "lessons"

pytestmark = pytest.mark.skipif(not TAXPRO, reason="TAXPRO is not set to the taxpro binary")

# A rate with more than four decimals of a percent shows them cut and marked: `16.0247…%`.
AMOUNT = r"(-?\$[\d,]+\.\d+|-?[\d.]+…?%)"


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lessons")
    subprocess.run([str(REPO / "scripts" / "lessons"), str(out)], check=True, env={**os.environ, "TAXPRO": TAXPRO})
    return out


def screen(transcript: str, name: str) -> list[str]:
    """The lines `:lesson NAME` printed (without the `more` part)."""
    text = transcript.split("```text\n", 1)[1]
    first = text.split(f"> :lesson {name} more\n", 1)[0]
    lines = first.split("\n")[1:]  # after the `> :lesson NAME` line
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def value(text: str) -> Decimal:
    return Decimal(text.replace("$", "").replace(",", "").replace("…", "").replace("%", ""))


def test_the_transcripts_in_docs_are_current(transcripts: Path) -> None:
    generated = sorted(p.name for p in transcripts.glob("*.md"))
    stored = sorted(p.name for p in DOCS.glob("*.md"))
    assert generated == stored, "docs/lessons/ lists other lessons than :lesson: run scripts/lessons"
    assert len(generated) > 10
    for name in generated:
        current = (transcripts / name).read_text() == (DOCS / name).read_text()
        assert current, f"docs/lessons/{name} differs from what the lesson shows: run scripts/lessons"


def test_each_lesson_is_one_screen_at_80_columns(transcripts: Path) -> None:
    for path in transcripts.glob("*.md"):
        if path.name == "README.md":
            continue
        text = path.read_text()
        lines = screen(text, path.stem)
        assert lines[0].startswith("Lesson: ")
        assert len(lines) <= 40, f"{path.stem}: {len(lines)} lines"
        for line in text.split("```text\n", 1)[1].split("\n"):
            assert len(line) <= 80, f"{path.stem}: {len(line)} columns: {line}"
        for section in ("1. What it is", "2. What goes in", "3. A worked example", "4. Tip", "Try it: "):
            assert any(line.startswith(section) for line in lines), f"{path.stem} lacks {section}"


# (lesson, a pattern on its screen with one group per figure, the TaxPro expression of each figure)
FIGURES = [
    ("brackets", r"total\s+\$85,000\.00\s+" + AMOUNT, ["tax(federal.income_tax, $85,000)"]),
    (
        "brackets",
        r"taxed at " + AMOUNT + r": that is your marginal rate",
        ["marginal_rate(federal.income_tax, $85,000)"],
    ),
    (
        "marginal",
        r"both, after credits\s+" + AMOUNT + r"\s+" + AMOUNT,
        ["combined_marginal_rate($85,000, ON)", "combined_average_rate($85,000, ON)"],
    ),
    (
        "marginal",
        r"Ontario brackets\s+" + AMOUNT + r"\s+" + AMOUNT,
        ["marginal_rate(ON.income_tax, $85,000)", "average_rate(ON.income_tax, $85,000)"],
    ),
    (
        "deductions",
        r"a \$1,000 deduction saves\s+" + AMOUNT + r"\s+" + AMOUNT,
        ["deduction_tax_savings($1,000, $30,000)", "deduction_tax_savings($1,000, $90,000)"],
    ),
    (
        "deductions",
        r"a \$1,000 credit amount saves\s+" + AMOUNT,
        ["combined_tax($30,000) - combined_tax($30,000, other_credits: $1,000)"],
    ),
    ("bpa", r"federal, on \$60,000\.00\s+" + AMOUNT, ["federal_basic_personal_amount($60,000)"]),
    (
        "provincial",
        r"Quebec\s+" + AMOUNT + r"\s+" + AMOUNT + r"\s+" + AMOUNT,
        ["federal_tax($85,000, QC)", "provincial_tax($85,000, QC)", "combined_tax($85,000, QC)"],
    ),
    ("cpp", r"CPP\s+" + AMOUNT + r"\s+" + AMOUNT, ["cpp_contribution($85,000)", "federal.cpp_ympe"]),
    ("cpp", r"EI\s+" + AMOUNT, ["ei_premium($85,000)"]),
    # The chart of the example: a bar per part, each the formula's step.
    ("take-home", r"Take-home pay\s+" + AMOUNT, ["take_home_pay($85,000)"]),
    ("take-home", r"Income tax\s+" + AMOUNT, ['return_summary($85,000, line: "income_tax")']),
    ("take-home", r"EI premiums\s+" + AMOUNT, ["ei_premium($85,000)"]),
    ("provincial", r"Federal tax\s+" + AMOUNT, ["federal_tax($85,000, ON)"]),
    ("provincial", r"Provincial or territorial tax\s+" + AMOUNT, ["provincial_tax($85,000, ON)"]),
    ("rrsp", r"rrsp_refund\(\$5,000, \$60,000, ON\) = " + AMOUNT, ["rrsp_refund($5,000, $60,000, ON)"]),
    ("tfsa", r"tax coming out\s+\$0\.00\s+" + AMOUNT, ["combined_marginal_rate($40,000) * $1,000"]),
    ("dividends", r"Ontario dividend tax credit\s+" + AMOUNT, ["provincial_dividend_tax_credit($5,000, ON)"]),
    ("dividends", r"tax on the dividend\s+" + AMOUNT, ["dividend_tax($5,000, $60,000, ON)"]),
    ("capital-gains", r"tax on it\s+" + AMOUNT, ["capital_gains_tax($10,000, $85,000)"]),
    (
        "clawback",
        r"oas_recovery_tax\(\$115,323\) = " + AMOUNT,
        ["oas_recovery_tax(federal.oas_recovery_threshold + $20,000)"],
    ),
]


@pytest.mark.parametrize(("lesson", "pattern", "expressions"), FIGURES, ids=[f"{f[0]}-{f[2][0]}" for f in FIGURES])
def test_a_lessons_figures_are_what_taxpro_eval_computes(
    transcripts: Path, lesson: str, pattern: str, expressions: list[str]
) -> None:
    text = "\n".join(screen((transcripts / f"{lesson}.md").read_text(), lesson))
    match = re.search(pattern, text)
    assert match, f"{lesson}: no {pattern} in\n{text}"
    for shown, expression in zip(match.groups(), expressions):
        assert shown == evaluate(expression), f"{lesson}: {shown} for {expression}"


def test_the_clawback_example_is_above_the_threshold_and_bites(transcripts: Path) -> None:
    text = "\n".join(screen((transcripts / "clawback.md").read_text(), "clawback"))
    match = re.search(r"oas_recovery_tax\((\$[\d,]+)\) = " + AMOUNT, text)
    assert match
    assert value(match.group(2)) > 0
    assert value(match.group(1)) > value(evaluate("federal.oas_recovery_threshold"))


def test_the_rrsp_lesson_names_the_threshold_the_deduction_crosses(transcripts: Path) -> None:
    text = " ".join(" ".join(screen((transcripts / "rrsp.md").read_text(), "rrsp")).split())
    crossed = r"of it lies above the (\$[\d,]+\.\d\d) threshold, at " + AMOUNT + r"; (\$[\d,.]+) below it, at " + AMOUNT
    match = re.search(crossed, text)
    assert match, text
    threshold, above, below = match.group(1), match.group(2), match.group(4)
    # It is a threshold of the federal brackets: the rate changes there, to the rates the lesson names.
    assert evaluate(f"marginal_rate(federal.income_tax, {threshold} + $0.01)") == above
    assert evaluate(f"marginal_rate(federal.income_tax, {threshold} - $0.01)") == below
    # And it lies inside the $5,000 the contribution takes off $60,000.
    assert value("$55,000") < value(threshold) < value("$60,000")
