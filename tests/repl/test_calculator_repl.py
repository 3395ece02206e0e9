"""The REPL as a calculator (issue 12), end to end in a pseudo-terminal: forms that take what people type (`85000` for
Money, `ontario` for a province, the choices listed after a bad one), the calculator's commands (`:vars`, `:reset`,
`:digits`, `:table`), its hints, and `:commands` in piped input.

The form's results are compared with `taxpro eval` of the same call written out, a path that shares no code with the
form's answers.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from repl_session import (PROMPT, TAXPRO, answer, decline_explanation, enter, environment, evaluate, leave,
                          result_of, spawn, start)

pytestmark = pytest.mark.skipif(not TAXPRO, reason="TAXPRO is not set to the taxpro binary")

PROVINCE_CODES = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]


def test_ask_takes_a_plain_number_as_dollars_and_a_province_by_name(home: Path) -> None:
    expected = evaluate("rrsp_refund($5,000, $85,000, ON)", home)
    child = spawn(home)
    enter(child, ":ask rrsp_refund")
    answer(child, "contribution: ", "5000")
    child.expect(r"contribution = \$5,000\.00")
    answer(child, "income: ", "85000")
    # Shown back as the amount it was taken for.
    child.expect(r"income = \$85,000\.00")
    answer(child, r"province \[ON\]: ", "ontario")
    child.expect(r"province = ON")
    child.expect(r"rrsp_refund\(contribution: \$5,000\.00, income: \$85,000\.00, province: ON\) = (\$[\d,]+\.\d\d)")
    assert child.match.group(1) == expected
    decline_explanation(child)
    assert leave(child) == 0


def test_ask_lists_the_provinces_after_a_bad_one_and_takes_a_code_in_any_case(home: Path) -> None:
    expected = evaluate("rrsp_refund($1,000, $60,000, QC)", home)
    child = spawn(home)
    enter(child, ":ask rrsp_refund")
    answer(child, "contribution: ", "$1,000")
    answer(child, "income: ", "60,000")
    child.expect(r"income = \$60,000\.00")
    answer(child, r"province \[ON\]: ", "Ontarioo")
    child.expect(r"'Ontarioo' is not a province or territory; the choices are (.*)\r\n")
    listed = re.findall(r"\b([A-Z]{2}) \(", child.match.group(1))
    assert listed == PROVINCE_CODES
    assert "ON (Ontario)" in child.match.group(1) and "QC (Quebec)" in child.match.group(1)
    answer(child, r"province \[ON\]: ", "qc")
    child.expect(r"province = QC")
    child.expect(r"rrsp_refund\(contribution: \$1,000\.00, income: \$60,000\.00, province: QC\) = (\$[\d,]+\.\d\d)")
    assert child.match.group(1) == expected
    decline_explanation(child)
    assert leave(child) == 0


def test_ask_refuses_cents_it_cannot_keep(home: Path) -> None:
    child = spawn(home)
    enter(child, ":ask rrsp_refund")
    answer(child, "contribution: ", "100.555")
    child.expect("an amount is kept in whole cents: '100.555' has more than two decimals")
    child.expect("contribution: ")
    child.sendintr()
    child.expect("the form was left")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_profile_values_are_typed_by_the_inputs_of_that_name(home: Path) -> None:
    child = spawn(home)
    enter(child, ":profile income 85000")
    child.expect(r"income = \$85,000\.00 \(saved\)")
    child.expect(PROMPT)
    enter(child, ":profile income 5%")
    child.expect(r"income is Money \(an input of \w+\), but '5%' is Rate")
    child.expect(PROMPT)
    enter(child, ":profile province british columbia")
    child.expect(r"province = BC \(saved\)")
    child.expect(PROMPT)
    enter(child, ":ask rrsp_refund")
    answer(child, "contribution: ", "$2,000")
    # Offered, because it was kept as Money.
    answer(child, r"income \[\$85,000\.00\]: ", "")
    answer(child, r"province \[BC\]: ", "")
    child.expect(r"= \$[\d,]+\.\d\d")
    decline_explanation(child)
    assert leave(child) == 0


def test_vars_reset_digits_and_table(home: Path) -> None:
    child = spawn(home)
    enter(child, "let rate = 5%")
    child.expect(PROMPT)
    enter(child, "1/3")
    child.expect(r"\r\n0\.333333333333…\r\n")
    child.expect(PROMPT)
    enter(child, ":vars")
    child.expect(r"rate = 5%\r\n")
    child.expect(r"ans  = 0\.333333333333…\r\n")
    child.expect(PROMPT)
    enter(child, ":digits 20")
    child.expect(PROMPT)
    enter(child, "ans")
    child.expect(r"\r\n0\.33333333333333333333…\r\n")
    child.expect(PROMPT)
    enter(child, ":table $1,000 * (1 + rate)^n over n from 0 to 2 step 1")
    child.expect(r"0\s+\$1,000\.00\r\n")
    child.expect(r"1\s+\$1,050\.00\r\n")
    child.expect(r"2\s+\$1,102\.50\r\n")
    child.expect(PROMPT)
    enter(child, ":reset")
    child.expect("forgot 2 names")
    child.expect(PROMPT)
    enter(child, "rate")
    child.expect(r"unknown-name")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_hints_for_what_other_calculators_accept(home: Path) -> None:
    child = spawn(home)
    enter(child, "x = 5")
    child.expect(r"did you mean 'let x = 5'\?")
    child.expect(PROMPT)
    printed = result_of(child, "1,000 + 1")
    assert "a number is written without commas: 1000 or 1_000" in printed
    assert printed.count("warning[leading-zeros]") == 1 and "after an expression" in printed
    enter(child, ":help ans")
    child.expect(r"ans \(the last result\)")
    child.expect(PROMPT)
    enter(child, ":l")
    child.expect(r"':l' is ambiguous: it could be :lesson, :load")
    child.expect(PROMPT)
    enter(child, "max($1,")
    child.expect(r"\.\.\.>")
    enter(child, "")
    child.expect(r"error: (.*); the unfinished input was dropped\r\n")
    # One line, not the source with its marks.
    assert "|" not in child.match.group(1)
    child.expect(PROMPT)
    enter(child, ":plot x * 2 over x from 10 to 0")
    child.expect(r"<plot>:1:1: error\[plot-range\]")
    child.expect(PROMPT)
    assert leave(child) == 0


def test_commands_work_in_piped_input(home: Path) -> None:
    script = "let x = 2\n:vars\n:digits 5\n1/3\n:table x^n over n from 1 to 3 step 1\n:help ans\n"
    result = subprocess.run([TAXPRO], input=script, capture_output=True, text=True, timeout=60, env=environment(home))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["x = 2", "x = 2"]
    assert "0.33333…" in lines
    assert re.search(r"^3\s+8$", result.stdout, re.M)
    # After 1/3 there is an ans: its value is shown, to the digits asked for.
    assert "ans = 0.33333…: Number (the last result)" in lines


def test_explain_ans_and_save_take_the_last_calculation_typed_or_piped(home: Path) -> None:
    """`:explain ans` explains the last calculation (the values it read written in), at the prompt and in piped
    input; piped, `:save` keeps a calculation its lines computed (it once said there was nothing to save)."""
    child = start(home)
    child.expect(PROMPT)
    result_of(child, "let income = $85,000")
    result_of(child, "combined_tax(income)")
    printed = result_of(child, ":explain ans")
    assert "combined_tax($85,000.00) = $16,979.76" in printed, printed
    assert "federal part = " in printed
    assert leave(child) == 0
    script = "let income = $85,000\ncombined_tax(income)\n:explain ans\n2 + 3\n:save sum\n:records sum\n"
    result = subprocess.run([TAXPRO], input=script, capture_output=True, text=True, timeout=60, env=environment(home))
    assert result.returncode == 0, result.stderr
    assert "combined_tax($85,000.00) = $16,979.76" in result.stdout
    assert "saved sum: 2 + 3 = 5" in result.stdout
    assert "federal part" not in result.stdout.split("saved sum")[1]


def test_a_long_hint_wraps_at_the_terminals_width_under_its_label(home: Path) -> None:
    child = start(home, dimensions=(30, 60))
    child.expect(PROMPT)
    printed = result_of(child, "income_tax($85,000)")
    lines = printed.splitlines()
    first = next(index for index, line in enumerate(lines) if line.startswith("  = help: "))
    note = lines[first:]
    assert len(note) > 1 and all(len(line) <= 60 for line in note), printed
    assert all(line.startswith(" " * 10) and line[10] != " " for line in note[1:]), printed
    assert " ".join(" ".join(line.split()) for line in note) == (
        "= help: 'income_tax' is a bracket table of each province and of federal, not a formula: "
        "tax(ON.income_tax, $85,000) or tax(federal.income_tax, $85,000)")
    assert leave(child) == 0


def test_a_command_typed_as_a_name_says_how_to_run_it(home: Path) -> None:
    # At the prompt: the call's argument is carried over into the command.
    child = start(home)
    child.expect(PROMPT)
    printed = result_of(child, "explain(take_home_pay($85,000, ON))")
    assert "unknown formula 'explain'" in printed
    assert "= help: 'explain' is a command, written with ':' and no parentheses: " in printed
    assert ":explain take_home_pay($85,000, ON)" in " ".join(printed.split())
    printed = result_of(child, "quit")
    assert "= help: to leave: :quit or Ctrl-D" in printed
    assert leave(child) == 0
    # Piped: the same notes (with no Ctrl-D: the input is not typed at a prompt); a name the session defines is a
    # name, whatever a command is called.
    script = "exit\nhelp\n1 + explain(2)\nplot(x, y)\nlet help = 3\nhelp\nexplain\n"
    result = subprocess.run([TAXPRO], input=script, capture_output=True, text=True, timeout=60, env=environment(home))
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["help = 3", "3"]
    notes = [line.strip() for line in result.stderr.splitlines() if line.strip().startswith("= help:")]
    assert notes == [
        "= help: to leave: :quit",
        "= help: commands start with ':': :help [NAME]",
        "= help: 'explain' is a command, on a line of its own: :explain [full] EXPR",
        "= help: 'plot' is a command, on a line of its own: :plot EXPR over NAME from A to B [--svg FILE]",
        "= help: commands start with ':': :explain [full] EXPR",
    ], result.stderr


def test_piped_input_gives_up_an_unfinished_entry_at_an_empty_line(home: Path) -> None:
    # As at the prompt: one unclosed parenthesis does not swallow the lines after it.
    script = "max($1,\n\nlet x = 1 +\n  2\nx * 2\n"
    result = subprocess.run([TAXPRO], input=script, capture_output=True, text=True, timeout=60, env=environment(home))
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["x = 3", "6"]
    assert "<stdin>:1:8: error[syntax]" in result.stderr and result.stderr.count("error[") == 1, result.stderr
