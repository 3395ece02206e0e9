#!/usr/bin/env python3
"""Independent reference for TaxPro's bracket tables.

Reads the verified CSV directly (never the .tax files) and computes bracket tax exactly with Python's
`decimal` module: each bracket's rate times the part of income inside that bracket, summed exactly, then
rounded ONCE to the cent, half away from zero (ROUND_HALF_UP; incomes here are never negative).

From those figures it generates the standard library's bracket tests:

    Sources/TaxProLibrary/Resources/tests/brackets_2025.tax
    Sources/TaxProLibrary/Resources/tests/brackets_2026.tax

For every jurisdiction (federal + 13) and both years they check `tax(…)` at $0, at T − $1, T and T + $1
for every threshold T, well above the top threshold, and (where one exists) at an income whose exact tax
ends in exactly half a cent; and `marginal_rate(…)` at $0, inside every bracket and above the top threshold.

Usage:
    python3 tests/library/brackets_reference.py            # (re)write the test files, print worked examples
    python3 tests/library/brackets_reference.py --check    # exit 1 if the files differ from what would be written
    python3 tests/library/brackets_reference.py --explain ON 2025 85000   # show the arithmetic for one case
    --csv PATH   use another copy of canada_tax_parameters_2025_2026.csv
                 (default: $TAXPRO_PARAMETERS_CSV, else <repo>/data/canada_tax_parameters_2025_2026.csv)

Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import textwrap
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Context, Decimal, localcontext
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RESOURCES = REPO / "Sources" / "TaxProLibrary" / "Resources"
TESTS_DIR = RESOURCES / "tests"
DEFAULT_CSV = REPO / "data" / "canada_tax_parameters_2025_2026.csv"
YEARS = ("2025", "2026")
# Output order: federal first, then the 13 provinces and territories alphabetically.
JURISDICTIONS = ("FED", "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")
NAMES = {
    "FED": "Federal", "AB": "Alberta", "BC": "British Columbia", "MB": "Manitoba", "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador", "NS": "Nova Scotia", "NT": "Northwest Territories", "NU": "Nunavut",
    "ON": "Ontario", "PE": "Prince Edward Island", "QC": "Quebec", "SK": "Saskatchewan", "YT": "Yukon",
}
CENT = Decimal("0.01")
# Far more digits than any figure here needs, so that no intermediate step ever rounds.
EXACT = Context(prec=80)


# ----------------------------------------------------------------------------------------------------------
# Reading the CSV


@dataclass(frozen=True)
class Bracket:
    threshold: Decimal  # lower bound of the bracket (taxable income)
    rate: Decimal  # marginal rate as a decimal fraction (0.0505 = 5.05%)


def csv_path(explicit: str | None = None) -> Path:
    if explicit:
        return Path(explicit)
    env = os.environ.get("TAXPRO_PARAMETERS_CSV")
    return Path(env) if env else DEFAULT_CSV


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def bracket_tables(rows: list[dict[str, str]]) -> dict[tuple[str, str], list[Bracket]]:
    """(jurisdiction, year) -> brackets in index order, from the CSV's `bracket` rows."""
    found: dict[tuple[str, str], list[tuple[int, Bracket]]] = {}
    for r in rows:
        if r["parameter"] != "bracket":
            continue
        key = (r["jurisdiction"], r["year"])
        found.setdefault(key, []).append((int(r["index"]), Bracket(Decimal(r["threshold"]), Decimal(r["value"]))))
    tables = {}
    for key, items in found.items():
        items.sort()
        indices = [i for i, _ in items]
        if indices != list(range(1, len(items) + 1)):
            raise ValueError(f"{key}: bracket indices {indices} are not 1..{len(items)}")
        table = [b for _, b in items]
        if table[0].threshold != 0:
            raise ValueError(f"{key}: the first bracket starts at {table[0].threshold}, not 0")
        if any(a.threshold >= b.threshold for a, b in zip(table, table[1:])):
            raise ValueError(f"{key}: thresholds are not strictly ascending")
        tables[key] = table
    return tables


# ----------------------------------------------------------------------------------------------------------
# The arithmetic


def bracket_parts(table: list[Bracket], income: Decimal) -> list[tuple[Bracket, Decimal, Decimal]]:
    """For each bracket that income reaches: (bracket, part of income inside it, exact tax on that part)."""
    parts = []
    with localcontext(EXACT):
        for i, b in enumerate(table):
            if income <= b.threshold:
                break
            upper = table[i + 1].threshold if i + 1 < len(table) else None
            top = income if upper is None else min(income, upper)
            part = top - b.threshold
            parts.append((b, part, part * b.rate))
    return parts


def exact_tax(table: list[Bracket], income: Decimal) -> Decimal:
    with localcontext(EXACT):
        return sum((t for _, _, t in bracket_parts(table, income)), Decimal(0))


