"""The TaxPro kernel as Jupyter drives it: interrupt, restart, shutdown, input, rich outputs, installation.

The kernel runs from the spec its own installer wrote into the tests' Jupyter folder, with `taxpro` from PATH.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest
from jupyter_client.manager import start_new_kernel

from jupyter_support import KERNEL_PACKAGE, SLOW_EXPRESSION, SLOW_FORMULAS, eval_taxpro, wait_until


def run(client, code: str, timeout: float = 60, **options: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Executes `code`; returns the reply's content and the IOPub messages of the cell."""
    messages: list[dict[str, Any]] = []
    options.setdefault("allow_stdin", False)
    reply = client.execute_interactive(code, output_hook=messages.append, timeout=timeout, **options)
    return reply["content"], [m for m in messages if m["msg_type"] != "status" and m["msg_type"] != "execute_input"]


def taxpro_children(kernel_manager) -> list[psutil.Process]:
    pid = kernel_manager.provisioner.process.pid
    return [child for child in psutil.Process(pid).children(recursive=True) if "taxpro" in child.name()]


@pytest.fixture(scope="module")
def kernel(jupyter_environment, tmp_path_factory):
    folder = tmp_path_factory.mktemp("notebook")
    manager, client = start_new_kernel(kernel_name="taxpro", cwd=str(folder))
    yield manager, client
    client.stop_channels()
    manager.shutdown_kernel(now=True)


def test_results_are_text_and_html_with_money_right_aligned(kernel, taxpro: str) -> None:
    _, client = kernel
    content, messages = run(client, ":year 2025\ntax(ON.income_tax, $85,000)")
    assert content["status"] == "ok"
    [result] = [m for m in messages if m["msg_type"] == "execute_result"]
    expected = eval_taxpro(taxpro, "tax(ON.income_tax, $85,000)", "--year", "2025")
    assert result["content"]["data"]["text/plain"] == expected
    html = result["content"]["data"]["text/html"]
    assert f"<code>{expected}</code>" in html and "text-align:right" in html and "Money" in html
    # Every value a cell shows is shown; the last one is the cell's result.
    content, messages = run(client, "$1 + $1\n$2 + $2")
    kinds = [m["msg_type"] for m in messages]
    assert kinds == ["display_data", "execute_result"]
    assert messages[1]["content"]["data"]["text/plain"] == "$4.00"


def test_explanations_are_tables_of_brackets(kernel, taxpro: str) -> None:
    _, client = kernel
    content, messages = run(client, ":year 2025\n:explain tax(ON.income_tax, $85,000)")
    assert content["status"] == "ok"
    [display] = [m for m in messages if m["msg_type"] == "display_data"]
    data = display["content"]["data"]
    explanation = data["application/vnd.taxpro.explanation+json"]
    assert explanation["value"]["text"] == eval_taxpro(taxpro, "tax(ON.income_tax, $85,000)", "--year", "2025")
    html = data["text/html"]
    assert '<table class="taxpro-brackets">' in html
    brackets = explanation["steps"][0]["brackets"]
    # One row per bracket reached, with its rate; the figures right-aligned.
    assert html.count("<tr>") == len(brackets) + 2
    assert "5.05%" in html and "9.15%" in html
    assert "$52,886.00 to $105,775.00" in html
    assert '<td style="text-align:right' in html
    assert data["text/plain"].startswith("tax(ON.income_tax, $85,000) = ")


def test_errors_are_error_replies_with_the_caret_rendering(kernel) -> None:
    _, client = kernel
    content, messages = run(client, "let fine = 1\n1200 + $5")
    assert content["status"] == "error"
    assert content["ename"] == "type-mismatch"
    assert content["evalue"] == "cannot add Number and Money"
    assert content["traceback"][:3] == ["<input>:2:1: error[type-mismatch]: cannot add Number and Money", "2 | 1200 + $5", "  | ^^^^^^^^^"]
    assert [m["msg_type"] for m in messages] == ["stream", "error"]
    content, _ = run(client, ":load no_such_file.tax")
    assert content["status"] == "error"
    assert "no such file" in content["evalue"]


def test_interrupting_a_long_evaluation_returns_within_a_second_and_the_kernel_lives(kernel) -> None:
    manager, client = kernel
    content, _ = run(client, "let kept = $41\n" + SLOW_FORMULAS)
    assert content["status"] == "ok"
    message_id = client.execute(SLOW_EXPRESSION)
    time.sleep(1.0)
    interrupted = time.monotonic()
    manager.interrupt_kernel()
    reply = client.get_shell_msg(timeout=10)
    elapsed = time.monotonic() - interrupted
    assert reply["parent_header"]["msg_id"] == message_id
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "Interrupted"
    assert elapsed < 1.0, f"the interruption took {elapsed:.2f} s"
    # The same session goes on.
    content, messages = run(client, "kept + $1")
    assert content["status"] == "ok"
    assert messages[-1]["content"]["data"]["text/plain"] == "$42.00"


