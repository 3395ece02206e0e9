"""`taxpro eval` checks only the library files its expression reaches (ARCHITECTURE.md, "Start-up"): what it prints
is what the whole library gives — values, errors with the whole library's suggestions, the default year."""

from __future__ import annotations


def test_a_misspelt_library_name_is_suggested_from_the_whole_library(taxpro):
    # No library file declares `incme_tax`, so none is reached: the suggestion must come from the whole library.
    result = taxpro.run("eval", "tax(ON.incme_tax, $85,000)")
    assert result.returncode == 1
    assert "income_tax" in result.stderr
    result = taxpro.run("eval", "provincial_tx($85,000, ON)")
    assert result.returncode == 1
    assert "did you mean" in result.stderr


def test_an_unknown_province_lists_every_province(taxpro):
    result = taxpro.run("eval", "ZZ.income_tax")
    assert result.returncode == 1
    for code in ("AB", "BC", "ON", "QC", "YT"):
        assert code in result.stderr


def test_a_formula_of_the_library_calls_what_it_needs(taxpro, tmp_path):
    # A user's file that reaches the library through a formula of its own.
    user = tmp_path / "mine.tax"
    user.write_text("formula mine(income: Money): Money = tax(ON.income_tax, income)\n")
    assert taxpro.run("eval", "mine($85,000)", str(user)).stdout == "$5,567.97\n"
    assert taxpro.run("eval", "--year", "2025", "mine($85,000)", str(user)).stdout == "$5,609.17\n"


def test_a_user_file_repeating_a_library_name_is_an_error(taxpro, tmp_path):
    user = tmp_path / "mine.tax"
    user.write_text("let basic_personal_amount_x = 1\nformula provincial_tax(x: Money): Money = x\n")
    result = taxpro.run("eval", "1 + 1", str(user))
    assert result.returncode == 1
    assert "provincial_tax" in result.stderr
