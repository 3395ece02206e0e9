"""End-to-end tests of the REPL: the real `taxpro` binary (`$TAXPRO`) in a pseudo-terminal, driven with pexpect.

Each test gets its own HOME and XDG directories (the `home` fixture); repl_session.py has the helpers the REPL tests
share.
"""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from repl_session import (CONTINUATION, PROMPT, TAXPRO, answer, decline_explanation, enter, environment, leave, spawn,
                          start)

SVG = "{http://www.w3.org/2000/svg}"

pytestmark = pytest.mark.skipif(not TAXPRO, reason="TAXPRO is not set to the taxpro binary")

REFUND = """\
## Tax saved by an RRSP contribution (a simplified model for the tests).
## definition: A contribution is deducted from income, so it saves tax at the marginal rates it skips.
## topic: Income / RRSP
formula refund(
  ## The amount you put into your RRSP.
  contribution: Money in $0..$32,490,
  ## Taxable income before the contribution.
  income: Money in $0..$10,000,000,
  province: Province = ON
): Money =
  let before = tax(province.income_tax, income) + tax(federal.income_tax, income)
  let after = tax(province.income_tax, income - contribution) + tax(federal.income_tax, income - contribution)
  before - after
"""


def test_arithmetic_and_ans(home: Path) -> None:
    child = spawn(home)
    enter(child, "$1,234.56 * 13%")
    child.expect(r"\$160\.49\r\n")
    child.expect(PROMPT)
    enter(child, "0.1 + 0.2")
    child.expect(r"\r\n0\.3\r\n")
    child.expect(PROMPT)
    enter(child, "ans * 10")
    child.expect(r"\r\n3\r\n")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_let(home: Path) -> None:
    child = spawn(home)
    enter(child, "let income = $85,000")
    child.expect(r"income = \$85,000\.00")
    child.expect(PROMPT)
    enter(child, "tax(ON.income_tax, income) > $0")
    child.expect(r"\r\ntrue\r\n")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_an_error_then_a_working_line(home: Path) -> None:
    child = spawn(home)
    enter(child, "1200 + $5")
    child.expect(r"error\[type-mismatch\]: cannot add Number and Money")
    child.expect(r"did you mean '\$1200'\?")
    child.expect(PROMPT)
    enter(child, "$1 + $2")
    child.expect(r"\$3\.00")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_two_line_expression(home: Path) -> None:
    child = spawn(home)
    enter(child, "max($1,")
    child.expect(CONTINUATION)
    enter(child, "$2)")
    child.expect(r"\$2\.00")
    child.expect(PROMPT)
    # A blank continuation line drops an unfinished entry.
    enter(child, "(1 +")
    child.expect(CONTINUATION)
    enter(child, "")
    child.expect("dropped")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_documentation_typed_before_a_formula_belongs_to_it(home: Path) -> None:
    child = spawn(home)
    enter(child, "## Doubles an amount.")
    child.expect(CONTINUATION)
    enter(child, "formula dbl(x: Money): Money = x * 2")
    child.expect(r"defined dbl\(x: Money\): Money")
    child.expect(PROMPT)
    enter(child, ":help dbl")
    child.expect("Doubles an amount.")
    child.expect(PROMPT)
    # Documentation followed by a blank line is given up, with a note, not an error.
    enter(child, "## For nothing.")
    child.expect(CONTINUATION)
    enter(child, "")
    child.expect(r"the documentation \(##\) was dropped")
    child.expect(PROMPT)
    assert "error" not in child.before
    assert leave(child) == 0