def test_input_goes_through_jupyters_stdin(kernel, taxpro: str) -> None:
    _, client = kernel
    answers = iter(["$5,000", "$85,000", "QC", "n"])
    prompts: list[str] = []

    def answer(message: dict[str, Any]) -> None:
        prompts.append(message["content"]["prompt"].strip())
        client.input(next(answers))

    messages: list[dict[str, Any]] = []
    reply = client.execute_interactive(
        ":year 2025\n:ask rrsp_refund", allow_stdin=True, stdin_hook=answer, output_hook=messages.append, timeout=60
    )
    assert reply["content"]["status"] == "ok"
    assert prompts[:2] == ["contribution:", "income:"]
    expected = eval_taxpro(taxpro, "rrsp_refund($5,000, $85,000, QC)", "--year", "2025")
    printed = "".join(m["content"].get("text", "") for m in messages if m["msg_type"] == "stream")
    assert f"= {expected}" in printed
    # Without stdin (as nbclient runs), the form is left at once.
    content, messages = run(client, ":ask rrsp_refund")
    assert content["status"] == "ok"
    assert "the form was left" in "".join(m["content"].get("text", "") for m in messages if m["msg_type"] == "stream")


def test_inspect_and_complete(kernel, taxpro: str) -> None:
    _, client = kernel
    run(client, ":year 2025")
    reply = client.inspect("ON.credit_rate", cursor_pos=5, reply=True)["content"]
    assert reply["found"]
    assert f"ON.credit_rate in 2025: {eval_taxpro(taxpro, 'ON.credit_rate', '--year', '2025')}" in reply["data"]["text/plain"]
    assert "**ON.credit_rate in 2025:**" in reply["data"]["text/markdown"]
    reply = client.complete("tax(ON.inc", cursor_pos=10, reply=True)["content"]
    assert (reply["matches"], reply["cursor_start"], reply["cursor_end"]) == (["income_tax"], 7, 10)


def test_quit_starts_a_new_session(kernel) -> None:
    _, client = kernel
    run(client, "let before_quit = 1")
    content, messages = run(client, ":quit")
    assert content["status"] == "ok"
    assert "a new one has started" in messages[-1]["content"]["text"]
    assert run(client, "before_quit")[0]["status"] == "error"
    assert run(client, "1 + 1")[0]["status"] == "ok"


def test_restart_and_shutdown_end_the_taxpro_process(jupyter_environment) -> None:
    manager, client = start_new_kernel(kernel_name="taxpro")
    try:
        run(client, "let x = 1")
        [first] = taxpro_children(manager)
        manager.restart_kernel(now=False)
        client.wait_for_ready(timeout=60)
        assert wait_until(lambda: not first.is_running(), 10)
        assert run(client, "x")[0]["status"] == "error"
        assert run(client, "2 + 2")[0]["status"] == "ok"
        [second] = taxpro_children(manager)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=False)
    assert wait_until(lambda: not second.is_running(), 10)


def test_the_installer_writes_a_kernel_spec_for_this_python(tmp_path: Path) -> None:
    environment = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(KERNEL_PACKAGE))
    environment.pop("JUPYTER_DATA_DIR", None)
    user = subprocess.run(
        [sys.executable, "-m", "taxpro_kernel", "install", "--user"], env=environment, capture_output=True, text=True
    )
    assert user.returncode == 0, user.stderr
    spec = json.loads((tmp_path / ".local/share/jupyter/kernels/taxpro/kernel.json").read_text())
    assert spec["argv"] == [sys.executable, "-m", "taxpro_kernel", "-f", "{connection_file}"]
    assert (spec["display_name"], spec["language"], spec["interrupt_mode"]) == ("TaxPro", "taxpro", "signal")
    prefixed = subprocess.run(
        [sys.executable, "-m", "taxpro_kernel", "install", "--prefix", str(tmp_path / "prefix")],
        env=environment, capture_output=True, text=True,
    )
    assert prefixed.returncode == 0, prefixed.stderr
    assert (tmp_path / "prefix/share/jupyter/kernels/taxpro/kernel.json").is_file()
    # The spec a package installs is the same but for the Python it names.
    static = json.loads((KERNEL_PACKAGE / "kernelspec/taxpro/kernel.json").read_text())
    assert static["argv"] == ["python3", "-m", "taxpro_kernel", "-f", "{connection_file}"]
    assert {key: value for key, value in static.items() if key != "argv"} == {
        key: value for key, value in spec.items() if key != "argv"
    }
