"""Hover for clients that show plain text (issue 11, item 9)."""

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
