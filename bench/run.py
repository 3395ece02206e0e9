#!/usr/bin/env python3
"""TaxPro's benchmark harness: TaxPro side by side with its peers, in one run, interleaved.

    python3 bench/run.py             # everything; writes BENCHMARKS.md at the repository's root
    python3 bench/run.py --quick     # fewer rounds and smaller inputs (a smoke run; still writes BENCHMARKS.md)
    python3 bench/run.py --only startup,check
    python3 bench/run.py --only startup,lsp --baseline-ref main   # this build against main's, side by side
    python3 bench/run.py --only eval,suggestions --update   # those sections and goals replaced, the rest kept

It installs what it needs when missing (Debian `bc` and `qalc`; `tombi` and `ruff` from PyPI into bench/.venv),
builds TaxPro in release, and runs every comparison with the commands alternating (A, B, A, B, …, the order rotating
each round) so that noise on this shared machine falls on all of them alike. Times are wall-clock times of whole
processes (or of a server's answers); peak memory is each process's maximum resident set (from GNU time in a run of
its own, or the server's VmHWM).

With `--baseline BINARY` (or `--baseline-ref REF`, which installs the build of a git ref the same way), start-up and
the language server are also measured with a second TaxPro, the build before a change, in the same interleaved rounds,
and the report adds a section comparing the two figure by figure.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import hashlib
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out"
VENV = HERE / ".venv"
sys.path.insert(0, str(HERE))

import generate  # noqa: E402
import lsp_client  # noqa: E402

# The binary users run: what scripts/install builds and installs (release, the Swift runtime linked statically),
# installed into a prefix of the harness's own.
INSTALL_PREFIX = OUT / "install"
INSTALL = ["scripts/install"]
DYNAMIC_BUILD = [
    "swift", "build", "-c", "release", "--product", "taxpro", "--build-path", ".build-dynamic",
]
TAXPRO = INSTALL_PREFIX / "bin" / "taxpro"
TAXPRO_DYNAMIC = ROOT / ".build-dynamic" / "release" / "taxpro"
# The build before a change (`--baseline`, `--baseline-ref`), measured beside TAXPRO; None when there is none.
BASELINE: Path | None = None
# The file given with --baseline, when BASELINE is a copy of it.
BASELINE_ORIGIN: Path | None = None
BASELINE_SOURCE = OUT / "baseline-src"
BASELINE_PREFIX = OUT / "baseline-install"
CSV_EXPRESSION = "tax(province.income_tax, income) + tax(federal.income_tax, income)"


def log(message: str):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# MARK: Set-up


def ensure_tools(sections: set[str]):
    missing = [package for package, command in (("bc", "bc"), ("qalc", "qalc"), ("time", "/usr/bin/time"))
               if not shutil.which(command)]
    if missing:
        log(f"installing {' '.join(missing)}")
        as_root = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(as_root + ["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(as_root + ["apt-get", "install", "-y", "-qq", *missing], check=True, stdout=subprocess.DEVNULL,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    if "lsp" not in sections:
        return  # tombi and ruff are the language servers' peers only
    if not (VENV / "bin" / "python").exists():
        log("creating bench/.venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    if not (VENV / "bin" / "tombi").exists() or not (VENV / "bin" / "ruff").exists():
        log("installing tombi and ruff into bench/.venv")
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", "tombi", "ruff"],
                       check=True)


def build():
    log(f"installing: PREFIX={INSTALL_PREFIX} " + " ".join(INSTALL))
    subprocess.run(INSTALL, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PREFIX": str(INSTALL_PREFIX)})
    log("building: " + " ".join(DYNAMIC_BUILD))
    subprocess.run(DYNAMIC_BUILD, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def build_baseline(ref: str) -> Path:
    """Installs the build of `ref` as the measured binary is installed (a detached worktree in bench/out/baseline-src,
    `scripts/install` with PREFIX=bench/out/baseline-install); returns the binary."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    if (BASELINE_SOURCE / ".git").exists():
        subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=BASELINE_SOURCE, check=True)
    else:
        OUT.mkdir(exist_ok=True)
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(BASELINE_SOURCE), commit], cwd=ROOT, check=True)
    log(f"installing the baseline ({ref}, {commit[:10]}): PREFIX={BASELINE_PREFIX} " + " ".join(INSTALL))
    subprocess.run(INSTALL, cwd=BASELINE_SOURCE, check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "PREFIX": str(BASELINE_PREFIX)})
    return BASELINE_PREFIX / "bin" / "taxpro"


def slower_p(after: list[float], before: list[float]) -> float:
    """The one-sided p-value of the Mann–Whitney U test that `after`'s times are not larger than `before`'s (normal
    approximation, continuity-corrected): small when after's samples are mostly above before's."""
    n1, n2 = len(after), len(before)
    if not n1 or not n2:
        return 1.0
    u = sum((a > b) + 0.5 * (a == b) for a in after for b in before)
    mean = n1 * n2 / 2
    spread = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    return 0.5 * math.erfc((u - mean - 0.5) / spread / math.sqrt(2)) if spread else 1.0


