"""`taxpro check` of a large file: from 2 MiB of files on, `check` runs itself again with a larger cache of free memory
and checks each file a piece at a time as it is parsed, dropping each piece's syntax (`Checker+Stream`). What it
reports must be exactly what the whole check reports, and it must hold less than ten times the file's size in memory
for it.

The whole check is the same binary given the file twice: a path given twice is read once, and the stream leaves such
a command to the whole check.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

# The stream starts at 2 MiB of files (`Parser.pieceThreshold`).
STREAMED_BYTES = 2 << 20


def large_file(path: Path, formulas: int, extra: dict[int, str], tail: str = "") -> Path:
    """`formulas` generated formulas, each calling the one before, the ones in `extra` with more added to their
    result; `tail` after them."""
    lines = []
    for i in range(formulas):
        result_type = ": Money" if i % 97 else ""
        previous = f" + f{i - 1}(income, rate, n) / 100" if i else ""
        lines.append(f"## Formula {i}: a generated mix of money, rates and numbers.")
        lines.append(f"formula f{i}(income: Money, rate: Rate, n: Number){result_type} =")
        lines.append(f"  let base = income * rate + ${i % 97}.{i % 100:02d} * n - {i % 9 + 1}% * income")
        lines.append(f"  max(base - ${i % 13}.25, $0) + tax(ON.income_tax, income) / {i % 11 + 2}{previous}"
                     + extra.get(i, ""))
    path.write_text("\n".join(lines) + "\n" + tail, encoding="utf-8")
    assert path.stat().st_size >= STREAMED_BYTES
    return path


# Runs a command and prints its exit status and peak resident memory (KiB). It runs in a small Python of its own: a
# process's peak counts the image it replaced with `exec`, and a child forked from pytest itself would start at
# pytest's size.
MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    with open(sys.argv[1], "wb") as errors:
        os.dup2(errors.fileno(), 2)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def peak_kib(binary: str, *arguments: str, cwd: Path) -> tuple[int, str, int]:
    """Runs the binary in `cwd`, returning (exit status, standard error, peak resident memory in KiB) of that process."""
    errors = cwd / "stderr.txt"
    found = shutil.which(binary) or binary
    measured = subprocess.run(
        [sys.executable, "-c", MEASURE, str(errors), found, *arguments], cwd=cwd, capture_output=True, text=True,
        env=dict(os.environ, NO_COLOR="1"), timeout=120, check=True)
    status, peak = (int(field) for field in measured.stdout.split())
    return status, errors.read_text(encoding="utf-8"), peak


def test_errors_in_a_large_file_are_the_whole_checks(taxpro, tmp_path):
    # A forward reference to a formula with a written result (the stream checks it as it comes), an unknown name
    # with its suggestion, Money plus a Number, a name declared twice, and a test.
    path = large_file(
        tmp_path / "large.tax", 20_000,
        {4000: " + later(income)", 5000: " + incme", 6000: " + n"},
        tail="formula later(x: Money): Money = x * 2\n"
             "formula f10(x: Money): Money = x\n"
             'test "the first formula" { f0($100, 5%, 2) == $5.00 }\n')
    status, streamed, streamed_peak = peak_kib(taxpro.path, "check", path.name, cwd=tmp_path)
    whole_status, whole, _ = peak_kib(taxpro.path, "check", path.name, path.name, cwd=tmp_path)
    assert status == whole_status == 1
    assert streamed == whole
    assert "error[unknown-name]" in streamed and "did you mean 'income'" in streamed, streamed
    assert "error[duplicate-definition]: 'f10' is already defined" in streamed, streamed
    assert streamed.count(": error[") == 3, streamed
    assert streamed.rstrip().endswith("3 errors"), streamed[-500:]
    # The whole check holds the file's syntax, about 15 times the file on top of what checking a one-line file takes;
    # the stream holds the signatures and about one piece (7.4 times, measured at 5.3 MB).
    (tmp_path / "small.tax").write_text("formula small(x: Money): Money = x\n", encoding="utf-8")
    _, _, small_peak = peak_kib(taxpro.path, "check", "small.tax", cwd=tmp_path)
    assert (streamed_peak - small_peak) * 1024 < 10 * path.stat().st_size, (streamed_peak, small_peak)


def test_a_forward_reference_to_an_inferred_formula_falls_back_to_the_same_report(taxpro, tmp_path):
    # `late` has no written result: the whole check infers it inside f3000's body, so the stream gives up and
    # checks whole. The report is the same either way.
    path = large_file(
        tmp_path / "inferred.tax", 10_000, {3000: " + late(income) + nme"},
        tail="formula late(x: Money) = x * 2\n")
    status, streamed, _ = peak_kib(taxpro.path, "check", path.name, cwd=tmp_path)
    whole_status, whole, _ = peak_kib(taxpro.path, "check", path.name, path.name, cwd=tmp_path)
    assert status == whole_status == 1
    assert streamed == whole
    assert streamed.count(": error[") == 1 and "error[unknown-name]" in streamed, streamed


def test_a_clean_large_file_checks_clean(taxpro, tmp_path):
    path = large_file(tmp_path / "clean.tax", 10_000, {})
    status, report, _ = peak_kib(taxpro.path, "check", path.name, cwd=tmp_path)
    assert (status, report) == (0, "")
