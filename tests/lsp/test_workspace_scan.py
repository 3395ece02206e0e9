"""The workspace is read in the background, within bounds (issue 11, item 8): `initialize` is answered at once
whatever the root, the opened document's diagnostics come first, a root too large or too broad to be a project is
not read (the folder of the opened document is), and only files that belong get diagnostics."""

import os
import time
from pathlib import Path

import pytest

from rawclient import RawServer

TAXPRO = os.environ.get("TAXPRO", "").strip()
pytestmark = pytest.mark.skipif(not TAXPRO, reason="set TAXPRO to the taxpro executable")

OPENED = "let doubled = helper($10) * 2\n"
# With a mistake of its own, so that it gets diagnostics (files without any get none published).
SIBLING = "## Half.\nformula helper(x: Money): Money = x / 2\n\nlet oops = helpr($1)\n"


def started(cwd, env=None):
    """A server that has finished starting: it has answered a request sent before `initialize`."""
    server = RawServer(TAXPRO, cwd=cwd, env=env)
    assert server.call("shutdown")["error"]["code"] == -32002
    return server


def initialize(server, root):
    begin = time.monotonic()
    answer = server.call("initialize", {"processId": None, "rootUri": root.as_uri() if root else None,
                                        "capabilities": {}})
    elapsed = time.monotonic() - begin
    assert "capabilities" in answer["result"]
    server.notify("initialized", {})
    return elapsed


def open_file(server, path):
    server.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "taxpro",
                                                              "version": 1, "text": path.read_text()}})


def collect(server, until, timeout=120):
    """Messages until `until(messages)` holds."""
    deadline = time.monotonic() + timeout
    while not until(server.received):
        assert time.monotonic() < deadline, [m.get("method") for m in server.received]
        server.receive(timeout=deadline - time.monotonic())
    return server.received


def published(messages, path=None):
    return [m["params"] for m in messages if m.get("method") == "textDocument/publishDiagnostics"
            and (path is None or m["params"]["uri"] == path.as_uri())]


