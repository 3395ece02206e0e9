"""The editor grammars, grammar/taxpro.lark and the fuzz dictionary name exactly the language's keywords, types and
built-in functions, as the core's one table has them (`taxpro vocabulary`, a hidden command that prints it).

Each file is read the way it is written (Vim `syn keyword` lines, Emacs `regexp-opt` lists, TextMate scopes, Lark's
quoted words and its NAME exclusions, the dictionary's entries), so a word missing from a file, or one the language
does not have, fails here with the file and the word.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def table():
    binary = os.environ.get("TAXPRO")
    if not binary:
        pytest.fail("set TAXPRO to the taxpro binary (scripts/test does)")
    lines = subprocess.run([binary, "vocabulary"], capture_output=True, text=True, check=True,
                           timeout=60).stdout.splitlines()
    entries = [line.split(" ", 2) for line in lines]
    words = {
        "keywords": {e[1] for e in entries if e[0] == "keyword"},
        "reserved": {e[1] for e in entries if e[0] == "keyword" and e[2] == "reserved"},
        "symbols": {e[1] for e in entries if e[0] == "symbol"},
        "types": {e[1] for e in entries if e[0] == "type"},
        "builtins": {e[1] for e in entries if e[0] == "builtin"},
        "documentation": {e[1] for e in entries if e[0] == "documentation"},
    }
    assert words["keywords"] >= {"formula", "let", "if"} and words["builtins"] >= {"tax", "min"}, lines
    return words


def same(found, expected, what, path):
    missing, extra = sorted(expected - found), sorted(found - expected)
    assert not missing and not extra, (
        f"{path.relative_to(ROOT)}: {what} missing {missing} and not in the language {extra} "
        "(the language's are what `taxpro vocabulary` prints; grammar/sync_vocabulary.py writes the built-ins)")


def alternatives(group):
    """`min\\|max` or `min|max` → {"min", "max"}."""
    return {word for word in re.split(r"\\?\|", group) if word}


# MARK: Vim (and the identical Neovim copy)


def vim_words(path):
    text = path.read_text()
    # Lists of words a declaration name may not be (`province if`) are lookaheads, not highlighting.
    text = re.sub(r"\\%\(\\%\(([^)]*)\\\)\\>\\\)\\@!", "", text)
    keywords = set()
    for group, words in re.findall(r"^syn keyword (\w+)\s+(.*)$", text, re.M):
        if group != "taxproTodo":
            keywords |= set(words.split())
    keywords |= set(re.findall(r"^syn match\s+taxproDeclaration\s+/\\<(\w+)", text, re.M))

    def alternation(group):
        match = re.search(rf"^syn match\s+{group}\s+/\\<\\%\(([\w\\|]+)\\\)", text, re.M)
        assert match, f"{path}: no {group}"
        return alternatives(match.group(1))

    return keywords, alternation("taxproBuiltin"), alternation("taxproType")


@pytest.mark.parametrize("relative", ["editors/vim/syntax/taxpro.vim", "editors/nvim/syntax/taxpro.vim"])
def test_vim_syntax(table, relative):
    path = ROOT / relative
    keywords, builtins, types = vim_words(path)
    same(keywords, table["keywords"], "keywords", path)
    same(builtins, table["builtins"], "built-in functions", path)
    same(types, table["types"], "types", path)


# MARK: Emacs


def test_emacs_mode(table):
    path = ROOT / "editors/emacs/taxpro-mode.el"
    text = path.read_text()

    def constant(name):
        match = re.search(rf"\(defconst {name}\s+'\(([^)]*)\)", text)
        assert match, f"{path}: no {name}"
        return set(re.findall(r'"([^"]+)"', match.group(1)))

    keywords = set()
    for words in re.findall(r"\(regexp-opt '\(([^)]*)\)", text):
        keywords |= set(re.findall(r'"([a-z]+)"', words))
    keywords |= set(re.findall(r'"\\\\_<\\\\\(([a-z]+)\\\\\)', text))
    keywords |= set(re.findall(r'\(concat "\\\\_<\\\\\(([a-z]+)\\\\\)', text))
    same(keywords, table["keywords"], "keywords", path)
    same(constant("taxpro-builtins"), table["builtins"], "built-in functions", path)
    same(constant("taxpro-types"), table["types"], "types", path)
    # The words a province's code cannot be are reserved words.
    extra = constant("taxpro--expression-keywords") - table["reserved"]
    assert not extra, f"{path}: taxpro--expression-keywords names {sorted(extra)}, which are not reserved words"


# MARK: TextMate (and the VS Code copy)


def textmate_words(path):
    grammar = json.loads(path.read_text())
    found = {"keywords": set(), "builtins": set(), "types": set(), "reserved": set()}

    def scopes(pattern):
        names = [pattern.get("name", "")]
        for key in ("captures", "beginCaptures"):
            names += [capture.get("name", "") for capture in pattern.get(key, {}).values()]
        return names

    def visit(pattern):
        if isinstance(pattern, dict):
            regex = pattern.get("match") or pattern.get("begin")
            if regex:
                lookaheads = re.findall(r"\(\?!\(\?:([a-z|]+)\)\\b\)", regex)
                for words in lookaheads:
                    found["reserved"] |= alternatives(words)
                plain = re.sub(r"\(\?!\(\?:[a-z|]+\)\\b\)", "", regex)
                words = set()
                for group in re.findall(r"\((?:\?:)?([a-z_][a-z0-9_]*(?:\|[a-z_][a-z0-9_]*)*)\)", plain):
                    words |= alternatives(group)
                capitalised = set()
                for group in re.findall(r"\(([A-Z][A-Za-z]*(?:\|[A-Z][A-Za-z]*)*)\)", plain):
                    capitalised |= alternatives(group)
                names = scopes(pattern)
                if any(name.startswith(("keyword.", "constant.language.")) for name in names):
                    found["keywords"] |= words
                if any(name.startswith("support.function.builtin") for name in names):
                    found["builtins"] |= words
                if any(name.startswith("support.type.builtin") for name in names):
                    found["types"] |= capitalised
            for value in pattern.values():
                visit(value)
        elif isinstance(pattern, list):
            for value in pattern:
                visit(value)

    visit(grammar)
    return found


@pytest.mark.parametrize("relative", ["grammar/taxpro.tmLanguage.json", "editors/vscode/syntaxes/taxpro.tmLanguage.json"])
def test_textmate_grammar(table, relative):
    path = ROOT / relative
    found = textmate_words(path)
    # Documentation fields (`## tip:`) are keywords of the comments, not of the language.
    same(found["keywords"] - table["documentation"], table["keywords"], "keywords", path)
    same(found["builtins"], table["builtins"], "built-in functions", path)
    same(found["types"], table["types"], "types", path)
    extra = found["reserved"] - table["reserved"]
    assert not extra, f"{path}: lookaheads name {sorted(extra)}, which are not reserved words"


# MARK: Documentation fields (`## tip:`), in every editor


def test_every_editor_highlights_the_documentation_fields(table):
    assert table["documentation"] >= {"definition", "tip", "parts"}
    found = {}
    for relative in ("editors/vim/syntax/taxpro.vim", "editors/nvim/syntax/taxpro.vim"):
        match = re.search(r"taxproDocField\s+/.*?\\%\(([a-z\\|]+)\\\):/", (ROOT / relative).read_text())
        assert match, f"{relative}: no taxproDocField"
        found[relative] = alternatives(match.group(1))
    emacs = re.search(r"\(defconst taxpro-doc-fields\s+'\(([^)]*)\)", (ROOT / "editors/emacs/taxpro-mode.el").read_text())
    assert emacs, "editors/emacs/taxpro-mode.el: no taxpro-doc-fields"
    found["editors/emacs/taxpro-mode.el"] = set(re.findall(r'"([a-z]+)"', emacs.group(1)))
    for relative in ("grammar/taxpro.tmLanguage.json", "editors/vscode/syntaxes/taxpro.tmLanguage.json"):
        match = re.search(r"\(##\)\\\\s\*\(\?:\(([a-z|]+)\)", (ROOT / relative).read_text())
        assert match, f"{relative}: no documentation fields"
        found[relative] = alternatives(match.group(1))
    jupyter = re.search(r"^DOC_LABELS = \(([^)]*)\)", (ROOT / "editors/jupyter/taxpro_kernel/lexer.py").read_text(), re.M)
    assert jupyter, "editors/jupyter/taxpro_kernel/lexer.py: no DOC_LABELS"
    found["editors/jupyter/taxpro_kernel/lexer.py"] = set(re.findall(r'"([a-z]+)"', jupyter.group(1)))
    for relative, fields in found.items():
        same(fields, table["documentation"], "documentation fields", ROOT / relative)


# MARK: Lark


def test_lark_grammar(table):
    path = ROOT / "grammar/taxpro.lark"
    text = "\n".join(line.split("//", 1)[0] for line in path.read_text().splitlines())
    name = re.search(r"^NAME: /\(\?!\(([a-z|]+)\)", text, re.M)
    assert name, f"{path}: no NAME terminal excluding the reserved words"
    # The terminals' regular expressions are not words of the grammar.
    text = re.sub(r"/(?:[^/\\\n]|\\.)+/", "", text)
    quoted = set(re.findall(r'"([^"\s]+)"', text))
    same({word for word in quoted if re.fullmatch(r"[a-z]+", word)}, table["keywords"], "keywords", path)
    same({word for word in quoted if not re.fullmatch(r"[a-z]+", word)}, table["symbols"], "operators", path)
    same(alternatives(name.group(1)), table["reserved"], "reserved words (excluded from NAME)", path)


# MARK: The fuzz dictionary


def dictionary_entry(quoted: str) -> str:
    r"""An entry's text as libFuzzer reads it: printable ASCII, with `\\`, `\"` and `\xNN` escapes for the rest (so a
    symbol outside ASCII is written as the escapes of its UTF-8 bytes; libFuzzer refuses the raw bytes)."""
    assert quoted.isascii(), f"{quoted!r}: libFuzzer reads only ASCII; write other bytes as \\xNN"
    data = bytearray()
    index = 0
    while index < len(quoted):
        if quoted[index] == "\\" and quoted[index + 1] == "x":
            data.append(int(quoted[index + 2:index + 4], 16))
            index += 4
        elif quoted[index] == "\\":
            data += quoted[index + 1].encode()
            index += 2
        else:
            data += quoted[index].encode()
            index += 1
    return data.decode("utf-8")


def test_fuzz_dictionary(table):
    path = ROOT / "fuzz/dictionaries/core.dict"
    entries = set()
    for line in path.read_text().splitlines():
        match = re.fullmatch(r'\s*"((?:[^"\\]|\\.)*)"\s*', line)
        if match:
            entries.add(dictionary_entry(match.group(1)))
    same({e for e in entries if re.fullmatch(r"[a-z]+", e)}, table["keywords"], "keywords", path)
    same({e[:-1] for e in entries if re.fullmatch(r"[a-z_0-9]+\(", e)}, table["builtins"], "built-in functions (`name(`)",
         path)
    same({e for e in entries if re.fullmatch(r"[A-Z][a-z]+", e)}, table["types"], "types", path)
    missing = sorted(table["symbols"] - entries)
    assert not missing, f"{path.relative_to(ROOT)}: operators missing {missing}"