def slowest(samples: list[float]) -> list[float]:
    """The slowest tenth of the samples (at least five), which p99 is drawn from."""
    return sorted(samples)[-max(5, len(samples) // 10):]


class Comparisons:
    """This build's figures beside the baseline's, for the before-and-after section.

    A time is worse by more than noise when it is more than `RELATIVE` above the baseline's *and* the samples it is
    drawn from are larger than the baseline's beyond chance: a one-sided Mann–Whitney U test at p < `P`, on all the
    samples for a median and on the slowest tenth of each for a p99. On this shared machine a figure moves by tens of
    percent from run to run; the test asks whether the two builds' samples, taken in the same interleaved rounds,
    really differ. Peak memory is one measurement per build: worse when more than `RELATIVE` and 1 MiB above."""

    RELATIVE = 0.10
    P = 0.01

    def __init__(self):
        self.rows: list[tuple[str, float, float, str, float | None]] = []

    def time(self, figure: str, before: Samples, after: Samples, statistic: str = "median"):
        if statistic == "median":
            p = slower_p(after.times, before.times)
        else:
            p = slower_p(slowest(after.times), slowest(before.times))
        self.rows.append((figure, getattr(before, statistic), getattr(after, statistic), "time", p))

    def memory(self, figure: str, before_kib: int, after_kib: int):
        self.rows.append((figure, float(before_kib), float(after_kib), "memory", None))

    @staticmethod
    def worse(before: float, after: float, kind: str, p: float | None) -> bool:
        if after <= before * (1 + Comparisons.RELATIVE):
            return False
        if kind == "memory":
            return after - before > 1024
        return p is not None and p < Comparisons.P

    def write(self, report: list[str], goals: list[tuple[str, bool, str]]):
        if not self.rows:
            return
        report.append("## Before and after: this build against the baseline\n")
        origin = f", a fresh copy of `{BASELINE_ORIGIN}`" if BASELINE_ORIGIN else ""
        report.append(f"The baseline is `{shell([BASELINE])}`{origin} ({version([str(BASELINE), '--version'])}), measured in "
                      "the same interleaved rounds as this build (the rows marked *baseline* above). A time is worse "
                      f"by more than noise when it is more than {self.RELATIVE:.0%} above the baseline's and its "
                      f"samples are larger than the baseline's beyond chance (one-sided Mann–Whitney U, p < {self.P}; "
                      "for a p99, on the slowest tenth of each); peak memory when it is more than "
                      f"{self.RELATIVE:.0%} and 1 MiB above.\n")
        report.append("| figure | baseline | this build | change | p (this build slower) | worse by more than noise |")
        report.append("|---|---:|---:|---:|---:|:---:|")
        worse = []
        for figure, before, after, kind, p in self.rows:
            show = ms if kind == "time" else (lambda kib: mib(int(kib)))
            change = f"{(after - before) / before:+.0%}" if before else "—"
            bad = self.worse(before, after, kind, p)
            if bad:
                worse.append(figure)
            report.append(f"| {figure} | {show(before)} | {show(after)} | {change} | "
                          f"{'—' if p is None else f'{p:.3f}'} | {'**yes**' if bad else 'no'} |")
        report.append("")
        goals.append(("no start-up or server figure worse than the baseline's by more than noise", not worse,
                      "none worse" if not worse else "worse: " + ", ".join(worse)))


COMPARISONS = Comparisons()


def version(argv: list[str]) -> str:
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except OSError:
        return "?"
    return (result.stdout or result.stderr).strip().splitlines()[0] if (result.stdout or result.stderr) else "?"


def machine() -> dict[str, str]:
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = "?"
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal"):
            memory = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return {
        "CPU": f"{cpu}, {os.cpu_count()} cores",
        "memory": memory,
        "system": f"{platform.system()} {platform.release()}",
        "Swift": version(["swift", "--version"]),
        "Python": f"CPython {platform.python_version()}",
        "bc": version(["bc", "--version"]),
        "qalc": version(["qalc", "--version"]),
        "tombi": version([str(VENV / "bin" / "tombi"), "--version"]),
        "ruff": version([str(VENV / "bin" / "ruff"), "--version"]),
    }


# MARK: Measuring


def run_once(argv: list[str], stdin: bytes | None = None, stdout=None) -> tuple[float, int]:
    """Runs one process; returns (seconds, exit status)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                               stdout=stdout or subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if stdin is not None:
        process.stdin.write(stdin)
        process.stdin.close()
    status = process.wait()
    return time.perf_counter() - start, status


def peak_memory(argv: list[str], stdin: bytes | None = None) -> int:
    """The peak resident set (KiB) of one run, from GNU time (a process forked from this large Python would report
    Python's own resident set for a small program)."""
    report = OUT / "time.txt"
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(report), *argv], input=stdin, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    try:
        return int(report.read_text().strip().splitlines()[-1])
    except (OSError, ValueError, IndexError):
        return 0


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


class Samples:
    def __init__(self):
        self.times: list[float] = []
        self.memory: list[int] = []

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def p99(self) -> float:
        return percentile(self.times, 0.99)

    @property
    def peak_kib(self) -> int:
        return max(self.memory) if self.memory else 0


def interleaved(commands: dict[str, dict], rounds: int, warmup: int = 1) -> dict[str, Samples]:
    """Runs each command `rounds` times, alternating between them; the order rotates every round."""
    names = list(commands)
    results = {name: Samples() for name in names}
    for round_index in range(warmup + rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            spec = commands[name]
            seconds, status = run_once(spec["argv"], spec.get("stdin"))
            if status not in spec.get("ok", (0,)):
                raise SystemExit(f"{name}: exit status {status}: {' '.join(map(str, spec['argv']))}")
            if round_index >= warmup:
                results[name].times.append(seconds)
    for name, spec in commands.items():
        results[name].memory.append(peak_memory(spec["argv"], spec.get("stdin")))
    return results


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def mib(kib: int) -> str:
    return f"{kib / 1024:.1f} MiB"


def shell(argv: list) -> str:
    def quote(part) -> str:
        text = str(part).replace(str(ROOT) + "/", "")
        return text if re.fullmatch(r"[\w@%+=:,./-]+", text) else "'" + text.replace("'", "'\\''") + "'"
    return " ".join(quote(part) for part in argv)


# MARK: Start-up


def bench_startup(report: list[str], goals: list[tuple[str, bool, str]], rounds: int):
    log(f"start-up: {rounds} interleaved rounds")
    commands = {
        "taxpro eval '1+1'": {"argv": [str(TAXPRO), "eval", "1+1"]},
        "taxpro eval '1+1' (dynamically linked)": {"argv": [str(TAXPRO_DYNAMIC), "eval", "1+1"]},
        "bc (1+1 on standard input)": {"argv": ["bc"], "stdin": b"1+1\n"},
        "qalc '1+1'": {"argv": ["qalc", "1+1"]},
    }
    if not TAXPRO_DYNAMIC.exists():
        log(f"start-up: {TAXPRO_DYNAMIC} is not built (--skip-build); its row is left out")
        del commands["taxpro eval '1+1' (dynamically linked)"]
    if BASELINE:
        commands = {"taxpro eval '1+1' (baseline)": {"argv": [str(BASELINE), "eval", "1+1"]}, **commands}
    for name, spec in commands.items():
        output = subprocess.run(spec["argv"], input=spec.get("stdin"), capture_output=True).stdout.decode().strip()
        if not output.endswith("2"):
            raise SystemExit(f"{name} printed {output!r}, not 2")
    results = interleaved(commands, rounds, warmup=3)
    qalc = results["qalc '1+1'"].median
    report.append("## Start-up: `taxpro eval '1+1'` (standard library loaded) against `bc` and `qalc`\n")
    report.append(f"{rounds} rounds, interleaved. Ratio: the median's multiple of qalc's.\n")
    report.append("| command | median | p99 | min | ratio to qalc | peak memory |")
    report.append("|---|---:|---:|---:|---:|---:|")
    for name, samples in results.items():
        report.append(f"| {name} | {ms(samples.median)} | {ms(samples.p99)} | {ms(min(samples.times))} | "
                      f"{samples.median / qalc:.2f} | {mib(samples.peak_kib)} |")
    report.append("\nCommands: " + "; ".join(f"`{shell(spec['argv'])}`" for spec in commands.values()) + "\n")
    static = results["taxpro eval '1+1'"].median
    dynamic = results.get("taxpro eval '1+1' (dynamically linked)")
    if BASELINE:
        before, after = results["taxpro eval '1+1' (baseline)"], results["taxpro eval '1+1'"]
        COMPARISONS.time("start-up: taxpro eval '1+1', median", before, after)
        COMPARISONS.time("start-up: taxpro eval '1+1', p99", before, after, "p99")
        COMPARISONS.memory("start-up: taxpro eval '1+1', peak memory", before.peak_kib, after.peak_kib)
    goals.append(("start-up: taxpro ≤ 1/5 of qalc", static <= qalc / 5,
                  f"{ms(static)} against {ms(qalc)} ({qalc / static:.1f}× faster"
                  + (f"; dynamically linked: {qalc / dynamic.median:.1f}×)" if dynamic else ")")))


# MARK: Checking


def bench_check(report: list[str], goals: list[tuple[str, bool, str]], sizes: list[int], rounds: dict[int, int]):
    OUT.mkdir(exist_ok=True)
    report.append("## Checking: `taxpro check` against CPython's `ast.parse` of an equivalent file\n")
    report.append(
        "Generated files (`bench/generate.py`): per formula a `##` comment, the signature, a `let`, and the result "
        "(calling the previous formula); the Python file has a function per formula with the same arithmetic, as "
        "many lines and definitions. Both are timed as whole processes (TaxPro's includes loading and checking its "
        "standard library; CPython's includes starting the interpreter and reading the file). TaxPro parses *and* "
        "type-checks; CPython only parses.\n")
    report.append("| formulas | lines | TaxPro file | taxpro check | MB/s | lines/s | peak memory | Python file | "
                  "ast.parse | MB/s | lines/s | peak memory | TaxPro's speed-up |")
    report.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    parse = "import ast, sys; ast.parse(open(sys.argv[1], 'rb').read())"
    per_formula = {}
    largest_figures = None
    faster_everywhere = True
    commands_shown = []
    for size in sizes:
        tax_file = generate.write(OUT / f"formulas_{size}.tax", generate.taxpro_formulas(size))
        py_file = generate.write(OUT / f"formulas_{size}.py", generate.python_formulas(size))
        lines = generate.taxpro_formulas(size).count("\n")
        log(f"check: {size} formulas, {rounds[size]} rounds")
        commands = {
            "taxpro": {"argv": [str(TAXPRO), "check", str(tax_file)]},
            "cpython": {"argv": [sys.executable, "-c", parse, str(py_file)]},
        }
        results = interleaved(commands, rounds[size])
        taxpro, cpython = results["taxpro"], results["cpython"]
        tax_mb = tax_file.stat().st_size / 1e6
        py_mb = py_file.stat().st_size / 1e6
        per_formula[size] = taxpro.median / size
        largest_figures = (size, tax_mb / taxpro.median, taxpro.peak_kib * 1024 / tax_file.stat().st_size)
        faster_everywhere &= taxpro.median <= cpython.median
        report.append(
            f"| {size:,} | {lines:,} | {tax_mb:.1f} MB | {ms(taxpro.median)} | {tax_mb / taxpro.median:.1f} | "
            f"{lines / taxpro.median:,.0f} | {mib(taxpro.peak_kib)} | {py_mb:.1f} MB | {ms(cpython.median)} | "
            f"{py_mb / cpython.median:.1f} | {lines / cpython.median:,.0f} | {mib(cpython.peak_kib)} | "
            f"{cpython.median / taxpro.median:.1f}× |")
        commands_shown = [shell(spec["argv"]) for spec in commands.values()]
    report.append("\nCommands (for each size): " + "; ".join(f"`{c}`" for c in commands_shown) + "\n")
    largest, middle = sizes[-1], sizes[-2] if len(sizes) > 1 else sizes[-1]
    growth = per_formula[largest] / per_formula[middle]
    report.append(
        f"Growth: time per formula at {largest:,} formulas is {growth:.2f}× that at {middle:,} "
        f"({per_formula[middle] * 1e6:.1f} µs → {per_formula[largest] * 1e6:.1f} µs; 1.00 is exactly linear; the "
        f"smallest size is dominated by start-up).\n")
    goals.append(("checking: at least as fast as CPython's parser on the same number of lines", faster_everywhere,
                  "at every size" if faster_everywhere else "not at every size"))
    goals.append(("checking: time grows linearly with size", growth <= 1.25,
                  f"time per formula ×{growth:.2f} from {middle:,} to {largest:,} formulas"))
    size, speed, multiple = largest_figures
    goals.append(("checking: ≥ 50 MB/s at the largest size", speed >= 50,
                  f"{speed:.1f} MB/s at {size:,} formulas (whole process, start-up included)"))
    goals.append(("checking: peak memory ≤ 10× the file at the largest size", multiple <= 10,
                  f"{multiple:.1f}× at {size:,} formulas"))


# MARK: Evaluation


def bracket_tables() -> dict[str, list[list[str]]]:
    """Every jurisdiction's income-tax brackets for the default year, as TaxPro prints them."""
    codes = ["federal"] + generate.PROVINCES
    tables = {}
    for code in codes:
        expression = "(federal.income_tax)" if code == "federal" else f"{code}.income_tax"
        printed = subprocess.run([str(TAXPRO), "eval", expression], capture_output=True, text=True, check=True).stdout
        rows = [[threshold.replace(",", ""), str(Decimal(rate) / 100)]
                for threshold, rate in re.findall(r"\$([\d,]+\.\d\d) -> ([\d.]+)%", printed)]
        if not rows:
            raise SystemExit(f"could not read {code}'s brackets from {printed!r}")
        tables[code] = rows
    return tables


def bench_eval(report: list[str], goals: list[tuple[str, bool, str]], rows: int, rounds: int):
    OUT.mkdir(exist_ok=True)
    csv_file = generate.write(OUT / f"rows_{rows}.csv", generate.csv_rows(rows))
    tables_file = OUT / "tables.json"
    tables_file.write_text(json.dumps(bracket_tables()))
    peer = [sys.executable, str(HERE / "peers" / "csv_tax.py"), str(tables_file), str(csv_file)]
    taxpro = [str(TAXPRO), "eval", "--csv", str(csv_file), CSV_EXPRESSION]
    log(f"eval: checking that the outputs of {rows:,} rows are identical")
    digests = {}
    for name, argv in (("taxpro", taxpro), ("python", peer)):
        with open(OUT / f"eval_{name}.out", "wb") as handle:
            seconds, status = run_once(argv, stdout=handle)
        if status != 0:
            raise SystemExit(f"{name} failed: {shell(argv)}")
        digests[name] = hashlib.sha256((OUT / f"eval_{name}.out").read_bytes()).hexdigest()
    identical = digests["taxpro"] == digests["python"]
    log(f"eval: {rounds} interleaved rounds")
    results = interleaved({"taxpro": {"argv": taxpro}, "python": {"argv": peer}}, rounds)
    t, p = results["taxpro"], results["python"]
    speedup = p.median / t.median
    report.append("## Evaluation: `taxpro eval --csv` against Python's `decimal`\n")
    report.append(
        f"{rows:,} rows of `income:Money,province` (`bench/generate.py`), each giving the province's plus the federal "
        "income tax for the default year. The peer (`bench/peers/csv_tax.py`) reads the same CSV with the `csv` module "
        "and does the same bracket arithmetic with `decimal` (34 digits; each bracket's rate on its part of the income, "
        "summed exactly, rounded half up once per tax), with the bracket tables TaxPro prints. "
        f"Outputs identical: **{'yes' if identical else 'NO'}** (SHA-256 {digests['taxpro'][:16]}…).\n")
    report.append("| command | median | p99 | min | rows/s | peak memory |")
    report.append("|---|---:|---:|---:|---:|---:|")
    for name, samples in (("taxpro eval --csv", t), ("Python decimal", p)):
        report.append(f"| {name} | {ms(samples.median)} | {ms(samples.p99)} | {ms(min(samples.times))} | "
                      f"{rows / samples.median:,.0f} | {mib(samples.peak_kib)} |")
    report.append(f"\nTaxPro is {speedup:.1f}× as fast. Commands: `{shell(taxpro)}`; `{shell(peer)}`\n")
    goals.append(("evaluation: ≥ 20× Python's decimal, identical output", identical and speedup >= 20,
                  f"{speedup:.1f}×, output {'identical' if identical else 'DIFFERENT'}"))


def bench_eval_memory(report: list[str], goals: list[tuple[str, bool, str]], sizes: list[int]):
    """Peak memory of `eval --csv` at two sizes ten times apart: rows stream through, so it must not grow."""
    OUT.mkdir(exist_ok=True)
    report.append("## Evaluation: `taxpro eval --csv` memory as the file grows\n")
    report.append("The same rows and expression as above, at sizes ten times apart, each run once under GNU time. "
                  "Rows are read, evaluated and written in pieces of about 1 MiB, with a few pieces in flight, so the "
                  "peak is the standard library and the program, not the file.\n")
    report.append("| rows | file | time | rows/s | peak memory |")
    report.append("|---:|---:|---:|---:|---:|")
    peaks = {}
    argv = []
    for rows in sizes:
        csv_file = generate.write(OUT / f"rows_{rows}.csv", generate.csv_rows(rows))
        argv = [str(TAXPRO), "eval", "--csv", str(csv_file), CSV_EXPRESSION]
        log(f"eval memory: {rows:,} rows")
        seconds, status = run_once(argv)
        if status != 0:
            raise SystemExit(f"eval --csv failed: {shell(argv)}")
        peaks[rows] = peak_memory(argv)
        report.append(f"| {rows:,} | {csv_file.stat().st_size / 1e6:.0f} MB | {ms(seconds)} | "
                      f"{rows / seconds:,.0f} | {mib(peaks[rows])} |")
    small, large = sizes[0], sizes[-1]
    report.append(f"\nCommand (for each size): `{shell(argv)}`\n")
    flat = peaks[large] <= peaks[small] * 1.25 + 8 * 1024
    goals.append(("evaluation: peak memory flat as the CSV grows", flat,
                  f"{mib(peaks[small])} at {small:,} rows, {mib(peaks[large])} at {large:,}"))


def bench_suggestions(report: list[str], goals: list[tuple[str, bool, str]], count: int, rounds: int):
    """`taxpro check` of a file whose every line needs two "did you mean" lookups."""
    OUT.mkdir(exist_ok=True)
    path = generate.write(OUT / f"misspelt_{count}.tax", generate.misspelt_names(count))
    argv = [str(TAXPRO), "check", str(path)]
    log(f"suggestions: {count:,} misspelt names, {rounds} rounds")
    results = interleaved({"taxpro": {"argv": argv, "ok": (1,)}}, rounds)
    samples = results["taxpro"]
    report.append("## Checking a file of misspelt names\n")
    report.append(f"{count:,} constants, then {count:,} lines each using a misspelt name (`incme_tax5` for "
                  "`income_tax5`) and an unknown one among names of its length (`w5` among `v0`…): "
                  f"{2 * count:,} diagnostics, each with its \"did you mean\" (`bench/generate.py`).\n")
    report.append("| command | median | p99 | min | peak memory |")
    report.append("|---|---:|---:|---:|---:|")
    report.append(f"| taxpro check | {ms(samples.median)} | {ms(samples.p99)} | {ms(min(samples.times))} | "
                  f"{mib(samples.peak_kib)} |")
    report.append(f"\nCommand: `{shell(argv)}`\n")
    goals.append((f"checking: {count:,} misspelt names in under 1 s", samples.median < 1.0, ms(samples.median)))


# MARK: Language servers


def lsp_documents(formulas: int) -> dict[str, tuple[str, str, str]]:
    """Per server: (file name, language id, text), all of the same number of lines."""
    toml = []
    for i in range(formulas):
        toml.append(f"# Formula {i}: a generated table of the same shape as the formula files.")
        toml.append(f"[f{i}]")
        toml.append(f"income = {(i * 37) % 1000}.{i % 100:02d}")
        toml.append(f'expression = "max(base - {i % 500}.25, 0) + tax(ON.income_tax, income) / {i % 11 + 2}"')
    taxpro = ("formulas.tax", "taxpro", generate.taxpro_formulas(formulas))
    return {
        "taxpro": taxpro,
        "baseline": taxpro,
        "tombi": ("formulas.toml", "toml", "\n".join(toml) + "\n"),
        "ruff": ("formulas.py", "python", generate.python_formulas(formulas)),
    }


def probe_positions(server: str, text: str) -> dict[str, tuple[int, int]]:
    """Where to edit, complete and hover: the middle of the document, at comparable places."""
    lines = text.split("\n")
    middle = len(lines) // 2
    middle -= middle % 4  # the first line of a formula (its comment)
    if server in ("taxpro", "baseline"):
        result_line = middle + 3
        column = lines[result_line].index("tax(") + 4
        complete = (result_line, lines[result_line].index(".income_tax") + 1)  # after `XX.`
        hover = (result_line, column + 1)  # on the province code in tax(XX.income_tax, …)
    elif server == "tombi":
        complete = (middle + 2, 0)  # a key position in a table
        hover = (middle + 2, 2)  # on a key
    else:
        complete = (middle + 3, 4)
        hover = (middle + 1, 5)  # ruff answers hover on rule codes only; its answer here is empty
    edit_line = middle + 2
    digit = re.search(r"\d", lines[edit_line])
    return {"edit": (edit_line, digit.start()), "complete": complete, "hover": hover}


def server_argv(server: str) -> list[str]:
    if server == "taxpro":
        return [str(TAXPRO), "lsp"]
    if server == "baseline":
        return [str(BASELINE), "lsp"]
    if server == "tombi":
        return [str(VENV / "bin" / "tombi"), "lsp"]
    return [str(VENV / "bin" / "ruff"), "server"]


def taxpro_has_server(workspace: Path) -> bool:
    try:
        client = lsp_client.LspClient(server_argv("taxpro"), workspace)
        try:
            capabilities = client.initialize(workspace, timeout=10).get("capabilities", {})
            return bool(capabilities)
        finally:
            client.close()
    except (lsp_client.ServerGone, OSError):
        return False


class ServerRun:
    """One server with one document, measured operation by operation."""

    def __init__(self, server: str, workspace: Path, document: tuple[str, str, str]):
        self.server = server
        self.name, self.language, self.text = document
        # The documents live only in the editor (nothing on disk): TaxPro's workspace is one program, and a file on
        # disk would define every formula a second time beside an opened copy of it.
        self.path = workspace / self.name
        self.uri = self.path.as_uri()
        self.client = lsp_client.LspClient(server_argv(server), workspace)
        self.capabilities = self.client.initialize(workspace).get("capabilities", {})
        self.version = 1
        self.positions = probe_positions(server, self.text)
        self.opened = 0
        self.digit_toggle = False
        # Whether the server's diagnostics say which version of the document they are for (learnt on the first open).
        self.versioned: bool | None = None
        self.samples = {name: Samples() for name in OPERATIONS}

    def wait_diagnostics(self, uri: str, start: float, version: int | None = None, timeout: float = 60.0) -> float:
        """Waits for the diagnostics of `uri`; of `version` of it when the server says which version its diagnostics
        are for. (A server that clears the diagnostics of a closed document sends them without a version, possibly
        after the diagnostics of another document: without this, reopening a document could take that stale message
        for its diagnostics, and the next edit would be timed from before the reopened document was checked.)"""
        def wanted(m):
            if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri:
                return False
            if version is not None and self.versioned:
                return m["params"].get("version") == version
            return True
        arrived, message = self.client.wait(wanted, timeout)
        if version is not None and self.versioned is None:
            self.versioned = message["params"].get("version") is not None
        return arrived - start

    def open_once(self) -> float:
        """Opens a fresh copy of the document (a new URI each time, with the main document closed meanwhile) and
        waits for its diagnostics."""
        self.opened += 1
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})
        uri = self.path.with_name(f"copy{self.opened}_{self.name}").as_uri()
        start = self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": self.language, "version": 1, "text": self.text}})
        seconds = self.wait_diagnostics(uri, start)
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        self.version += 1
        start = self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": self.language, "version": self.version, "text": self.current_text()}})
        self.wait_diagnostics(self.uri, start, self.version)
        return seconds

    def current_text(self) -> str:
        """The main document as the edits so far left it."""
        if not self.digit_toggle:
            return self.text
        line, column = self.positions["edit"]
        lines = self.text.split("\n")
        lines[line] = lines[line][:column] + "2" + lines[line][column + 1:]
        return "\n".join(lines)

    def open_main(self):
        start = self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": self.language, "version": 1, "text": self.text}})
        self.wait_diagnostics(self.uri, start, 1)

    def edit_once(self) -> float:
        """Changes one digit in the middle of the document (incrementally) and waits for diagnostics."""
        line, column = self.positions["edit"]
        self.digit_toggle = not self.digit_toggle
        self.version += 1
        start = self.client.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri, "version": self.version},
            "contentChanges": [{"range": {"start": {"line": line, "character": column},
                                          "end": {"line": line, "character": column + 1}},
                                "text": "2" if self.digit_toggle else "1"}]})
        return self.wait_diagnostics(self.uri, start, self.version)

    def type_once(self) -> list[float]:
        """Types one digit just before the edited one (the text grows by a character), then deletes it again, each
        until the next diagnostics: unlike the digit changed in place, everything after the edit moves."""
        line, column = self.positions["edit"]
        seconds = []
        for inserting in (True, False):
            self.version += 1
            end = column if inserting else column + 1
            start = self.client.notify("textDocument/didChange", {
                "textDocument": {"uri": self.uri, "version": self.version},
                "contentChanges": [{"range": {"start": {"line": line, "character": column},
                                              "end": {"line": line, "character": end}},
                                    "text": "7" if inserting else ""}]})
            seconds.append(self.wait_diagnostics(self.uri, start, self.version))
        return seconds

    def request_once(self, method: str, position: tuple[int, int]) -> float:
        seconds, _ = self.client.request(method, {
            "textDocument": {"uri": self.uri}, "position": {"line": position[0], "character": position[1]}})
        return seconds

    def close(self):
        self.peak_kib = self.client.peak_memory_kib() or 0
        self.client.close()


