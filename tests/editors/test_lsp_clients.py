"""The editor packages against a language server.

- `*_with_stub_server` tests run always, against tests/editors/stub_lsp_server.py: they check the
  clients' wiring (the server is started as `taxpro lsp`, gets the initializationOptions, its
  diagnostics reach the editor, completion requests reach it).
- `*_with_taxpro_server` tests run the same editor sessions against the real server, `$TAXPRO lsp`;
  they are skipped when the TAXPRO environment variable is not set.

Both open tests/editors/samples/mistake.tax, whose line 2 is
`formula f(x: Money): Money = x + incme` (`incme` is not defined).
"""

import json

from editor_support import EDITORS, HERE, SAMPLES, mistake_project, requires_taxpro, run, taxpro_server

MISTAKE_LINE = 1  # 0-based line of `incme` in mistake.tax
MISTAKE_COLUMN = (SAMPLES / "mistake.tax").read_text().split("\n")[MISTAKE_LINE].index("incme")
LSP_TIMEOUT_SECONDS = 30


def neovim_session(server, tmp_path, env=None):
    target = mistake_project(tmp_path)
    out = tmp_path / "nvim-lsp.json"
    proc = run(
        ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n",
         "-c", f"luafile {HERE / 'nvim_lsp_check.lua'}"],
        env={
            "CHECK_PKG": str(EDITORS / "nvim"),
            "CHECK_SERVER": str(server),
            "CHECK_FILE": str(target),
            "CHECK_OUT": str(out),
            "CHECK_TIMEOUT": str(LSP_TIMEOUT_SECONDS * 1000),
            **(env or {}),
        },
        timeout=4 * LSP_TIMEOUT_SECONDS,
    )
    assert out.exists(), f"nvim wrote no result:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(out.read_text())


def emacs_session(server, tmp_path, env=None):
    target = mistake_project(tmp_path)
    out = tmp_path / "emacs-lsp.json"
    proc = run(
        ["emacs", "-batch", "-l", HERE / "emacs_lsp_check.el"],
        env={
            "CHECK_MODE_DIR": str(EDITORS / "emacs"),
            "CHECK_SERVER": str(server),
            "CHECK_FILE": str(target),
            "CHECK_OUT": str(out),
            "CHECK_TIMEOUT": str(LSP_TIMEOUT_SECONDS),
            **(env or {}),
        },
        timeout=4 * LSP_TIMEOUT_SECONDS,
    )
    assert out.exists(), f"emacs wrote no result:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(out.read_text())


def assert_neovim_saw_the_mistake_and_completed(data):
    assert data["errors"] == [], data["errors"]
    assert data["filetype"] == "taxpro"
    assert data["attached"], "the taxpro client never attached to the buffer"
    assert data["got_diagnostics"], "no diagnostics arrived"
    on_line = [d for d in data["diagnostics"] if d["lnum"] == MISTAKE_LINE]
    assert on_line, f"no diagnostic on line {MISTAKE_LINE + 1}: {data['diagnostics']}"
    assert any(d["col"] <= MISTAKE_COLUMN <= max(d["end_col"], d["col"]) for d in on_line), (
        f"no diagnostic covers `incme` (column {MISTAKE_COLUMN}): {on_line}")
    assert "income_tax" in data["completion_labels"], data["completion_labels"]


def assert_emacs_saw_the_mistake(data):
    assert data["errors"] == [], data["errors"]
    assert data["mode"] == "taxpro-mode"
    assert data["managed"], "Eglot is not managing the buffer"
    on_line = [d for d in data["diagnostics"] if d["line"] == MISTAKE_LINE + 1]
    assert on_line, f"no Flymake diagnostic on line {MISTAKE_LINE + 1}: {data['diagnostics']}"


def read_log(log):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_neovim_with_stub_server(stub_server, tmp_path):
    program, log = stub_server
    data = neovim_session(program, tmp_path, env={"STUB_LSP_LOG": str(log)})
    assert_neovim_saw_the_mistake_and_completed(data)
    messages = read_log(log)
    assert messages[0] == {"argv": ["lsp"]}
    initialize = next(m for m in messages if m.get("method") == "initialize")
    assert initialize["params"]["initializationOptions"] == {"year": None, "inlayHints": True}
    opened = next(m for m in messages if m.get("method") == "textDocument/didOpen")
    assert opened["params"]["textDocument"]["languageId"] == "taxpro"
    changes = [m["params"]["settings"] for m in messages
               if m.get("method") == "workspace/didChangeConfiguration"]
    assert {"taxpro": {"year": 2025, "inlayHints": True}} in changes  # :TaxproYear 2025
    assert changes[-1] == {"taxpro": {"year": None, "inlayHints": True}}  # then :TaxproYear


def test_emacs_with_stub_server(stub_server, tmp_path):
    program, log = stub_server
    data = emacs_session(program, tmp_path, env={"STUB_LSP_LOG": str(log)})
    assert_emacs_saw_the_mistake(data)
    assert data["contact"] == [str(program), "lsp"]
    messages = read_log(log)
    assert messages[0] == {"argv": ["lsp"]}
    initialize = next(m for m in messages if m.get("method") == "initialize")
    assert initialize["params"]["initializationOptions"] == {"year": None, "inlayHints": True}
    opened = next(m for m in messages if m.get("method") == "textDocument/didOpen")
    assert opened["params"]["textDocument"]["languageId"] == "taxpro"


@requires_taxpro
def test_neovim_with_taxpro_server(tmp_path):
    assert_neovim_saw_the_mistake_and_completed(neovim_session(taxpro_server(), tmp_path))


@requires_taxpro
def test_emacs_with_taxpro_server(tmp_path):
    assert_emacs_saw_the_mistake(emacs_session(taxpro_server(), tmp_path))
