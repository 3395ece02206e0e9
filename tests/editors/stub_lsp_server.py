#!/usr/bin/env python3
"""A stand-in for `taxpro lsp`, used to test the editor clients' wiring before the real server exists.

It speaks just enough LSP 3.17 over stdio (Content-Length framing) for the editor tests:
- `initialize` answers with full text sync and completion triggered by `.`;
- every open or change of a document publishes one error for each use of an unknown name from
  a small fixed list (`incme`), so the tests see a diagnostic on the right line;
- `textDocument/completion` after `ON.` (or any `XX.`) offers the province parameters;
- `shutdown` / `exit` as the specification says; other requests get MethodNotFound.

It must be started as `<program> lsp` (it exits with status 2 otherwise, like a usage error), and
it appends every message it receives, one JSON object a line, to the file named by the
STUB_LSP_LOG environment variable when that is set, so tests can check what the client sent
(the `lsp` argument, initializationOptions, configuration changes).

It is NOT the TaxPro language server and knows nothing of the language beyond this.
"""

import json
import os
import re
import sys

UNKNOWN_NAMES = {"incme": "income"}
PROVINCE_PARAMETERS = ["income_tax", "basic_personal_amount", "credit_rate"]

documents = {}


def log(entry):
    path = os.environ.get("STUB_LSP_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")


def read_message(stream):
    headers = {}
    while True:
        line = stream.readline()
        if not line:
            return None
        line = line.decode("ascii", "replace").strip()
        if not line:
            break
        key, _, value = line.partition(":")
        headers[key.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = stream.read(length)
    return json.loads(body.decode("utf-8"))


def send(message):
    body = json.dumps(message).encode("utf-8")
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body))
    sys.stdout.buffer.write(body)
    sys.stdout.buffer.flush()


def publish(uri):
    diagnostics = []
    for number, line in enumerate(documents.get(uri, "").split("\n")):
        code = line.split("#", 1)[0]
        for match in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", code):
            if match.group(0) in UNKNOWN_NAMES:
                diagnostics.append({
                    "range": {"start": {"line": number, "character": match.start()},
                              "end": {"line": number, "character": match.end()}},
                    "severity": 1,
                    "source": "taxpro-stub",
                    "message": f"unknown name '{match.group(0)}'; did you mean "
                               f"'{UNKNOWN_NAMES[match.group(0)]}'?",
                })
    send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
          "params": {"uri": uri, "diagnostics": diagnostics}})


def completion(params):
    uri = params["textDocument"]["uri"]
    position = params["position"]
    lines = documents.get(uri, "").split("\n")
    line = lines[position["line"]] if position["line"] < len(lines) else ""
    before = line[:position["character"]]
    if re.search(r"\b[A-Z]{2}\.[A-Za-z_]*$", before):
        items = [{"label": name, "kind": 10, "detail": "parameter"} for name in PROVINCE_PARAMETERS]
    else:
        items = [{"label": name, "kind": 14} for name in ("formula", "let", "test", "if")]
    return {"isIncomplete": False, "items": items}


def main():
    if sys.argv[1:2] != ["lsp"]:
        sys.stderr.write("usage: taxpro lsp\n")
        return 2
    log({"argv": sys.argv[1:]})
    stdin = sys.stdin.buffer
    shutting_down = False
    while True:
        message = read_message(stdin)
        if message is None:
            return 1
        log(message)
        method = message.get("method")
        params = message.get("params") or {}
        request_id = message.get("id")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": request_id, "result": {
                "capabilities": {
                    "textDocumentSync": {"openClose": True, "change": 1},
                    "completionProvider": {"triggerCharacters": ["."]},
                },
                "serverInfo": {"name": "taxpro-stub", "version": "0"},
            }})
        elif method == "textDocument/didOpen":
            document = params["textDocument"]
            documents[document["uri"]] = document["text"]
            publish(document["uri"])
        elif method == "textDocument/didChange":
            uri = params["textDocument"]["uri"]
            for change in params["contentChanges"]:
                if "range" not in change:
                    documents[uri] = change["text"]
            publish(uri)
        elif method == "textDocument/didClose":
            documents.pop(params["textDocument"]["uri"], None)
        elif method == "textDocument/completion":
            send({"jsonrpc": "2.0", "id": request_id, "result": completion(params)})
        elif method == "shutdown":
            shutting_down = True
            send({"jsonrpc": "2.0", "id": request_id, "result": None})
        elif method == "exit":
            return 0 if shutting_down else 1
        elif request_id is not None:
            send({"jsonrpc": "2.0", "id": request_id,
                  "error": {"code": -32601, "message": f"method not found: {method}"}})


if __name__ == "__main__":
    sys.exit(main())
