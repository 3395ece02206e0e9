"""Hostile inputs on the command line: very large files, deep nesting, huge numbers and runaway evaluations end in
diagnostics (exit 1), never in a crash or a hang."""

import pytest

MEGABYTE = 1 << 20


@pytest.mark.parametrize("command", ["check", "eval"])
def test_a_50_megabyte_file_of_stray_characters(run, tmp_path, command):
    path = tmp_path / "flood.tax"
    path.write_text("$" * (50 * MEGABYTE))
    arguments = ["check", str(path)] if command == "check" else ["eval", "1 + 1", str(path)]
    result = run(*arguments)
    assert result.returncode == 1
    assert "too many errors; stopped reading here" in result.stderr
    assert len(result.stderr) < 200_000  # 500 diagnostics, each showing a window of the 50 MB line


def test_a_50_megabyte_file_with_an_error_at_its_end(run, tmp_path):
    path = tmp_path / "large.tax"
    comment = "# " + "x" * 97 + "\n"
    path.write_text("let ok = 1\n" + comment * (50 * MEGABYTE // len(comment)) + "let bad = $1,23\n")
    result = run("check", str(path))
    assert result.returncode == 1
    assert f"{path}:{50 * MEGABYTE // len(comment) + 2}:11: error[malformed-money]: commas in an amount" in result.stderr


@pytest.mark.parametrize("expression, message", [
    ("(" * 100_000 + "1" + ")" * 100_000, "nested too deeply"),
    ("-" * 100_000 + "1", "nested too deeply"),
    ("abs(" * 100_000 + "1" + ")" * 100_000, "nested too deeply"),
    ("ON" + ".name" * 100_000, "nested too deeply"),
    # Operators in a row are not nesting: they have a bound of their own, with its own message.
    ("1" + " + 1" * 100_000, "more than 10000 operators"),
])
def test_100000_levels_of_nesting(run, tmp_path, expression, message):
    # In a file (checked, or loaded by eval) and as a line of input (too long for a command-line argument).
    path = tmp_path / "deep.tax"
    path.write_text(f"let deep = {expression}\n")
    for arguments in (["check", str(path)], ["eval", "1", str(path)]):
        result = run(*arguments)
        assert result.returncode == 1
        assert message in result.stderr
    result = run(stdin=expression + "\n")
    assert result.returncode == 1
    assert message in result.stderr


def test_flat_sums_are_not_nesting(run, tmp_path):
    """Issue 15: 257 flat `+` terms said "nested too deeply"; 10,001 terms now add up."""
    for terms in (257, 10_001):
        path = tmp_path / "flat.tax"
        path.write_text("let total = " + " + ".join(["$1"] * terms) + "\n")
        result = run("eval", "total", str(path))
        assert result.returncode == 0, result.stderr[:300]
        assert result.stdout == f"${terms:,}.00\n"


def test_huge_numbers(run):
    result = run("eval", "1" + "0" * 10_000)
    assert result.returncode == 1
    assert "too large" in result.stderr
    big = "1" + "0" * 60
    result = run("eval", f"${big} * {big}")
    assert result.returncode == 1
    assert "the result is too large" in result.stderr


def test_an_evaluation_deeper_than_the_limit(run, tmp_path):
    path = tmp_path / "chain.tax"
    lines = ["formula g0(x: Number): Number = x"]
    lines += [f"formula g{k}(x: Number): Number = g{k - 1}(x) + 1" for k in range(1, 3_001)]
    path.write_text("\n".join(lines) + "\n")
    result = run("eval", "g3000(1)", str(path))
    assert result.returncode == 1
    assert "levels deep and was stopped" in result.stderr
    assert run("eval", "g300(1)", str(path)).stdout == "301\n"
