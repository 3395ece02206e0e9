"""`taxpro test`: the library's tests and the examples pass; a failure names the expression, both sides and
FILE:LINE:COL, and the last line counts passes and failures."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_library_tests_pass(taxpro):
    result = taxpro.run("test")
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.splitlines()[-1]
    match = re.fullmatch(r"(\d+) passed, 0 failed", last)
    assert match, last
    # the generated bracket tests (28) and the formula tests
    assert int(match.group(1)) >= 60


def test_the_library_tests_pass_whatever_the_year(taxpro):
    for year in ("2025", "2026"):
        result = taxpro.run("test", "--year", year)
        assert result.returncode == 0, result.stdout
        assert result.stdout.splitlines()[-1].endswith(" passed, 0 failed")


def test_the_examples_pass(taxpro):
    result = taxpro.run("test", str(REPO / "examples"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.fullmatch(r"\d+ passed, 0 failed", result.stdout.splitlines()[-1])


def test_a_failure_is_reported_with_location_and_values(taxpro, tmp_path):
    path = tmp_path / "two.tax"
    path.write_text(
        'test "passes" year 2025 {\n'
        "  tax(ON.income_tax, $85,000) == $5,609.17\n"
        "}\n"
        "\n"
        'test "fails" year 2025 {\n'
        "  $1 + $1 == $2\n"
        "  tax(ON.income_tax, $85,000) == $5,609.18\n"
        "}\n",
        encoding="utf-8",
    )
    result = taxpro.run("test", str(path))
    assert result.returncode == 1
    out = result.stdout
    assert f"{path}:7:3: error[test-failed]: test 'fails' failed" in out
    assert "tax(ON.income_tax, $85,000) == $5,609.18" in out
    assert re.search(r"left side:\s+\$5,609\.17", out)
    assert re.search(r"right side:\s+\$5,609\.18", out)
    assert out.splitlines()[-1] == "1 passed, 1 failed"
    # the passing check of the failing test is not reported
    assert ":6:" not in out
