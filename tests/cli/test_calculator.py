"""TaxPro as a calculator (issue 12): what it prints for each input, exactly, and that what it prints is true.

`VALUES` is the table: an input and the one line TaxPro must print for it. All of them run through one `taxpro` reading
from a pipe (one result a line). Where Python can say what the answer is — exact powers and quotients through
`fractions`, the approximations through `decimal`, whose 34 correctly rounded digits TaxPro must print — the tests below compute it independently rather
than trusting the table. `ERRORS` are inputs refused with a diagnostic code and a hint, each run by `taxpro eval`.
The round-trip test prints 10,000 random exact values and reads every one of them back.
"""

from __future__ import annotations

import random
import re
from decimal import ROUND_HALF_EVEN, Context, Decimal, Inexact
from fractions import Fraction

import pytest

# (input, what TaxPro prints). Every example of issue 12 is here.
VALUES = [
    # A display never lies: exact values in full, others marked.
    ("12345678901234", "12345678901234"),
    ("ans == 12345678901268", "false"),
    ("12345678901234 == 12345678901234.0", "true"),
    ("100000000000000 / 3", "33333333333333…"),
    ("1/3*3", "0.999999999999…"),
    ("ans == 1", "false"),
    ("1/3", "0.333333333333…"),
    ("2/3", "0.666666666666…"),
    ("1/4", "0.25"),
    ("1/8", "0.125"),
    ("0.1 + 0.2", "0.3"),
    ("10/4", "2.5"),
    ("1234567890123456789012345678901234", "1234567890123456789012345678901234"),
    ("0.0001234", "0.0001234"),
    ("12345678901234567890 * 12345678901234567890", "≈ 1.52415787532e38"),
    ("1e6", "1000000"),
    ("1.2e39", "1.2e39"),
    ("2.5E-3", "0.0025"),
    ("1e-7", "1e-7"),
    ("1.21932631137e39", "1.21932631137e39"),
    ("1.21932631137e39 == 1219326311370000000000000000000000000000", "true"),
    ("5e-1 + 1", "1.5"),
    ("1e34", "1e34"),
    ("1e33", "1000000000000000000000000000000000"),
    ("-1/3", "-0.333333333333…"),
    ("round(1/3, 4)", "0.3333"),
    # Powers, exact for whole exponents.
    ("2^10", "1024"),
    ("2^-2", "0.25"),
    ("-2^2", "-4"),
    ("(-2)^2", "4"),
    ("2^3^2", "512"),
    ("0^0", "1"),
    ("10^-3", "0.001"),
    ("1.5^2", "2.25"),
    ("2^100", "1267650600228229401496703205376"),
    ("3^-1", "0.333333333333…"),
    ("5%^2", "0.25%"),
    ("(1 + 5%)^30", "4.32194237515…"),
    ("$1,000 * (1 + 5%)^30", "$4,321.94"),
    ("$10,000 * (1 + 7%)^10", "$19,671.51"),
    ("2^0.5", "1.41421356237…"),
    # Approximations, marked.
    ("sqrt(2)", "1.41421356237…"),
    ("sqrt(2.25)", "1.5"),
    ("sqrt(1e-8)", "0.0001"),
    ("sqrt(10)^2", "≈ 10"),
    ("ln(2)", "0.693147180559…"),
    ("exp(1)", "2.71828182845…"),
    ("exp(0)", "1"),
    ("log10(1000)", "3"),
    ("log10(0.01)", "-2"),
    ("log10(2)", "0.301029995663…"),
    # mod, with the divisor's sign.
    ("10 mod 3", "1"),
    ("-7 mod 3", "2"),
    ("7 mod -3", "-2"),
    ("7.5 mod 2", "1.5"),
    ("$10 mod $3", "$1.00"),
    ("$10.50 mod 4", "$2.50"),
    # Rates of things, and the typographic operators.
    ("15% * 200", "3000%"),
    ("200 * 15%", "3000%"),
    ("13% * 2", "26%"),
    ("15% of 200", "30"),
    ("10% of $200", "$20.00"),
    ("13% * 50%", "6.5%"),
    ("13% / 2", "6.5%"),
    ("$200 / $800", "25%"),
    ("18% × $60,000.00", "$10,800.00"),
    ("$60,000 ÷ 4", "$15,000.00"),
    ("$10 − $3", "$7.00"),
    ("−$5 + $1", "-$4.00"),
    ("$100 + 15%", "$115.00"),
    ("100 - 15%", "85"),
    ("$85,000 * 13%", "$11,050.00"),
    # Approximations that are exact stay exact and unmarked; others are marked.
    ("sqrt(16)", "4"),
    ("ln(1)", "0"),
    ("log10(1e-30)", "-30"),
    ("4^0.5", "2"),
    ("0.25^1.5", "0.125"),
    ("100^0.5", "10"),
    ("16^-0.25", "0.5"),
    ("8^(1/3)", "≈ 2"),
    ("10^0.25", "1.77827941003…"),
    # A rate shows four decimals of its percentage; one that has more is cut there and marked, as a Number is.
    ("1/3 * 100%", "33.3333…%"),
    ("$1 / $3", "33.3333…%"),
    ("105%^30", "432.1942…%"),
    ("(100% + 5%)^30", "432.1942…%"),
    ("$1,000 * 105%^30", "$4,321.94"),
    ("1/3 * 3 * 100%", "99.9999…%"),
    ("-2/3 * 1%", "-0.6666…%"),
    ("12.34567%", "12.3456…%"),
    ("12.34567% == 12.3456%", "false"),
    ("1e-10 * 1%", "0.0000…%"),
    ("5%^0.5", "22.3606…%"),
    ("25%^0.5", "50%"),
    ("8^(1/3) * 1%", "≈ 2%"),
    ("15.0198%", "15.0198%"),
    ("$150,198 / $1,000,000", "15.0198%"),
    ("ans == 15.0198%", "true"),
    # Every digit kept, each the correctly rounded one (Python's decimal at 34 digits prints the same).
    (":digits 34", "numbers that are not exact now show 34 significant digits"),
    ("sqrt(2)", "≈ 1.414213562373095048801688724209698"),
    ("2^0.5", "≈ 1.414213562373095048801688724209698"),
    ("exp(1)", "≈ 2.718281828459045235360287471352662"),
    ("ln(10)", "≈ 2.302585092994045684017991454684364"),
    ("log10(2)", "≈ 0.301029995663981195213738894724493"),
    ("exp(-230)", "≈ 1.294998192508983592378113644081526e-100"),
    ("ln(1.000000000000000000000000000000001)", "≈ 9.999999999999999999999999999999995e-34"),
    ("1.05^0.5", "≈ 1.024695076595959838322103868052105"),
]

