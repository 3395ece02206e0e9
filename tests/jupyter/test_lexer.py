"""The kernel's Pygments lexer: the words of the TextMate grammar, every example lexed cleanly, and the entry point
that lets nbconvert and JupyterLab find it by the name `kernel_info` gives (`pygments_lexer: taxpro`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pygments import lex
from pygments.token import Error, Keyword, Name, Number, String, Comment

from jupyter_support import EXAMPLES, KERNEL_PACKAGE, REPO

sys.path.insert(0, str(KERNEL_PACKAGE))

from taxpro_kernel import lexer  # noqa: E402
from taxpro_kernel.lexer import TaxProLexer  # noqa: E402

GRAMMAR = json.loads((REPO / "grammar" / "taxpro.tmLanguage.json").read_text())


def grammar_words(repository_key: str) -> set[str]:
    """The words in the `\\b(a|b|c)\\b` alternations of one entry of the TextMate grammar's repository."""
    text = json.dumps(GRAMMAR["repository"][repository_key])
    words = set()
    for group in re.findall(r"\\\\b\(([A-Za-z0-9_|]+)\)", text):
        words.update(group.split("|"))
    return words


def test_the_lexer_knows_the_grammars_words() -> None:
    assert set(lexer.TYPES) == grammar_words("types")
    assert set(lexer.JURISDICTIONS) | {"federal"} == grammar_words("jurisdictions")
    assert set(lexer.EXPRESSION_KEYWORDS) == grammar_words("keywords")
    assert set(lexer.CONSTANTS) == grammar_words("literals")
    assert set(lexer.BUILTINS) == grammar_words("calls")
    declarations = grammar_words("declarations")
    assert set(lexer.DECLARATION_KEYWORDS) <= declarations | {"federal", "test", "year", "brackets"}


SOURCES = sorted(EXAMPLES.glob("*.tax")) + sorted((REPO / "Sources" / "TaxProLibrary" / "Resources").glob("*.tax"))


@pytest.mark.parametrize("path", SOURCES, ids=[path.name for path in SOURCES])
def test_every_example_and_library_file_lexes_without_errors(path: Path) -> None:
    text = path.read_text()
    tokens = list(lex(text, TaxProLexer()))
    assert "".join(value for _, value in tokens) == text
    assert [value for kind, value in tokens if kind is Error] == []


def test_a_cell_is_highlighted_as_taxpro() -> None:
    code = ':explain tax(ON.income_tax, $85,000) + 13% # why\n## Doc.\nformula f(x: Money): Rate = x / $2 * 1.5'
    kinds = {value: kind for kind, value in lex(code, TaxProLexer()) if value.strip()}
    assert kinds[":explain"] in Keyword.Pseudo
    assert kinds["tax"] in Name.Builtin
    assert kinds["ON"] in Name.Constant
    assert kinds["income_tax"] in Name.Attribute
    assert kinds["$85,000"] in Number
    assert kinds["13%"] in Number
    assert kinds["# why"] in Comment
    assert kinds["## Doc."] in String.Doc
    assert kinds["formula"] in Keyword.Declaration
    assert kinds["f"] in Name.Function
    assert kinds["Money"] in Keyword.Type


def test_the_entry_point_registers_the_lexer_with_pygments(tmp_path: Path) -> None:
    """Installs a copy of the package (without its dependencies, which are here already: building it writes into
    its folder) and asks Pygments for `taxpro`."""
    package = tmp_path / "package"
    shutil.copytree(KERNEL_PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(tmp_path / "site"), str(package)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert installed.returncode == 0, installed.stderr
    found = subprocess.run(
        [sys.executable, "-c",
         "from pygments.lexers import get_lexer_by_name, get_lexer_for_filename;"
         "print(get_lexer_by_name('taxpro').name, get_lexer_for_filename('rates.tax').name)"],
        capture_output=True, text=True, env={"PYTHONPATH": str(tmp_path / "site"), "PATH": "/usr/bin:/bin"},
    )
    assert found.stdout.split() == ["TaxPro", "TaxPro"], found.stderr
