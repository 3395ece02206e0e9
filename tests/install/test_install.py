"""`taxpro` installed like a real tool: one file that works from PATH, copied or linked anywhere, with its standard
library inside it, and a language server that says so when the library cannot load.

scripts/test runs these against the release build scripts/install made, found on PATH (tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "lsp"))
from rawclient import RawServer  # noqa: E402

TAXPRO = os.environ.get("TAXPRO", "")
pytestmark = pytest.mark.skipif(not TAXPRO, reason="TAXPRO is not set to the taxpro binary")
ONTARIO_2025 = ["eval", "--year", "2025", "tax(ON.income_tax, $85,000)"]


def binary() -> Path:
    found = shutil.which(TAXPRO)
    assert found, f"{TAXPRO} is not on PATH"
    return Path(found).resolve()


def clean_environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8", "NO_COLOR": "1"}
    (tmp_path / "home").mkdir(exist_ok=True)
    env.update(extra)
    return env


def run(command, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def test_eval_from_path_in_another_folder(tmp_path: Path) -> None:
    result = subprocess.run([TAXPRO, *ONTARIO_2025], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stdout, result.stderr) == (0, "$5,609.17\n", "")


def test_a_copy_alone_in_an_empty_folder(tmp_path: Path) -> None:
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy2(binary(), alone / "taxpro")
    assert sorted(p.name for p in alone.iterdir()) == ["taxpro"]
    result = run(["./taxpro", *ONTARIO_2025], alone, clean_environment(tmp_path))
    assert (result.returncode, result.stdout, result.stderr) == (0, "$5,609.17\n", "")
    # ... and from PATH, in another empty folder, as a symlink in a bin folder (~/.local/bin/taxpro -> the copy).
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "taxpro").symlink_to(alone / "taxpro")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = clean_environment(tmp_path, PATH=f"{bin_folder}:/usr/bin:/bin")
    result = run(["taxpro", *ONTARIO_2025], elsewhere, env)
    assert (result.returncode, result.stdout) == (0, "$5,609.17\n"), result.stderr
    # The library's own tests run from the copy too.
    tested = run(["taxpro", "test"], elsewhere, env)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert tested.stdout.splitlines()[-1].endswith(" passed, 0 failed")


def test_the_swift_runtime_is_linked_in(tmp_path: Path) -> None:
    libraries = subprocess.run(["ldd", str(binary())], capture_output=True, text=True, timeout=60).stdout
    assert "libswiftCore" not in libraries and "libFoundation" not in libraries, libraries
    assert "libedit" in libraries, libraries


def test_taxpro_library_overrides_and_a_bad_one_is_explained(tmp_path: Path) -> None:
    resources = REPO / "Sources" / "TaxProLibrary" / "Resources"
    good = run([TAXPRO, *ONTARIO_2025], tmp_path, dict(os.environ, TAXPRO_LIBRARY=str(resources)))
    assert (good.returncode, good.stdout) == (0, "$5,609.17\n"), good.stderr
    # A library being edited: the override is what is loaded.
    edited = tmp_path / "library"
    shutil.copytree(resources, edited)
    ontario = edited / "ON.tax"
    original = ontario.read_text()
    assert "$52,886  -> 9.15%" in original
    ontario.write_text(original.replace("$52,886  -> 9.15%", "$52,886  -> 10.15%", 1))
    changed = run([TAXPRO, *ONTARIO_2025], tmp_path, dict(os.environ, TAXPRO_LIBRARY=str(edited)))
    assert changed.stdout == "$5,930.31\n", changed.stdout + changed.stderr  # 32,114 more dollars at 1% more
    for bad, reason in ((tmp_path / "missing", "is not a directory"), (tmp_path, "no standard library")):
        result = run([TAXPRO, *ONTARIO_2025], tmp_path, dict(os.environ, TAXPRO_LIBRARY=str(bad)))
        assert result.returncode == 2 and result.stdout == ""
        assert "the standard library could not be loaded" in result.stderr and reason in result.stderr


def start_server(tmp_path: Path, **environment: str) -> RawServer:
    saved = dict(os.environ)
    os.environ.update(environment)
    try:
        server = RawServer(TAXPRO, cwd=tmp_path)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    answer = server.call("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    assert "capabilities" in answer["result"]
    server.notify("initialized", {})
    return server


def test_the_server_says_when_the_library_cannot_load(tmp_path: Path) -> None:
    server = start_server(tmp_path, TAXPRO_LIBRARY=str(tmp_path / "nowhere"))
    try:
        while True:
            message = server.receive()
            if message.get("method") == "window/showMessage":
                break
        assert message["params"]["type"] == 1
        assert "standard library could not be loaded" in message["params"]["message"]
        assert "nowhere" in message["params"]["message"]
    finally:
        server.close()


def test_definition_into_the_library_opens_a_read_only_copy(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    server = start_server(tmp_path, XDG_CACHE_HOME=str(cache))
    try:
        uri = (tmp_path / "uses.tax").as_uri()
        text = "let mine = tax(ON.income_tax, $85,000)\n"
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                                  "text": text}})
        answer = server.call("textDocument/definition", {"textDocument": {"uri": uri},
                                                         "position": {"line": 0, "character": text.index("income_tax")}})
        found = answer["result"]
        found = found[0] if isinstance(found, list) else found
        path = Path(found["uri"].removeprefix("file://"))
        assert path.parent.parent == cache / "taxpro" and path.parent.name.startswith("library-"), path
        assert path.name == "ON.tax"
        assert stat.S_IMODE(path.stat().st_mode) == 0o444
        assert path.read_text() == (REPO / "Sources" / "TaxProLibrary" / "Resources" / "ON.tax").read_text()
        line = path.read_text().split("\n")[found["range"]["start"]["line"]]
        assert line.strip().startswith("income_tax")
        # Every library file and the library's tests are there, read-only.
        copies = sorted(p.relative_to(path.parent).as_posix() for p in path.parent.rglob("*.tax"))
        sources = sorted(p.relative_to(REPO / "Sources/TaxProLibrary/Resources").as_posix()
                         for p in (REPO / "Sources/TaxProLibrary/Resources").rglob("*.tax"))
        assert copies == sources
    finally:
        server.close()
    # A second server finds the copy in place and leaves it alone.
    before = path.stat().st_mtime_ns
    again = start_server(tmp_path, XDG_CACHE_HOME=str(cache))
    again.close()
    assert path.stat().st_mtime_ns == before
