"""Set-up for the Jupyter tests: `taxpro repl --json` over pipes, and the kernel in editors/jupyter.

The binary is the one every end-to-end test runs (TAXPRO; `taxpro` on PATH under scripts/test). The kernel is
installed the way its README says, with `python -m taxpro_kernel install`, but into a temporary prefix that
JUPYTER_PATH names; Jupyter's and IPython's own folders point into the same place, so nothing is written to the
user's home. The kernel package is found through PYTHONPATH (editors/jupyter), and the kernel finds `taxpro` on PATH,
as it would for a user.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from jupyter_support import KERNEL_PACKAGE, JSONRepl, taxpro_path  # noqa: E402


@pytest.fixture(scope="session")
def taxpro() -> str:
    return taxpro_path()


@pytest.fixture
def repl(taxpro: str, tmp_path: Path):
    client = JSONRepl(taxpro, cwd=tmp_path)
    yield client
    client.process.kill()
    client.process.wait()


@pytest.fixture(scope="module")
def jupyter_environment(taxpro: str, tmp_path_factory: pytest.TempPathFactory):
    """A Jupyter installation of the tests' own, with the TaxPro kernel installed by its own installer."""
    root = tmp_path_factory.mktemp("jupyter")
    values = {
        "JUPYTER_PATH": str(root / "prefix" / "share" / "jupyter"),
        "JUPYTER_DATA_DIR": str(root / "data"),
        "JUPYTER_CONFIG_DIR": str(root / "config"),
        "JUPYTER_RUNTIME_DIR": str(root / "runtime"),
        "IPYTHONDIR": str(root / "ipython"),
        "HOME": str(root / "home"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(KERNEL_PACKAGE), os.environ.get("PYTHONPATH")])),
        "PATH": os.pathsep.join([str(Path(taxpro).parent), os.environ.get("PATH", "")]),
        "NO_COLOR": "1",
        # Jupyter warns, every start, that the connection is plain TCP on localhost; the tests need no such notice.
        "PYTHONWARNINGS": "ignore",
    }
    (root / "home").mkdir()
    patch = pytest.MonkeyPatch()
    for name, value in values.items():
        patch.setenv(name, value)
    installed = subprocess.run(
        [sys.executable, "-m", "taxpro_kernel", "install", "--prefix", str(root / "prefix")],
        capture_output=True, text=True, timeout=120,
    )
    assert installed.returncode == 0, installed.stderr
    yield root
    patch.undo()
