"""`taxpro --version`: the version, the commit it was built from and the years of figures it carries; and the
build step that records the commit, which says `unknown` outside git rather than guess.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from packaging_support import REPO, data_years

RECORD = REPO / "Plugins" / "RecordBuildCommit" / "record-commit.sh"


def run(command, **options) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=60, **options)


def test_version_commit_and_years():
    result = run([os.environ["TAXPRO"], "--version"])
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert re.fullmatch(r"taxpro \d+\.\d+\.\d+", lines[0])
    # The version is the one the core declares, the one place it is written.
    declared = re.findall(r'version = "([^"]+)"', "".join(
        path.read_text() for path in (REPO / "Sources").rglob("*.swift") if "version = \"" in path.read_text()))
    assert lines[0].split()[1] in declared
    commit = re.fullmatch(r"commit ([0-9a-f]{12}(?:-modified)?|unknown)", lines[1])
    assert commit, lines[1]
    if commit.group(1) != "unknown" and (REPO / ".git").exists():
        # A commit of this repository.
        known = run(["git", "-C", str(REPO), "cat-file", "-e", commit.group(1).removesuffix("-modified") + "^{commit}"])
        assert known.returncode == 0, lines[1]
    assert lines[2] == "tax years " + ", ".join(map(str, data_years()))


def test_version_names_a_library_taken_from_elsewhere(tmp_path):
    resources = REPO / "Sources" / "TaxProLibrary" / "Resources"
    result = run([os.environ["TAXPRO"], "--version"], env=dict(os.environ, TAXPRO_LIBRARY=str(resources)))
    assert result.stdout.splitlines()[2].endswith(f"(library from TAXPRO_LIBRARY={resources})")


def record(repository: Path, tmp_path: Path, **environment: str) -> str:
    output = tmp_path / "generated"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), **environment}
    result = run(["/bin/sh", str(RECORD), str(repository), str(output)], env=env)
    assert result.returncode == 0, result.stderr
    text = (output / "BuildCommit.swift").read_text()
    return re.search(r'static let id = "([^"]*)"', text).group(1)


@pytest.mark.skipif(not shutil.which("git"), reason="git is not installed")
def test_the_commit_recorded_in_and_out_of_git(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    (source / "Package.swift").write_text("// a package\n")
    # A source archive: no git at all, and one unpacked inside another repository's work tree.
    assert record(source, tmp_path) == "unknown"
    outer = tmp_path / "outer"
    outer.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    run([*git, "init", "-q", str(outer)])
    inside = outer / "taxpro-source"
    shutil.copytree(source, inside)
    (outer / "x").write_text("x\n")
    run([*git, "-C", str(outer), "add", "x"])
    run([*git, "-C", str(outer), "commit", "-q", "-m", "outer"])
    assert record(inside, tmp_path) == "unknown"
    # A clone: the commit; changed tracked files: marked.
    run([*git, "init", "-q", str(source)])
    run([*git, "-C", str(source), "add", "Package.swift"])
    run([*git, "-C", str(source), "commit", "-q", "-m", "first"])
    head = run(["git", "-C", str(source), "rev-parse", "--short=12", "HEAD"]).stdout.strip()
    assert record(source, tmp_path) == head
    (source / "Package.swift").write_text("// changed\n")
    assert record(source, tmp_path) == head + "-modified"
    # An archive whose commit is known says so; nothing but a commit-like word gets into the Swift source.
    assert record(tmp_path / "outer" / "taxpro-source", tmp_path, TAXPRO_COMMIT="0123456789ab") == "0123456789ab"
    assert record(source, tmp_path, TAXPRO_COMMIT='x"; evil()') == "unknown"


def test_an_unchanged_commit_leaves_the_file_alone(tmp_path):
    """Rewriting BuildCommit.swift would recompile the executable's module on every build."""
    output = tmp_path / "generated"
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}
    run(["/bin/sh", str(RECORD), str(tmp_path), str(output)], env=env)
    file = output / "BuildCommit.swift"
    os.utime(file, (1_000_000, 1_000_000))
    run(["/bin/sh", str(RECORD), str(tmp_path), str(output)], env=env)
    assert file.stat().st_mtime == 1_000_000