def scan_report(messages):
    return [m["params"]["message"] for m in messages
            if m.get("method") == "window/logMessage" and m["params"]["message"].startswith("TaxPro: read ")]


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A folder of 100,000 files (100 folders of 1,000) with two .tax files at its top."""
    root = tmp_path_factory.mktemp("big")
    for folder in range(100):
        directory = root / f"d{folder:03}"
        directory.mkdir()
        for number in range(1000):
            os.close(os.open(directory / f"f{number:04}.txt", os.O_CREAT | os.O_WRONLY))
    (root / "opened.tax").write_text(OPENED)
    (root / "sibling.tax").write_text(SIBLING)
    return root


def test_a_root_of_100000_files(big):
    server = started(big)
    try:
        assert initialize(server, big) < 0.1
        open_file(server, big / "opened.tax")
        messages = collect(server, lambda m: scan_report(m) and published(m, big / "sibling.tax")
                           and not published(m, big / "opened.tax")[-1]["diagnostics"])
        # The opened document's diagnostics come first. (That they come before the scan has finished depends here on
        # how fast the disk is; TaxProServerTests' LargeRootTests shows it with the scan held.)
        first = next(m for m in messages if m.get("method") == "textDocument/publishDiagnostics")
        assert first["params"]["uri"] == (big / "opened.tax").as_uri()
        # Too large to be a project: not read, but the opened file's folder is, so its neighbour's formula is known.
        assert "not read as a project (more than 100000 entries)" in scan_report(messages)[0]
        assert published(messages, big / "opened.tax")[0]["diagnostics"] == []
        assert {p["uri"] for p in published(messages)} == {(big / n).as_uri() for n in ("opened.tax", "sibling.tax")}
        # Requests answer at once too.
        hover = server.call("textDocument/hover", {"textDocument": {"uri": (big / "opened.tax").as_uri()},
                                                   "position": {"line": 0, "character": 16}})
        assert "formula helper" in hover["result"]["contents"]["value"]
    finally:
        server.close()


@pytest.mark.parametrize("root", ["/", "/usr", "home"])
def test_a_root_too_broad_is_not_read(tmp_path, root):
    home = tmp_path / "home"
    project = home / "taxes"
    deep = home / "elsewhere" / "deeper"
    for folder in (project, deep):
        folder.mkdir(parents=True)
    (project / "opened.tax").write_text(OPENED)
    (project / "sibling.tax").write_text(SIBLING)
    (deep / "unrelated.tax").write_text("let broken = \n")
    (home / "at_home.tax").write_text("let also_unrelated = nothing\n")
    server = started(tmp_path, env={**os.environ, "HOME": str(home)})
    try:
        assert initialize(server, home if root == "home" else Path(root)) < 0.1
        open_file(server, project / "opened.tax")
        messages = collect(server, lambda m: scan_report(m) and published(m, project / "opened.tax")
                           and published(m, project / "sibling.tax"))
        assert "not read as a project (too broad)" in scan_report(messages)[0]
        server.call("workspace/symbol", {"query": "helper"})
        # Only the opened file and its folder: nothing from elsewhere under the root.
        uris = {p["uri"] for p in published(server.received)}
        assert uris == {(project / n).as_uri() for n in ("opened.tax", "sibling.tax")}, uris
        assert published(server.received, project / "opened.tax")[-1]["diagnostics"] == []
    finally:
        server.close()


def test_a_project_is_read_whole_and_its_files_get_diagnostics(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "sibling.tax").write_text(SIBLING)
    (tmp_path / "opened.tax").write_text(OPENED)
    (tmp_path / "sub" / "broken.tax").write_text("let broken = helper(\n")
    server = started(tmp_path)
    try:
        assert initialize(server, tmp_path) < 0.1
        open_file(server, tmp_path / "opened.tax")
        # The scan may finish before the document is opened: the files on disk are then checked (and broken.tax's
        # diagnostics pushed) before the open document's are, so both are waited for, and the scan's report.
        messages = collect(server, lambda m: published(m, tmp_path / "sub" / "broken.tax")
                           and published(m, tmp_path / "opened.tax") and scan_report(m))
        assert published(messages, tmp_path / "opened.tax")[-1]["diagnostics"] == []
        assert published(messages, tmp_path / "sub" / "broken.tax")[-1]["diagnostics"]
        assert scan_report(messages) and "read 3 .tax files" in scan_report(messages)[0]
    finally:
        server.close()


def test_without_a_root_the_folder_of_the_file_is_the_workspace(tmp_path):
    (tmp_path / "opened.tax").write_text(OPENED)
    (tmp_path / "sibling.tax").write_text(SIBLING)
    server = started(tmp_path)
    try:
        initialize(server, None)
        open_file(server, tmp_path / "opened.tax")
        found = server.call("textDocument/definition", {"textDocument": {"uri": (tmp_path / "opened.tax").as_uri()},
                                                        "position": {"line": 0, "character": 16}})["result"]
        assert [f["uri"] for f in found] == [(tmp_path / "sibling.tax").as_uri()]
    finally:
        server.close()


def test_a_file_read_from_disk_that_is_not_utf8_says_so(tmp_path):
    """A workspace file saved as Latin-1 gets a `not-utf8` warning at its first bad byte, before what its text
    holds; opened in the editor (whose text is UTF-8), it no longer does."""
    (tmp_path / "opened.tax").write_text(OPENED)
    latin = tmp_path / "latin.tax"
    latin.write_bytes(b"## Caf\xe9 helper.\nformula helper(x: Money): Money = x / 2\nlet t = \"Montr\xe9al\"\n")
    server = started(tmp_path)
    try:
        initialize(server, tmp_path)
        open_file(server, tmp_path / "opened.tax")
        opened = tmp_path / "opened.tax"
        # The file still defines its formula: the opened document's diagnostics end up empty (before the scan has
        # read the folder, `helper` may be unknown).
        messages = collect(server, lambda m: published(m, latin) and published(m, opened)
                           and published(m, opened)[-1]["diagnostics"] == [])
        diagnostics = published(messages, latin)[-1]["diagnostics"]
        assert [(d["code"], d["severity"], d["range"]["start"]) for d in diagnostics] == [
            ("not-utf8", 2, {"line": 0, "character": 6})], diagnostics
        assert "not valid UTF-8 (byte 0xE9; 2 places in all)" in diagnostics[0]["message"]
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": latin.as_uri(), "languageId": "taxpro", "version": 1,
            "text": latin.read_bytes().decode("latin-1")}})
        collect(server, lambda m: published(m, latin)[-1]["diagnostics"] == [])
    finally:
        server.close()