# (input, diagnostic code, a line of the hint).
ERRORS = [
    ("$5 ^ 2", "type-mismatch", "raise the growth factor instead: $1,000 * (1 + 5%)^30"),
    ("x = 5", "syntax", "did you mean 'let x = 5'?"),
    ("$-5.50 + 1", "malformed-money", "a negative amount is written with the minus first: -$5.50"),
    ("$.50 * 3", "malformed-money", "an amount starts with a digit: $0.50"),
    ("max(.5, 1)", "syntax", "a number starts with a digit: 0.5"),
    # Other calculators' scale letters, written out.
    ("$85k", "malformed-number", "did you mean '$85,000'? Amounts are written out in full"),
    ("$1.5M * 2", "malformed-number", "did you mean '$1,500,000'?"),
    ("2.5k + 1", "malformed-number", "did you mean '2500'?"),
    # A newcomer's guesses at the library's names.
    ("income_tax($85,000)", "unknown-name",
     "a bracket table of each province and of federal, not a formula: tax(ON.income_tax, $85,000) or "
     "tax(federal.income_tax, $85,000)"),
    ("cpp($85,000)", "unknown-name",
     "formulas with 'cpp' in their name: 'cpp_contribution', 'cpp2_contribution', 'cpp_base_contribution'"),
    ("takehome($85,000, ON)", "unknown-name", "did you mean 'take_home_pay'?"),
    ("basic_personal_amount()", "unknown-name", "ON.basic_personal_amount or federal.basic_personal_amount"),
    ("income_tax", "unknown-name",
     "'income_tax' is a bracket table of each province and of federal: ON.income_tax or federal.income_tax"),
    ("take_home_pay($85,000, Ontario)", "unknown-name", "did you mean 'ON'? A province is written by its code"),
    ("take_home_pay($85,000, british_columbia)", "unknown-name", "did you mean 'BC'?"),
    ('take_home_pay($85,000, "british columbia")', "type-mismatch", "did you mean 'BC'?"),
    ('take_home_pay($85,000, "qc")', "type-mismatch", "did you mean 'QC'?"),
    ("1,000 + 1", "syntax", "a number is written without commas: 1000 or 1_000"),
    # A command called like a formula: the command written out.
    ("explain(take_home_pay($85,000, ON))", "unknown-name",
     "'explain' is a command: taxpro explain 'take_home_pay($85,000, ON)'"),
    # The whole grouped amount is meant, not its first group.
    ("take_home_pay(85,000, ON)", "type-mismatch", "did you mean '$85,000'?"),
    ("sqrt(-1)", "no-real-value", "square root of a negative number"),
    ("ln(0)", "no-real-value", "logarithm of zero"),
    ("(-8)^0.5", "no-real-value", "negative number to a power"),
    ("0^-1", "division-by-zero", "division by zero"),
    ("1 mod 0", "division-by-zero", "division by zero"),
    ("2^1000", "overflow", "too large"),
    ("exp(300)", "overflow", "too large"),
    ("sqrt($4)", "type-mismatch", "Number"),
    ("$5 of 10%", "type-mismatch", "'of' takes a rate of something"),
    ("0.333333333333…", "unexpected-character", "'…' and '≈' mark a value shown rounded"),
    ("33.3333…%", "unexpected-character", "'…' and '≈' mark a value shown rounded"),
]


