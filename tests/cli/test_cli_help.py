"""`--help`, and the command table behind it: each command's help is a golden file (tests/cli/help/COMMAND.txt, and
taxpro.txt for `taxpro --help`), and what the help says a command takes is what it takes — every option another
command takes is refused by this one with exit status 2 and a message naming it.

Run with TAXPRO_UPDATE_GOLDEN=1 to write the golden files from the binary (a new command's too), then read the diff
before committing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

HELP = Path(__file__).resolve().parent / "help"
UPDATE = bool(os.environ.get("TAXPRO_UPDATE_GOLDEN"))


def section(text: str, title: str) -> list[str]:
    """The lines of a help section, from the line after `title` to the next blank line."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    return lines[start:end]


def commands(taxpro) -> list[str]:
    """The commands `taxpro --help` lists ('' for `taxpro` alone, listed as (none))."""
    # A summary too long for the line continues on lines indented further; they name no command.
    rows = [line for line in section(taxpro.run("--help").stdout, "Commands:") if not line.startswith("   ")]
    listed = [line.split()[0] for line in rows]
    return ["" if name == "(none)" else name for name in listed]


def options(help_text: str) -> dict[str, str | None]:
    """A command's own options (its `Options:` section) with the name of their value, or None for a flag."""
    if "Options:" not in help_text.splitlines():
        return {}
    found = {}
    for line in section(help_text, "Options:"):
        match = re.match(r"\s+(?:-\w, )?(--[\w-]+)(?: (\S+))?", line)
        if match:
            found[match.group(1)] = match.group(2)
    return found


def help_of(taxpro, command: str) -> str:
    return taxpro.run(*([command] if command else []), "--help").stdout


def test_the_commands_are_the_golden_files(taxpro):
    """One golden file per command; with TAXPRO_UPDATE_GOLDEN=1, written (a new command's too) and stale ones removed."""
    names = {name or "taxpro" for name in commands(taxpro)}
    assert {"taxpro", "eval", "explain", "check", "test", "fmt", "lsp", "plot", "repl"} <= names
    if UPDATE:
        HELP.mkdir(exist_ok=True)
        for stale in HELP.glob("*.txt"):
            stale.unlink()
        for name in names:
            (HELP / f"{name}.txt").write_text(help_of(taxpro, "" if name == "taxpro" else name))
    assert {path.stem for path in HELP.glob("*.txt")} == names


