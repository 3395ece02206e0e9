"""Hostile input over raw pipes: the server answers every message correctly, never crashes, and exits 0 after
shutdown and exit. No client library here: these are messages no well-behaved client sends."""

import os
import random

import pytest

from rawclient import RawServer

TAXPRO = os.environ.get("TAXPRO", "").strip()
pytestmark = pytest.mark.skipif(not TAXPRO, reason="set TAXPRO to the taxpro executable")

SERVER_NOT_INITIALIZED = -32002
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602

DOCUMENT = """## Tax on income.
formula owed(income: Money, province: Province = ON): Money =
  let base = tax(province.income_tax, income)
  max(base - province.basic_personal_amount * province.credit_rate, $0)

let café = owed($85,000) # non-ASCII in a comment: 💰 é

test "owed" {
  owed($0) == $0
}
"""


@pytest.fixture
def server(tmp_path):
    server = RawServer(TAXPRO, cwd=tmp_path)
    yield server
    server.close()


def initialize(server, root):
    answer = server.call("initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}})
    assert "capabilities" in answer["result"]
    server.notify("initialized", {})
    return answer["result"]["capabilities"]


def error_code(message):
    assert "error" in message, message
    return message["error"]["code"]


def test_requests_before_initialize_are_refused(server, tmp_path):
    assert error_code(server.call("textDocument/hover", {})) == SERVER_NOT_INITIALIZED
    assert error_code(server.call("shutdown")) == SERVER_NOT_INITIALIZED
    # Notifications before initialize are dropped, not answered.
    server.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.tax", "languageId": "taxpro",
                                                              "version": 1, "text": "garbage ("}})
    initialize(server, tmp_path)
    assert error_code(server.call("initialize", {"capabilities": {}})) == INVALID_REQUEST
    assert server.call("shutdown")["result"] is None
    server.notify("exit")
    assert server.wait() == 0


def test_garbage_frames_and_malformed_messages(server, tmp_path):
    initialize(server, tmp_path)
    # Not JSON at all: a parse error with a null id.
    body = b"{this is not json"
    server.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    reply = server.receive()
    assert reply["id"] is None and error_code(reply) == PARSE_ERROR
    # JSON but not a message.
    for body in (b"[1, 2, 3]", b'"hello"', b'{"jsonrpc": "1.0", "id": 7, "method": "x"}',
                 b'{"jsonrpc": "2.0", "id": {"nested": true}, "method": "x"}',
                 b'{"jsonrpc": "2.0", "id": 8, "method": 42}'):
        server.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        assert error_code(server.receive()) == INVALID_REQUEST
    # Broken framing: a header without a length, a length that is not a number, stray bytes between frames.
    server.write(b"Content-Type: nothing\r\n\r\n")
    server.write(b"Content-Length: twelve\r\n\r\n")
    server.write(b"\x00\xff\xfe random bytes \r\n\r\n")
    # Invalid UTF-8 inside a JSON string.
    body = b'{"jsonrpc": "2.0", "id": 9, "method": "\xff\xfe"}'
    server.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    reply = server.receive()
    assert error_code(reply) in (PARSE_ERROR, INVALID_REQUEST)
    # Still serving.
    assert error_code(server.call("no/suchMethod", {})) == METHOD_NOT_FOUND
    assert error_code(server.call("$/unknownRequest", {})) == METHOD_NOT_FOUND
    server.notify("no/suchNotification", {"x": 1})
    assert server.call("shutdown")["result"] is None
    server.notify("exit")
    assert server.wait() == 0


