"""Peak memory of `taxpro lsp` step by step, for builds side by side: what `bench/run.py`'s language-server section
does to a server (open a generated document, close it and open a fresh copy, open it again, re-open copies, then edit,
type and ask for completion and hover as its rounds do), with the server's peak resident memory (VmHWM) after each
step. Written to find which step a peak-memory difference between two builds comes from; the bench itself reports only
the peak at the end.

    python3 bench/lsp_memory_probe.py --formulas 1000 BINARY [BINARY …]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402


def probe(binary: str, formulas: int, reopens: int, rounds: int) -> list[tuple[str, int]]:
    """(step, peak MiB) after each step of one fresh server of `binary`."""
    name, language, text = run.lsp_documents(formulas)["taxpro"]
    run.server_argv = lambda server: [binary, "lsp"]
    server = run.ServerRun("taxpro", Path(tempfile.mkdtemp()), (name, language, text))
    try:
        def peak() -> int:
            return (server.client.peak_memory_kib() or 0) // 1024

        steps = [("initialize", peak())]
        server.open_main()
        steps.append(("open", peak()))
        server.client.notify("textDocument/didClose", {"textDocument": {"uri": server.uri}})
        copy = server.path.with_name("copy_" + server.name).as_uri()
        start = server.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": copy, "languageId": language, "version": 1, "text": text}})
        server.wait_diagnostics(copy, start)
        steps.append(("closed, a copy opened", peak()))
        server.client.notify("textDocument/didClose", {"textDocument": {"uri": copy}})
        server.version += 1
        start = server.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": server.uri, "languageId": language, "version": server.version, "text": text}})
        server.wait_diagnostics(server.uri, start, server.version)
        steps.append(("opened again", peak()))
        for _ in range(reopens):
            server.open_once()
        steps.append((f"{reopens} more copies", peak()))
        for _ in range(rounds):
            server.edit_once()
        steps.append((f"{rounds} edits", peak()))
        for _ in range(rounds):
            server.type_once()
        steps.append((f"{rounds} typed and deleted", peak()))
        for _ in range(rounds):
            server.request_once("textDocument/completion", server.positions["complete"])
            server.request_once("textDocument/hover", server.positions["hover"])
        steps.append((f"{rounds} completions and hovers", peak()))
        return steps
    finally:
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--formulas", type=int, default=1000, help="formulas of the document (four lines each)")
    parser.add_argument("--reopens", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=20, help="edits, typings and requests after the opens")
    args = parser.parse_args()
    for binary in args.binaries:
        steps = probe(binary, args.formulas, args.reopens, args.rounds)
        print(binary + ": " + ", ".join(f"{step} {mib} MiB" for step, mib in steps), flush=True)


if __name__ == "__main__":
    main()
