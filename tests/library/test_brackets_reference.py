"""Checks of the standard library's data files against the verified CSV (pytest, Python 3.11).

* the generated bracket tests are up to date (`brackets_reference.py --check`);
* a few bracket taxes worked out by hand;
* every expected figure in the generated tests, recomputed with a second, independent implementation
  (fractions.Fraction) from the bracket tables as they are written in the .tax files;
* the transcription: every CSV row appears in the .tax files under its parameter name, with the same
  threshold, rate or amount, its two sources as `## reference:` lines, and a `## note:` where the CSV
  marks the figure as single-source, derived, proposed, disputed or otherwise uncertain;
* the interfaces: every province and territory defines every `Province` member for both years, federal.tax
  every `Federal` member, with values of the declared type; `Federal` holds exactly the federal figures the
  CSV has for both years;
* literals are well formed (money commas in groups of three, at most two decimals).

The .tax files are read with a small, strict line-based reader: a line it does not understand fails the test.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import brackets_reference as ref  # noqa: E402

RESOURCES = ref.RESOURCES
PROVINCES = ("AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")
YEARS = ("2025", "2026")


# ----------------------------------------------------------------------------------------------------------
# A small strict reader for the library's .tax data files

MONEY = r"-?\$(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?"
RATE = r"\d+(?:\.\d+)?%"
NUMBER = r"\d+(?:\.\d+)?"
RE_DOC = re.compile(r"^\s*##(?: (.*))?$")
RE_COMMENT = re.compile(r"^\s*#(?!#)")
RE_INTERFACE = re.compile(r"^parameters (\w+) \{$")
RE_MEMBER = re.compile(r"^  (\w+): (Money|Rate|Number|Brackets|Bool|Text)$")
RE_PROVINCE = re.compile(r'^province ([A-Z]{2}) "([^"]+)" \{$')
RE_FEDERAL = re.compile(r'^federal "([^"]+)" \{$')
RE_YEAR = re.compile(r"^  year (\d{4}) \{$")
RE_BRACKETS = re.compile(r"^    (\w+) = brackets \{$")
RE_ROW = re.compile(rf"^      ({MONEY}) +-> ({RATE})$")
RE_SCALAR = re.compile(r"^    (\w+) = (.+)$")


def money_value(text: str) -> Decimal:
    assert re.fullmatch(MONEY, text), f"malformed money literal {text!r}"
    return Decimal(text.replace("$", "").replace(",", ""))


def rate_value(text: str) -> Decimal:
    assert re.fullmatch(RATE, text), f"malformed rate literal {text!r}"
    return Decimal(text[:-1]) / 100


@dataclass
class Param:
    name: str
    kind: str  # Brackets, Money, Rate or Number
    value: object  # Decimal, or a list of (threshold, rate) for Brackets
    docs: list[str]
    where: str

    @property
    def references(self) -> list[str]:
        return [d[len("reference: "):] for d in self.docs if d.startswith("reference: ")]

    @property
    def notes(self) -> list[str]:
        return [d for d in self.docs if d.startswith("note: ")]


@dataclass
class Library:
    interfaces: dict[str, dict[str, str]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)  # code -> full name
    params: dict[tuple[str, str], dict[str, Param]] = field(default_factory=dict)  # (code, year) -> params


def read_library(files: list[Path]) -> Library:
    lib = Library()
    for path in files:
        read_file(path, lib)
    return lib


def read_file(path: Path, lib: Library) -> None:
    docs: list[str] = []
    interface = None
    code = None
    year = None
    table = None  # (name, rows, docs, where) while inside a brackets block
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        where = f"{path.name}:{n}"
        if table is not None:
            if m := RE_ROW.match(line):
                table[1].append((money_value(m[1]), rate_value(m[2])))
                continue
            assert line == "    }", f"{where}: unexpected line in a bracket table: {line!r}"
            name, rows, tdocs, twhere = table
            add_param(lib, code, year, Param(name, "Brackets", rows, tdocs, twhere))
            table = None
            continue
        if not line.strip():
            docs = []
            continue
        if m := RE_DOC.match(line):
            docs.append(m[1] or "")
            continue
        if RE_COMMENT.match(line):
            continue
        if interface is not None:
            if m := RE_MEMBER.match(line):
                assert docs, f"{where}: interface member {m[1]} has no documentation"
                lib.interfaces[interface][m[1]] = m[2]
                docs = []
                continue
            assert line == "}", f"{where}: unexpected line in an interface: {line!r}"
            interface = None
            continue
        if m := RE_INTERFACE.match(line):
            interface = m[1]
            lib.interfaces[interface] = {}
            docs = []
            continue
        if code is None:
            if m := RE_PROVINCE.match(line):
                code = m[1]
                lib.names[code] = m[2]
            elif m := RE_FEDERAL.match(line):
                code = "FED"
                lib.names[code] = m[1]
            else:
                raise AssertionError(f"{where}: unexpected top-level line: {line!r}")
            docs = []
            continue
        if year is None:
            if m := RE_YEAR.match(line):
                year = m[1]
                assert (code, year) not in lib.params, f"{where}: {code} year {year} defined twice"
                lib.params[(code, year)] = {}
                continue
            assert line == "}", f"{where}: unexpected line in {code}: {line!r}"
            code = None
            continue
        if m := RE_BRACKETS.match(line):
            table = (m[1], [], docs, where)
            docs = []
            continue
        if m := RE_SCALAR.match(line):
            name, text = m[1], m[2]
            if re.fullmatch(MONEY, text):
                p = Param(name, "Money", money_value(text), docs, where)
            elif re.fullmatch(RATE, text):
                p = Param(name, "Rate", rate_value(text), docs, where)
            elif re.fullmatch(NUMBER, text):
                p = Param(name, "Number", Decimal(text), docs, where)
            else:
                raise AssertionError(f"{where}: unexpected value {text!r}")
            add_param(lib, code, year, p)
            docs = []
            continue
        assert line == "  }", f"{where}: unexpected line in {code} {year}: {line!r}"
        year = None
    assert interface is None and code is None and year is None and table is None, f"{path.name}: unclosed block"


def add_param(lib: Library, code: str, year: str, p: Param) -> None:
    params = lib.params[(code, year)]
    assert p.name not in params, f"{p.where}: {p.name} defined twice in {code} {year}"
    params[p.name] = p


@pytest.fixture(scope="module")
def library() -> Library:
    files = [RESOURCES / "interfaces.tax", RESOURCES / "federal.tax"] + [RESOURCES / f"{c}.tax" for c in PROVINCES]
    return read_library(files)


@pytest.fixture(scope="module")
def csv_rows() -> list[dict[str, str]]:
    path = ref.csv_path()
    if not path.is_file():
        pytest.fail(f"the verified CSV is needed for these checks and was not found at {path} "
                    "(set TAXPRO_PARAMETERS_CSV)")
    return ref.read_rows(path)


# ----------------------------------------------------------------------------------------------------------
# The generator and hand-checked values


def test_generated_tests_are_up_to_date():
    result = subprocess.run([sys.executable, str(HERE / "brackets_reference.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_hand_checked_values(csv_rows):
    tables = ref.bracket_tables(csv_rows)
    # Ontario 2025, $85,000: 52,886 × 5.05% = 2,670.743; (85,000 − 52,886) = 32,114 × 9.15% = 2,938.431;
    # sum 5,609.174 -> $5,609.17.
    assert ref.bracket_tax(tables[("ON", "2025")], Decimal(85_000)) == Decimal("5609.17")
    # Federal 2025, $60,000: 57,375 × 14.5% = 8,319.375; (60,000 − 57,375) = 2,625 × 20.5% = 538.125;
    # sum 8,857.500 -> $8,857.50.
    assert ref.bracket_tax(tables[("FED", "2025")], Decimal(60_000)) == Decimal("8857.50")
    # Federal 2026, $60,000: 58,523 × 14% = 8,193.22; (60,000 − 58,523) = 1,477 × 20.5% = 302.785;
    # sum 8,496.005: exactly half a cent, rounded away from zero -> $8,496.01.
    assert ref.bracket_tax(tables[("FED", "2026")], Decimal(60_000)) == Decimal("8496.01")
    # Ontario 2025, $10: 10 × 5.05% = 0.505 -> $0.51 (half away from zero, not to even).
    assert ref.bracket_tax(tables[("ON", "2025")], Decimal(10)) == Decimal("0.51")
    # Ontario 2025 just under the first threshold: 52,885 × 5.05% = 2,670.6925 -> $2,670.69.
    assert ref.bracket_tax(tables[("ON", "2025")], Decimal(52_885)) == Decimal("2670.69")
    # Manitoba 2026, $150,000: 47,000 × 10.8% = 5,076; 53,000 × 12.75% = 6,757.50; 50,000 × 17.4% = 8,700;
    # sum $20,533.50.
    assert ref.bracket_tax(tables[("MB", "2026")], Decimal(150_000)) == Decimal("20533.50")
    # Saskatchewan 2025 at $0 and the marginal rate above the top threshold.
    assert ref.bracket_tax(tables[("SK", "2025")], Decimal(0)) == Decimal("0.00")
    assert ref.marginal_rate(tables[("SK", "2025")], Decimal(200_000)) == Decimal("0.145")
    # The literals the generator writes.
    assert ref.percent(Decimal("0.0505")) == "5.05%"
    assert ref.percent(Decimal("0.150198")) == "15.0198%"
    assert ref.percent(Decimal("0.2")) == "20%"
    assert ref.money(Decimal("1128858"), cents=False) == "$1,128,858"
    assert ref.money(Decimal("0")) == "$0.00"


def fraction_tax(rows: list[tuple[Decimal, Decimal]], income: Fraction) -> Fraction:
    """A second implementation: tax up to each threshold, accumulated bracket by bracket, in exact fractions."""
    total = Fraction(0)
    for i, (threshold, rate) in enumerate(rows):
        lo = Fraction(threshold)
        hi = Fraction(rows[i + 1][0]) if i + 1 < len(rows) else None
        if income > lo:
            span = (income if hi is None or income < hi else hi) - lo
            total += span * Fraction(rate)
    return total


def round_cents_half_away(x: Fraction) -> Fraction:
    cents = x * 100
    whole = cents.numerator // cents.denominator
    if cents - whole >= Fraction(1, 2):
        whole += 1
    return Fraction(whole, 100)


RE_TAX_TEST = re.compile(rf"^  tax\((\w+)\.income_tax, ({MONEY})\) == ({MONEY})$")
RE_RATE_TEST = re.compile(rf"^  marginal_rate\((\w+)\.income_tax, ({MONEY})\) == ({RATE})$")
RE_TEST_HEAD = re.compile(r'^test "(\w+) (\d{4}) brackets" year (\d{4}) \{$')


def test_generated_expectations_recomputed_from_tax_files(library):
    checked = set()
    count = 0
    for year in YEARS:
        path = RESOURCES / "tests" / f"brackets_{year}.tax"
        current = None
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            where = f"{path.name}:{n}"
            if m := RE_TEST_HEAD.match(line):
                assert m[2] == m[3] == year, where
                current = m[1]
                continue
            if line == "}":
                current = None
                continue
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            assert current is not None, f"{where}: line outside a test block"
            m = RE_TAX_TEST.match(line) or RE_RATE_TEST.match(line)
            assert m, f"{where}: unexpected test line {line!r}"
            code = "FED" if m[1] == "federal" else m[1]
            assert code == current, where
            rows = library.params[(code, year)]["income_tax"].value
            income = Fraction(money_value(m[2]))
            if m.re is RE_TAX_TEST:
                assert round_cents_half_away(fraction_tax(rows, income)) == Fraction(money_value(m[3])), where
            else:
                expected = [r for t, r in rows if Fraction(t) <= income][-1]
                assert rate_value(m[3]) == expected, where
            checked.add((code, year))
            count += 1
    assert checked == {(c, y) for c in ("FED",) + PROVINCES for y in YEARS}
    assert count > 500


def test_every_threshold_is_tested_on_both_sides(library):
    for year in YEARS:
        text = (RESOURCES / "tests" / f"brackets_{year}.tax").read_text(encoding="utf-8")
        for code in ("FED",) + PROVINCES:
            name = "federal" if code == "FED" else code
            rows = library.params[(code, year)]["income_tax"].value
            for threshold, _ in rows[1:]:
                for delta in (-1, 0, 1):
                    literal = ref.money(threshold + delta, cents=False)
                    assert f"  tax({name}.income_tax, {literal}) == " in text, (code, year, literal)
            assert f"  tax({name}.income_tax, $0) == $0.00" in text


# ----------------------------------------------------------------------------------------------------------
# The transcription check


@dataclass
class Expected:
    name: str
    kind: str
    value: object
    rows: list[dict[str, str]]


def expected_parameters(csv_rows) -> dict[tuple[str, str], dict[str, Expected]]:
    """What the CSV says each jurisdiction-year must define, under the library's parameter names."""
    out: dict[tuple[str, str], dict[str, Expected]] = {}

    def put(code, year, name, kind, value, row):
        params = out.setdefault((code, year), {})
        if name in params:
            assert kind == "Brackets", (code, year, name)
            params[name].value.append(value)
            params[name].rows.append(row)
        else:
            params[name] = Expected(name, kind, [value] if kind == "Brackets" else value, [row])

    for r in sorted(csv_rows, key=lambda r: (r["index"] or "0").zfill(3)):
        code, year, p = r["jurisdiction"], r["year"], r["parameter"]
        value, thr, i = Decimal(r["value"]), r["threshold"], r["index"]
        amount = "Money" if r["unit"] == "CAD" else "Rate"
        if p == "bracket":
            put(code, year, "income_tax", "Brackets", (Decimal(thr), value), r)
        elif p == "bracket_proposed":
            put(code, year, "income_tax_proposed", "Brackets", (Decimal(thr), value), r)
        elif p in ("oas_max_monthly_65_74", "oas_max_monthly_75_plus"):
            put(code, year, f"{p}_q{i}", amount, value, r)
        elif p == "nrtc_topup_rate":
            put(code, year, "nrtc_topup_rate", "Rate", value, r)
            put(code, year, "nrtc_topup_threshold", "Money", Decimal(thr), r)
        elif p == "supplemental_credit_rate":
            put(code, year, "supplemental_credit_rate", "Rate", value, r)
            put(code, year, "supplemental_credit_threshold", "Money", Decimal(thr), r)
        elif p == "bracket_rate_proposed":
            assert i == "1" and Decimal(thr) == 0
            put(code, year, "lowest_rate_proposed", "Rate", value, r)
        elif p == "surtax":
            put(code, year, f"surtax_threshold_{i}", "Money", Decimal(thr), r)
            put(code, year, f"surtax_rate_{i}", "Rate", value, r)
        elif p == "health_premium_tier_rate":
            put(code, year, f"health_premium_tier_{i}_start", "Money", Decimal(thr), r)
            put(code, year, f"health_premium_tier_{i}_rate", "Rate", value, r)
        elif p == "health_premium_tier_max":
            put(code, year, f"health_premium_tier_{i}_max", "Money", value, r)
        elif p == "ei_employer_multiplier":
            put(code, year, p, "Number", value, r)  # the CSV's unit says "rate"; it is a plain multiplier
        else:
            assert i == "", r
            assert thr == "" or (p.startswith("lowest_rate_") and Decimal(thr) == 0), r
            put(code, year, p, amount, value, r)
    for key in out:
        for table in ("income_tax", "income_tax_proposed"):
            if table in out[key]:
                assert [i for i in range(len(out[key][table].rows))] == \
                    [int(r["index"]) - 1 for r in out[key][table].rows], key
    return out


