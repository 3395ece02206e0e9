"""Writes the seed corpora of the fuzz targets into fuzz/out/seeds/TARGET from the repository's own inputs.

core: every example, test fixture and standard-library file as a file (first byte 1) and as session input (first
byte 0), and expressions of every kind as session input. incremental: the same files, each with three edits in its
middle, with and without the standard library. lsp: framed JSON-RPC streams of a typical session and of
broken framing.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "out" / "seeds"

EXPRESSIONS = [
    "1+1", "0.1 + 0.2", "$1,234.56 * 13%", "$100 + 15%", "100 - 15%", "$10 / 3", "$200 / $800", "-$12",
    "tax(ON.income_tax, $85,000)", "marginal_rate(federal.income_tax, $120,000)", "average_rate(QC.income_tax, $0)",
    "min($1, $2, $3)", "max(1%, 2%)", "round(15.0198%, 2)", "floor($12.99)", "ceil(-2.5)", "clamp(5, 1, 3)",
    "if $5 > $3 then \"yes\" else \"no\"", "not true and false or true", "ON.name", "let x = $5\nx * 2",
    "formula f(a: Money in $0..$10 = $1): Money = a * 2\nf($3)", "brackets { $0 -> 5%, $10 -> 10% }",
    'test "t" { 1 == 1 }', "1200 + $5", "$5 * $5", "15% - $100", "1 / 0", "1" + "0" * 120, "((((1))))",
    "abs(-$3)", "round($1234.5678, -2)", "ans", "ON.income_tax", "$1,23.00", "$0.015", "1__0", "\"a\\qb\"",
]


def framed(message) -> bytes:
    body = json.dumps(message).encode() if not isinstance(message, bytes) else message
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp_seeds():
    uri = "file:///w/a.tax"
    session = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": "file:///w", "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "taxpro", "version": 1, "text": "let x = tax(ON.income_tax, $85,000)\n"}}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [
                {"range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 5}}, "text": "y"}]}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion",
         "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 15}}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 9}}},
        {"jsonrpc": "2.0", "id": 4, "method": "textDocument/rename",
         "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 4}, "newName": "z"}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 3}},
        {"jsonrpc": "2.0", "id": 5, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    yield b"".join(framed(m) for m in session)
    for message in session:
        yield framed(message)
    yield b"Content-Length: 5\r\n\r\n{\"a\":"
    yield b"Content-Length: -1\r\n\r\n" + framed(session[0])
    yield b"garbage\r\n" + framed(session[0])
    yield framed(b"[" * 600 + b"]" * 600)
    yield framed(b'{"jsonrpc":"2.0","id":{},"method":7}')
    yield framed(b'{"jsonrpc":"2.0","id":1,"result":null}')
    yield json.dumps(session[0]).encode()


def source_files() -> list[Path]:
    """The fixtures, the standard library and the examples."""
    files = sorted((ROOT / "Tests" / "TaxProCoreTests" / "Fixtures").rglob("*.tax"))
    files += sorted((ROOT / "Sources" / "TaxProLibrary" / "Resources").rglob("*.tax"))
    files += sorted((ROOT / "examples").rglob("*.tax")) if (ROOT / "examples").exists() else []
    return files


def main():
    targets = sys.argv[1:] or ["core", "lsp"]
    if "core" in targets:
        directory = OUT / "core"
        directory.mkdir(parents=True, exist_ok=True)
        count = 0
        for path in source_files():
            data = path.read_bytes()
            (directory / f"file_{count}").write_bytes(b"\x01" + data)
            (directory / f"session_{count}").write_bytes(b"\x00" + data)
            count += 1
        for index, expression in enumerate(EXPRESSIONS):
            (directory / f"expression_{index}").write_bytes(b"\x00" + expression.encode())
    if "incremental" in targets:
        directory = OUT / "incremental"
        directory.mkdir(parents=True, exist_ok=True)
        for count, path in enumerate(source_files()):
            data = path.read_bytes()
            # Edits in the middle of each file: a digit, a line added, a word removed; with and without the library.
            middle = len(data) // 2
            for number, (removed, replacement) in enumerate([(1, b"7"), (0, b"\n  let extra = 1\n"), (6, b"")]):
                for library in (0, 1):
                    header = bytes([removed << 1 | library, middle >> 8 & 0xFF, middle & 0xFF])
                    name = f"file_{count}_{number}_{library}"
                    (directory / name).write_bytes(header + data + b"\x00" + replacement)
    if "lsp" in targets or "server" in targets:
        for target in ("lsp", "server"):
            directory = OUT / target
            directory.mkdir(parents=True, exist_ok=True)
            for index, seed in enumerate(lsp_seeds()):
                (directory / f"stream_{index}").write_bytes(seed)


if __name__ == "__main__":
    main()
