"""The packages users install, built once per test run by scripts/package from the binary under test.

scripts/test has already built and installed the release binary (scripts/install, into .build/test-install); these
tests package that very file (TAXPRO_BINARY) rather than build again, with fast compression (TAXPRO_COMPRESSION=fast:
what is checked is the content, not the compression level), then extract the .deb into a temporary root the way
dpkg would install it.
"""

from __future__ import annotations

import os
import sys
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from packaging_support import REPO  # noqa: E402

TAXPRO = os.environ.get("TAXPRO", "")


def installed_binary() -> Path:
    found = shutil.which(TAXPRO) if TAXPRO else None
    if not found:
        pytest.skip("TAXPRO is not set to the taxpro binary (scripts/test sets it)")
    return Path(found).resolve()


@dataclass
class Packages:
    deb: Path  # taxpro_VERSION_ARCH.deb
    kernel_deb: Path | None  # taxpro-jupyter_VERSION_all.deb, when editors/jupyter has the kernel
    archive: Path
    root: Path  # the packages extracted, as dpkg installs them: root / "usr/bin/taxpro"
    version: str

    @property
    def debs(self) -> list[Path]:
        return [self.deb] + ([self.kernel_deb] if self.kernel_deb else [])


@pytest.fixture(scope="session")
def release_binary() -> Path:
    binary = installed_binary()
    libraries = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, timeout=60).stdout
    if "libswiftCore" in libraries:
        pytest.skip(f"{binary} links the Swift runtime dynamically: packaging needs the release build of scripts/install")
    return binary


@pytest.fixture(scope="session")
def packages(release_binary, tmp_path_factory) -> Packages:
    dist = tmp_path_factory.mktemp("dist")
    environment = dict(os.environ, TAXPRO_BINARY=str(release_binary), DIST=str(dist), TAXPRO_COMPRESSION="fast")
    result = subprocess.run([str(REPO / "scripts" / "package")], capture_output=True, text=True, timeout=900,
                            env=environment)
    assert result.returncode == 0, result.stderr
    *debs, archive = (Path(line) for line in result.stdout.split())
    deb = next(path for path in debs if path.name.startswith("taxpro_"))
    kernel = next((path for path in debs if path.name.startswith("taxpro-jupyter_")), None)
    assert len(debs) == 1 + (kernel is not None), debs
    version = subprocess.run([str(release_binary), "--version"], capture_output=True, text=True,
                             timeout=60).stdout.split()[1]
    root = tmp_path_factory.mktemp("root")
    for path in debs:
        subprocess.run(["dpkg-deb", "-x", str(path), str(root)], check=True, timeout=300)
    return Packages(deb=deb, kernel_deb=kernel, archive=archive, root=root, version=version)


@pytest.fixture
def empty_folder(tmp_path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder

