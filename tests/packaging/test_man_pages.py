"""The manual pages, as `man` shows them from the extracted package: taxpro(1) says what `--help` says (it is made
from the same command table, and every command and option of one is in the other), and taxpro-language(7) carries
docs/LANGUAGE.md (every section, and every name and operator its tables list).
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from packaging_support import REPO, clean_environment


def render(page, tmp_path, width: int = 100) -> str:
    """The page as `man -l` prints it, `width` columns wide, with groff's warnings turned into a failure."""
    environment = clean_environment(tmp_path / "home", MANWIDTH=str(width), LANG="C.UTF-8")
    result = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", str(page)], capture_output=True, text=True,
                            timeout=120, env=environment)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    # Plain text: man drops bold and underline when the output is not a terminal, but be sure.
    return re.sub(r".\x08", "", result.stdout)


def words(text: str) -> str:
    """Text with hyphenation and line breaks undone and runs of blanks made one space."""
    return " ".join(text.replace("\u2010\n", "").replace("\u2010", "-").split())


def sections(text: str) -> dict[str, str]:
    """A rendered page's sections by title (lines at the left margin start them)."""
    found = {}
    title = None
    for line in text.splitlines()[1:-1]:
        if line and not line[0].isspace():
            title = line.strip()
            found[title] = ""
        elif title:
            found[title] += line + "\n"
    return found


def taxpro(*arguments) -> str:
    result = subprocess.run([os.environ["TAXPRO"], *arguments], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, NO_COLOR="1"))
    assert result.returncode == 0, result.stderr
    return result.stdout


def help_commands() -> list[str]:
    """The commands `taxpro --help` lists, '' for taxpro alone."""
    lines = taxpro("--help").splitlines()
    start = lines.index("Commands:") + 1
    # A summary too long for the width goes on under itself, indented further: those lines name no command.
    names = [line.split()[0] for line in lines[start:lines.index("", start)] if not line.startswith("   ")]
    return ["" if name == "(none)" else name for name in names]


def help_options(command: str) -> set[str]:
    """The options `taxpro CMD --help` names; for taxpro alone, those of its synopsis and the common ones."""
    text = taxpro(*([command] if command else []), "--help")
    if not command:
        lines = text.splitlines()
        text = lines[lines.index("Usage:") + 1] + "\n" + text[text.index("Options of every command:"):]
    return set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", text))


@pytest.fixture(scope="module")
def manual(packages, tmp_path_factory) -> str:
    return render(packages.root / "usr/share/man/man1/taxpro.1.gz", tmp_path_factory.mktemp("man"))


def test_the_manual_renders_with_the_usual_sections(manual, packages):
    found = sections(manual)
    for title in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "REPL COMMANDS", "EXIT STATUS",
                  "ENVIRONMENT", "FILES", "SEE ALSO"]:
        assert title in found, title
    assert words(found["NAME"]).startswith("taxpro - ")
    assert manual.splitlines()[-1].split()[0:2] == ["taxpro", packages.version]


def test_every_command_and_option_of_help_is_in_the_manual_and_back(manual):
    found = sections(manual)
    commands = help_commands()
    synopsis = words(found["SYNOPSIS"])
    described = words(found["COMMANDS"])
    every_help_option = set()
    for command in commands:
        invocation = "taxpro" + (" " + command if command else "")
        usage = taxpro(*([command] if command else []), "--help") if command else taxpro("--help")
        if command:
            # The synopsis line of `taxpro CMD --help` is the manual's, word for word.
            lines = usage.splitlines()
            start = next(index for index, line in enumerate(lines) if line.startswith("Usage: "))
            line = words(" ".join(lines[start:lines.index("", start)]))[len("Usage: "):]
            assert line in synopsis and line in described, line
        else:
            assert f"{invocation} [--year YYYY]" in synopsis
        options = help_options(command)
        every_help_option |= options
        # The command's part of COMMANDS names each of its own options.
        part = described[described.index(invocation + " "):]
        following = [other for other in commands if other and other != command and f"taxpro {other} " in part]
        end = min((part.index(f"taxpro {other} ") for other in following), default=len(part))
        for option in options - {"--help", "--version", "--color", "--no-color"}:
            assert option in part[:end], (command, option)
    # And back: what the manual names is in some --help.
    manual_options = set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", words(manual)))
    common = help_options("")
    assert manual_options - every_help_option - common <= set(), manual_options - every_help_option
    manual_commands = set(re.findall(r"\btaxpro ([a-z]+)\b", synopsis))
    assert manual_commands == {command for command in commands if command}


def test_exit_statuses_environment_and_files(manual):
    found = sections(manual)
    overview = taxpro("--help")
    for code in ["0", "1", "2"]:
        assert re.search(rf"^\s+{code}\s", found["EXIT STATUS"], re.M)
    environment_lines = overview[overview.index("Environment:"):overview.index("Files:")]
    for variable in re.findall(r"^  (\S+)", environment_lines, re.M):
        assert variable in found["ENVIRONMENT"], variable
    files = words(found["FILES"])
    for path in re.findall(r"^  (\S+)", overview[overview.index("Files:"):], re.M):
        assert path in files, path
    for must in ["history", "profile.json", "records.json", "$XDG_CACHE_HOME/taxpro/library-"]:
        assert must in files, must


def test_the_repl_commands_are_the_repls(manual, tmp_path):
    """Every :command that the REPL's :help lists is in the manual."""
    listed = subprocess.run([os.environ["TAXPRO"], "repl"], input=":help\n", capture_output=True, text=True,
                            timeout=60, env=clean_environment(tmp_path / "home", PATH=os.environ["PATH"])).stdout
    names = set(re.findall(r"^\s+:(\w+)", listed, re.M))
    assert {"help", "ask", "quit"} <= names, listed
    repl = words(sections(manual)["REPL COMMANDS"])
    for name in names:
        assert f":{name}" in repl, name


def test_the_language_page_carries_the_reference(packages, tmp_path):
    page = render(packages.root / "usr/share/man/man7/taxpro-language.7.gz", tmp_path)
    text = words(page)
    reference = (REPO / "docs" / "LANGUAGE.md").read_text()
    found = sections(page)
    prose = re.sub(r"^\s*```.*?^\s*```", "", reference, flags=re.M | re.S)
    for heading in re.findall(r"^## (.+)$", prose, re.M):
        assert heading.upper() in found, heading
    # Every name, literal and operator written as code in the reference's tables and lists is on the page (wide
    # enough for no table cell to wrap: 800 columns; from about 900, groff 1.22's tbl gives a text block of the
    # rounding table a height beyond one page and warns, whatever the page says).
    text = words(render(packages.root / "usr/share/man/man7/taxpro-language.7.gz", tmp_path, width=800))
    spans = set(re.findall(r"`([^`\n]+)`", reference))
    assert len(spans) > 100
    for span in spans:
        assert words(span) in text, span
    assert "SEE ALSO" in found and "taxpro(1)" in found["SEE ALSO"]
