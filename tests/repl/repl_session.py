"""What the REPL tests share: the binary under test, its prompt, a private HOME for each test, and driving the REPL
in a pseudo-terminal with pexpect.

Each test gets its own HOME and XDG directories (the `home` fixture in conftest.py), so history, profile and records
start empty and the user's own files are never touched. Colour is off (NO_COLOR) except where colour itself is tested;
prompts are matched with an optional colour reset so either way works.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pexpect

TAXPRO = os.environ.get("TAXPRO", "")
PROMPT = r"taxpro>(?:\x1b\[0m)? "
CONTINUATION = r"\.\.\.>(?:\x1b\[0m)? "
XDG_FOLDERS = ("state", "data", "config", "cache")


def make_home(folder: Path) -> Path:
    """`folder` as a HOME with its own empty XDG folders."""
    for name in XDG_FOLDERS:
        (folder / name).mkdir(exist_ok=True)
    return folder


def environment(home: Path, color: bool = False) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "TERM": "xterm",
        "LANG": "C.UTF-8",
    }
    if "TAXPRO_LIBRARY" in os.environ:
        env["TAXPRO_LIBRARY"] = os.environ["TAXPRO_LIBRARY"]
    if not color:
        env["NO_COLOR"] = "1"
    return env


def start(home: Path, *arguments: str, color: bool = False, cwd: Path | None = None,
          dimensions: tuple[int, int] = (40, 120)) -> pexpect.spawn:
    """The REPL started in a pseudo-terminal, before its first prompt."""
    return pexpect.spawn(TAXPRO, list(arguments), env=environment(home, color), encoding="utf-8", timeout=30,
                         dimensions=dimensions, cwd=str(cwd) if cwd else None)


def spawn(home: Path, *arguments: str, color: bool = False, cwd: Path | None = None) -> pexpect.spawn:
    """The REPL started in a pseudo-terminal, at its first prompt."""
    child = start(home, *arguments, color=color, cwd=cwd)
    child.expect(PROMPT)
    return child


def enter(child: pexpect.spawn, line: str) -> None:
    child.send(line + "\r")


def answer(child: pexpect.spawn, question: str, reply: str) -> None:
    """Waits for a form's question (a regular expression, as `expect` takes) and enters the reply."""
    child.expect(question)
    enter(child, reply)


def decline_explanation(child: pexpect.spawn) -> None:
    """Answers an `:ask` form's closing "Explain it?" with the default (no) and waits for the prompt."""
    answer(child, r"Explain it\? \[y/N\] ", "")
    child.expect(PROMPT)


def leave(child: pexpect.spawn) -> int:
    """Ctrl-D, then the exit status."""
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


def result_of(child: pexpect.spawn, line: str) -> str:
    """Enters `line` and returns what was printed before the next prompt, without the echoed line."""
    child.send(line + "\r")
    child.expect(PROMPT)
    printed = child.before.replace("\r", "")
    return printed.split(line, 1)[-1].strip("\n")


def evaluate(expression: str, home: Path | None = None) -> str:
    """What `taxpro eval EXPRESSION` prints: a path that shares no code with the REPL's answers. With `home`, in
    that private HOME; without, in the test run's own environment."""
    result = subprocess.run([TAXPRO, "eval", expression], capture_output=True, text=True, timeout=60,
                            env=environment(home) if home else None)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()