def bracket_tax(table: list[Bracket], income: Decimal) -> Decimal:
    """Bracket tax rounded once to the cent, half away from zero."""
    return exact_tax(table, income).quantize(CENT, rounding=ROUND_HALF_UP)


def marginal_rate(table: list[Bracket], income: Decimal) -> Decimal:
    """The rate on the next dollar: the rate of the last bracket whose threshold is at or below income."""
    rate = table[0].rate
    for b in table:
        if b.threshold <= income:
            rate = b.rate
    return rate


# ----------------------------------------------------------------------------------------------------------
# TaxPro literals


def money(amount: Decimal, cents: bool = True) -> str:
    """`$1,234.56`; with cents=False a whole amount is written without decimals (`$52,886`)."""
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if not cents and amount == amount.to_integral_value():
        return f"{sign}${int(amount):,}"
    q = amount.quantize(CENT)
    if q != amount:
        raise ValueError(f"{amount} is not a whole number of cents")
    return f"{sign}${q:,}"


def percent(rate: Decimal) -> str:
    """0.0505 -> `5.05%`, 0.2 -> `20%`, 0.150198 -> `15.0198%` (exact, no trailing zeros)."""
    with localcontext(EXACT):
        p = rate * 100
    text = format(p.normalize(), "f")
    return text + "%"


def plain(d: Decimal) -> str:
    """A plain number with thousands commas, for comments: 32114 -> `32,114`."""
    text = format(d.normalize(), "f") if d != 0 else "0"
    whole, dot, frac = text.partition(".")
    return f"{int(whole):,}" + dot + frac


def tax_ref(jurisdiction: str) -> str:
    return "federal.income_tax" if jurisdiction == "FED" else f"{jurisdiction}.income_tax"


# ----------------------------------------------------------------------------------------------------------
# Choosing the test incomes


def half_cent_income(table: list[Bracket]) -> Decimal | None:
    """An income whose exact tax ends in exactly half a cent, to pin down rounding half away from zero.

    Looks at whole-dollar incomes just above each threshold from the second one up (so that several
    brackets take part in the sum), then at small incomes in the first bracket. None if the rates cannot
    produce one."""
    starts = [b.threshold for b in table[1:]] + [Decimal(0)]
    for start in starts:
        for k in range(1, 401):
            income = start + k
            with localcontext(EXACT):
                frac = (exact_tax(table, income) * 100) % 1
            if frac == Decimal("0.5"):
                return income
    return None


def well_above(table: list[Bracket]) -> Decimal:
    top = table[-1].threshold
    for candidate in (Decimal(1_000_000), Decimal(2_000_000), Decimal(5_000_000)):
        if candidate >= top + 250_000:
            return candidate
    return (top * 2).quantize(Decimal(1))


def midpoint(a: Decimal, b: Decimal) -> Decimal:
    return ((a + b) / 2).to_integral_value(rounding=ROUND_FLOOR)


# ----------------------------------------------------------------------------------------------------------
# Generating the .tax test files


def test_block(jurisdiction: str, year: str, table: list[Bracket]) -> list[str]:
    ref = tax_ref(jurisdiction)
    lines = [f'test "{jurisdiction} {year} brackets" year {year} {{']

    def tax_line(income: Decimal) -> str:
        return f"  tax({ref}, {money(income, cents=False)}) == {money(bracket_tax(table, income))}"

    def rate_line(income: Decimal) -> str:
        return f"  marginal_rate({ref}, {money(income, cents=False)}) == {percent(marginal_rate(table, income))}"

    lines.append(tax_line(Decimal(0)))
    for i, b in enumerate(table[1:], start=1):
        lines.append(f"  # threshold {money(b.threshold, cents=False)}: {percent(table[i - 1].rate)} below, "
                     f"{percent(b.rate)} above")
        for delta in (-1, 0, 1):
            lines.append(tax_line(b.threshold + delta))
    high = well_above(table)
    lines.append("  # well above the top threshold")
    if Decimal(1_000_000) != high:
        lines.append(tax_line(Decimal(1_000_000)))
    lines.append(tax_line(high))
    half = half_cent_income(table)
    if half is not None:
        exact = exact_tax(table, half)
        lines.append(f"  # exact tax {money_exact(exact)} is half a cent: it rounds away from zero")
        lines.append(tax_line(half))
    lines.append("  # marginal rate: at $0, inside each bracket, and above the top threshold")
    lines.append(rate_line(Decimal(0)))
    for i, b in enumerate(table):
        upper = table[i + 1].threshold if i + 1 < len(table) else None
        if upper is not None:
            lines.append(rate_line(midpoint(b.threshold, upper)))
    lines.append(rate_line(high))
    lines.append("}")
    return lines