# Figures that are in the library without a row of their own: Yukon's phase-down range is the federal one
# (the CSV's YT notes say so); each must equal the federal figure of the same year.
DERIVED = {("YT", y, n): ("FED", y, n) for y in YEARS for n in ("bpa_phaseout_start", "bpa_phaseout_end")}

# CSV notes that mark a figure as needing a `## note:` in its documentation.
UNCERTAIN = re.compile(
    r"single source|single explicit|only taxtips|unverified|proposed|disagree|superseded|typo|not final|"
    r"not captured|estimated|approximately|shows \d|lists \d|snippet", re.IGNORECASE)


# Rows whose CSV note mentions a disagreement about a *different* figure (the 75+ OAS amount of the same quarter).
NOTE_NOT_ABOUT_THIS_FIGURE = {("FED", "2025", "oas_max_monthly_65_74_q3"), ("FED", "2025", "oas_max_monthly_65_74_q4")}


def code_year_name(code, year, name):
    return f"{code} {year} {name}"


def test_every_csv_row_is_transcribed(library, csv_rows):
    expected = expected_parameters(csv_rows)
    assert len(csv_rows) == 554
    for (code, year), params in expected.items():
        assert (code, year) in library.params, f"{code} {year} is missing from the library"
        have = library.params[(code, year)]
        for name, e in params.items():
            assert name in have, f"{code_year_name(code, year, name)} is in the CSV but not in the library"
            p = have[name]
            assert p.kind == e.kind, f"{p.where}: {name} is {p.kind}, the CSV says {e.kind}"
            assert p.value == e.value, f"{p.where}: {name} = {p.value}, the CSV says {e.value}"


