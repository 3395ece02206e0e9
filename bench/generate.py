"""Generated inputs for the benchmarks: formula files in TaxPro and their Python equivalents, CSV rows.

Every generator is deterministic (a fixed seed), so two runs compare the same inputs.
"""

from __future__ import annotations

import random
from pathlib import Path

PROVINCES = ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]


def taxpro_formulas(count: int) -> str:
    """`count` formulas of four lines each: a doc comment, the signature, a `let`, the result.

    Each formula after the first calls the one before it, so the checker resolves a long chain of calls.
    """
    lines = []
    for i in range(count):
        province = PROVINCES[i % len(PROVINCES)]
        cents = f"{(i * 37) % 1000:,}.{i % 100:02d}"
        call = f" + f{i - 1}(income, rate, n) / 100" if i else ""
        lines.append(f"## Formula {i}: a generated mix of arithmetic on money, rates and numbers.")
        lines.append(f"formula f{i}(income: Money, rate: Rate, n: Number): Money =")
        lines.append(f"  let base = income * rate + ${cents} * n - {i % 7 + 1}% * income")
        lines.append(f"  max(base - ${i % 500}.25, $0) + tax({province}.income_tax, income) / {i % 11 + 2}{call}")
    return "\n".join(lines) + "\n"


def python_formulas(count: int) -> str:
    """The same formulas as Python functions: as many lines, the same arithmetic and calls."""
    lines = []
    for i in range(count):
        province = PROVINCES[i % len(PROVINCES)]
        cents = f"{(i * 37) % 1000}.{i % 100:02d}"
        call = f" + f{i - 1}(income, rate, n) / 100" if i else ""
        lines.append(f"# Formula {i}: a generated mix of arithmetic on money, rates and numbers.")
        lines.append(f"def f{i}(income, rate, n):")
        lines.append(f"    base = income * rate + {cents} * n - {i % 7 + 1} / 100 * income")
        lines.append(f"    return max(base - {i % 500}.25, 0) + tax({province}.income_tax, income) / {i % 11 + 2}{call}")
    return "\n".join(lines) + "\n"


def csv_rows(count: int, seed: int = 7) -> str:
    """`income,province` rows: incomes in cents from $0 to $400,000, provinces in turn."""
    rng = random.Random(seed)
    out = ["income:Money,province"]
    for i in range(count):
        cents = rng.randrange(0, 40_000_000)
        out.append(f"{cents // 100}.{cents % 100:02d},{PROVINCES[i % len(PROVINCES)]}")
    return "\n".join(out) + "\n"


def misspelt_names(count: int) -> str:
    """A file of `count` constants, each using a misspelt name (`incme_tax5` for `income_tax5`) and an unknown one
    of the same length as its neighbours' names (`w5` among `v0`…): every line is two "did you mean" lookups."""
    lines = [f"let income_tax{i} = {i}" for i in range(count)]
    lines += [f"let v{i} = incme_tax{i} + w{i}" for i in range(count)]
    return "\n".join(lines) + "\n"


def write(path: Path, text: str) -> Path:
    """Writes `text` unless the file already holds it (keeps timestamps stable between runs)."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path
