#!/usr/bin/env python3
"""Language-server latency on a large document: open → diagnostics, edit → diagnostics, completion and hover.

Usage: benchmarks/lsp_latency.py [--formulas N] [--rounds R] [SERVER COMMAND...]
Default command: .build/release/taxpro lsp. The document has N formulas (10,000 by default), each with a doc
comment, typed parameters, a `let` and a call of an earlier formula now and then. Times are wall-clock from the
message leaving the client to the answer arriving, medians (and maxima) over R rounds.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "lsp"))
from rawclient import RawServer  # noqa: E402


def generate(count):
    lines = []
    for n in range(count):
        lines.append(f"## Formula number {n}: a share of provincial tax.")
        lines.append(f"formula f{n}(income: Money, province: Province = ON): Money =")
        lines.append(f"  let base = tax(province.income_tax, income) * {n % 97 + 1}%")
        if n > 0 and n % 10 == 0:
            lines.append(f"  base + f{n - 1}(income, province) - province.basic_personal_amount * 1%")
        else:
            lines.append("  base + $" + f"{n % 1000},000")
        lines.append("")
    return "\n".join(lines)


class Timed(RawServer):
    def __init__(self, command, cwd):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=cwd)
        import queue
        import threading
        self.messages = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1
        self.early = []

    def response(self, id, timeout=120):
        while True:
            message = self.receive(timeout)
            if message.get("method") == "textDocument/publishDiagnostics":
                self.early.append(message["params"])
                continue
            if "method" in message:
                if "id" in message:
                    self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if message.get("id") == id:
                return message

    def diagnostics_for(self, uri, timeout=120):
        for index, params in enumerate(self.early):
            if params["uri"] == uri:
                del self.early[: index + 1]
                return params
        while True:
            message = self.receive(timeout)
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                return message["params"]
            if "method" in message and "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--formulas", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("command", nargs="*", default=[".build/release/taxpro", "lsp"])
    args = parser.parse_args()
    if Path(args.command[0]).exists():
        args.command[0] = str(Path(args.command[0]).resolve())

    directory = Path(tempfile.mkdtemp(prefix="taxpro-bench-"))
    text = generate(args.formulas)
    path = directory / "large.tax"
    path.write_text(text)
    uri = path.as_uri()
    lines = text.split("\n")
    print(f"document: {args.formulas} formulas, {len(lines)} lines, {len(text.encode()) / 1e6:.2f} MB")

    server = Timed(args.command, directory)
    started = time.perf_counter()
    server.call("initialize", {"processId": None, "rootUri": directory.as_uri(), "capabilities": {}})
    server.notify("initialized", {})
    initialized = time.perf_counter() - started

    started = time.perf_counter()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "taxpro", "version": 1,
                                                              "text": text}})
    server.diagnostics_for(uri)
    opened = time.perf_counter() - started

    middle = (args.formulas // 2) * 5 + 3  # the last line of a formula in the middle
    version = 1
    edits, bursts, completions, hovers, fresh_hovers = [], [], [], [], []
    for round_ in range(args.rounds):
        # An edit that breaks the formula, then one that repairs it: both must be re-checked.
        for replacement in ("  base + $1 +", "  base + $" + f"{round_},000"):
            line = lines[middle]
            version += 1
            started = time.perf_counter()
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"range": {
                                                         "start": {"line": middle, "character": 0},
                                                         "end": {"line": middle, "character": len(line)}},
                                                         "text": replacement}]})
            server.diagnostics_for(uri)
            edits.append(time.perf_counter() - started)
            lines[middle] = replacement
        # A burst of ten keystrokes: checked once, after the last.
        started = time.perf_counter()
        for character in "+ $1 + $2 ":
            version += 1
            end = len(lines[middle])
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"range": {
                                                         "start": {"line": middle, "character": end},
                                                         "end": {"line": middle, "character": end}},
                                                         "text": character}]})
            lines[middle] += character
        server.diagnostics_for(uri)
        bursts.append(time.perf_counter() - started)
        # Completion after `province.` on the line being edited.
        version += 1
        end = len(lines[middle])
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"range": {
                                                     "start": {"line": middle, "character": end},
                                                     "end": {"line": middle, "character": end}},
                                                     "text": "province."}]})
        lines[middle] += "province."
        started = time.perf_counter()
        reply = server.call("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": middle, "character": len(lines[middle])}})
        completions.append(time.perf_counter() - started)
        assert "result" in reply or reply["error"]["code"] == -32601, reply
        # Hover right after the edit waits for its re-check; hover once it is checked does not.
        hover = {"textDocument": {"uri": uri}, "position": {"line": 10 * 5 + 1, "character": 10}}
        started = time.perf_counter()
        reply = server.call("textDocument/hover", hover)
        fresh_hovers.append(time.perf_counter() - started)
        assert reply.get("result"), reply
        server.diagnostics_for(uri)
        started = time.perf_counter()
        reply = server.call("textDocument/hover", hover)
        hovers.append(time.perf_counter() - started)
        assert reply.get("result"), reply
        # Put the line back for the next round.
        version += 1
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"range": {
                                                     "start": {"line": middle, "character": 0},
                                                     "end": {"line": middle, "character": len(lines[middle])}},
                                                     "text": "  base + $1,000"}]})
        lines[middle] = "  base + $1,000"
        server.diagnostics_for(uri)

    server.call("shutdown")
    server.notify("exit")
    server.wait()

    def report(name, samples):
        print(f"{name:<32} median {statistics.median(samples) * 1000:8.1f} ms   max {max(samples) * 1000:8.1f} ms")

    print(f"{'initialize (library + workspace)':<32} {initialized * 1000:15.1f} ms")
    print(f"{'open → diagnostics':<32} {opened * 1000:15.1f} ms")
    report("edit → diagnostics", edits)
    report("10-keystroke burst → diagnostics", bursts)
    report("completion after 'province.'", completions)
    report("hover", hovers)
    report("hover right after an edit", fresh_hovers)


if __name__ == "__main__":
    main()