def test_no_parameter_without_a_source(library, csv_rows):
    expected = expected_parameters(csv_rows)
    for (code, year), params in library.params.items():
        for name, p in params.items():
            if (code, year, name) in DERIVED:
                fc, fy, fn = DERIVED[(code, year, name)]
                assert p.value == library.params[(fc, fy)][fn].value, p.where
                assert any(n.startswith("note: Derived") for n in p.notes), f"{p.where}: derived without a note"
                continue
            assert name in expected.get((code, year), {}), f"{p.where}: {name} has no row in the CSV"


def test_references_come_from_the_csv(library, csv_rows):
    expected = expected_parameters(csv_rows)
    for (code, year), params in library.params.items():
        for name, p in params.items():
            if (code, year, name) in DERIVED:
                fc, fy, fn = DERIVED[(code, year, name)]
                rows = expected[(fc, fy)][fn].rows
            else:
                rows = expected[(code, year)][name].rows
            sources = []
            for r in rows:
                for s in (r["source_1"], r["source_2"]):
                    if s and s not in sources:
                        sources.append(s)
            assert p.references == sources, f"{p.where}: references {p.references} != CSV sources {sources}"


def test_uncertain_figures_carry_a_note(library, csv_rows):
    expected = expected_parameters(csv_rows)
    missing = []
    for (code, year), params in expected.items():
        for name, e in params.items():
            flagged = [r["note"] for r in e.rows if UNCERTAIN.search(r["note"]) or not r["source_2"]]
            if flagged and (code, year, name) not in NOTE_NOT_ABOUT_THIS_FIGURE:
                p = library.params[(code, year)][name]
                if not p.notes:
                    missing.append(f"{p.where}: {name} needs a `## note:` (CSV: {flagged[0]!r})")
    assert not missing, "\n".join(missing)


