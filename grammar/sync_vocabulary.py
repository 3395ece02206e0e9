#!/usr/bin/env python3
"""Writes the core's built-in functions into the editor grammars and the fuzz dictionary.

    TAXPRO=.build/debug/taxpro python3 grammar/sync_vocabulary.py          # rewrite the lists in place
    TAXPRO=.build/debug/taxpro python3 grammar/sync_vocabulary.py --check  # exit 1 if any list is out of date

The built-ins are declared once, in Sources/TaxProCore/Evaluation/Builtins.swift; `taxpro vocabulary` prints them.
Each editor file keeps them in one list of its own format (a Vim alternation, an Emacs `defconst`, a TextMate
alternation, the dictionary's `"name("` entries), which this rewrites and nothing else. Keywords change rarely and sit
in lists grouped by how each editor highlights them: tests/grammar/test_vocabulary.py names any that is missed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def builtins() -> list[str]:
    binary = os.environ.get("TAXPRO", "taxpro")
    listing = subprocess.run([binary, "vocabulary"], capture_output=True, text=True, check=True).stdout
    return [line.split(" ")[1] for line in listing.splitlines() if line.startswith("builtin ")]


def vim(text: str, names: list[str]) -> str:
    return re.sub(r"(^syn match taxproBuiltin\s+/\\<\\%\()[\w\\|]+(\\\))", lambda m: m.group(1) + "\\|".join(names)
                  + m.group(2), text, count=1, flags=re.M)


def emacs(text: str, names: list[str]) -> str:
    lines, line = [], "  '("
    for name in names:
        word = f'"{name}"'
        if len(line) + len(word) + 1 > 100:
            lines.append(line.rstrip())
            line = "    "
        line += word + " "
    lines.append(line.rstrip() + ")")
    return re.sub(r"(\(defconst taxpro-builtins\n)  '\([^)]*\)", lambda m: m.group(1) + "\n".join(lines), text,
                  count=1)


def textmate(text: str, names: list[str]) -> str:
    return re.sub(r'("match": "\\\\b\()[a-z0-9_|]+(\)\\\\b\(\?=\\\\s\*\\\\\(\)",\s*"name": "support\.function\.builtin)',
                  lambda m: m.group(1) + "|".join(names) + m.group(2), text, count=1)


def dictionary(text: str, names: list[str]) -> str:
    """Every `"name("` entry is a built-in's (the test holds it to that): they are written where the first one was."""
    lines = text.splitlines()
    calls = [i for i, line in enumerate(lines) if re.fullmatch(r'"[a-z_0-9]+\("', line)]
    at = calls[0] if calls else len(lines)
    kept = [line for i, line in enumerate(lines) if i not in calls]
    return "\n".join(kept[:at] + [f'"{name}("' for name in names] + kept[at:]) + "\n"


def main() -> int:
    check = "--check" in sys.argv[1:]
    names = builtins()
    files = {
        "editors/vim/syntax/taxpro.vim": lambda t: vim(t, names),
        "editors/nvim/syntax/taxpro.vim": lambda t: vim(t, names),
        "editors/emacs/taxpro-mode.el": lambda t: emacs(t, names),
        "grammar/taxpro.tmLanguage.json": lambda t: textmate(t, names),
        "editors/vscode/syntaxes/taxpro.tmLanguage.json": lambda t: textmate(t, names),
        "fuzz/dictionaries/core.dict": lambda t: dictionary(t, names),
    }
    stale = []
    for relative, update in files.items():
        path = ROOT / relative
        text = path.read_text()
        updated = update(text)
        if updated != text:
            stale.append(relative)
            if not check:
                path.write_text(updated)
    for relative in stale:
        print(("out of date: " if check else "updated: ") + relative)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