def money_exact(amount: Decimal) -> str:
    """An exact (unrounded) amount with thousands commas, for comments: `$2,670.743`."""
    q = amount.normalize()
    text = format(q, "f")
    whole, _, frac = text.partition(".")
    whole = f"{int(whole):,}"
    if len(frac) < 2:
        frac = (frac + "00")[:2]
    return f"${whole}.{frac}"


def generate(tables: dict[tuple[str, str], list[Bracket]]) -> dict[Path, str]:
    files = {}
    for year in YEARS:
        out = [
            f"# Bracket tests for {year}: every jurisdiction's income_tax table at $0, at T - $1, T and T + $1",
            "# for every threshold T, well above the top threshold and at a half-cent case; and marginal_rate.",
            "# GENERATED by tests/library/brackets_reference.py from the verified CSV with Python's decimal",
            "# module (exact bracket sums, rounded once to the cent, half away from zero). Do not edit by hand:",
            "# change the generator and re-run it (`--check` verifies that this file is up to date).",
        ]
        for j in JURISDICTIONS:
            key = (j, year)
            if key not in tables:
                raise ValueError(f"no brackets for {j} {year} in the CSV")
            out.append("")
            rows = ", ".join(f"{money(b.threshold, cents=False)} -> {percent(b.rate)}" for b in tables[key])
            out += textwrap.wrap(f"{NAMES[j]} {year}: {rows}", width=100, initial_indent="# ",
                                 subsequent_indent="#   ", break_on_hyphens=False)
            out += test_block(j, year, tables[key])
        files[TESTS_DIR / f"brackets_{year}.tax"] = "\n".join(out) + "\n"
    return files


# ----------------------------------------------------------------------------------------------------------
# Worked arithmetic for humans


def explain(tables: dict[tuple[str, str], list[Bracket]], jurisdiction: str, year: str, income: Decimal) -> str:
    table = tables[(jurisdiction, year)]
    lines = [f"{NAMES[jurisdiction]} {year}, taxable income {money(income, cents=False)}:"]
    for i, (b, part, t) in enumerate(bracket_parts(table, income), start=1):
        upper = table[i].threshold if i < len(table) else None
        top = income if upper is None else min(income, upper)
        lines.append(f"  bracket {i}: ({money(top, cents=False)} - {money(b.threshold, cents=False)}) x "
                     f"{percent(b.rate)} = {plain(part)} x {percent(b.rate)} = {money_exact(t)}")
    exact = exact_tax(table, income)
    lines.append(f"  exact sum {money_exact(exact)}, rounded once to the cent (half away from zero): "
                 f"{money(bracket_tax(table, income))}")
    return "\n".join(lines)


WORKED_EXAMPLES = (
    ("ON", "2025", Decimal(85_000)),
    ("FED", "2025", Decimal(60_000)),
    ("FED", "2026", Decimal(60_000)),
    ("QC", "2026", Decimal(150_000)),
    ("NL", "2025", Decimal(2_000_000)),
    ("ON", "2025", Decimal(10)),
)


# ----------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the generated files are out of date")
    parser.add_argument("--explain", nargs=3, metavar=("JURISDICTION", "YEAR", "INCOME"),
                        help="print the worked arithmetic for one case (JURISDICTION: FED, AB, …)")
    parser.add_argument("--csv", help="path to canada_tax_parameters_2025_2026.csv")
    args = parser.parse_args(argv)

    path = csv_path(args.csv)
    if not path.is_file():
        print(f"error: CSV not found: {path} (use --csv or TAXPRO_PARAMETERS_CSV)", file=sys.stderr)
        return 2
    tables = bracket_tables(read_rows(path))

    if args.explain:
        j, y, inc = args.explain
        j = j.upper()
        if (j, y) not in tables:
            print(f"error: no brackets for {j} {y}", file=sys.stderr)
            return 2
        print(explain(tables, j, y, Decimal(inc.replace(",", "").replace("_", "").lstrip("$"))))
        return 0

    files = generate(tables)
    if args.check:
        stale = []
        for file, text in files.items():
            current = file.read_bytes() if file.is_file() else None
            if current != text.encode("utf-8"):
                stale.append(file)
        for file in stale:
            print(f"out of date: {file.relative_to(REPO)}", file=sys.stderr)
        if stale:
            print("run: python3 tests/library/brackets_reference.py", file=sys.stderr)
            return 1
        print(f"up to date: {', '.join(str(f.relative_to(REPO)) for f in files)}")
        return 0

    TESTS_DIR.mkdir(parents=True, exist_ok=True)
    for file, text in files.items():
        file.write_bytes(text.encode("utf-8"))
        print(f"wrote {file.relative_to(REPO)}")
    print()
    for j, y, inc in WORKED_EXAMPLES:
        print(explain(tables, j, y, inc))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
