"""Writes the `.dist-info` folder of the Jupyter kernel's Python package into a Debian `dist-packages` folder.

Usage: kernel_dist_info.py PYPROJECT DIST_PACKAGES

scripts/package copies `taxpro_kernel/` into /usr/lib/python3/dist-packages itself (no pip, no setuptools on the
packaging machine); this adds what pip would have written next to it, so that `importlib.metadata` knows the
distribution — above all its entry points: Pygments finds lexers through the `pygments.lexers` group, and without
this nbconvert and JupyterLab would not highlight TaxPro cells from the Debian package. Everything comes from
editors/jupyter/pyproject.toml, so the package and `pip install editors/jupyter` say the same.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path


def main(pyproject_path: str, dist_packages: str) -> None:
    pyproject = tomllib.loads(Path(pyproject_path).read_text())
    project = pyproject["project"]
    name, version = project["name"], project["version"]
    folder = Path(dist_packages) / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True, exist_ok=True)
    metadata = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {project.get('description', '')}",
    ]
    if "requires-python" in project:
        metadata.append(f"Requires-Python: {project['requires-python']}")
    metadata += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    (folder / "METADATA").write_text("\n".join(metadata) + "\n")
    groups = project.get("entry-points", {})
    lines: list[str] = []
    for group, points in groups.items():
        lines.append(f"[{group}]")
        lines += [f"{key} = {value}" for key, value in points.items()]
        lines.append("")
    if lines:
        (folder / "entry_points.txt").write_text("\n".join(lines))
    packages = pyproject.get("tool", {}).get("setuptools", {}).get("packages", [])
    if packages:
        (folder / "top_level.txt").write_text("\n".join(packages) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])
