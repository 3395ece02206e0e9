"""docs/LANGUAGE.md says what the core declares: one row per diagnostic code, each with its severity and an example
that, run as the row says, is reported with that code; the built-in functions' signatures as their declarations
write them; and the reserved words and operators as the lexer reads them. The core's side comes from
`taxpro vocabulary` (a hidden command that prints its tables)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LANGUAGE = REPO / "docs" / "LANGUAGE.md"


def section(title):
    text = LANGUAGE.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"docs/LANGUAGE.md has no section '{title}'"
    return match.group(1)


def table_rows(text):
    """The cells of each row of the first table in `text`, header and rule left out."""
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows[2:]]


def unquote(cell):
    match = re.fullmatch(r"`(.*)`", cell)
    return match.group(1) if match else cell


@pytest.fixture(scope="module")
def vocabulary(taxpro):
    result = taxpro.run("vocabulary")
    assert result.returncode == 0, result.stderr
    return [line.split(" ", 2) for line in result.stdout.splitlines()]


@pytest.fixture(scope="module")
def code_rows():
    return {unquote(row[0]): row for row in table_rows(section("Diagnostics"))}


def test_every_code_is_listed_once_with_its_severity(vocabulary, code_rows):
    codes = {entry[1]: entry[2] for entry in vocabulary if entry[0] == "diagnostic"}
    assert len(codes) > 40
    assert len(code_rows) == len(table_rows(section("Diagnostics"))), "a code is listed twice"
    assert sorted(code_rows) == sorted(codes), (
        f"missing: {sorted(set(codes) - set(code_rows))}, not codes: {sorted(set(code_rows) - set(codes))}")
    for code, severity in codes.items():
        assert code_rows[code][1] == severity, f"{code} is a {severity}"


def run_example(taxpro, tmp_path, how, example):
    if how == "eval":
        return taxpro.run("eval", example)
    if how == "explain":
        return taxpro.run("explain", example)
    if how in ("check", "test"):
        path = tmp_path / "example.tax"
        path.write_text(example.replace("\\n", "\n") + "\n", encoding="utf-8")
        return taxpro.run(how, str(path))
    if how in ("plot", "chart"):
        return taxpro.run(how, *shlex.split(example))
    raise AssertionError(f"unknown way to run an example: {how}")


def test_every_example_is_reported_with_its_code(taxpro, tmp_path, code_rows):
    without = []
    for code, (_, severity, how, example, meaning) in code_rows.items():
        assert meaning, f"{code} says nothing about what it means"
        if how == "—":
            assert not example, f"{code} has an example but no way to run it"
            without.append(code)
            continue
        result = run_example(taxpro, tmp_path, how, unquote(example))
        # `taxpro test` reports on standard output, the others on standard error.
        assert f"{severity}[{code}]:" in result.stdout + result.stderr, (
            f"{code}: {how} {example} printed:\n{result.stdout}{result.stderr}")
        assert result.returncode == (0 if severity == "warning" else 1), (code, result.returncode)
    # What no short input can show: limits, interruptions, and TaxPro's own mistakes.
    # (`not-utf8` needs bytes that a Markdown table cannot hold: tests/cli/test_encoding.py shows it.)
    assert sorted(without) == sorted(["too-deep", "too-many-operators", "too-many-errors", "too-large", "not-utf8",
                                      "inference-too-deep", "step-limit", "depth-limit", "cancelled", "internal"])


def test_the_builtin_functions_are_documented_as_declared(vocabulary):
    declared = {entry[2] for entry in vocabulary if entry[0] == "builtin"}
    documented = set()
    for row in table_rows(section("Built-in functions")):
        documented |= set(re.findall(r"`([a-z_0-9]+\([^`]*\): [A-Za-z]+)`", row[0]))
    assert documented == declared, (
        f"not documented: {sorted(declared - documented)}, not declared: {sorted(documented - declared)}")


def test_the_reserved_words_and_operators_are_documented_as_the_lexer_reads_them(vocabulary):
    text = " ".join(section("Lexical structure").split())
    reserved = re.search(r"Reserved words: `([^`]*)`", text)
    contextual = re.search(r"`province`, `parameters`, `test` and `year` are keywords only", text)
    operators = re.search(r"Operators and punctuation: `([^`]*)`", text)
    assert reserved and contextual and operators, "the lexical structure no longer lists them where this test looks"
    assert set(reserved.group(1).split()) == {e[1] for e in vocabulary if e[0] == "keyword" and e[2] == "reserved"}
    assert {"province", "parameters", "test", "year"} == {
        e[1] for e in vocabulary if e[0] == "keyword" and e[2] == "contextual"}
    assert set(operators.group(1).split()) == {e[1] for e in vocabulary if e[0] == "symbol"}