def fresh_open(server: str, workspace: Path, document: tuple[str, str, str]) -> float:
    """Starts a fresh server in an empty folder and opens the document at once: the seconds from sending `initialize`
    until the document's first diagnostics (whatever the server defers past `initialize` — loading a library, say — is
    counted)."""
    name, language, text = document
    uri = (workspace / name).as_uri()
    client = lsp_client.LspClient(server_argv(server), workspace)
    try:
        start = time.perf_counter()
        client.initialize(workspace)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": 1, "text": text}})
        arrived, _ = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                 and m["params"]["uri"] == uri, 60)
        return arrived - start
    finally:
        client.close()


OPERATIONS = ("start-up open", "open", "edit", "typing", "completion", "hover")


def bench_lsp(report: list[str], goals: list[tuple[str, bool, str]], sizes: list[int], rounds: int):
    workspace = OUT / "lsp"
    shutil.rmtree(workspace, ignore_errors=True)
    workspace.mkdir(parents=True)
    report.append("## Language server: `taxpro lsp` against `tombi lsp` and `ruff server`\n")
    if not taxpro_has_server(workspace):
        report.append("Not measured: `taxpro lsp` did not answer `initialize` (the server has not landed yet).\n")
        goals.append(("language server: no worse than tombi's and ruff's", False, "not measured: no server yet"))
        return
    report.append(
        "One client (`bench/lsp_client.py`, raw JSON-RPC over pipes) drives each server on a document of the same "
        "number of lines: TaxPro formulas (with its standard library loaded), a TOML file of as many tables for tombi, "
        "the equivalent Python for ruff. Operations alternate between the servers. *start-up open*: a fresh server "
        "started in an empty folder, from `initialize` sent until the first `publishDiagnostics` of the document opened "
        "right after it (what a server leaves for later is counted); *open*: `didOpen` of a new copy "
        "of the document until its `publishDiagnostics`; *edit*: an incremental `didChange` of one digit in the middle "
        "until the next `publishDiagnostics`; *typing*: a digit typed before that one (the text after it moves by a "
        "character) and deleted again, each until the next `publishDiagnostics`; *completion* and *hover*: request to response, in the middle of the "
        "document (TaxPro: after `ON.` and on a province code; tombi: at a key; ruff has no completion, and answers "
        "hover only on `noqa` codes, so its hover answer here is empty). A first round of every operation warms each "
        f"server up and is not recorded; then {rounds} rounds of each, so that a p99 is not simply the slowest sample "
        "(a nearest-rank p99 of fewer than 100 is).\n")
    report.append("| lines | server | start-up open median / p99 | open median / p99 | edit median / p99 | typing median / p99 | "
                  "completion median / p99 | hover median / p99 | peak memory |")
    report.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    verdicts = []
    # Every sample, in the order taken, for looking at the tails after the run. Every operation is taken once a
    # round, opens too: with fewer than 100 samples a nearest-rank p99 is the slowest one (it was, for ten opens a
    # server, and one preempted open on this shared machine decided the comparison), with 100 the 99th.
    raw: dict[str, dict[str, dict[str, list[float]]]] = {}
    for size in sizes:
        documents = lsp_documents(size)
        lines = documents["taxpro"][2].count("\n")
        log(f"lsp: {lines:,} lines, {rounds} rounds")
        runs = {}
        for server in (("baseline",) if BASELINE else ()) + ("taxpro", "tombi", "ruff"):
            directory = workspace / f"{server}_{size}"
            directory.mkdir()
            runs[server] = ServerRun(server, directory, documents[server])
            runs[server].open_main()
        supported = {
            server: {"completion": "completionProvider" in run.capabilities,
                     "hover": "hoverProvider" in run.capabilities}
            for server, run in runs.items()}
        order = list(runs)
        # Round -1 warms up, as the other sections' first rounds do, and is not recorded: in three runs of four rounds
        # at 4,000 lines, tombi's first open was its slowest in all three (11.1–13.2 ms against 8.5–11.1 after it),
        # TaxPro's in two (7.2–11.0 against 6.7–8.9); a p99 of few samples is decided by such a round.
        for round_index in range(-1, rounds):
            shift = round_index % len(order)
            for server in order[shift:] + order[:shift]:
                run = runs[server]
                samples = run.samples if round_index >= 0 else collections.defaultdict(Samples)
                fresh = workspace / f"{server}_{size}_fresh"
                fresh.mkdir(exist_ok=True)
                samples["start-up open"].times.append(fresh_open(server, fresh, documents[server]))
                samples["open"].times.append(run.open_once())
                samples["edit"].times.append(run.edit_once())
                samples["typing"].times.extend(run.type_once())
                if supported[server]["completion"]:
                    samples["completion"].times.append(run.request_once("textDocument/completion",
                                                                        run.positions["complete"]))
                if supported[server]["hover"]:
                    samples["hover"].times.append(run.request_once("textDocument/hover", run.positions["hover"]))
        raw[f"{lines} lines"] = {
            server: {operation: [round(t * 1000, 3) for t in run.samples[operation].times] for operation in OPERATIONS}
            for server, run in runs.items()}
        for server, run in runs.items():
            run.close()
            cells = []
            for operation in OPERATIONS:
                samples = run.samples[operation]
                cells.append(f"{ms(samples.median)} / {ms(samples.p99)}" if samples.times else "—")
            label = "taxpro (baseline)" if server == "baseline" else server
            report.append(f"| {lines:,} | {label} | " + " | ".join(cells) + f" | {mib(run.peak_kib)} |")
        if BASELINE:
            before, after = runs["baseline"], runs["taxpro"]
            for operation in OPERATIONS:
                if before.samples[operation].times and after.samples[operation].times:
                    for statistic in ("median", "p99"):
                        COMPARISONS.time(f"server, {lines:,} lines: {operation}, {statistic}",
                                         before.samples[operation], after.samples[operation], statistic)
            COMPARISONS.memory(f"server, {lines:,} lines: peak memory", before.peak_kib, after.peak_kib)
        for operation in OPERATIONS:
            ours = runs["taxpro"].samples[operation]
            if not ours.times:
                verdicts.append((f"{operation} at {lines:,} lines", False))
                continue
            for peer in ("tombi", "ruff"):
                theirs = runs[peer].samples[operation]
                if theirs.times:
                    verdicts.append((f"{operation} vs {peer} at {lines:,} lines",
                                     ours.median <= theirs.median and ours.p99 <= theirs.p99))
    samples_file = OUT / "lsp_samples.json"
    samples_file.write_text(json.dumps(raw, indent=1) + "\n")
    argv = {server: shell(server_argv(server)) for server in (("baseline",) if BASELINE else ()) + ("taxpro", "tombi", "ruff")}
    report.append("\nCommands: " + "; ".join(f"`{command}`" for command in argv.values()) + "\n")
    report.append(f"Every sample, in milliseconds, in the order taken: `{samples_file.relative_to(HERE.parent)}`.\n")
    failed = [name for name, ok in verdicts if not ok]
    goals.append(("language server: no worse than tombi's and ruff's (median and p99)", not failed,
                  "in every comparison" if not failed else "worse in: " + ", ".join(failed)))


