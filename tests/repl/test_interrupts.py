"""Ctrl-C in the REPL of the binary users run (the installed release build: scripts/test puts it on PATH).

An optimized build once kept two copies of the C signal state, one per module, so Ctrl-C at the prompt neither
cleared the line nor kept the editor's raw mode, did not leave an `:ask` form, and leaked into the next command
(`:plot` printed "cancelled"). These drive the real binary in a pseudo-terminal through each of those paths.
"""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest
from repl_session import PROMPT, TAXPRO, result_of, start

pytestmark = pytest.mark.skipif(not TAXPRO, reason="TAXPRO is not set to the taxpro binary")


@pytest.fixture
def child(home: Path):
    process = start(home, cwd=home)
    process.expect(PROMPT)
    yield process
    process.close(force=True)


def test_ctrl_c_at_the_prompt_clears_the_line_and_keeps_editing(child: pexpect.spawn) -> None:
    child.send("1 + 2")
    child.expect_exact("1 + 2")
    child.sendintr()
    child.expect(r"\^C")
    child.expect(PROMPT)
    # The line was dropped: an empty line evaluates nothing.
    child.send("\r")
    child.expect(PROMPT)
    assert "3" not in child.before
    # The editor is still in its own mode, not the terminal's line mode: Ctrl-A moves to the start of the line.
    child.send("0 * 7")
    child.send("\x01")  # Ctrl-A
    child.send("5 + ")
    child.send("\r")
    child.expect(r"\r\n5\r\n")
    child.expect(PROMPT)
    # A second Ctrl-C, on an empty line, behaves the same.
    child.sendintr()
    child.expect(PROMPT)
    assert result_of(child, "6 * 7") == "42"


def test_ctrl_c_in_ask_leaves_the_form_and_does_not_leak(child: pexpect.spawn) -> None:
    child.send(":ask rrsp_refund\r")
    child.expect(r"contribution: ")
    child.send("50")
    child.sendintr()
    child.expect("the form was left")
    child.expect(PROMPT)
    # The next commands run normally: nothing is cancelled by the Ctrl-C already handled.
    printed = result_of(child, ":plot x * 2 over x from 0 to 10")
    assert "cancelled" not in printed
    assert "┤" in printed
    assert result_of(child, "$100 + 15%") == "$115.00"
    child.send("\x04")  # Ctrl-D leaves
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
