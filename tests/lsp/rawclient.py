"""A minimal JSON-RPC client over raw pipes, for tests that must send what no well-behaved client would."""

import json
import os
import queue
import subprocess
import threading

TIMEOUT = 20


class RawServer:
    def __init__(self, taxpro, cwd=None, env=None):
        self.process = subprocess.Popen([taxpro, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.messages = queue.Queue()
        self.stderr = []
        # Every message taken off the queue, in the order the server sent them.
        self.received = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.next_id = 1000

    def _read(self):
        stream = self.process.stdout
        while True:
            headers = b""
            while not headers.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    self.messages.put(None)
                    return
                headers += byte
            length = None
            for line in headers.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = stream.read(length)
            self.messages.put(json.loads(body))

    def _drain_stderr(self):
        for line in self.process.stderr:
            self.stderr.append(line.decode(errors="replace"))

    def write(self, data: bytes):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        body = json.dumps(message).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def request(self, method, params=None, id=None):
        if id is None:
            self.next_id += 1
            id = self.next_id
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return id

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def receive(self, timeout=TIMEOUT):
        message = self.messages.get(timeout=timeout)
        assert message is not None, "the server closed its output:\n" + "".join(self.stderr)
        self.received.append(message)
        return message

    def response(self, id, timeout=TIMEOUT):
        """The response with this id; notifications and server requests met on the way are answered or skipped."""
        while True:
            message = self.receive(timeout)
            if "method" in message:
                if "id" in message:
                    self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if message.get("id") == id:
                return message

    def call(self, method, params=None):
        return self.response(self.request(method, params))

    def wait(self, timeout=TIMEOUT):
        return self.process.wait(timeout=timeout)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
