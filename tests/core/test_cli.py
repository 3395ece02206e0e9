"""The core language through the command line: the must-shows of the core issue."""

import re

import pytest


@pytest.mark.parametrize("expression, expected", [
    ("0.1 + 0.2", "0.3"),
    ("$1,234.56 * 13%", "$160.49"),
    ("$10 / 3", "$3.33"),
    ("$200 / $800", "25%"),
    ("1/3", "0.333333333333…"),
    ("min($5, $3, $4)", "$3.00"),
    ("if $100 > $50 then 1 else 2", "1"),
    ("$100 + 15%", "$115.00"),
    ("100 - 15%", "85"),
    ("-$12", "-$12.00"),
    ("15.0198%", "15.0198%"),
    ("2.5", "2.5"),
    ("true and not false", "true"),
    ('"Ontario"', "Ontario"),
    ("$50 * (1 + 13%)", "$56.50"),
    ("round($12.50)", "$13.00"),
    ("ON.name", "Ontario"),
])
def test_eval_prints_values(run, expression, expected):
    result = run("eval", expression)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected + "\n"


@pytest.mark.parametrize("expression, message, hint", [
    ("1200 + $5", "cannot add Number and Money", "did you mean '$1200'?"),
    ("$5 * $5", "cannot multiply Money by Money", "money times money has no meaning"),
    ("1 / 0", "division by zero", None),
    ("$1,23.00", "commas in an amount must separate groups of three digits", "did you mean '$123.00'?"),
    ("$0.015", "at most two decimals", None),
    ("(((1+2)", "expected ')'", "to close this '('"),
    ("ON.incom_tax", "ON has no parameter 'incom_tax'", "did you mean 'income_tax'?"),
    ("tax(ON.income_tax, $5) + incme", "unknown name 'incme'", None),
    ("$5 > 3", "cannot compare Money with Number", "did you mean '$3'?"),
    ("15% - $100", "cannot subtract Money from Rate", "'$100 - 15%'"),
])
def test_eval_errors_are_diagnostics(run, expression, message, hint):
    result = run("eval", expression)
    assert result.returncode == 1
    assert result.stdout == ""
    assert re.match(r"<expr>:1:\d+: error\[[a-z-]+\]: ", result.stderr), result.stderr
    assert message in result.stderr
    if hint:
        assert hint in result.stderr
    # The source line and a caret underline follow the first line.
    lines = result.stderr.splitlines()
    assert lines[1].endswith(expression)
    assert "^" in lines[2]


def test_check_reports_every_mistake_with_locations(run, tmp_path):
    path = tmp_path / "mistakes.tax"
    path.write_text(
        "formula a(x: Money): Money = x * $2\n"
        "formula b(x: Money): Money = x +\n"
        "\n"
        "formula c(x: Money): Rate = x\n"
        "let d = unknown_name\n")
    result = run("check", str(path), "--no-color")
    assert result.returncode == 1
    locations = re.findall(rf"^{re.escape(str(path))}:(\d+):(\d+): error\[[a-z-]+\]:", result.stderr, re.M)
    lines = sorted({int(line) for line, _ in locations})
    assert lines == [1, 4, 5] or len(lines) >= 3, result.stderr
    assert "cannot multiply Money by Money" in result.stderr
    assert "unknown name 'unknown_name'" in result.stderr
    assert "errors" in result.stderr.splitlines()[-1]


def test_check_a_clean_file(run, tmp_path):
    path = tmp_path / "clean.tax"
    path.write_text("formula double(x: Money): Money = x * 2\n")
    result = run("check", str(path))
    assert result.returncode == 0
    assert result.stderr == ""


def test_lines_from_standard_input(run):
    result = run(stdin="1 + 1\nlet x = $5\nx * 2\nans + $1\n(1 +\n 2)\nbad + )\n2 * 3\n")
    assert result.stdout.splitlines() == ["2", "x = $5.00", "$10.00", "$11.00", "3", "6"]
    assert "<stdin>:7" in result.stderr
    assert result.returncode == 1


def test_formula_defined_on_standard_input(run):
    result = run(stdin="formula twice(x: Money): Money = x * 2\ntwice($21)\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "$42.00"


def test_usage_errors_exit_2(run):
    assert run("eval").returncode == 2
    assert run("frobnicate").returncode == 2
    assert run("--year", "abc", "eval", "1").returncode == 2
    assert run("eval", "1", "/no/such/file.tax").returncode == 2
    assert run("--bogus").returncode == 2


def test_help_and_version(run):
    help_text = run("--help")
    assert help_text.returncode == 0
    assert "taxpro eval" in help_text.stdout and "--year" in help_text.stdout
    version = run("--version")
    assert version.returncode == 0
    assert re.match(r"taxpro \d+\.\d+\.\d+", version.stdout)


def test_color_only_when_asked_or_on_a_terminal(run):
    plain = run("eval", "1 +")
    assert "\x1b[" not in plain.stderr
    colored = run("--color", "eval", "1 +")
    assert "\x1b[" in colored.stderr
    no_color = run("--color", "--no-color", "eval", "1 +")
    assert "\x1b[" not in no_color.stderr


def test_year_selects_figures(run):
    assert run("--year", "2025", "eval", "tax(ON.income_tax, $85,000)").stdout == "$5,609.17\n"
    other = run("--year", "2026", "eval", "tax(ON.income_tax, $85,000)").stdout
    assert other.startswith("$") and other != "$5,609.17\n"


def test_deep_nesting_and_huge_numbers_are_diagnostics(run, tmp_path):
    deep = "(" * 100_000 + "1" + ")" * 100_000
    path = tmp_path / "deep.tax"
    path.write_text("let x = " + deep + "\n")
    result = run("check", str(path))
    assert result.returncode == 1
    assert "nested too deeply" in result.stderr
    huge = tmp_path / "huge.tax"
    huge.write_text("let x = 1" + "0" * 10_000 + "\n")
    result = run("check", str(huge))
    assert result.returncode == 1
    assert "too large" in result.stderr
    result = run("eval", " * ".join(["1_000_000_000_000_000_000_000_000"] * 5))
    assert result.returncode == 1
    assert "too large" in result.stderr