@pytest.mark.parametrize("command", [[TAXPRO], [TAXPRO, "repl"]])
def test_piped_documentation_belongs_to_the_formula_after_it(home: Path, command: list[str]) -> None:
    piped = ("## Doubles an amount.\n## For any amount.\nformula dbl(x: Money): Money = x * 2\n:help dbl\ndbl($2)\n"
             "## Left over.\n")
    result = subprocess.run(command, input=piped, capture_output=True, text=True, env=environment(home), timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Doubles an amount. For any amount." in result.stdout
    assert "$4.00" in result.stdout
    assert "the documentation (##) was dropped" in result.stdout + result.stderr
    assert "error" not in result.stdout + result.stderr


def test_a_pasted_formula_with_a_blank_line_inside(home: Path) -> None:
    child = spawn(home)
    # All at once, as a terminal delivers a paste: the blank line finds the rest already waiting.
    child.send("formula net(x: Money): Money =\r  let half = x / 2\r\r  x - half\rnet($10)\r")
    child.expect(r"defined net\(x: Money\): Money")
    child.expect(r"\$5\.00")
    child.expect(PROMPT)
    assert "dropped" not in child.before
    assert leave(child) == 0


def test_type(home: Path) -> None:
    child = spawn(home)
    enter(child, ":type tax(ON.income_tax, $1) / $1")
    child.expect(r"\r\nRate\r\n")
    child.expect(PROMPT)
    enter(child, ":type ON.income_tax")
    child.expect(r"\r\nBrackets\r\n")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_help(home: Path) -> None:
    child = spawn(home)
    enter(child, ":help")
    child.expect(":ask FORMULA")
    child.expect(PROMPT)
    enter(child, ":help ON.basic_personal_amount")
    child.expect(r"ON\.basic_personal_amount: Money — Ontario")
    child.expect(r"Value in \d{4}: \$")
    child.expect(PROMPT)
    enter(child, ":help :plot")
    child.expect("A chart of EXPR as NAME goes from A to B")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_tab_completes_a_parameter_after_a_code(home: Path) -> None:
    child = spawn(home)
    child.send("ON.income_t\t")
    # libedit redraws only what changed, so the completed word is checked through its value and the history.
    child.send("\r")
    child.expect(r"brackets \{ \$0\.00 -> ")
    child.expect(PROMPT)
    child.send(":he\t")
    child.send(" ON\r")
    child.expect("Ontario")
    child.expect(PROMPT)
    assert leave(child) == 0
    history = (home / "state" / "taxpro" / "history").read_text()
    assert "ON.income_tax" in history
    assert ":help\\040ON" in history or ":help ON" in history


def test_ctrl_c_at_the_prompt_keeps_the_session(home: Path) -> None:
    child = spawn(home)
    enter(child, "let x = 5")
    child.expect(PROMPT)
    child.send("1 + 2")
    child.sendintr()
    child.expect(r"\^C")
    child.expect(PROMPT)
    enter(child, "x * 2")
    child.expect(r"\r\n10\r\n")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_ctrl_c_cancels_a_running_evaluation(home: Path, tmp_path: Path) -> None:
    slow = tmp_path / "slow.tax"
    lines = ["formula d0(x: Money): Money = x + x"]
    lines += [f"formula d{i}(x: Money): Money = d{i - 1}(x) + d{i - 1}(x)" for i in range(1, 23)]
    slow.write_text("\n".join(lines) + "\n")
    child = spawn(home, "repl", str(slow))
    enter(child, "d22($1)")
    child.expect(r"d22\(\$1\)\r\n")
    child.sendintr()
    child.expect("cancelled", timeout=15)
    child.expect(PROMPT)
    enter(child, "1 + 1")
    child.expect(r"\r\n2\r\n")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_ctrl_d_leaves_with_status_zero_and_keeps_history(home: Path) -> None:
    child = spawn(home)
    enter(child, "1 + 1")
    child.expect(PROMPT)
    enter(child, "max($1,")
    child.expect(CONTINUATION)
    enter(child, "$2)")
    child.expect(PROMPT)
    enter(child, ":type 1")
    child.expect(PROMPT)
    assert leave(child) == 0
    history = (home / "state" / "taxpro" / "history").read_text()
    # libedit's file format escapes spaces and line breaks.
    assert "1\\040+\\0401" in history
    assert "max($1,\\012$2)" in history
    assert ":type\\0401" in history


def test_ask_reasks_after_an_out_of_range_answer(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "refund.tax"
    path.write_text(REFUND)
    child = spawn(home)
    enter(child, f":load {path}")
    child.expect("loaded .*refund.tax: 1 formula")
    child.expect(PROMPT)
    enter(child, ":ask refund")
    child.expect("The amount you put into your RRSP.")
    answer(child, "contribution: ", "$50,000")
    child.expect(r"contribution must be from \$0\.00 to \$32,490\.00, but \$50,000\.00 is above that")
    answer(child, "contribution: ", "$5,000")
    answer(child, "income: ", "$60,000")
    answer(child, r"province \[ON\]: ", "")
    child.expect(r"refund\(contribution: \$5,000\.00, income: \$60,000\.00, province: ON\) = \$[\d,]+\.\d\d")
    answer(child, r"Explain it\? \[y/N\] ", "y")
    # The explanation summarises: the $5,000 the deduction takes off the top, and the rates it was taxed at.
    child.expect(r"The \$5,000\.00 between \$55,000\.00 and \$60,000\.00 was taxed at:")
    child.expect(PROMPT)
    enter(child, "ans > $0")
    child.expect(r"\r\ntrue\r\n")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_ask_the_standard_librarys_rrsp_refund_with_profile_defaults(home: Path) -> None:
    child = spawn(home)
    enter(child, ":profile income $85,000")
    child.expect(PROMPT)
    enter(child, ":ask rrsp_refund")
    answer(child, "contribution: ", "-$5")
    child.expect(r"contribution must be from \$0\.00 to .*, but -\$5\.00 is below that")
    answer(child, "contribution: ", "$5,000")
    answer(child, r"income \[\$85,000\.00\]: ", "")
    answer(child, r"province \[ON\]: ", "QC")
    child.expect(r"rrsp_refund\(contribution: \$5,000\.00, income: \$85,000\.00, province: QC\) = \$[\d,]+\.\d\d")
    decline_explanation(child)
    assert leave(child) == 0


def test_lessons_and_topics(home: Path) -> None:
    child = spawn(home)
    enter(child, ":topics")
    child.expect(r"RRSP: .*rrsp_refund")
    child.expect(PROMPT)
    enter(child, ":lesson rrsp_refund")
    child.expect("1. What it is")
    child.expect("2. What goes in")
    child.expect("3. A worked example")
    # The summarised example names the threshold the deduction crosses (the words may wrap at 80 columns).
    child.expect(r"of it lies above the\s+\$[\d,]+\.\d\d\s+threshold")
    child.expect("4. Tip")
    child.expect(PROMPT)
    enter(child, ":search dividend credit")
    child.expect("federal_dividend_tax_credit")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_profile_and_save_survive_a_restart(home: Path) -> None:
    child = spawn(home)
    enter(child, ":profile income $85,000")
    child.expect(r"income = \$85,000\.00 \(saved\)")
    child.expect(PROMPT)
    enter(child, "$2 * 3")
    child.expect(r"\$6\.00")
    child.expect(PROMPT)
    enter(child, ":save six")
    child.expect(r"saved six: \$2 \* 3 = \$6\.00")
    child.expect(PROMPT)
    assert leave(child) == 0

    child = spawn(home)
    enter(child, ":profile")
    child.expect(r"income\s+\$85,000\.00")
    child.expect(PROMPT)
    enter(child, ":records")
    child.expect(r"six\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+\$2 \* 3 = \$6\.00")
    child.expect(PROMPT)
    enter(child, ":records six")
    child.expect(r"\$2\.00 × 3 = \$6\.00")
    child.expect(PROMPT)
    assert leave(child) == 0
    assert (home / "data" / "taxpro" / "profile.json").exists()
    assert (home / "data" / "taxpro" / "records.json").exists()


def test_a_corrupted_records_file_is_reported_and_kept(home: Path) -> None:
    directory = home / "data" / "taxpro"
    directory.mkdir(parents=True)
    damaged = '{"version": 1, "records": [{"name": "lost'
    (directory / "records.json").write_text(damaged)
    child = start(home, dimensions=(40, 200))
    child.expect(r"your records file .*records\.json is damaged \(not valid JSON\); it was kept as (\S+records\.json\.damaged-\S+),")
    kept = Path(child.match.group(1))
    child.expect(PROMPT)
    assert kept.read_text() == damaged
    enter(child, "$1 + $1")
    child.expect(PROMPT)
    enter(child, ":save two")
    child.expect("saved two")
    child.expect(PROMPT)
    assert leave(child) == 0
    # The damaged copy is still there, untouched, beside the new file.
    assert kept.read_text() == damaged
    assert '"two"' in (directory / "records.json").read_text()


def test_colour_only_when_wanted(home: Path) -> None:
    child = spawn(home, color=True)
    enter(child, "1 + 1")
    child.expect(r"\x1b\[1m2\x1b\[0m")
    child.expect(PROMPT)
    assert leave(child) == 0

    child = spawn(home)
    enter(child, "1 + 1")
    child.expect(PROMPT)
    assert "\x1b[1m" not in child.before
    assert leave(child) == 0

    child = spawn(home, "--no-color", color=True)
    enter(child, "1 + 1")
    child.expect(PROMPT)
    assert "\x1b[1m" not in child.before
    assert leave(child) == 0


def test_repl_reads_commands_from_a_pipe(home: Path) -> None:
    result = subprocess.run(
        [TAXPRO, "repl"], input=":type $1\n1 +\n2\n:year 2025\n", capture_output=True, text=True,
        env=environment(home), timeout=60,
    )
    assert result.returncode == 0
    assert result.stdout.splitlines()[:3] == ["Money", "3", "the tax year is now 2025"]
    # Without `repl`, piped input is still evaluated line by line.
    lines = subprocess.run([TAXPRO], input="1 + 1\n", capture_output=True, text=True, env=environment(home), timeout=60)
    assert lines.stdout == "2\n"


def test_plot_writes_an_svg(tmp_path: Path, home: Path) -> None:
    out = tmp_path / "out.svg"
    result = subprocess.run(
        [TAXPRO, "plot", "tax(ON.income_tax, income)", "--over", "income=$0..$250,000", "--svg", str(out)],
        capture_output=True, text=True, env=environment(home), timeout=120,
    )
    assert result.returncode == 0, result.stderr
    root = ET.parse(out).getroot()
    assert root.tag == SVG + "svg"
    polylines = root.findall(f".//{SVG}polyline")
    assert len(polylines) == 1
    points = polylines[0].get("points", "").split()
    assert len(points) == 201
    xs = [float(point.split(",")[0]) for point in points]
    assert xs == sorted(xs)
    texts = ["".join(element.itertext()) for element in root.iter(SVG + "text")]
    assert "tax(ON.income_tax, income)" in texts  # the title
    assert "income" in texts and "Money" in texts  # the axes' labels
    assert "$0" in texts and "$250,000" in texts  # x ticks at the ends of the range
    assert any(text.startswith("$") and text != "$0" for text in texts if text not in ("$250,000",))


def test_plot_in_the_terminal(home: Path) -> None:
    result = subprocess.run(
        [TAXPRO, "plot", "average_rate(ON.income_tax, income)", "--over", "income=$1..$300,000", "--width", "60",
         "--height", "15"],
        capture_output=True, text=True, env=environment(home), timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 15
    assert all(len(line) == 60 for line in lines)
    assert any("%" in line and "┤" in line for line in lines)


def test_plot_usage_errors(home: Path) -> None:
    missing = subprocess.run([TAXPRO, "plot", "income"], capture_output=True, text=True, env=environment(home))
    assert missing.returncode == 2
    assert "--over NAME=FROM..TO" in missing.stderr
    wrong = subprocess.run(
        [TAXPRO, "plot", "income > $1", "--over", "income=$0..$1"], capture_output=True, text=True, env=environment(home)
    )
    assert wrong.returncode == 1
    assert "only Money, Rate and Number can be plotted" in wrong.stderr


def test_plots_help_example_runs_as_printed_in_a_shell(home: Path) -> None:
    """The example `taxpro plot --help` prints, pasted into a shell, draws the chart; unquoted, the shell turns `$0`
    into its own name and `$2` into nothing, and the error says so."""
    result = subprocess.run([TAXPRO, "plot", "--help"], capture_output=True, text=True, env=environment(home))
    example = next(line.strip() for line in result.stdout.splitlines() if line.strip().startswith("taxpro plot '"))
    drawn = subprocess.run(["bash", "-c", example + " --width 40 --height 8"], capture_output=True, text=True,
                           env=environment(home))
    assert drawn.returncode == 0, drawn.stderr
    assert "$200,000" in drawn.stdout and "income" in drawn.stdout
    unquoted = example.replace("'income=$0..$250,000'", "income=$0..$250,000")
    assert unquoted != example
    mangled = subprocess.run(["bash", "-c", unquoted], capture_output=True, text=True, env=environment(home))
    assert mangled.returncode == 1
    assert "unknown name 'bash'" in mangled.stderr
    assert "write --over 'income=$0..$250,000'" in mangled.stderr


def test_chart_draws_the_parts_at_the_terminals_width(home: Path, tmp_path: Path) -> None:
    """`:chart` in a real terminal 120 columns wide: a bar line per part, the whole's stacked bar filling the line;
    `:explain` of the same call points at it; `--svg` writes the donut."""
    child = spawn(home)
    enter(child, ":year 2025")
    child.expect(PROMPT)
    enter(child, ":chart take_home_pay($85,000, ON)")
    child.expect(r"Gross employment income for the year +\$85,000\.00 +100\.0% +(\S+)\r\n")
    assert len(child.after.rstrip("\r\n")) == 120
    lines = [line for line in child.before.split("\r\n") if "%" in line]
    assert [line.split("  ")[0] for line in lines] == [
        "Take-home pay", "Income tax", "CPP or QPP", "EI premiums", "CPP2 or QPP2"]
    child.expect(PROMPT)
    enter(child, ":explain take_home_pay($85,000, ON)")
    child.expect(r"Its parts as a chart: :chart take_home_pay\(\$85,000, ON\)")
    child.expect(PROMPT)
    out = tmp_path / "pay.svg"
    enter(child, f":chart take_home_pay($85,000, ON) --svg {out}")
    child.expect(r"wrote .*pay\.svg \(5 parts\)")
    child.expect(PROMPT)
    slices = [e for e in ET.parse(out).getroot().iter() if e.get("class") == "slice"]
    assert [e.get("data-label") for e in slices][0] == "Take-home pay"
    enter(child, ":chart rent: $2,000, rate: 5%")
    child.expect(r"error\[chart-type\]: only Money can be shared out in a chart, but 'Rate' is Rate")
    child.expect(PROMPT)
    assert leave(child) == 0