def test_bad_params_and_out_of_range_positions(server, tmp_path):
    initialize(server, tmp_path)
    uri = (tmp_path / "doc.tax").as_uri()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                              "text": DOCUMENT}})
    bad = [
        ("textDocument/hover", None),
        ("textDocument/hover", {}),
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": "one", "character": 0}}),
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}}),
        ("textDocument/definition", {"textDocument": 5, "position": {"line": 0, "character": 0}}),
        ("textDocument/rename", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
        ("textDocument/formatting", {"textDocument": {"uri": uri}}),
        ("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {}, "context": {"diagnostics": []}}),
        ("workspace/executeCommand", {"command": "taxpro.runTest", "arguments": [1, 2]}),
        ("workspace/executeCommand", {"command": "rm -rf /"}),
        ("textDocument/semanticTokens/full", []),
    ]
    for method, params in bad:
        assert error_code(server.call(method, params)) == INVALID_PARAMS, (method, params)
    far = {"line": 10**9, "character": 10**9}
    inside_emoji = {"line": 5, "character": DOCUMENT.split("\n")[5].index("💰") + 1}
    for position in (far, {"line": 0, "character": 10**9}, inside_emoji, {"line": 9, "character": 0}):
        for method in ("textDocument/hover", "textDocument/definition", "textDocument/signatureHelp",
                       "textDocument/documentHighlight", "textDocument/prepareRename"):
            reply = server.call(method, {"textDocument": {"uri": uri}, "position": position})
            assert "result" in reply or reply["error"]["code"] == -32803, (method, position, reply)
        reply = server.call("textDocument/references", {"textDocument": {"uri": uri}, "position": position,
                                                        "context": {"includeDeclaration": True}})
        assert "result" in reply
    reply = server.call("textDocument/selectionRange", {"textDocument": {"uri": uri}, "positions": [far, inside_emoji]})
    assert len(reply["result"]) == 2
    reply = server.call("textDocument/inlayHint", {"textDocument": {"uri": uri},
                                                   "range": {"start": far, "end": {"line": 0, "character": 0}}})
    assert "result" in reply
    # A document nobody opened, and a URI that is not a file.
    for other in ((tmp_path / "never.tax").as_uri(), "untitled:Untitled-1", "not a uri at all"):
        reply = server.call("textDocument/hover", {"textDocument": {"uri": other}, "position": {"line": 0, "character": 0}})
        assert reply["result"] is None
        reply = server.call("textDocument/documentSymbol", {"textDocument": {"uri": other}})
        assert "result" in reply
    # Edits out of range, to unknown documents, and stale versions are survived.
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": far, "end": far}, "text": "\n# appended"}]})
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 1}, "contentChanges": [
        {"text": "stale"}]})
    server.notify("textDocument/didChange", {"textDocument": {"uri": "file:///nowhere.tax", "version": 1},
                                             "contentChanges": [{"text": "x"}]})
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
        {"range": {"start": {"line": 3, "character": 50}, "end": {"line": 1, "character": 0}}, "text": "?"}]})
    reply = server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert reply["result"][0]["name"] == "owed"
    assert server.call("shutdown")["result"] is None
    assert error_code(server.call("textDocument/hover", {})) == INVALID_REQUEST
    server.notify("exit")
    assert server.wait() == 0


def offset_to_position(text, offset):
    """As the specification counts: lines end at "\n", "\r\n" or "\r"; characters are UTF-16 code units."""
    line = 0
    start = 0
    index = 0
    while index < offset:
        if text[index] == "\n" or (text[index] == "\r" and not (index + 1 < len(text) and text[index + 1] == "\n")):
            line += 1
            start = index + 1
        index += 1
    # An offset between "\r" and "\n" is the end of the line.
    column_text = text[start:offset].rstrip("\r") if offset < len(text) and text[offset] == "\n" else text[start:offset]
    return {"line": line, "character": len(column_text.encode("utf-16-le")) // 2}


def test_three_hundred_random_edits_with_requests_between(server, tmp_path):
    capabilities = initialize(server, tmp_path)
    uri = (tmp_path / "edited.tax").as_uri()
    text = DOCUMENT
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                              "text": text}})
    rng = random.Random(20250101)
    pieces = ["ON.", "federal.", "owed(", ")", "(", "$1,000", "13%", "let x = ", "\n", "  ", "é", "💰", "\"",
              "formula f(x: Money): Money = x\n", "if ", " then ", " else ", "##", "#", "{", "}", ",", "province ",
              "test \"t\" {", "year 2025 {", "tax(", "income", ".", "..", "-", "*", "->", "\r\n", "brackets {"]
    version = 1
    for step in range(300):
        start = rng.randrange(len(text) + 1)
        end = min(len(text), start + rng.choice([0, 0, 1, 2, 5, 20]))
        # No position lies between the "\r" and "\n" of a line ending: a real client cannot edit there.
        if 0 < start < len(text) and text[start - 1] == "\r" and text[start] == "\n":
            start -= 1
        if 0 < end < len(text) and text[end - 1] == "\r" and text[end] == "\n":
            end += 1
        # Keep surrogate pairs whole: the client never splits a character.
        new_text = rng.choice(pieces) if rng.random() < 0.8 else ""
        change = {"range": {"start": offset_to_position(text, start), "end": offset_to_position(text, end)},
                  "text": new_text}
        text = text[:start] + new_text + text[end:]
        version += 1
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [change]})
        if step % 3 == 0:
            cursor = offset_to_position(text, start + len(new_text))
            method = "textDocument/completion" if capabilities.get("completionProvider") else "textDocument/hover"
            reply = server.call(method, {"textDocument": {"uri": uri}, "position": cursor})
            assert "result" in reply, reply
            reply = server.call("textDocument/signatureHelp", {"textDocument": {"uri": uri}, "position": cursor})
            assert "result" in reply, reply
        if step % 50 == 0:
            for method in ("textDocument/semanticTokens/full", "textDocument/foldingRange",
                           "textDocument/documentSymbol", "textDocument/codeLens"):
                assert "result" in server.call(method, {"textDocument": {"uri": uri}})
    # The server's text is the client's: a second server given the final text whole answers the same.
    fresh = RawServer(TAXPRO, cwd=tmp_path)
    try:
        initialize(fresh, tmp_path)
        fresh.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                                 "text": text}})
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 10**6, "character": 0}}
        for method, params in (("textDocument/semanticTokens/full", {}), ("textDocument/foldingRange", {}),
                               ("textDocument/documentSymbol", {}), ("textDocument/inlayHint", {"range": whole})):
            params = {"textDocument": {"uri": uri}, **params}
            assert server.call(method, params)["result"] == fresh.call(method, params)["result"], method
    finally:
        fresh.close()
    assert server.call("shutdown")["result"] is None
    server.notify("exit")
    assert server.wait() == 0


