"""Paths and helpers shared by the editor tests."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
EDITORS = REPO / "editors"
GRAMMAR = REPO / "grammar" / "taxpro.tmLanguage.json"
SAMPLES = HERE / "samples"
STUB_SERVER = HERE / "stub_lsp_server.py"

# Each editor run is bounded: a hung editor fails its test instead of the whole run.
EDITOR_TIMEOUT = 120


def run(cmd, *, env=None, cwd=None, timeout=EDITOR_TIMEOUT):
    """Run a command, returning CompletedProcess with text output (never raises on exit status)."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run(
        [str(c) for c in cmd], env=full_env, cwd=cwd, timeout=timeout,
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
    )


def taxpro_server():
    """The real server's executable from $TAXPRO, or None."""
    value = os.environ.get("TAXPRO", "").strip()
    return value or None


requires_taxpro = pytest.mark.skipif(
    taxpro_server() is None,
    reason="set TAXPRO=/path/to/taxpro to run the editors against the real language server "
           "(`taxpro lsp`)",
)


def mistake_project(tmp_path):
    """A project folder holding the sample with a mistake (`incme` on line 2)."""
    project = tmp_path / "project"
    project.mkdir()
    target = project / "mistake.tax"
    shutil.copy(SAMPLES / "mistake.tax", target)
    return target
