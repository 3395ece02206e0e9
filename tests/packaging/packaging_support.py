"""What the packaging tests share: where the repository is, the years of the data, a clean environment."""

from __future__ import annotations

import csv
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def data_years() -> list[int]:
    """The tax years of the figures the standard library was transcribed from, read from the CSV itself."""
    with open(REPO / "data" / "canada_tax_parameters_2025_2026.csv", newline="") as file:
        return sorted({int(row["year"]) for row in csv.DictReader(file)})


def clean_environment(home: Path, **extra: str) -> dict[str, str]:
    """A user's environment with nothing of the test run's: no TAXPRO_LIBRARY, a home of its own."""
    home.mkdir(parents=True, exist_ok=True)
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb"}
    environment.update(extra)
    return environment