@pytest.mark.parametrize("name", sorted(path.stem for path in HELP.glob("*.txt")))
def test_help_matches_its_golden_file(taxpro, name):
    command = [] if name == "taxpro" else [name]
    result = taxpro.run(*command, "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == (HELP / f"{name}.txt").read_text()
    # -h, and --help before the command's name, say the same.
    assert taxpro.run(*command, "-h").stdout == result.stdout
    assert taxpro.run("--help", *command).stdout == result.stdout


def test_the_overview_lists_every_command_with_its_synopsis(taxpro):
    overview = taxpro.run("--help").stdout
    usage = " ".join(" ".join(section(overview, "Usage:")).split())
    for command in commands(taxpro):
        if not command:
            continue
        lines = help_of(taxpro, command).splitlines()
        start = next(index for index, line in enumerate(lines) if line.startswith("Usage: "))
        synopsis = " ".join(" ".join(lines[start:lines.index("", start)]).split())[len("Usage: "):]
        assert synopsis.startswith(f"taxpro {command}") and synopsis in usage, synopsis


def test_an_option_of_another_command_is_a_usage_error_naming_the_command(taxpro, tmp_path):
    path = tmp_path / "f.tax"
    path.write_text("let x = 1\n")
    taken = {command: options(help_of(taxpro, command)) for command in commands(taxpro) if command}
    # `taxpro` alone has no help of its own: its synopsis in the overview names its options.
    bare = section(taxpro.run("--help").stdout, "Usage:")[0].split()
    assert bare[0] == "taxpro"
    taken[""] = dict(re.findall(r"\[(--[\w-]+)(?: ([^\]]+))?\]", " ".join(bare[1:])))
    assert taken[""] == {"--year": "YYYY"}
    every = {name: value for found in taken.values() for name, value in found.items()}
    assert {"--year", "--csv", "--json", "--syntax", "--check", "--over", "--svg", "--width", "--height"} <= set(every)
    refused = 0
    for command, own in taken.items():
        for option, value in every.items():
            if option in own:
                continue
            arguments = [*([command] if command else []), option, *(["x"] if value else []), "1", str(path)]
            if not command:
                arguments = arguments[:-2]
            result = taxpro.run(*arguments, stdin="")
            subject = command or "taxpro without a command"
            assert result.returncode == 2, (arguments, result.stdout, result.stderr)
            assert f"{subject} does not take {option}" in result.stderr, (arguments, result.stderr)
            assert result.stdout == ""
            refused += 1
    assert refused > 30


def test_the_reviews_example_is_refused(taxpro, tmp_path):
    path = tmp_path / "f.tax"
    path.write_text("let x = 1\n")
    result = taxpro.run("check", "--svg", "x", "--csv", "y", "--over", "a=1..2", str(path))
    assert result.returncode == 2
    assert "check does not take --svg" in result.stderr
    assert "taxpro check --help" in result.stderr


def test_a_mistyped_command_or_option_is_named_with_what_was_meant(taxpro):
    for arguments, message in [
        (["evl", "1"], "unknown command 'evl'; did you mean 'eval'?"),
        (["chek", "f.tax"], "unknown command 'chek'; did you mean 'check'?"),
        (["eval", "--yeer", "2025", "1"], "unknown option '--yeer'; did you mean '--year'?"),
        # An expression where the command goes: how to evaluate it, quoted for the shell.
        (["$100 * 13%"], "to evaluate an expression: taxpro eval '$100 * 13%'"),
        (["it's 1"], "taxpro eval 'it'\\''s 1'"),
        # Quoted only when the shell needs it.
        (["1+1"], "to evaluate an expression: taxpro eval 1+1\n"),
    ]:
        result = taxpro.run(*arguments, stdin="")
        assert result.returncode == 2 and result.stdout == "", arguments
        assert message in result.stderr, (arguments, result.stderr)
    # A mistake after a command's name points to that command's help; one before any, to the overview.
    assert "Run 'taxpro eval --help' for usage." in taxpro.run("eval", "--format", "json", "1", stdin="").stderr
    assert "Run 'taxpro --help' for usage." in taxpro.run("--frobnicate", stdin="").stderr
    # Nothing is guessed from one letter or from a word like no command.
    for arguments in (["eval", "-x", "1"], ["frobnicate"]):
        result = taxpro.run(*arguments, stdin="")
        assert result.returncode == 2 and "did you mean" not in result.stderr, arguments


def test_arguments_are_counted(taxpro):
    for arguments, message in [
        (["lsp", "extra"], "lsp takes no arguments, not 'extra'"),
        (["eval"], "eval needs an expression"),
        (["explain"], "explain needs an expression"),
        (["plot", "1"], "plot needs --over NAME=FROM..TO"),
        (["plot"], "plot needs --over"),
        (["check"], "check needs at least one file"),
        (["fmt"], "fmt needs at least one file (or -)"),
        (["plot", "x", "--over", "nonsense"], "--over needs NAME=FROM..TO"),
        (["plot", "x", "--over", "x=1..2", "--width", "5"], "--width needs a number from 20 to 1000"),
        (["eval", "--json=yes", "1"], "--json takes no value"),
        (["eval", "1", "--year"], "--year needs a value"),
        (["fmt", "-", "-"], "fmt reads standard input once"),
    ]:
        result = taxpro.run(*arguments, stdin="")
        assert result.returncode == 2, arguments
        assert message in result.stderr, (arguments, result.stderr)


def test_options_anywhere_and_values_either_way(taxpro):
    expected = taxpro.run("eval", "--year", "2025", "tax(ON.income_tax, $85,000)").stdout
    assert expected.startswith("$")
    for arguments in (["--year", "2025", "eval", "tax(ON.income_tax, $85,000)"],
                      ["eval", "tax(ON.income_tax, $85,000)", "--year=2025"],
                      ["eval", "--year", "2025", "--", "tax(ON.income_tax, $85,000)"]):
        result = taxpro.run(*arguments)
        assert result.returncode == 0 and result.stdout == expected, (arguments, result.stderr)
    # After `--`, what looks like an option is an argument; a negative number never is an option.
    assert taxpro.run("eval", "--", "-1").stdout == "-1\n"
    assert taxpro.run("eval", "-$5").stdout == "-$5.00\n"
