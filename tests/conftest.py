"""What every end-to-end test runs: the `taxpro` that users run.

scripts/test installs the release build with scripts/install into a folder of its own, puts that folder first on
PATH, sets TAXPRO=taxpro, unsets TAXPRO_LIBRARY and starts pytest from a folder outside the repository. So every test
starts the binary through PATH, in a folder where no library files lie around, exactly as a user's shell would.
TAXPRO may also be an absolute path (a debug build, while developing); the checks below then only warn.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def pytest_report_header(config):  # noqa: ARG001
    name = os.environ.get("TAXPRO", "")
    found = shutil.which(name) if name else None
    return f"taxpro under test: TAXPRO={name!r} -> {found}; cwd {os.getcwd()}"


@pytest.fixture(scope="session", autouse=True)
def installed_binary_from_path():
    """With TAXPRO=taxpro (scripts/test), the binary must come from PATH, not the repository, and nothing may point
    it at the library's sources."""
    name = os.environ.get("TAXPRO", "")
    if name != "taxpro":
        return
    found = shutil.which("taxpro")
    assert found, "TAXPRO=taxpro but no taxpro on PATH (scripts/test installs one first)"
    assert "TAXPRO_LIBRARY" not in os.environ, "the installed binary must be tested with its own, compiled-in library"
    cwd = Path.cwd().resolve()
    assert REPO != cwd and REPO not in cwd.parents, f"run the end-to-end tests from outside the repository, not {cwd}"