# MARK: The report


def split_report(text: str) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """A report's header lines (up to `## Goals`), its goal rows, and its sections (`## ` heading, body) in order."""
    header, goals, sections = [], [], []
    part = "header"
    for line in text.rstrip("\n").split("\n"):
        if line.startswith("## "):
            part = "goals" if line == "## Goals" else "section"
            if part == "section":
                sections.append((line, ""))
            continue
        if part == "header":
            header.append(line)
        elif part == "goals":
            if line.startswith("| ") and not line.startswith("| goal |"):
                goals.append(line)
        else:
            heading, body = sections[-1]
            sections[-1] = (heading, body + line + "\n")
    return header, goals, sections


def merged(old: str, new: str, date: str, measured: list[str]) -> str:
    """The existing report with the goals and sections of a partial run put in place of theirs (new ones after them),
    the rest kept as it was, and a header line saying what was measured when."""
    old_header, old_goals, old_sections = split_report(old)
    new_header, new_goals, new_sections = split_report(new)
    goal_name = lambda row: row.split(" | ")[0]
    replaced = {goal_name(row): row for row in new_goals}
    goals = [replaced.pop(goal_name(row), row) for row in old_goals] + list(replaced.values())
    fresh = dict(new_sections)
    # A heading marked by an earlier update is the same section.
    plain = lambda heading: re.sub(r" \(updated [^)]*\)$", "", heading)
    sections = [(plain(heading), fresh.pop(plain(heading), body)) for heading, body in old_sections]
    sections += list(fresh.items())
    header = [line for line in old_header if not line.startswith("- Updated: ")]
    while header and header[-1] == "":
        header.pop()
    header.append(f"- Updated: {date}, with `bench/run.py --only {','.join(measured)} --update`, the sections "
                  f"marked so; load average before and after: "
                  + next((line.split(": ", 1)[1].split(" — ")[0] for line in new_header
                          if line.startswith("- Load average")), "unknown"))
    lines = header + ["", "## Goals", "", "| goal | holds | measured |", "|---|:---:|---|"] + goals + [""]
    for heading, body in sections:
        mark = f" (updated {date})" if heading in dict(new_sections) else ""
        lines += [heading + mark, body.rstrip("\n"), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and smaller inputs")
    parser.add_argument("--only", default="startup,check,eval,lsp", help="comma-separated sections")
    parser.add_argument("--skip-build", action="store_true", help="use the binaries already built")
    parser.add_argument("--rounds", type=int, help="rounds of the start-up and language-server comparisons "
                                                   "(default 40 and 100; with --quick 10)")
    parser.add_argument("--output", default=str(ROOT / "BENCHMARKS.md"))
    baseline = parser.add_mutually_exclusive_group()
    baseline.add_argument("--baseline", metavar="TAXPRO",
                          help="a second taxpro binary (the build before a change), measured beside this one in "
                               "start-up and the language server")
    baseline.add_argument("--baseline-ref", metavar="REF",
                          help="install the build of a git ref (e.g. main) as --baseline")
    parser.add_argument("--update", action="store_true",
                        help="with --only: replace just the sections and goals measured in the existing report, "
                             "keeping the others and saying in the header when each part was measured")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    ensure_tools(sections)
    if not args.skip_build:
        build()
    global BASELINE, BASELINE_ORIGIN
    if args.baseline_ref:
        BASELINE = build_baseline(args.baseline_ref)
    elif args.baseline:
        BASELINE = Path(args.baseline).resolve()
    if BASELINE and not os.access(BASELINE, os.X_OK):
        raise SystemExit(f"the baseline {BASELINE} is not an executable")
    OUT.mkdir(exist_ok=True)
    if args.baseline and not args.baseline_ref:
        # Copied as `scripts/install` copies the measured binary: how a file was written shows in a process's peak
        # memory (a file just copied is cached in larger blocks, and mapped that much at a time: eval '1+1' of the
        # same binary peaked 1.5 MiB higher from a fresh copy than from the file the linker wrote).
        copy = OUT / "baseline-copy" / "taxpro"
        copy.parent.mkdir(exist_ok=True)
        copy.unlink(missing_ok=True)
        shutil.copy2(BASELINE, copy)
        BASELINE_ORIGIN, BASELINE = BASELINE, copy
    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    report: list[str] = []
    goals: list[tuple[str, bool, str]] = []
    if "startup" in sections:
        bench_startup(report, goals, rounds=args.rounds or (10 if args.quick else 40))
    if "check" in sections:
        sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
        bench_check(report, goals, sizes, rounds={1_000: 5 if args.quick else 15, 10_000: 3 if args.quick else 7,
                                                   100_000: 3})
    if "check" in sections or "suggestions" in sections:
        bench_suggestions(report, goals, count=10_000, rounds=3 if args.quick else 7)
    if "eval" in sections:
        bench_eval(report, goals, rows=100_000 if args.quick else 1_000_000, rounds=3 if args.quick else 5)
        bench_eval_memory(report, goals, sizes=[100_000, 1_000_000] if args.quick else [1_000_000, 10_000_000])
    if "lsp" in sections:
        bench_lsp(report, goals, sizes=[250, 2_500] if args.quick else [1_000, 10_000],
                  rounds=args.rounds or (10 if args.quick else 100))
    COMPARISONS.write(report, goals)
    load_after = os.getloadavg()
    info = machine()
    lines = [
        "# Benchmarks",
        "",
        "Written by `bench/run.py`" + (" --quick" if args.quick else "")
        + (f" --baseline-ref {args.baseline_ref}" if args.baseline_ref else " --baseline" if args.baseline else "")
        + " (do not edit by hand; run "
        "`python3 bench/run.py` to measure again). Performance claims about TaxPro come from here, never from "
        "timed unit tests.",
        "",
        f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}",
    ]
    lines += [f"- {key}: {value}" for key, value in info.items()]
    lines += [
        f"- Load average (1 min) before and after: {load_before[0]:.2f}, {load_after[0]:.2f} — the machine is shared, "
        "which is why every comparison interleaves its commands.",
        "- TaxPro is the binary users install: `PREFIX=bench/out/install scripts/install` (release, the Swift runtime "
        "and Foundation linked in statically, the standard library compiled in), run as `bench/out/install/bin/taxpro`; "
        "for the start-up comparison only, also `" + " ".join(DYNAMIC_BUILD) + "`.",
        "",
        "## Goals",
        "",
        "| goal | holds | measured |",
        "|---|:---:|---|",
    ]
    lines += [f"| {goal} | {'yes' if ok else '**no**'} | {detail} |" for goal, ok, detail in goals]
    lines.append("")
    lines += report
    text = "\n".join(lines) + "\n"
    output = Path(args.output)
    if args.update and output.exists():
        text = merged(output.read_text(), text, started.strftime("%Y-%m-%d %H:%M UTC"), sorted(sections))
    output.write_text(text)
    log(f"wrote {args.output}")


if __name__ == "__main__":
    main()
