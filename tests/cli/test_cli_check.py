"""`taxpro check`: a jurisdiction missing a parameter for a year is a diagnostic naming the jurisdiction, the
year and the parameter."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
RESOURCES = "Sources/TaxProLibrary/Resources"


def test_a_new_province_missing_a_parameter(taxpro, tmp_path):
    path = tmp_path / "zz.tax"
    path.write_text(
        'province ZZ "Zedland" {\n'
        "  year 2025 {\n"
        "    income_tax = brackets {\n"
        "      $0 -> 10%\n"
        "    }\n"
        "    basic_personal_amount = $10,000\n"
        "    credit_rate = 10%\n"
        "    dtc_eligible = 10%\n"
        "    dtc_noneligible = 2%\n"
        "    age_amount = $5,000\n"
        "    age_amount_threshold = $40,000\n"
        "    age_amount_reduction_rate = 15%\n"
        "    pension_income_amount = $1,000\n"
        "  }\n"
        "  year 2026 {\n"
        "    income_tax = brackets {\n"
        "      $0 -> 10%\n"
        "    }\n"
        "    basic_personal_amount = $10,000\n"
        "    dtc_eligible = 10%\n"
        "    dtc_noneligible = 2%\n"
        "    age_amount = $5,000\n"
        "    age_amount_threshold = $40,000\n"
        "    age_amount_reduction_rate = 15%\n"
        "    pension_income_amount = $1,000\n"
        "  }\n"
        "}\n",
        encoding="utf-8",
    )
    result = taxpro.run("check", str(path))
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if ": error[missing-parameter]: " in line]
    assert len(errors) == 1, result.stderr
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error\[missing-parameter\]: ", errors[0])
    assert "ZZ" in errors[0] and "2026" in errors[0] and "credit_rate" in errors[0]
    assert "2025" not in errors[0]


def test_a_library_file_edited_in_a_copy_of_the_library(taxpro, tmp_path):
    # A file named like a library file, next to interfaces.tax and federal.tax, replaces the library's copy.
    for name in ("interfaces.tax", "federal.tax"):
        shutil.copy(taxpro_root() / RESOURCES / name, tmp_path / name)
    original = (taxpro_root() / RESOURCES / "ON.tax").read_text(encoding="utf-8")
    year_2026 = original.index("year 2026")
    before, after = original[:year_2026], original[year_2026:]
    # drop 2026's credit rate and its documentation lines
    kept = []
    lines = after.splitlines(keepends=True)
    for line in lines:
        if line.strip().startswith("credit_rate ="):
            while kept and kept[-1].strip().startswith("##"):
                kept.pop()
            continue
        kept.append(line)
    copy = tmp_path / "ON.tax"
    copy.write_text(before + "".join(kept), encoding="utf-8")
    assert not any(line.strip().startswith("credit_rate") for line in kept)
    assert any(line.strip().startswith("basic_personal_amount =") for line in kept)

    result = taxpro.run("check", str(copy))
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if ": error[missing-parameter]: " in line]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith(f"{copy}:")
    assert "ON" in errors[0] and "2026" in errors[0] and "credit_rate" in errors[0]

    # the unmodified copy checks cleanly
    copy.write_text(original, encoding="utf-8")
    clean = taxpro.run("check", str(copy))
    assert clean.returncode == 0, clean.stderr
    assert clean.stderr == ""


def taxpro_root() -> Path:
    return REPO
