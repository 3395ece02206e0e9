"""Hover for clients that show plain text, formatting that says why it did nothing, range formatting, and rename
refusals that name the right file (issue 11, items 9 and 10)."""

import os

import pytest

from rawclient import RawServer

TAXPRO = os.environ.get("TAXPRO", "").strip()
pytestmark = pytest.mark.skipif(not TAXPRO, reason="set TAXPRO to the taxpro executable")

DOCUMENT = "let rate = ON.credit_rate\nlet owed = combined_tax($50,000, ON)\n"


def start(tmp_path, capabilities):
    server = RawServer(TAXPRO, cwd=tmp_path)
    answer = server.call("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": capabilities})
    server.notify("initialized", {})
    return server, answer["result"]["capabilities"]


def open_text(server, uri, text):
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                              "text": text}})


def hover(server, uri, line, character):
    return server.call("textDocument/hover", {"textDocument": {"uri": uri},
                                              "position": {"line": line, "character": character}})["result"]


@pytest.fixture
def plain(tmp_path):
    # Emacs's eglot without markdown-mode: plain text only.
    server, _ = start(tmp_path, {"textDocument": {"hover": {"contentFormat": ["plaintext"]}}})
    yield server
    server.close()


def test_plain_text_hover_has_no_markdown_and_the_value_near_the_top(plain, tmp_path):
    uri = (tmp_path / "doc.tax").as_uri()
    open_text(plain, uri, DOCUMENT)
    result = hover(plain, uri, 0, DOCUMENT.index("credit_rate") + 1)
    assert result["contents"]["kind"] == "plaintext"
    text = result["contents"]["value"]
    for markup in ("```", "**", "---", "_Topic", "`5"):
        assert markup not in text, (markup, text)
    lines = text.split("\n")
    assert lines[0] == "ON.credit_rate: Rate"
    assert lines[1].startswith("ON.credit_rate in 20") and lines[1].endswith(": 5.05%"), lines[:3]
    # A formula: its documentation with the labels written out.
    result = hover(plain, uri, 1, DOCUMENT.index("combined_tax") - len(DOCUMENT.split("\n")[0]) - 1 + 2)
    text = result["contents"]["value"]
    assert text.startswith("formula combined_tax(") and "**" not in text and "```" not in text


def test_markdown_hover_puts_the_value_before_the_documentation(tmp_path):
    server, _ = start(tmp_path, {"textDocument": {"hover": {"contentFormat": ["markdown", "plaintext"]}}})
    try:
        uri = (tmp_path / "doc.tax").as_uri()
        open_text(server, uri, DOCUMENT)
        result = hover(server, uri, 0, DOCUMENT.index("credit_rate") + 1)
        assert result["contents"]["kind"] == "markdown"
        parts = result["contents"]["value"].split("\n\n---\n\n")
        assert parts[0] == "```taxpro\nON.credit_rate: Rate\n```"
        assert parts[1].startswith("**ON.credit_rate in 20") and parts[1].endswith(":** `5.05%`"), parts
        assert len(parts) > 2  # the documentation follows
        # A client that prefers plain text gets it, though it also lists Markdown.
        preferring = start(tmp_path, {"textDocument": {"hover": {"contentFormat": ["plaintext", "markdown"]}}})[0]
        try:
            open_text(preferring, uri, DOCUMENT)
            assert hover(preferring, uri, 0, DOCUMENT.index("credit_rate") + 1)["contents"]["kind"] == "plaintext"
        finally:
            preferring.close()
    finally:
        server.close()


def test_renaming_a_library_formula_names_the_file_that_declares_it(plain, tmp_path):
    uri = (tmp_path / "doc.tax").as_uri()
    open_text(plain, uri, DOCUMENT)
    column = DOCUMENT.split("\n")[1].index("combined_tax") + 2
    for method, extra in (("textDocument/prepareRename", {}), ("textDocument/rename", {"newName": "total_tax"})):
        reply = plain.call(method, {"textDocument": {"uri": uri}, "position": {"line": 1, "character": column}, **extra})
        message = reply["error"]["message"]
        assert "'combined_tax' is declared in" in message and "income_tax.tax" in message, message
        assert "deductions.tax" not in message


def test_formatting_a_broken_file_says_why(plain, tmp_path):
    uri = (tmp_path / "broken.tax").as_uri()
    open_text(plain, uri, "formula   f(x: Money): Money =\n  x *\n\nlet   a = (1 +\n")
    options = {"tabSize": 2, "insertSpaces": True}
    assert plain.call("textDocument/formatting", {"textDocument": {"uri": uri}, "options": options})["result"] == []
    shown = [m["params"] for m in plain.received if m.get("method") == "window/showMessage"]
    assert shown and "broken.tax was not formatted" in shown[-1]["message"] and "syntax error" in shown[-1]["message"]
    assert shown[-1]["type"] == 2
    reply = plain.call("textDocument/rangeFormatting", {"textDocument": {"uri": uri}, "options": options, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}})
    assert reply["result"] == []
    assert len([m for m in plain.received if m.get("method") == "window/showMessage"]) == len(shown) + 1


def test_range_formatting_formats_the_declarations_it_touches(plain, tmp_path):
    other, capabilities = start(tmp_path, {})
    other.close()
    assert capabilities["documentRangeFormattingProvider"] is True
    uri = (tmp_path / "messy.tax").as_uri()
    messy = "formula   f( x :Money ):Money=\n      x*2\nlet   c=f( $1 )\nlet   d=c*2\n"
    open_text(plain, uri, messy)
    options = {"tabSize": 2, "insertSpaces": True}
    edits = plain.call("textDocument/rangeFormatting", {"textDocument": {"uri": uri}, "options": options, "range": {
        "start": {"line": 2, "character": 3}, "end": {"line": 2, "character": 5}}})["result"]
    assert len(edits) == 1
    lines = messy.split("\n")
    edit = edits[0]
    first, last = edit["range"]["start"], edit["range"]["end"]
    before = "\n".join(lines[:first["line"]] + [lines[first["line"]][:first["character"]]])
    after = "\n".join([lines[last["line"]][last["character"]:]] + lines[last["line"] + 1:])
    result = before + edit["newText"] + after
    assert result == "formula   f( x :Money ):Money=\n      x*2\nlet c = f($1)\nlet   d=c*2\n"
