"""The server's bounds: documents with 100,000 levels of nesting, 10,000-digit numbers, millions of stray characters
and evaluations deeper than the limit get diagnostics, and the server keeps answering."""

import os

import pytest
from rawclient import RawServer

TAXPRO = os.environ.get("TAXPRO", "").strip()
pytestmark = pytest.mark.skipif(not TAXPRO, reason="set TAXPRO to the taxpro executable")


@pytest.fixture
def server(tmp_path):
    server = RawServer(TAXPRO, cwd=tmp_path)
    answer = server.call("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    assert "capabilities" in answer["result"]
    server.notify("initialized", {})
    yield server
    server.close()


def diagnostics_of(server, uri, text):
    """Opens a document and returns the messages of its first published diagnostics."""
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                              "text": text}})
    while True:
        message = server.receive(timeout=120)
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
            return [diagnostic["message"] for diagnostic in message["params"]["diagnostics"]]


def test_hostile_documents_get_diagnostics_and_the_server_goes_on(server, tmp_path):
    deep = 100_000
    documents = {
        "parentheses.tax": ("let a = " + "(" * deep + "1" + ")" * deep + "\n", "nested too deeply"),
        "members.tax": ("let b = ON" + ".name" * deep + "\n", "nested too deeply"),
        "digits.tax": ("let c = 1" + "0" * 10_000 + "\n", "too large"),
        "flood.tax": ("$" * (20 << 20), "too many errors"),
    }
    chain = ["formula g0(x: Number): Number = x"]
    chain += [f"formula g{k}(x: Number): Number = g{k - 1}(x) + 1" for k in range(1, 3_001)]
    chain.append('test "deep" { g3000(1) > 0 }')
    documents["chain.tax"] = ("\n".join(chain) + "\n", "levels deep and was stopped")
    for name, (text, expected) in documents.items():
        uri = (tmp_path / name).as_uri()
        messages = diagnostics_of(server, uri, text)
        assert any(expected in message for message in messages), (name, messages[:3])
        reply = server.call("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": 0, "character": 5}})
        assert "result" in reply, (name, reply)
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert server.call("shutdown")["result"] is None
    server.notify("exit")
    assert server.wait() == 0
