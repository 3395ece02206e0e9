"""`taxpro eval --csv`: rows read byte by byte and evaluated in parallel pieces, with the output in the rows' order."""

from decimal import ROUND_HALF_UP, Decimal

EXPRESSION = "income * 1.5 + $1"


def money(value: Decimal) -> str:
    value = value.quantize(Decimal("0.01"), ROUND_HALF_UP)
    return ("-$" if value < 0 else "$") + f"{abs(value):,.2f}"


def test_small_file_with_quotes_blank_lines_and_errors(run, tmp_path):
    path = tmp_path / "rows.csv"
    path.write_bytes(
        b'\xef\xbb\xbfincome:Money,note\r\n'
        b'"$1,000.50",plain\r\n'
        b'\r\n'
        b' 12 ,"quoted, with a comma"\n'
        b'abc,bad\n'
        b'"2\n5",a quoted line break\n'
        b'-$3,last'
    )
    result = run("eval", "--csv", str(path), EXPRESSION)
    assert result.returncode == 1
    assert result.stdout == "$1,501.75\n$19.00\n\n\n-$3.50\n"
    assert result.stderr.splitlines() == [
        f"{path}:5: error: 'abc' in column 'income' is not a Money",
        f"{path}:6: error: '2\n5' in column 'income' is not a Money".splitlines()[0],
        "5' in column 'income' is not a Money",
    ]


def test_values_and_separators_read_like_the_language(run, tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("amount,rate,count,province,flag,name\n$1_000,5.05%,1_0,ON,true,Ann\n-$12.345,-1%,+3,QC,false,Bo\n")
    result = run("eval", "--csv", str(path), 'if flag then amount * rate * count else amount - rate')
    assert result.returncode == 0, result.stderr
    assert result.stdout == "$505.00\n-$12.47\n"
    result = run("eval", "--csv", str(path), "province.name + name")
    assert result.returncode == 1  # Text + Text is not arithmetic
    result = run("eval", "--csv", str(path), "province.name")
    assert result.stdout == "Ontario\nQuebec\n"


def test_large_file_is_split_and_keeps_row_order_and_line_numbers(run, tmp_path):
    rows = ["income:Money,province"]
    expected = []
    errors = []
    for index in range(60_000):
        line = index + 2
        if index % 9_973 == 5:
            rows.append("oops,ON")
            expected.append("")
            errors.append(f"{{path}}:{line}: error: 'oops' in column 'income' is not a Money")
        elif index % 10_007 == 3:
            rows.append("")  # a blank line: skipped, but it still counts as a line
            continue
        else:
            cents = index * 7919 % 100_000_000
            text = f"{cents // 100}.{cents % 100:02d}"
            rows.append(f"{text},ON")
            expected.append(money(Decimal(text) * Decimal("1.5") + 1))
    path = tmp_path / "large.csv"
    path.write_text("\n".join(rows) + "\n")
    assert path.stat().st_size > 1 << 18
    result = run("eval", "--csv", str(path), EXPRESSION)
    assert result.returncode == 1
    assert result.stdout == "".join(line + "\n" for line in expected)
    assert result.stderr.splitlines() == [error.format(path=path) for error in errors]
