"""Instructions per language-server request, counted by callgrind: a steadier figure than milliseconds on a shared
machine, for comparing two builds of `taxpro lsp` (this one and a baseline) request by request.

The client of `bench/run.py` (`lsp_client.py`) drives `taxpro lsp` under `valgrind --tool=callgrind`: initialize,
initialized, didOpen of the generated formula file (`generate.taxpro_formulas`, four lines a formula) and its
diagnostics, then N requests of one kind at the place `run.py` measures them (completion after `ON.`, hover on a province
code; `names`, completion of a name being typed in a formula body; or N keystrokes, `typing` near the top of the document and `typing-middle` in its middle, see `type_digits`),
shutdown, exit. The run is made twice, with N = 0 and N = --requests, and the difference of the two totals divided
by N is the cost of one request, from reading it to writing its answer; the N = 0 run's total is the start-up plus the
open. The first request of a kind also pays one-time costs (the Swift runtime looks up conformances and instantiates
generic types the first time they are used): `--warmup W` sends W requests in both runs, so the difference is the
steady cost alone. With `--open-lines L`, a document of L lines is opened and closed first (in the same runs), so its decoding shows in
the N = 0 figure and in `callgrind_annotate` of the kept output files.

    python3 bench/lsp_instructions.py .build-static/x86_64-unknown-linux-gnu/release/taxpro [baseline-binary …]

Needs valgrind. A run takes a few seconds to a minute per binary; the counts are exact up to the server's own variation
(timers, the order threads run in), a few thousand instructions a request.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402
import lsp_client  # noqa: E402
import run  # noqa: E402


def count(binary: Path, workspace: Path, kind: str, requests: int, text: str, out: Path,
          open_lines: int) -> int:
    """The total instructions of one callgrind run."""
    argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(binary), "lsp"]
    client = lsp_client.LspClient(argv, workspace)
    try:
        client.initialize(workspace, timeout=300)
        uri = (workspace / "formulas.tax").as_uri()
        if open_lines:
            big_uri = (workspace / "big.tax").as_uri()
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": big_uri, "languageId": "taxpro", "version": 1,
                "text": generate.taxpro_formulas(open_lines // 4)}})
            client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == big_uri, timeout=600)
            client.notify("textDocument/didClose", {"textDocument": {"uri": big_uri}})
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "taxpro", "version": 1, "text": text}})
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri and m["params"].get("version") in (None, 1), timeout=600)
        if kind.startswith("typing"):
            type_digits(client, uri, text, kind, requests)
            requests = 0
        if kind == "names":
            # A name being typed in a body (`inc` of `income`): every global name is a candidate before the prefix.
            line = run.probe_positions("taxpro", text)["edit"][0]
            position = (line, text.split("\n")[line].index("income") + 3)
        else:
            position = run.probe_positions("taxpro", text)["complete" if kind == "completion" else "hover"]
        method = "textDocument/hover" if kind == "hover" else "textDocument/completion"
        for _ in range(requests):
            _, response = client.request(method, {
                "textDocument": {"uri": uri}, "position": {"line": position[0], "character": position[1]}},
                timeout=120)
            if "error" in response or not response.get("result"):
                raise SystemExit(f"{binary}: {method} answered {response}")
    finally:
        client.close()
    summary = out.read_text(errors="replace")
    match = re.search(r"^summary:\s*(\d+)", summary, re.M) or re.search(r"^totals:\s*(\d+)", summary, re.M)
    if not match:
        raise SystemExit(f"no totals in {out}")
    return int(match.group(1))


def type_digits(client: lsp_client.LspClient, uri: str, text: str, kind: str, keystrokes: int):
    """Keystrokes of `run.py`'s *typing*: a digit typed before one in the document (everything after it moves by a
    character), then deleted, each until its diagnostics. `typing` types in the first formula's `let` line (every
    later declaration moves: the worst case), `typing-middle` where `run.py` does, in the middle of the document."""
    lines = text.split("\n")
    line = 2 if kind == "typing" else run.probe_positions("taxpro", text)["edit"][0]
    column = re.search(r"\d", lines[line]).start()
    for keystroke in range(keystrokes):
        inserting = keystroke % 2 == 0
        version = keystroke + 2
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": column},
                                          "end": {"line": line, "character": column if inserting else column + 1}},
                                "text": "7" if inserting else ""}]})
        client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri and m["params"].get("version") == version, timeout=600)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="+", type=Path)
    parser.add_argument("--lines", type=int, default=1_000, help="lines of the document requested in")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=0, help="requests sent in both runs before those counted")
    parser.add_argument("--kinds", default="completion,hover")
    parser.add_argument("--open-lines", type=int, default=0, help="also open (and close) a document of this many lines")
    parser.add_argument("--keep", type=Path, help="directory for the callgrind output files")
    args = parser.parse_args()
    text = generate.taxpro_formulas(args.lines // 4)
    keep = args.keep or Path(tempfile.mkdtemp(prefix="lsp_instructions_"))
    keep.mkdir(parents=True, exist_ok=True)
    print(f"| binary | request | N = {args.warmup} total | per request |")
    print("|---|---|---:|---:|")
    for index, binary in enumerate(args.binaries):
        for kind in args.kinds.split(","):
            totals = []
            for n in (args.warmup, args.warmup + args.requests):
                with tempfile.TemporaryDirectory() as workspace:
                    out = keep / f"callgrind.{index}.{kind}.{n}"
                    totals.append(count(binary.resolve(), Path(workspace), kind, n, text, out, args.open_lines))
            per = (totals[1] - totals[0]) / args.requests
            print(f"| {binary} | {kind} | {totals[0]:,} | {per:,.0f} |", flush=True)
    print(f"\ncallgrind output: {keep}")


if __name__ == "__main__":
    main()