def test_every_parameter_is_documented(library):
    for (code, year), params in library.params.items():
        for name, p in params.items():
            assert p.docs, f"{p.where}: {name} has no documentation"
            summary = p.docs[0]
            assert summary and not re.match(r"^(definition|instruction|tip|topic|reference|note|example):",
                                            summary), f"{p.where}: {name} has no summary line"
            assert p.references, f"{p.where}: {name} has no reference"


# ----------------------------------------------------------------------------------------------------------
# Interfaces


def test_jurisdictions_and_years(library):
    assert set(library.params) == {(c, y) for c in ("FED",) + PROVINCES for y in YEARS}
    assert library.names["FED"] == "Canada"
    assert library.names["ON"] == "Ontario" and library.names["NL"] == "Newfoundland and Labrador"


def test_province_interface(library):
    members = library.interfaces["Province"]
    assert {"income_tax": "Brackets", "basic_personal_amount": "Money", "credit_rate": "Rate"}.items() <= \
        members.items()
    for code in PROVINCES:
        for year in YEARS:
            params = library.params[(code, year)]
            for name, kind in members.items():
                assert name in params, f"{code} {year} does not define {name}"
                assert params[name].kind == kind, f"{params[name].where}: {name} should be {kind}"


def test_federal_interface(library, csv_rows):
    members = library.interfaces["Federal"]
    expected = expected_parameters(csv_rows)
    both = set(expected[("FED", "2025")]) & set(expected[("FED", "2026")])
    assert set(members) == both, f"missing {both - set(members)}, extra {set(members) - both}"
    for year in YEARS:
        params = library.params[("FED", year)]
        for name, kind in members.items():
            assert name in params, f"federal {year} does not define {name}"
            assert params[name].kind == kind, f"{params[name].where}: {name} should be {kind}"


