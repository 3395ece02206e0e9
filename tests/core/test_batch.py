"""`taxpro eval --csv`: strict RFC 4180 rows read in pieces, typed by the language's own literal rules, evaluated on
every core in bounded memory, written in the rows' order as an RFC 4180 column (issue 15)."""

import csv
import io
import os
import subprocess
import threading
import time
from decimal import ROUND_HALF_UP, Decimal

EXPRESSION = "income * 1.5 + $1"


def money(value: Decimal) -> str:
    value = value.quantize(Decimal("0.01"), ROUND_HALF_UP)
    return ("-$" if value < 0 else "$") + f"{abs(value):,.2f}"


def cell(text: str) -> str:
    """A cell as RFC 4180 writes it (what Python's csv module writes, one column, LF line ends)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([text])
    return out.getvalue()


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
    assert result.stdout == '"$1,501.75"\n$19.00\n\n\n-$3.50\n'
    assert result.stderr.splitlines() == [
        f"{path}:5: error: 'abc' in column 'income' is not a Money",
        f"{path}:6: error: '2\\n5' in column 'income' is not a Money",
    ]


def test_values_are_read_with_the_languages_literal_rules(run, tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("amount,rate,count,province,flag,name\n$1_000,5.05%,1_0,ON,true,Ann\n-$12.34,-1%,3,QC,false,Bo\n")
    result = run("eval", "--csv", str(path), 'if flag then amount * rate * count else amount - rate')
    assert result.returncode == 0, result.stderr
    assert result.stdout == "$505.00\n-$12.46\n"
    result = run("eval", "--csv", str(path), "province.name + name")
    assert result.returncode == 1  # Text + Text is not arithmetic
    result = run("eval", "--csv", str(path), "province.name")
    assert result.stdout == "Ontario\nQuebec\n"


def test_what_the_language_refuses_is_an_error_naming_the_line(run, tmp_path):
    """Issue 15: each of these came out as a wrong amount with exit 0."""
    path = tmp_path / "rows.csv"
    path.write_text('income:Money\n$85,000.99\n"$1,00"\n$0.005\n$12.345\n85000.999\n"$85,000.99"\n85000.99\n')
    result = run("eval", "--csv", str(path), "income")
    assert result.returncode == 1
    assert result.stdout == '\n\n\n\n\n"$85,000.99"\n"$85,000.99"\n'
    errors = result.stderr.splitlines()
    assert errors[0] == (f"{path}:2: error: this row has 2 fields but the header has 1 "
                         '(an amount with a comma must be quoted: "$85,000.99")')
    assert errors[1] == (f"{path}:3: error: '$1,00' in column 'income' is not a Money: "
                         "commas in an amount must separate groups of three digits")
    for line, text in ((4, "$0.005"), (5, "$12.345"), (6, "85000.999")):
        assert errors[line - 2].startswith(f"{path}:{line}: error: '{text}' in column 'income' is not a Money: ")
        assert "at most two decimals" in errors[line - 2]
    assert len(errors) == 5
    path.write_text("n:Number,r:Rate\n+3,1%\n12345678901234567890123456789012345,2%\n1,5\n2,3%\n")
    result = run("eval", "--csv", str(path), "n * 2")
    assert result.stdout == "\n\n\n4\n"
    assert [line.split(": error: ")[0] for line in result.stderr.splitlines()] == [f"{path}:{n}" for n in (2, 3, 4)]
    assert "more digits than TaxPro keeps exactly" in result.stderr


def test_rows_with_fewer_fields_and_malformed_quotes_name_their_line(run, tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text('income:Money,province\n$1,ON\n$2\n"$3",ON,extra\nab"c,ON\n"$4"x,ON\n$5,ON\n')
    result = run("eval", "--csv", str(path), "income + $1")
    assert result.returncode == 1
    assert result.stdout == "$2.00\n\n\n\n\n$6.00\n"
    assert result.stderr.splitlines() == [
        f"{path}:3: error: this row has 1 field but the header has 2",
        f"{path}:4: error: this row has 3 fields but the header has 2 (an amount with a comma must be quoted: "
        '"$85,000.99")',
        f"{path}:5: error: this row is not valid CSV: a quote inside a field that does not start with one "
        "(quote the whole field and double the quote)",
        f"{path}:6: error: this row is not valid CSV: text after the closing quote of a field",
    ]


def test_header_problems_are_usage_errors_before_any_row(run, tmp_path):
    cases = {
        "a,b,a\n1,2,3\n": "column 'a' appears twice in the header",
        "a,,b\n1,2,3\n": "column 2 of the header",
        "a,b c\n1,2\n": "'b c' in the header",
        "a:Money,b:Monye\n1,2\n": "unknown column type 'Monye'",
        "": "is empty",
    }
    for text, message in cases.items():
        path = tmp_path / "header.csv"
        path.write_text(text)
        result = run("eval", "--csv", str(path), "a")
        assert result.returncode == 2 and message in result.stderr and result.stdout == "", (text, result.stderr)
    path = tmp_path / "columns.csv"
    path.write_text("income:Money\n$1\n")
    result = run("eval", "--csv", str(path), "tax(province.income_tax, income)")
    assert result.returncode == 1 and "unknown name 'province'" in result.stderr
    assert f"the columns of '{path}' are income" in result.stderr and result.stdout == ""


def test_a_column_typed_by_its_first_value_says_how_to_name_its_type(run, tmp_path):
    # Plain numbers, as a spreadsheet exports them: the column is Number, and tax() wants Money.
    path = tmp_path / "incomes.csv"
    path.write_text("income,age\n50000,40\n85000,51\n")
    result = run("eval", "--csv", str(path), "tax(ON.income_tax, income)")
    assert result.returncode == 1 and result.stdout == ""
    assert "the amount of 'tax' must be Money, but this is Number" in result.stderr
    assert (f"note: column 'income' of '{path}' is Number, read from its first value '50000'; "
            "the header can name its type, like income:Money") in result.stderr
    # Only the column the mistake is about.
    assert "column 'age'" not in result.stderr
    # Named in the header, the same file is read as money.
    path.write_text("income:Money,age\n50000,40\n85000,51\n")
    result = run("eval", "--csv", str(path), "tax(ON.income_tax, income)")
    assert result.returncode == 0 and "note:" not in result.stderr
    assert len(result.stdout.splitlines()) == 2
    # A column whose type the header gives gets no such note.
    path.write_text("income:Number\n50000\n")
    result = run("eval", "--csv", str(path), "tax(ON.income_tax, income)")
    assert result.returncode == 1 and "note: column" not in result.stderr


def test_output_cells_are_quoted_and_formulas_neutralised(run, tmp_path):
    path = tmp_path / "names.csv"
    names = ["=cmd|' /C calc'!A0", "+1+2", "-2+3", "@SUM(A1)", "\tTab", "plain", 'he said "hi", ok', "two\nlines"]
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["name"])
        for name in names:
            writer.writerow([name])
    result = run("eval", "--csv", str(path), "name")
    assert result.returncode == 0, result.stderr
    expected = []
    for name in names:
        # Fields are trimmed of spaces and tabs, as they always were.
        name = name.strip(" \t")
        expected.append(cell("'" + name if name[:1] in "=+-@" else name))
    assert result.stdout == "".join(expected)
    assert [row[0] for row in csv.reader(io.StringIO(result.stdout))] == [
        "'" + name.strip(" \t") if name.strip(" \t")[:1] in "=+-@" else name.strip(" \t") for name in names]
    raw = run("eval", "--csv", str(path), "--raw", "name")
    assert raw.stdout == "".join(cell(name.strip(" \t")) for name in names)
    # Amounts TaxPro prints are never formulas: a negative one keeps its sign, a large one is quoted for its comma.
    amounts = tmp_path / "amounts.csv"
    amounts.write_text("x:Money\n-$5\n$1234.5\n")
    assert run("eval", "--csv", str(amounts), "x").stdout == '-$5.00\n"$1,234.50"\n'


def test_special_inputs_are_refused_or_read_as_pipes(run, taxpro, tmp_path):
    result = run("eval", "--csv", "/dev/zero", "x")
    assert result.returncode == 2 and "not a regular file (a character device)" in result.stderr
    # Standard input that never ends a row stops at the row-length bound, without growing.
    with open("/dev/zero", "rb") as zeros:
        process = subprocess.run([taxpro, "eval", "--csv", "-", "x"], stdin=zeros, capture_output=True, timeout=120)
    assert process.returncode == 2 and b"longer than 1 MiB" in process.stderr
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    result = run("eval", "--csv", str(fifo), "x")
    assert result.returncode == 2 and "no program opened for writing" in result.stderr
    assert time.monotonic() - started < 60

    def writer():
        time.sleep(0.5)
        with open(fifo, "w") as handle:
            handle.write("x\n1\n2\n")

    thread = threading.Thread(target=writer)
    thread.start()
    result = run("eval", "--csv", str(fifo), "x * 2")
    thread.join()
    assert result.returncode == 0 and result.stdout == "2\n4\n", result.stderr
    result = run("eval", "--csv", "-", "x + 1", stdin="x\n3\n")
    assert result.stdout == "4\n"


def peak_kib(taxpro, rows: int) -> int:
    """Peak resident memory of `eval --csv -` over `rows` rows written into a pipe as they are read."""
    script = (f"import sys\nw = sys.stdout.write\nw('income:Money,province\\n')\n"
              f"for i in range({rows}):\n    w(f'{{i % 400000}}.{{i % 100:02d}},ON\\n')\n")
    generator = subprocess.Popen(["python3", "-c", script], stdout=subprocess.PIPE)
    process = subprocess.Popen([taxpro, "eval", "--csv", "-", "tax(province.income_tax, income)"],
                               stdin=generator.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    generator.stdout.close()
    # wait4 gives this one process's own peak.
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    generator.wait()
    assert process.returncode == 0
    return usage.ru_maxrss


def test_memory_does_not_grow_with_the_number_of_rows(taxpro):
    # From 300,000 rows on, the pieces in flight are all there is; 1.2 million rows more are 17 MB in and 13 MB out,
    # which held whole would add more than that.
    medium = peak_kib(taxpro, 300_000)
    large = peak_kib(taxpro, 1_500_000)
    assert large - medium < 4 * 1024, (medium, large)


def test_large_file_is_split_and_keeps_row_order_and_line_numbers(run, tmp_path):
    rows = ["income:Money,province"]
    expected = []
    errors = []
    line = 2
    for index in range(200_000):
        if index % 9_973 == 5:
            rows.append("oops,ON")
            expected.append("")
            errors.append(f"{{path}}:{line}: error: 'oops' in column 'income' is not a Money")
        elif index % 10_007 == 3:
            rows.append("")  # a blank line: skipped, but it still counts as a line
        elif index % 7_919 == 11:
            rows.append('"1,234.5\n6",ON')  # a quoted line break: the row spans two lines
            expected.append("")
            errors.append(f"{{path}}:{line}: error: '1,234.5\\n6' in column 'income' is not a Money")
            line += 1
        else:
            cents = index * 7919 % 100_000_000
            text = f"{cents // 100}.{cents % 100:02d}"
            rows.append(f"{text},ON")
            expected.append(cell(money(Decimal(text) * Decimal("1.5") + 1)).rstrip("\n"))
        line += 1
    path = tmp_path / "large.csv"
    path.write_text("\n".join(rows) + "\n")
    assert path.stat().st_size > 1 << 20
    result = run("eval", "--csv", str(path), EXPRESSION)
    assert result.returncode == 1
    assert result.stdout == "".join(line + "\n" for line in expected)
    assert result.stderr.splitlines() == [error.format(path=path) for error in errors]
