"""A small Language Server Protocol client over pipes: raw JSON-RPC with `Content-Length` framing.

It starts a server, sends requests and notifications, answers the server's own requests with an empty result, and
hands every message it receives to a queue, so the harness can time how long a server takes to answer.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path


class ServerGone(Exception):
    """The server closed its output or did not answer in time."""


class LspClient:
    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str] | None = None):
        self.process = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={**os.environ, **(env or {})})
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 1
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # Framing.

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            if length is None:
                continue
            body = stream.read(length)
            message = json.loads(body)
            if "method" in message and "id" in message:
                # A request from the server (registerCapability, workDoneProgress/create, configuration…).
                result = [None] * len(message.get("params", {}).get("items", [])) \
                    if message["method"] == "workspace/configuration" else None
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            self.messages.put((time.perf_counter(), message))

    def _send(self, message: dict):
        body = json.dumps(message).encode()
        with self.lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    # Messages.

    def notify(self, method: str, params) -> float:
        start = time.perf_counter()
        self._send({"jsonrpc": "2.0", "method": method, "params": params})
        return start

    def send_request(self, method: str, params) -> tuple[int, float]:
        request_id = self.next_id
        self.next_id += 1
        start = time.perf_counter()
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return request_id, start

    def wait(self, predicate, timeout: float = 60.0) -> tuple[float, dict]:
        """The first message (with its arrival time) for which `predicate` holds; others are dropped."""
        deadline = time.perf_counter() + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise ServerGone("no answer in time")
            try:
                item = self.messages.get(timeout=remaining)
            except queue.Empty:
                raise ServerGone("no answer in time") from None
            if item is None:
                raise ServerGone("the server closed its output")
            if predicate(item[1]):
                return item

    def request(self, method: str, params, timeout: float = 60.0) -> tuple[float, dict]:
        """Sends a request and returns (seconds until the response, the response)."""
        request_id, start = self.send_request(method, params)
        arrived, message = self.wait(lambda m: m.get("id") == request_id and "method" not in m, timeout)
        return arrived - start, message

    def drain(self):
        while True:
            try:
                if self.messages.get_nowait() is None:
                    return
            except queue.Empty:
                return

    def initialize(self, root: Path, timeout: float = 30.0) -> dict:
        _, response = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": root.as_uri(),
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "capabilities": {
                "textDocument": {
                    "synchronization": {"dynamicRegistration": False, "didSave": True},
                    "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
                    "completion": {"completionItem": {"snippetSupport": False}},
                    "hover": {"contentFormat": ["markdown", "plaintext"]},
                },
                "workspace": {"configuration": True, "workspaceFolders": True},
                "general": {"positionEncodings": ["utf-16"]},
            },
        }, timeout=timeout)
        if "error" in response:
            raise ServerGone(f"initialize failed: {response['error']}")
        self.notify("initialized", {})
        return response.get("result", {})

    def peak_memory_kib(self) -> int | None:
        """The server's peak resident set (VmHWM), read while it still runs."""
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    def close(self):
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except (ServerGone, OSError, subprocess.TimeoutExpired):
            pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
