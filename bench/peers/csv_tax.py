"""The peer of `taxpro eval --csv`: the same bracket arithmetic with Python's `decimal`.

Usage: csv_tax.py TABLES.json FILE.csv

TABLES.json maps `federal` and each province code to its rows `[[threshold, rate], ...]` (decimal strings, the rate
as a fraction). Each row of FILE.csv (`income:Money,province`) prints the province's tax plus the federal tax on the
income: each bracket's rate on the part of the income inside it, summed exactly, rounded once per tax to the cent
(half away from zero), printed like TaxPro prints money (`$1,234.56`) as a cell of an RFC 4180 column (quoted when it
holds a comma, as the `csv` module's writer quotes it: `"$1,234.56"`).
"""

import csv
import json
import sys
from decimal import ROUND_HALF_UP, Decimal, getcontext

getcontext().prec = 34  # TaxPro's precision
CENT = Decimal("0.01")


def tax(rows, amount):
    total = Decimal(0)
    for index, (lower, rate) in enumerate(rows):
        if amount <= lower:
            break
        upper = rows[index + 1][0] if index + 1 < len(rows) else None
        top = amount if upper is None or amount < upper else upper
        total += (top - lower) * rate
    # ROUND_HALF_UP in `decimal` rounds ties away from zero.
    return total.quantize(CENT, ROUND_HALF_UP)


def money(value):
    text = f"{abs(value):,.2f}"
    return ("-$" if value < 0 else "$") + text


def cell(text):
    """The RFC 4180 cell of a text without quotes or line breaks: quoted when it holds a comma."""
    return f'"{text}"' if "," in text else text


def main():
    with open(sys.argv[1]) as handle:
        tables = {code: [(Decimal(t), Decimal(r)) for t, r in rows] for code, rows in json.load(handle).items()}
    federal = tables["federal"]
    out = []
    with open(sys.argv[2], newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        for income_text, province in reader:
            income = Decimal(income_text.strip().lstrip("$").replace(",", "")).quantize(CENT, ROUND_HALF_UP)
            out.append(cell(money(tax(tables[province.strip()], income) + tax(federal, income))))
            if len(out) >= 65536:
                sys.stdout.write("\n".join(out) + "\n")
                out.clear()
    if out:
        sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
