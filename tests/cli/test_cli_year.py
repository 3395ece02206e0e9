"""`--year`: 2026 reads 2026's figures; a year without data is a usage error (exit 2)."""

from __future__ import annotations

from decimal import Decimal

import brackets_reference as br

TABLES = br.bracket_tables(br.read_rows(br.csv_path()))


def test_2026_changes_the_figures(taxpro):
    in_2025 = taxpro.run("eval", "--year", "2025", "tax(ON.income_tax, $85,000)")
    in_2026 = taxpro.run("eval", "--year", "2026", "tax(ON.income_tax, $85,000)")
    assert in_2025.stdout == "$5,609.17\n"
    # 53,891 × 5.05% + (85,000 − 53,891) × 9.15% = 2,721.4955 + 2,846.4735 = 5,567.969 → 5,567.97
    assert in_2026.stdout == "$5,567.97\n"
    assert br.money(br.bracket_tax(TABLES[("ON", "2026")], Decimal(85000))) == "$5,567.97"
    # parameters read through a formula change too: the federal basic personal amount
    assert taxpro.run("eval", "--year", "2025", "federal.basic_personal_amount").stdout == "$16,129.00\n"
    assert taxpro.run("eval", "--year", "2026", "federal.basic_personal_amount").stdout == "$16,452.00\n"


def test_the_default_is_the_latest_year(taxpro):
    assert taxpro.run("eval", "tax(ON.income_tax, $85,000)").stdout == "$5,567.97\n"


def test_a_year_without_figures_is_a_usage_error(taxpro):
    for command in (["eval", "--year", "1999", "1 + 1"], ["explain", "--year", "1999", "1 + 1"],
                    ["test", "--year", "1999"]):
        result = taxpro.run(*command)
        assert result.returncode == 2, command
        assert "1999" in result.stderr
        assert result.stdout == ""
    result = taxpro.run("eval", "--year", "1999", "1 + 1")
    assert "2025, 2026" in result.stderr


def test_a_malformed_year_is_a_usage_error(taxpro):
    result = taxpro.run("eval", "--year", "next", "1 + 1")
    assert result.returncode == 2
    assert "--year" in result.stderr
