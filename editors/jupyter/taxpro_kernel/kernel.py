"""The TaxPro kernel: Jupyter's messages answered by one `taxpro repl --json` process.

The session — `let`s, formulas, `ans`, `:year`, `:load` — lives in that process, which is the REPL itself; this
class only turns Jupyter's requests into the process's requests and its replies into Jupyter's messages.
"""

from __future__ import annotations

import os
from typing import Any

from ipykernel.kernelbase import Kernel

from . import __version__
from .display import bundle, error_fields
from .process import TaxProError, TaxProProcess

__all__ = ["TaxProKernel"]

#: Outputs that make a cell fail.
ERROR_KINDS = ("diagnostics", "error", "cancelled", "tests")


def is_error(output: dict[str, Any]) -> bool:
    kind = output.get("kind")
    if kind == "diagnostics":
        return any(d.get("severity") == "error" for d in output.get("diagnostics", []))
    if kind == "tests":
        return any(not test.get("passed") for test in output.get("tests", []))
    return kind in ("error", "cancelled")


class TaxProKernel(Kernel):
    implementation = "taxpro_kernel"
    implementation_version = __version__
    language = "taxpro"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.process = TaxProProcess(cwd=os.getcwd())
        info = self.process.info
        self.language_info = {
            "name": info.get("language", "taxpro"),
            "version": info.get("version", ""),
            "mimetype": info.get("mimeType", "text/x-taxpro"),
            "file_extension": info.get("fileExtension", ".tax"),
            "pygments_lexer": "taxpro",
        }
        self.banner = (
            f"TaxPro {info.get('version', '')} — exact money arithmetic and tax formulas; tax year {info.get('year')}."
            " :help lists the commands."
        )

    # MARK: Running the process

    def restart_process(self) -> None:
        """A new session: the old process ended (`:quit`, or it stopped) or the kernel is restarting."""
        old = self.process
        old.close(timeout=1)
        self.process = TaxProProcess(cwd=os.getcwd())

    def publish_stream(self, name: str, text: str) -> None:
        if text:
            self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})

    # MARK: Execute

    async def do_execute(
        self,
        code: str,
        silent: bool,
        store_history: bool = True,
        user_expressions: dict[str, Any] | None = None,
        allow_stdin: bool = False,
        *,
        cell_meta: dict[str, Any] | None = None,
        cell_id: str | None = None,
    ) -> dict[str, Any]:
        ok = {"status": "ok", "execution_count": self.execution_count, "payload": [], "user_expressions": {}}
        if not code.strip():
            return ok
        self._allow_stdin = allow_stdin  # raw_input() asks the front end only when the request allows it

        def on_event(event: dict[str, Any]) -> None:
            if event.get("event") != "input":
                return
            line: str | None = None
            if allow_stdin:
                try:
                    line = self.raw_input(event.get("prompt", ""))
                except KeyboardInterrupt:
                    self.process.interrupt(event.get("id"))
                    return
                except Exception:  # noqa: BLE001 — a front end without input ends the form like Ctrl-D
                    line = None
            self.process.answer_input(event.get("id"), line)

        try:
            reply = self.process.request({"request": "execute", "code": code}, on_event=on_event)
        except TaxProError as error:
            message = f"{error}; a new TaxPro session has started"
            self.restart_process()
            return self.fail("TaxProStopped", message, [message], silent)

        outputs = reply.get("outputs", [])
        last_value = max((i for i, o in enumerate(outputs) if o.get("kind") == "value"), default=-1)
        failure: tuple[str, str, list[str]] | None = None
        for index, output in enumerate(outputs):
            if is_error(output):
                if failure is None:
                    failure = error_fields(output)
                continue
            if silent:
                continue
            self.show(output, result=index == last_value)
        if reply.get("quit"):
            self.restart_process()
            if not silent:
                self.publish_stream("stdout", "The session ended with :quit; a new one has started.\n")
        if failure is not None:
            return self.fail(*failure, silent=silent)
        return ok

    def show(self, output: dict[str, Any], result: bool) -> None:
        """One output of a reply: values, explanations and images as rich data; the rest as text."""
        data = bundle(output)
        if data is None:
            stream = output.get("stream") or ("stderr" if output.get("kind") == "diagnostics" else "stdout")
            text = output.get("text", "")
            self.publish_stream(stream, text if text.endswith("\n") else text + "\n")
        elif result:
            self.send_response(
                self.iopub_socket,
                "execute_result",
                {"execution_count": self.execution_count, "data": data, "metadata": {}},
            )
        else:
            self.send_response(self.iopub_socket, "display_data", {"data": data, "metadata": {}, "transient": {}})

    def fail(self, ename: str, evalue: str, traceback: list[str], silent: bool) -> dict[str, Any]:
        if not silent:
            self.send_response(
                self.iopub_socket, "error", {"ename": ename, "evalue": evalue, "traceback": traceback}
            )
        return {
            "status": "error",
            "execution_count": self.execution_count,
            "ename": ename,
            "evalue": evalue,
            "traceback": traceback,
        }

    # MARK: Looking without running

    async def do_complete(self, code: str, cursor_pos: int | None) -> dict[str, Any]:
        cursor = len(code) if cursor_pos is None else cursor_pos
        try:
            reply = self.process.request({"request": "complete", "code": code, "cursor": cursor})
        except TaxProError:
            reply = {}
        return {
            "status": "ok",
            "matches": reply.get("matches", []),
            "cursor_start": reply.get("start", cursor),
            "cursor_end": reply.get("end", cursor),
            "metadata": {},
        }

    async def do_inspect(
        self, code: str, cursor_pos: int | None, detail_level: int = 0, omit_sections: Any = ()
    ) -> dict[str, Any]:
        cursor = len(code) if cursor_pos is None else cursor_pos
        try:
            reply = self.process.request({"request": "inspect", "code": code, "cursor": cursor})
        except TaxProError:
            reply = {}
        if not reply.get("found"):
            return {"status": "ok", "found": False, "data": {}, "metadata": {}}
        return {
            "status": "ok",
            "found": True,
            "data": {"text/plain": reply.get("text", ""), "text/markdown": reply.get("markdown", "")},
            "metadata": {},
        }

    async def do_is_complete(self, code: str) -> dict[str, Any]:
        try:
            reply = self.process.request({"request": "isComplete", "code": code})
        except TaxProError:
            return {"status": "unknown"}
        status = reply.get("completeness", "unknown")
        if status == "incomplete":
            return {"status": status, "indent": reply.get("indent", "")}
        return {"status": status}

    async def do_shutdown(self, restart: bool) -> dict[str, Any]:
        self.process.close(timeout=1)
        return {"status": "ok", "restart": restart}
