"""Shell completion: `taxpro complete` (the hidden command the scripts call) answers from the command table and the
library, and bash, zsh and fish — each loading the script from where the extracted package put it, the way the shell
finds it when the package is installed — complete `taxpro e<Tab>`, `taxpro ex<Tab>`, `--year <Tab>` (the years of
the data), `.tax` files and the names in an expression.
"""

from __future__ import annotations

import os
import re
import subprocess
import time

import pexpect
import pytest
from packaging_support import clean_environment, data_years

YEARS = [str(year) for year in data_years()]


def complete(*words: str, **options: str) -> tuple[str, list[tuple[str, str]]]:
    arguments = [f"--{name}={value}" for name, value in options.items()]
    result = subprocess.run([os.environ["TAXPRO"], "complete", *arguments, "--", *words], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    return lines[0], [tuple(line.split("\t", 1)) for line in lines[1:]]


def offered(*words: str) -> list[str]:
    return [word for word, _ in complete(*words)[1]]


def help_text(*arguments: str) -> str:
    return subprocess.run([os.environ["TAXPRO"], *arguments, "--help"], capture_output=True, text=True,
                          timeout=60).stdout


def listed_commands() -> list[str]:
    """The commands `taxpro --help` lists, without `(none)` (taxpro alone)."""
    overview = help_text().splitlines()
    start = overview.index("Commands:") + 1
    # A summary too long for the width goes on under itself, indented further: those lines name no command.
    listed = [line.split()[0] for line in overview[start:overview.index("", start)] if not line.startswith("   ")]
    return [name for name in listed if name != "(none)"]


def own_options(command: str) -> set[str]:
    """The options in the Options: part of `taxpro COMMAND --help` (not the ones of every command)."""
    text = help_text(command)
    if "Options:" not in text:
        return set()
    return set(re.findall(r"^  (?:-\w, )?(--[\w-]+)", text.split("Options:")[1].split("\n\n")[0], re.M))


def test_commands_from_the_table():
    kind, candidates = complete("")
    assert kind == "commands"
    assert [word for word, _ in candidates] == listed_commands()
    assert offered("e") == ["eval", "explain"]
    assert offered("ex") == ["explain"]
    assert offered("ch") == ["check", "chart"]
    assert all(description for _, description in candidates)
    assert "complete" not in offered("c") and "man" not in offered("m")  # hidden commands are not offered


def test_each_commands_own_options():
    commands = listed_commands()
    assert {"eval", "explain", "chart", "plot", "repl", "lsp"} <= set(commands), commands
    options = {command: own_options(command) for command in commands}
    assert "--digits" in options["eval"] and "--json" in options["repl"] and "--bars" in options["chart"], options
    for command in commands:
        kind, candidates = complete(command, "--")
        words = {word for word, _ in candidates}
        assert kind == "options"
        assert options[command] <= words and {"--help", "--no-color", "--version"} <= words, (command, words)
        # Only this command's: another command's option is a usage error, so it is not offered.
        others = set().union(*(options[other] for other in commands if other != command)) - options[command]
        assert others and not others & words, (command, others & words)
    # An option given once is not offered again.
    assert "--year" not in offered("eval", "--year", "2025", "--")


def test_values_of_options_and_arguments():
    assert offered("--year", "") == YEARS
    assert offered("eval", "--year", "") == YEARS
    assert offered("eval", "--year=") == [f"--year={year}" for year in YEARS]
    assert complete("eval", "--csv", "")[0] == "files csv"
    assert complete("check", "")[0] == "files tax"
    assert complete("eval", "1", "")[0] == "files tax"  # FILEs after the expression
    assert complete("plot", "x", "--svg", "")[0] == "files svg"
    assert complete("fmt", "-") == ("options", complete("fmt", "-")[1]) and "-" in offered("fmt", "-")
    assert complete("fmt", "")[0] == "files tax" and offered("fmt", "") == ["-"]
    assert offered("plot", "x", "--width", "") == []
    # After --, a word starting with - is an argument (an expression, here), not an option.
    assert complete("eval", "--", "-")[0] == "code" and "--year" not in offered("eval", "--", "-")


def test_names_in_expressions():
    kind, candidates = complete("eval", "provincial_t")
    assert kind == "code"
    assert "provincial_tax" in [word for word, _ in candidates]
    assert dict(candidates)["provincial_tax"].startswith("provincial_tax(income: Money")
    # The whole word comes back, with what was typed before the name.
    assert "tax(ON.income_tax" in offered("explain", "tax(ON.inc")
    assert all(word.startswith("ON.") for word in offered("plot", "ON."))
    assert {"ON.income_tax", "ON.basic_personal_amount"} <= set(offered("plot", "ON."))
    assert "1 + max" in offered("eval", "1 + ma")
    assert "take_home_pay" in offered("chart", "take_home")  # chart's EXPR is code too


def test_a_command_line_split_as_bash_does():
    assert complete(line="taxpro eval 'tax(ON.inc", replacing="tax(ON.inc")[1][0][0] == "tax(ON.income_tax"
    assert [word for word, _ in complete(line="taxpro --year=", replacing="")[1]] == YEARS
    assert [word for word, _ in complete(line="taxpro eval \"a b\" --ye", replacing="--ye")[1]] == ["--year"]
    # After `(`, a word-break character, bash replaces only the name: candidates come back from there.
    assert [word for word, _ in complete(line="taxpro eval 'max(provincial_t",
                                         replacing="provincial_t")[1]][:1] == ["provincial_tax"]


# --- The shells, with the scripts where the package put them ---------------------------------------------------------

@pytest.fixture
def shell_environment(packages, tmp_path):
    """A user's environment whose PATH starts with the extracted package's /usr/bin and whose XDG_DATA_DIRS starts
    with its /usr/share, in a folder holding a .tax file, another file and a folder."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "income.tax").write_text("let x = 1\n")
    (folder / "notes.txt").write_text("")
    (folder / "more").mkdir()
    environment = clean_environment(
        tmp_path / "home", PATH=f"{packages.root}/usr/bin:/usr/bin:/bin",
        XDG_DATA_DIRS=f"{packages.root}/usr/share:/usr/share", XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"))
    return environment, folder


BASH_PROBE = r"""
source /usr/share/bash-completion/bash_completion
__load_completion taxpro || echo 'no completion found for taxpro'
complete -p taxpro
probe() { # the line up to the cursor; prints what Tab would offer
  COMP_LINE=$1 COMP_POINT=${#1}
  read -ra COMP_WORDS <<<"$1"
  [[ $1 == *' ' ]] && COMP_WORDS+=('')
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  local completion=$(complete -p taxpro | sed -n 's/.* -F \([^ ]*\) .*/\1/p')
  "$completion" taxpro "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
  printf '%s|' "$1"; printf '%s ' $(printf '%s\n' "${COMPREPLY[@]}" | sort); echo
}
probe 'taxpro e'
probe 'taxpro ex'
probe 'taxpro --year '
probe 'taxpro check '
probe 'taxpro eval provincial_t'
"""


def test_bash_finds_the_script_and_completes(packages, shell_environment):
    environment, folder = shell_environment
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", BASH_PROBE], capture_output=True, text=True,
                            timeout=120, cwd=folder, env=environment)
    lines = result.stdout.splitlines()
    # bash-completion loaded the script from the package's folder: it looks in XDG_DATA_DIRS, as it would in
    # /usr/share (from 2.12 also beside the command's bin folder).
    assert lines[0] == "complete -F _taxpro taxpro", result.stdout + result.stderr
    answers = dict(line.split("|", 1) for line in lines[1:])
    assert answers["taxpro e"].split() == ["eval", "explain"]
    assert answers["taxpro ex"].split() == ["explain"]
    assert answers["taxpro --year "].split() == YEARS
    assert answers["taxpro check "].split() == ["income.tax", "more"]
    assert "provincial_tax" in answers["taxpro eval provincial_t"].split()


def interactive(command: list[str], environment: dict, folder, setup: str) -> pexpect.spawn:
    """The shell at a terminal once `setup` has run (its output, not the echo of the typed line, says so)."""
    child = pexpect.spawn(command[0], command[1:], env=environment, cwd=str(folder), encoding="utf-8",
                          dimensions=(40, 200), timeout=30)
    child.sendline(setup + "; echo READY_$((6 * 7))")
    child.expect_exact("READY_42")
    settle(child)
    return child


def tab(child: pexpect.spawn, text: str, tabs: int = 1) -> str:
    """Types `text`, presses Tab, and returns what the terminal showed until it settled."""
    child.send(text)
    seen = ""
    for _ in range(tabs):
        child.send("\t")
        seen += settle(child)
    child.sendcontrol("c")
    settle(child)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x07\x08\r]", "", seen)


def settle(child: pexpect.spawn, quiet: float = 0.8) -> str:
    seen = ""
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            seen += child.read_nonblocking(4096, timeout=quiet)
        except pexpect.TIMEOUT:
            break
    return seen


def test_bash_at_a_terminal(packages, shell_environment):
    environment, folder = shell_environment
    child = interactive(["bash", "--norc", "--noprofile", "-i"], dict(environment, INPUTRC="/dev/null"), folder,
                        "PS1='$ '; source /usr/share/bash-completion/bash_completion")
    try:
        assert "explain" in tab(child, "taxpro ex")  # the one match is written out
        listing = tab(child, "taxpro e", tabs=2)  # two matches: listed on the second Tab
        assert "eval" in listing and "explain" in listing
        # The years share a prefix: the first Tab writes it, the next finds nothing more to write, the third lists.
        listing = tab(child, "taxpro --year ", tabs=3)
        assert all(year in listing for year in YEARS), listing
    finally:
        child.close(force=True)


def test_zsh_completes_from_vendor_completions(packages, shell_environment):
    environment, folder = shell_environment
    vendor = packages.root / "usr/share/zsh/vendor-completions"
    child = interactive(["zsh", "-f", "-i"], environment, folder,
                        f"PS1='%% '; fpath=({vendor} $fpath); autoload -U compinit; compinit -u -D")
    try:
        assert "explain" in tab(child, "taxpro ex")
        listing = tab(child, "taxpro e")
        assert "eval" in listing and "explain" in listing, listing
        listing = tab(child, "taxpro --year ", tabs=2)
        assert all(year in listing for year in YEARS), listing
        listing = tab(child, "taxpro check ", tabs=2)
        assert "income.tax" in listing and "notes.txt" not in listing, listing
        assert "income_tax" in tab(child, "taxpro eval 'tax(ON.inc")
    finally:
        child.close(force=True)


def fish_complete(environment, folder, line: str) -> list[str]:
    result = subprocess.run(["fish", "-c", f"complete -C {line!r}"], capture_output=True, text=True, timeout=120,
                            cwd=folder, env=environment)
    assert result.returncode == 0, result.stderr
    return [candidate.split("\t")[0] for candidate in result.stdout.splitlines()]


def test_fish_completes_from_vendor_completions(packages, shell_environment):
    environment, folder = shell_environment
    # fish finds vendor_completions.d through XDG_DATA_DIRS, as it finds /usr/share/fish/vendor_completions.d.
    assert fish_complete(environment, folder, "taxpro e") == ["eval", "explain"]
    assert fish_complete(environment, folder, "taxpro ex") == ["explain"]
    assert fish_complete(environment, folder, "taxpro --year ") == YEARS
    assert fish_complete(environment, folder, "taxpro check ") == ["income.tax", "more/"]
    assert "tax(ON.income_tax" in fish_complete(environment, folder, "taxpro eval 'tax(ON.inc")