def test_cancellation_end_of_input_and_exit_without_shutdown(tmp_path):
    server = RawServer(TAXPRO, cwd=tmp_path)
    try:
        initialize(server, tmp_path)
        # A cancelled request is answered once, with RequestCancelled or its result.
        ids = [server.request("workspace/symbol", {"query": ""}) for _ in range(5)]
        for id in ids:
            server.notify("$/cancelRequest", {"id": id})
        for id in ids:
            reply = server.response(id)
            assert "result" in reply or reply["error"]["code"] == -32800
        server.notify("$/cancelRequest", {"id": 123456})  # unknown: ignored
        server.notify("exit")
        assert server.wait() == 1
    finally:
        server.close()
    server = RawServer(TAXPRO, cwd=tmp_path)
    try:
        initialize(server, tmp_path)
        server.process.stdin.close()
        assert server.wait() == 1
    finally:
        server.close()


def test_deep_nesting_and_long_lines(server, tmp_path):
    initialize(server, tmp_path)
    uri = (tmp_path / "deep.tax").as_uri()
    text = ("formula g(y: Money): Money = max(" + "y, " * 20000 + "y)\n"
            + "let a = " + "(" * 20000 + "1" + ")" * 20000 + "\nformula f(x: Money): Money = " + "-" * 5000
            + "x\ntest \"t\" { " + "not " * 3000 + "true }\n" + "let b = " + "1 + " * 20000 + "1\n")
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                              "text": text}})
    for method in ("textDocument/semanticTokens/full", "textDocument/foldingRange", "textDocument/documentSymbol",
                   "textDocument/codeLens", "textDocument/formatting"):
        params = {"textDocument": {"uri": uri}}
        if method == "textDocument/formatting":
            params["options"] = {"tabSize": 2, "insertSpaces": True}
        assert "result" in server.call(method, params), method
    for line, character in ((1, 20005), (2, 3000), (3, 5000), (4, 40000)):
        position = {"line": line, "character": character}
        for method in ("textDocument/hover", "textDocument/signatureHelp", "textDocument/definition",
                       "textDocument/completion"):
            reply = server.call(method, {"textDocument": {"uri": uri}, "position": position})
            assert "result" in reply or reply["error"]["code"] == METHOD_NOT_FOUND, (method, reply)
        reply = server.call("textDocument/selectionRange", {"textDocument": {"uri": uri}, "positions": [position]})
        assert len(reply["result"]) == 1
    reply = server.call("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}})
    assert "result" in reply
    # Twenty thousand uses on one line: references, highlights and rename stay linear.
    y = {"line": 0, "character": 10}
    reply = server.call("textDocument/references", {"textDocument": {"uri": uri}, "position": y,
                                                    "context": {"includeDeclaration": True}})
    assert len(reply["result"]) == 20002
    assert len(server.call("textDocument/documentHighlight", {"textDocument": {"uri": uri}, "position": y})["result"]) == 20002
    reply = server.call("textDocument/rename", {"textDocument": {"uri": uri}, "position": y, "newName": "z"})
    assert len(reply["result"]["changes"][uri]) == 20002
    assert server.call("shutdown")["result"] is None
    server.notify("exit")
    assert server.wait() == 0
