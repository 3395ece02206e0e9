"""Shared set-up for the end-to-end tests of the `taxpro` command line (tests/cli).

They drive the real binary named by the TAXPRO environment variable (scripts/test sets it to
.build/debug/taxpro) and compare what it prints with independent Python computations from the verified CSV
(tests/library/brackets_reference.py and formulas_reference.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LIBRARY_TESTS = REPO / "tests" / "library"
if str(LIBRARY_TESTS) not in sys.path:
    sys.path.insert(0, str(LIBRARY_TESTS))


@dataclass
class Taxpro:
    """Runs the binary with colour off and a time limit, from the repository's root."""

    path: str

    def run(self, *arguments: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
        environment = dict(os.environ, NO_COLOR="1")
        return subprocess.run(
            [self.path, *arguments], input=stdin, capture_output=True, text=True, timeout=120,
            cwd=str(cwd or REPO), env=environment,
        )


@pytest.fixture(scope="session")
def taxpro() -> Taxpro:
    path = os.environ.get("TAXPRO", "")
    if not path:
        pytest.fail(
            "TAXPRO is not set. Build with `swift build` and run with "
            "`TAXPRO=$PWD/.build/debug/taxpro python -m pytest tests/cli` (scripts/test does this).",
            pytrace=False,
        )
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(f"TAXPRO={path} is not an executable file; run `swift build` first.", pytrace=False)
    return Taxpro(path)
