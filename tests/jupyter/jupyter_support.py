"""What the Jupyter tests share: the binary under test, a client of `taxpro repl --json`, `taxpro eval` to compare
with, and formulas slow enough to interrupt. (A module of its own rather than conftest.py, so tests can import it.)
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
KERNEL_PACKAGE = REPO / "editors" / "jupyter"
EXAMPLES = REPO / "examples"
TAXPRO = os.environ.get("TAXPRO", "")


def taxpro_path() -> str:
    found = shutil.which(TAXPRO) if TAXPRO else None
    if not found:
        pytest.skip(f"TAXPRO={TAXPRO!r} is not an executable")
    return str(Path(found).resolve()) if os.sep in TAXPRO else found


def eval_taxpro(taxpro: str, expression: str, *arguments: str, cwd: Path | None = None) -> str:
    """`taxpro eval`'s answer, for comparing the notebook's and the JSON mode's figures with it."""
    result = subprocess.run(
        [taxpro, "eval", *arguments, expression], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, NO_COLOR="1"), cwd=str(cwd) if cwd else None,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


class JSONRepl:
    """A `taxpro repl --json` process and a minimal client of its protocol (docs/REPL_JSON.md): one request per line
    in, one reply or event per line out."""

    def __init__(self, taxpro: str, *arguments: str, cwd: Path | None = None):
        self.process = subprocess.Popen(
            [taxpro, "repl", "--json", *arguments], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1, cwd=str(cwd) if cwd else None,
            env=dict(os.environ, NO_COLOR="1"),
        )
        self.next_id = 0
        self.messages: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.ready = self.receive(timeout=60)
        assert self.ready.get("event") == "ready", self.ready

    def send(self, request: dict[str, Any]) -> Any:
        if "id" not in request:
            self.next_id += 1
            request = {"id": self.next_id, **request}
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return request["id"]

    def send_line(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.messages.put(line)
        self.messages.put(None)

    def receive(self, timeout: float = 60) -> dict[str, Any]:
        """The next message; fails the test if none comes within `timeout` seconds."""
        try:
            line = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message from taxpro repl --json within {timeout} s") from None
        assert line is not None, f"taxpro repl --json ended: {self.process.stderr.read() if self.process.stderr else ''}"
        return json.loads(line)

    def request(self, request: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        """Sends a request and returns its reply (events and other replies before it are dropped)."""
        request_id = self.send(request)
        while True:
            message = self.receive(timeout)
            if message.get("id") == request_id and "status" in message:
                return message

    def execute(self, code: str, **fields: Any) -> dict[str, Any]:
        return self.request({"request": "execute", "code": code, **fields})

    def value(self, code: str) -> str:
        """The text of the last value `code` shows; fails when it shows none."""
        reply = self.execute(code)
        values = [output for output in reply["outputs"] if output["kind"] == "value"]
        assert values, reply
        return values[-1]["text"]

    def interrupt_with_signal(self) -> None:
        self.process.send_signal(signal.SIGINT)

    def close(self) -> int:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


#: Formulas whose evaluation takes seconds (2^31 calls; the evaluator stops at 50 million steps), to interrupt.
SLOW_FORMULAS = "\n".join(
    ["formula d0(x: Money): Money = x + x"]
    + [f"formula d{i}(x: Money): Money = d{i - 1}(x) + d{i - 1}(x)" for i in range(1, 31)]
)
SLOW_EXPRESSION = "d30($0.01)"


def wait_until(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
