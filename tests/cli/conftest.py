"""Shared set-up for the end-to-end tests of the `taxpro` command line (tests/cli).

They drive the real binary named by the TAXPRO environment variable (scripts/test sets it to `taxpro`, found on
PATH: the installed release build; see tests/conftest.py) and compare what it prints with independent Python computations from the verified CSV
(tests/library/brackets_reference.py and formulas_reference.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LIBRARY_TESTS = REPO / "tests" / "library"
if str(LIBRARY_TESTS) not in sys.path:
    sys.path.insert(0, str(LIBRARY_TESTS))


# Commands run in an empty folder outside the repository unless a test names one.
OUTSIDE = Path(tempfile.mkdtemp(prefix="taxpro-cli-"))


@dataclass
class Taxpro:
    """Runs the binary with colour off and a time limit, from an empty folder outside the repository. Text is 80
    columns wide (output is not a terminal and COLUMNS is unset) unless `env` sets COLUMNS."""

    path: str

    def run(
        self, *arguments: str, stdin: str | None = None, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess:
        environment = dict(os.environ, NO_COLOR="1")
        environment.pop("COLUMNS", None)
        environment.update(env or {})
        return subprocess.run(
            [self.path, *arguments], input=stdin, capture_output=True, text=True, timeout=120,
            cwd=str(cwd or OUTSIDE), env=environment,
        )


@pytest.fixture(scope="session")
def taxpro() -> Taxpro:
    path = os.environ.get("TAXPRO", "")
    if not path:
        pytest.fail(
            "TAXPRO is not set. scripts/test installs the release build and sets TAXPRO=taxpro; while developing, "
            "`TAXPRO=$PWD/.build/debug/taxpro python -m pytest tests/cli` runs a debug build.",
            pytrace=False,
        )
    if shutil.which(path) is None:
        pytest.fail(f"TAXPRO={path} is not an executable file or a command on PATH.", pytrace=False)
    return Taxpro(path)