# ----------------------------------------------------------------------------------------------------------
# Literals and consistency


def test_literals_are_well_formed():
    for path in sorted(RESOURCES.rglob("*.tax")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            # A `..` after an amount is a range (`$0..$100`) and a comma not followed by a digit separates
            # arguments: neither is part of the literal.
            for token in re.findall(r"\$[\d_]*(?:,\d[\d_]*)*(?:\.(?!\.)[\d_]*)?", code):
                assert re.fullmatch(MONEY, token), f"{path.name}:{n}: bad money literal {token!r}"
            assert "\t" not in line, f"{path.name}:{n}: tab"
            assert line == line.rstrip(), f"{path.name}:{n}: trailing space"


def test_csv_internal_consistency(csv_rows):
    """Cross-checks between CSV figures; a failure here is a data question, not a transcription error."""
    v = {(r["jurisdiction"], r["year"], r["parameter"], r["index"]): Decimal(r["value"]) for r in csv_rows}
    t = {(r["jurisdiction"], r["year"], r["parameter"], r["index"]): r["threshold"] for r in csv_rows}
    tables = ref.bracket_tables(csv_rows)
    for year in YEARS:
        fed = tables[("FED", year)]
        g = lambda p, i="": v[("FED", year, p, i)]  # noqa: E731
        assert g("bpa_enhanced_additional_amount") == g("basic_personal_amount") - g("basic_personal_amount_min")
        assert g("bpa_phaseout_start") == fed[3].threshold and g("bpa_phaseout_end") == fed[4].threshold
        assert Decimal(t[("FED", year, "nrtc_topup_rate", "")]) == fed[1].threshold
        assert g("cpp_max_employee_contribution") == (g("cpp_ympe") - g("cpp_basic_exemption")) * g("cpp_rate_employee")
        assert g("cpp_max_self_employed_contribution") == 2 * g("cpp_max_employee_contribution")
        assert g("cpp2_max_employee_contribution") == (g("cpp_yampe") - g("cpp_ympe")) * g("cpp2_rate_employee")
        assert g("cpp2_max_self_employed_contribution") == 2 * g("cpp2_max_employee_contribution")
        assert g("ei_max_employee_premium") == g("ei_max_insurable_earnings") * g("ei_rate_employee")
        assert g("ei_max_employee_premium_qc") == g("ei_max_insurable_earnings") * g("ei_rate_employee_qc")
        assert g("ei_max_employer_premium") == (g("ei_max_employee_premium") * g("ei_employer_multiplier")) \
            .quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
        for q in "1234":
            if ("FED", year, "oas_max_monthly_65_74", q) in v:
                assert g("oas_max_monthly_75_plus", q) == (g("oas_max_monthly_65_74", q) * Decimal("1.1")) \
                    .quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
        # Yukon's first thresholds are the federal ones; its BPA mirrors the federal one.
        yt = tables[("YT", year)]
        assert [b.threshold for b in yt[1:4]] == [b.threshold for b in fed[1:4]]
        assert v[("YT", year, "basic_personal_amount", "")] == g("basic_personal_amount")
        assert v[("YT", year, "basic_personal_amount_min", "")] == g("basic_personal_amount_min")
        # Yukon's age and pension income amounts are the federal ones; everywhere but Quebec (18.75%, by family
        # income) the age amount shrinks by 15%.
        for name in ("age_amount", "age_amount_threshold", "pension_income_amount"):
            assert v[("YT", year, name, "")] == g(name), (year, name)
        for code in PROVINCES:
            rate = v[(code, year, "age_amount_reduction_rate", "")]
            assert rate == (Decimal("0.1875") if code == "QC" else Decimal("0.15")), (code, year)
        # The credit rate is the lowest bracket rate everywhere.
        for code in ("FED",) + PROVINCES:
            assert v[(code, year, "credit_rate", "")] == tables[(code, year)][0].rate, (code, year)