def run_lines(taxpro, lines, *arguments):
    result = taxpro.run(*arguments, stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_the_table_has_every_example_of_the_issue_and_enough_rows():
    inputs = {row[0] for row in VALUES} | {row[0] for row in ERRORS}
    for example in ["12345678901234", "100000000000000 / 3", "1/3*3", "2^10", "(1 + 5%)^30", "sqrt(2)", "1e6",
                    "10 mod 3", "15% * 200", "10% of $200", "1,000 + 1", "x = 5", "18% × $60,000.00",
                    "1.21932631137e39", "$5 ^ 2", "2^-2"]:
        assert example in inputs
    assert len(VALUES) + len(ERRORS) >= 60


def test_every_value_of_the_table(taxpro):
    printed = run_lines(taxpro, [row[0] for row in VALUES])
    assert len(printed) == len(VALUES)
    wrong = [(given, want, got) for (given, want), got in zip(VALUES, printed) if got != want]
    assert not wrong


@pytest.mark.parametrize("given,code,hint", ERRORS)
def test_every_error_of_the_table(taxpro, given, code, hint):
    result = taxpro.run("eval", given)
    assert result.returncode == 1
    assert f"error[{code}]" in result.stderr
    assert hint in result.stderr


def test_a_leading_dot_or_minus_is_one_error_and_an_expression_may_start_with_a_minus(taxpro):
    for given in ("$.50 * 3", "-.5", "max(.5, 1)"):
        result = taxpro.run("eval", given)
        assert result.stderr.count("error[") == 1, (given, result.stderr)
    # Not options: an expression that starts with a minus, as a shell passes it.
    for given, printed in (("-(-$5)", "$5.00"), ("-$5 * 2", "-$10.00"), ("-(1 + 2)", "-3")):
        result = taxpro.run("eval", given)
        assert (result.returncode, result.stdout) == (0, printed + "\n"), (given, result.stderr)


def test_an_amount_a_shell_ate_the_dollar_of_is_explained(taxpro):
    # `taxpro eval "take_home_pay($85,000, ON)"`: the shell replaces $8 inside double quotes.
    shell_note = "inside double quotes a shell replaces '$8' in \"$85,000\" with nothing"
    result = taxpro.run("eval", "take_home_pay(5,000, ON)")
    assert result.returncode == 1
    assert "did you mean '$5,000'?" in result.stderr
    assert result.stderr.count(shell_note) == 1, result.stderr
    assert shell_note in taxpro.run("explain", "tax(ON.income_tax, 00,000)").stderr
    # One mistake, one error: the later groups ('000') take no parameter's place, in a formula's call or a
    # built-in's, so ON is still the province and the count of arguments is right.
    for given, hint in (("take_home_pay(85,000, ON)", "'$85,000'"), ("tax(ON.income_tax, 85,000)", "'$85,000'"),
                        ("take_home_pay(1,234,567)", "'$1,234,567'")):
        result = taxpro.run("eval", given)
        assert result.stderr.count("error[") == 1, (given, result.stderr)
        assert "error[type-mismatch]" in result.stderr and f"did you mean {hint}?" in result.stderr
    # Amounts written with their '$', and failures with no grouped digits, say nothing of a shell.
    for given in ("take_home_pay($85,000, ON) + x", "tax(ON.income_tax, 85000)", "f(1.000,000)"):
        result = taxpro.run("eval", given)
        assert result.returncode == 1 and shell_note not in result.stderr, (given, result.stderr)


def test_what_an_unknown_formulas_hint_offers_works(taxpro):
    # The uses the hints write out are valid calls, with the value of the formula they name.
    assert taxpro.run("eval", "tax(ON.income_tax, $85,000)").stdout.startswith("$")
    assert taxpro.run("eval", "tax(federal.income_tax, $85,000)").stdout.startswith("$")
    assert taxpro.run("eval", "federal.basic_personal_amount").stdout.startswith("$")
    assert taxpro.run("eval", "cpp_contribution($85,000)").stdout.startswith("$")


def test_a_rate_times_a_number_says_how_to_write_a_rate_of_it(taxpro):
    result = taxpro.run("eval", "15% * 200")
    assert result.stdout == "3000%\n"
    assert "warning[rate-times-number]" in result.stderr and "write '15% of 200'" in result.stderr
    assert taxpro.run("eval", "15% of 200").stdout == "30\n"
    # A rate scaled to less than 100% is most likely meant: no warning.
    quiet = taxpro.run("eval", "13% * 2")
    assert quiet.stdout == "26%\n" and quiet.stderr == ""


def test_a_leading_zero_is_warned_about_and_still_computed(taxpro):
    # `taxpro eval "$100 + 15%"` in a shell: `$1` is gone.
    result = taxpro.run("eval", "00 + 15%")
    assert result.stdout == "0\n"
    assert "warning[leading-zeros]" in result.stderr and "single quotes" in result.stderr


def test_digits_grouped_with_commas_are_each_reported_once_and_explained(taxpro):
    # At the top level the comma cannot continue the expression: one warning for '000', one error, each once (the
    # warnings of a failed input used to be printed again with its errors).
    result = taxpro.run("eval", "1,000 + 1")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.count("warning[leading-zeros]") == 1
    assert result.stderr.count("error[syntax]") == 1
    assert "unexpected ',' after an expression" in result.stderr
    assert "in '1,000' the ',' separates numbers" in result.stderr
    # In an argument list it is two arguments, which gives an answer: the warning says why it is not 1000's.
    result = taxpro.run("eval", "max(1,000,000)")
    assert result.returncode == 0 and result.stdout == "1\n"
    assert result.stderr.count("warning[leading-zeros]") == 2
    assert result.stderr.count("written without commas: 1000000 or 1_000_000") == 2
    assert "single quotes" not in result.stderr


# MARK: Independent answers


def exact_display(value: Fraction) -> str | None:
    """What TaxPro must print for an exact value: every digit; None when the value is not a decimal of at most 34
    significant digits (TaxPro then marks it)."""
    if value == 0:
        return "0"
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return None
    scale = max(twos, fives)
    digits = abs(value.numerator) * 10**scale // value.denominator
    exponent = -scale
    while digits % 10 == 0:
        digits //= 10
        exponent += 1
    text = str(digits)
    if len(text) > 34:
        return None
    adjusted = exponent + len(text) - 1
    sign = "-" if value < 0 else ""
    if adjusted >= 34 or adjusted < -6:
        return sign + text[0] + ("." + text[1:] if len(text) > 1 else "") + "e" + str(adjusted)
    if exponent >= 0:
        return sign + text + "0" * exponent
    whole, fraction = text[:exponent] if len(text) > -exponent else "0", text[exponent:].rjust(-exponent, "0")
    return sign + whole + "." + fraction


def test_exact_integer_powers_agree_with_fractions(taxpro):
    generator = random.Random(12)
    cases = []
    for _ in range(300):
        base = Fraction(generator.choice([2, 3, 5, 7, 10, 11, 12, 25, 125]), generator.choice([1, 1, 2, 4, 5, 8, 10]))
        cases.append((base, generator.randint(-12, 25)))
    # Each base written exactly as a decimal (all of them terminate).
    lines = [f"({Decimal(base.numerator) / Decimal(base.denominator)})^{exponent}" for base, exponent in cases]
    printed = run_lines(taxpro, lines)
    checked = 0
    for (base, exponent), line, got in zip(cases, lines, printed):
        want = exact_display(base**exponent)
        if want is None:
            # Not exact in 34 digits: TaxPro must say so.
            assert "…" in got or "≈" in got, (line, got)
        else:
            assert got == want, line
            checked += 1
    assert checked > 150


def test_exact_quotients_agree_with_fractions(taxpro):
    generator = random.Random(7)
    cases = [(generator.randint(-10**12, 10**12), generator.choice([1, 2, 3, 4, 7, 8, 16, 25, 125, 1024, 3125, 9]))
             for _ in range(300)]
    printed = run_lines(taxpro, [f"{a} / {b}" if a >= 0 else f"-{-a} / {b}" for a, b in cases])
    for (a, b), got in zip(cases, printed):
        want = exact_display(Fraction(a, b))
        if want is None:
            assert got.endswith("…"), (a, b, got)
            # The digits shown are the true ones, cut off.
            shown = Decimal(got.rstrip("…"))
            assert abs(Fraction(shown) - Fraction(a, b)) < abs(Fraction(a, b)) * Fraction(1, 10**10)
        else:
            assert got == want


# Python's decimal rounds sqrt, exp, ln and log10 correctly (half to even) at any precision; TaxPro must print the
# same 34 digits. Its power is only "almost always" correctly rounded, so powers are computed with 80 digits and then
# rounded once to 34 (which could differ from the true rounding only if digits 35 to 80 were exactly 50…0).
EXACT_34 = Context(prec=34, rounding=ROUND_HALF_EVEN, Emax=999999, Emin=-999999)
WIDE = Context(prec=80, rounding=ROUND_HALF_EVEN, Emax=999999, Emin=-999999)

APPROXIMATIONS = {
    "sqrt": lambda x: x.sqrt(EXACT_34),
    "ln": lambda x: x.ln(EXACT_34),
    "exp": lambda x: x.exp(EXACT_34),
    "log10": lambda x: x.log10(EXACT_34),
}


def random_decimal(generator: random.Random, low: int, high: int) -> Decimal:
    """1 to 34 random significant digits at a random scale between 10^low and 10^high."""
    digits = generator.randint(1, 34)
    mantissa = generator.randint(10 ** (digits - 1), 10**digits - 1)
    return Decimal(mantissa).scaleb(generator.randint(low, high) - digits + 1)


def approximation_arguments(generator: random.Random, name: str) -> list[Decimal]:
    """Arguments over wide ranges: tiny, huge, near 1, exact squares, powers of ten."""
    cases = []
    for _ in range(120):
        cases.append(random_decimal(generator, -95, 95) if name != "exp" else
                     Decimal(generator.randint(-230 * 10**6, 230 * 10**6)).scaleb(-6))
    for _ in range(60):
        # Near 1 (and near 0 for exp): the hard place for a logarithm that cancels digits.
        tiny = random_decimal(generator, -33, -2)
        cases.append(tiny if name == "exp" else 1 + tiny if generator.random() < 0.5 else 1 - tiny)
    for _ in range(40):
        # At most 17 digits: the square is exact in 34.
        root = Decimal(generator.randint(1, 10**generator.randint(1, 17))).scaleb(generator.randint(-45, 30))
        square = EXACT_34.multiply(root, root)
        if -99 <= square.adjusted() <= 98:
            cases.append(square if name != "exp" else root.scaleb(-40))
    for power in range(-99, 99, 3):
        cases.append(Decimal(1).scaleb(power) if name != "exp" else Decimal(power) / 4)
    return cases


def shown_value(line: str) -> tuple[Decimal, bool]:
    """The value a line printed with `:digits 34` shows, and whether it is marked."""
    marked = "≈" in line or "…" in line
    return Decimal(line.replace("≈ ", "").replace("…", "")), marked


def disagreements_at_34_digits(taxpro, lines: list[str], wants: list[tuple[Decimal, bool]]) -> list[tuple]:
    """Each line whose value, printed with `:digits 34`, is not the wanted one, or is marked when the wanted value is
    exact (or unmarked when it is not)."""
    printed = run_lines(taxpro, [":digits 34"] + lines)[1:]
    assert len(printed) == len(lines)
    wrong = []
    for line, (want, exact), got in zip(lines, wants, printed):
        shown, marked = shown_value(got)
        if shown != want or marked == exact:
            wrong.append((line, got, str(want), "exact" if exact else "inexact"))
    return wrong


def test_approximations_are_the_correctly_rounded_34_digits(taxpro):
    generator = random.Random(34)
    cases = [(name, x) for name in APPROXIMATIONS for x in approximation_arguments(generator, name)]
    assert len(cases) > 1000
    wants = []
    for name, x in cases:
        EXACT_34.clear_flags()
        want = APPROXIMATIONS[name](x)
        wants.append((want, not EXACT_34.flags[Inexact]))
    wrong = disagreements_at_34_digits(taxpro, [f"{name}({x})" for name, x in cases], wants)
    assert not wrong, wrong[:10]


def test_whole_powers_that_do_not_fit_are_the_correctly_rounded_34_digits(taxpro):
    generator = random.Random(36)
    lines, wants = [], []
    while len(lines) < 1500:
        base = random_decimal(generator, -8, 8) * generator.choice([1, -1])
        exponent = generator.randint(-60, 60)
        if base == 0 or exponent == 0:
            continue
        exact = Fraction(base) ** exponent
        # Rounded once, from the exact power, half to even.
        want = EXACT_34.divide(Decimal(exact.numerator), Decimal(exact.denominator))
        if not -99 <= want.adjusted() <= 98:
            continue
        lines.append(f"({base})^{exponent}")
        wants.append((want, Fraction(want) == exact))
    assert sum(not exact for _, exact in wants) > 1000
    wrong = disagreements_at_34_digits(taxpro, lines, wants)
    assert not wrong, wrong[:10]


def is_exact_power(base: Decimal, exponent: Decimal, result: Decimal) -> bool:
    """Whether `base ^ exponent` is exactly `result` (decimal's flags say Inexact for exact powers too). With the
    exponent p/q in lowest terms, the result r needs r^q = base^p; a decimal other than a power of ten has r^q at
    least 2^q in its digits, so for q or |p| above 112 only a power of ten can be exact."""
    ratio = Fraction(exponent)
    p, q = ratio.numerator, ratio.denominator
    if base.normalize().as_tuple().digits == (1,):
        return (Fraction(base.normalize().adjusted()) * ratio).denominator == 1
    if q > 112 or abs(p) > 112:
        return False
    return Fraction(result) ** q == Fraction(base) ** p


def test_powers_that_are_not_whole_are_the_correctly_rounded_34_digits(taxpro):
    generator = random.Random(35)
    cases = []
    while len(cases) < 1600:
        base = random_decimal(generator, -60, 60)
        exponent = random_decimal(generator, -4, 2) * generator.choice([1, -1])
        # Whole exponents are exact powers (tested above); results beyond TaxPro's range are errors.
        if exponent == exponent.to_integral_value() or abs(exponent * (base.adjusted() + 1)) > 95:
            continue
        cases.append((base, exponent))
    # Exact results stay exact: squares to the halves, fourth powers to the quarters, powers of ten.
    for _ in range(200):
        root = random_decimal(generator, -6, 6).quantize(Decimal("0.01"))
        if root == 0:
            continue
        q = generator.choice([2, 4, 8, 5])
        p = generator.choice([1, 3, -1, 7])
        if len((root**q).normalize().as_tuple().digits) <= 34:
            cases.append((root**q, Decimal(p) / q))
    for _ in range(40):
        cases.append((Decimal(1).scaleb(generator.randint(-40, 40)), Decimal(generator.choice([1, 3, -1, 5])) / 4))
    lines, wants = [], []
    for base, exponent in cases:
        want = EXACT_34.plus(WIDE.power(base, exponent))
        exact = is_exact_power(base, exponent, want)
        if want == 0 or not -99 <= want.adjusted() <= 98:
            continue
        lines.append(f"{base}^({exponent})")
        wants.append((want, exact))
    assert len(lines) > 1500 and sum(exact for _, exact in wants) > 80
    wrong = disagreements_at_34_digits(taxpro, lines, wants)
    assert not wrong, wrong[:10]


def test_digits_option_of_eval(taxpro):
    assert taxpro.run("eval", "--digits", "5", "1/3").stdout == "0.33333…\n"
    # All 34 digits kept are shown: the last is rounded, so the value is marked as a whole.
    assert taxpro.run("eval", "--digits", "34", "2/3").stdout == "≈ 0.6666666666666666666666666666666667\n"
    # Exact values show every digit whatever the setting.
    assert taxpro.run("eval", "--digits", "3", "12345.678").stdout == "12345.678\n"
    assert taxpro.run("eval", "--digits", "0", "1").returncode == 2


# MARK: Round trip


def random_literal(generator: random.Random) -> str:
    digits = generator.randint(1, 34)
    mantissa = str(generator.randint(10 ** (digits - 1), 10**digits - 1))
    exponent = generator.randint(-60 - digits, 60)
    sign = generator.choice(["", "-"])
    form = generator.random()
    if form < 0.4:
        return sign + f"{mantissa}e{exponent}"
    value = Decimal(mantissa).scaleb(exponent)
    if -20 < exponent < 20:
        return sign + format(value, "f")
    return sign + f"{mantissa[0]}.{mantissa[1:] or '0'}e{exponent + digits - 1}"


def test_what_is_printed_reads_back_as_the_same_value(taxpro):
    generator = random.Random(2026)
    literals = [random_literal(generator) for _ in range(10_000)]
    printed = run_lines(taxpro, literals)
    assert len(printed) == len(literals)
    for literal, shown in zip(literals, printed):
        # Exact: no mark, and the same number as Python reads it.
        assert "…" not in shown and "≈" not in shown, literal
        assert Decimal(shown) == Decimal(literal), (literal, shown)
    # And TaxPro reads its own output back as equal, with `==` agreeing with the display.
    checks = run_lines(taxpro, [f"{shown} == {literal}" for literal, shown in zip(literals, printed)])
    assert checks == ["true"] * len(literals)
    again = run_lines(taxpro, printed)
    assert again == printed


def random_rate(generator: random.Random) -> tuple[str, Fraction]:
    """An expression of type Rate and its exact percentage: a literal with up to 8 decimals, a quotient of amounts, or
    a fraction of a percent."""
    form = generator.random()
    if form < 0.4:
        percent = Decimal(generator.randint(-10**9, 10**9)).scaleb(-generator.randint(0, 8))
        return format(percent, "f") + "%", Fraction(percent)
    if form < 0.8:
        a, b = generator.randint(1, 10**8), generator.randint(1, 10**8)
        return f"${Decimal(a).scaleb(-2)} / ${Decimal(b).scaleb(-2)}", Fraction(a, b) * 100
    a, b = generator.randint(1, 10**6), generator.choice([1, 2, 3, 7, 8, 16, 125, 4096])
    return f"{a} / {b} * 1%", Fraction(a, b)


def test_a_rate_prints_exactly_or_marked_and_what_is_unmarked_reads_back_equal(taxpro):
    generator = random.Random(4)
    cases = [random_rate(generator) for _ in range(3000)]
    printed = run_lines(taxpro, [expression for expression, _ in cases])
    assert len(printed) == len(cases)
    unmarked = []
    counts = {"exact": 0, "cut": 0}
    for (expression, percent), got in zip(cases, printed):
        assert got.endswith("%"), (expression, got)
        if "…" in got:
            # The first four decimals of the true percentage, cut off, and the value has more.
            shown = Fraction(Decimal(got.removesuffix("…%")))
            assert len(got.removesuffix("…%").split(".")[1]) == 4, (expression, got)
            assert shown != percent and abs(percent - shown) < Fraction(1, 10**4), (expression, got)
            assert (percent - shown) * shown >= 0, (expression, got)
            counts["cut"] += 1
        elif "≈" not in got:
            assert Fraction(Decimal(got.removesuffix("%"))) == percent, (expression, got)
            unmarked.append((expression, got))
            counts["exact"] += 1
    assert counts["exact"] > 500 and counts["cut"] > 500
    # What prints without a mark is the value: read back, `==` says so.
    checks = run_lines(taxpro, [f"{got} == {expression}" for expression, got in unmarked])
    assert checks == ["true"] * len(unmarked)
