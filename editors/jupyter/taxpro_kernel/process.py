"""One `taxpro repl --json` process, spoken to in its protocol (docs/REPL_JSON.md).

Requests go to the process's standard input, one JSON object per line; its replies and events come back on standard
output and are read by a thread into a queue, so that the kernel's thread waits on the queue — where Ctrl-C (a
KeyboardInterrupt) can reach it — rather than inside a read. The process is started from PATH in the kernel's
working directory (so `:load file.tax` finds the notebook's files) and in the kernel's process group, so that the
SIGINT Jupyter sends to the group reaches it too.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["TaxProError", "TaxProProcess"]

#: How long the process may take to say it is ready (it parses and checks the standard library first).
START_TIMEOUT = 30.0


class TaxProError(RuntimeError):
    """The process could not be started, or stopped answering."""


@contextlib.contextmanager
def sigint_deferred() -> Iterator[None]:
    """Keeps SIGINT out while a request is written, so that a KeyboardInterrupt cannot cut a line in two; a signal
    that comes meanwhile is delivered when the write is done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class TaxProProcess:
    """A running `taxpro repl --json`: send requests, wait for their replies."""

    def __init__(self, executable: str | None = None, arguments: tuple[str, ...] = (), cwd: str | None = None):
        found = executable or shutil.which("taxpro")
        if not found:
            raise TaxProError("taxpro was not found on PATH; install it with scripts/install (see editors/jupyter/README.md)")
        self.executable = found
        self._ids = itertools.count(1)
        self._messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stderr_lines: list[str] = []
        try:
            self._process = subprocess.Popen(
                [found, "repl", "--json", *arguments],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env={**os.environ, "NO_COLOR": "1"},
            )
        except OSError as error:
            raise TaxProError(f"could not start {found}: {error}") from error
        threading.Thread(target=self._read_messages, name="taxpro-stdout", daemon=True).start()
        threading.Thread(target=self._read_errors, name="taxpro-stderr", daemon=True).start()
        ready = self._next(timeout=START_TIMEOUT)
        if ready is None or ready.get("event") != "ready":
            self.kill()
            detail = "".join(self.stderr_lines).strip() or f"it said {ready!r}"
            raise TaxProError(f"{found} repl --json did not start: {detail}")
        #: The language and the session: name, version, fileExtension, year, years, commands.
        self.info: dict[str, Any] = ready["info"]
        self.startup_outputs: list[dict[str, Any]] = ready.get("outputs", [])

    # MARK: Reading

    def _read_messages(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            try:
                self._messages.put(json.loads(line))
            except ValueError:
                self.stderr_lines.append(f"unreadable reply: {line!r}\n")
        self._messages.put(None)

    def _read_errors(self) -> None:
        assert self._process.stderr is not None
        for line in self._process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))
            del self.stderr_lines[:-200]

    def _next(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message; None when the process has ended. Waits in short steps so Ctrl-C is seen at once."""
        waited = 0.0
        while True:
            try:
                return self._messages.get(timeout=0.1)
            except queue.Empty:
                waited += 0.1
                if timeout is not None and waited >= timeout:
                    raise TaxProError("taxpro did not answer in time") from None

    # MARK: Requests

    def send(self, request: dict[str, Any]) -> Any:
        """Writes one request; returns its id."""
        request_id = request.setdefault("id", next(self._ids))
        line = (json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8")
        with sigint_deferred():
            try:
                assert self._process.stdin is not None
                self._process.stdin.write(line)
                self._process.stdin.flush()
            except (BrokenPipeError, OSError) as error:
                raise TaxProError(self._ended_message()) from error
        return request_id

    def request(
        self,
        request: dict[str, Any],
        on_event: Callable[[dict[str, Any]], None] | None = None,
        on_interrupt: Callable[[], None] | None = None,
    ) -> dict[str, Any]:
        """Sends `request` and waits for its reply. Events for it (`input`) go to `on_event`. A KeyboardInterrupt
        while waiting becomes an `interrupt` request for it (and a call of `on_interrupt`); the wait goes on until
        the reply, which then says `cancelled`."""
        request_id = self.send(request)
        while True:
            try:
                message = self._next()
            except KeyboardInterrupt:
                self.interrupt(request_id)
                if on_interrupt:
                    on_interrupt()
                continue
            if message is None:
                raise TaxProError(self._ended_message())
            if "event" in message:
                if on_event and message.get("id") == request_id:
                    on_event(message)
                continue
            if message.get("id") == request_id:
                return message
            # Replies to requests sent without waiting (interrupt, input) are not needed.

    def interrupt(self, request_id: Any) -> None:
        """Asks the process to stop the request `request_id` (as SIGINT would, but aimed at that request only)."""
        with contextlib.suppress(TaxProError):
            self.send({"request": "interrupt", "target": request_id})

    def answer_input(self, request_id: Any, line: str | None) -> None:
        self.send({"request": "input", "target": request_id, "line": line})

    # MARK: The process

    @property
    def pid(self) -> int:
        return self._process.pid

    def is_running(self) -> bool:
        return self._process.poll() is None

    def _ended_message(self) -> str:
        status = self._process.poll()
        detail = "".join(self.stderr_lines[-20:]).strip()
        return f"taxpro stopped (exit status {status})" + (f": {detail}" if detail else "")

    def close(self, timeout: float = 5.0) -> None:
        """Ends the process: closing its input ends it once it has answered; it is killed if it does not."""
        with contextlib.suppress(OSError):
            if self._process.stdin:
                self._process.stdin.close()
        try:
            self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self._process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)
