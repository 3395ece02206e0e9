"""The TextMate grammar (grammar/taxpro.tmLanguage.json), tokenized with textmate-grammar-python
(Oniguruma regular expressions, like VS Code)."""

import json
import logging
import os
import re

import pytest

from editor_support import GRAMMAR, SAMPLES

PROVINCES = "AB BC MB NB NL NS NT NU ON PE QC SK YT".split()


@pytest.fixture(scope="module")
def tokenize(tmp_path_factory):
    # textmate_grammar makes a cache folder in the working directory when imported: keep it out
    # of the repository.
    cwd = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("textmate"))
    try:
        from textmate_grammar.parsers.base import LanguageParser
    finally:
        os.chdir(cwd)
    logging.getLogger("textmate_grammar").setLevel(logging.ERROR)
    parser = LanguageParser(json.loads(GRAMMAR.read_text()))

    def run(source):
        """{(line, column): [scopes]} for every character that has a token."""
        element = parser.parse_string(source)
        chars = {}
        for (line, column), text, scopes in element.flatten():
            for offset in range(len(text)):
                chars[(line, column + offset)] = scopes
        return Tokens(source, chars)

    return run


class Tokens:
    def __init__(self, source, chars):
        self.lines = source.split("\n")
        self.chars = chars

    def find(self, line, text, occurrence=0):
        """(line, column) of the `occurrence`th `text` on `line` (0-based), as a whole word when
        `text` is a word."""
        pattern = re.escape(text)
        if re.match(r"\w", text):
            pattern = r"(?<![\w$])" + pattern
        if re.search(r"\w$", text) and not text.startswith("\\"):
            pattern += r"(?!\w)"
        matches = list(re.finditer(pattern, self.lines[line]))
        assert len(matches) > occurrence, f"{text!r} not found on line {line}: {self.lines[line]!r}"
        return matches[occurrence].start()

    def scopes(self, line, text, occurrence=0):
        """The scopes of each character of `text` on `line`."""
        column = self.find(line, text, occurrence)
        return [self.chars.get((line, column + i), []) for i in range(len(text))]

    def assert_scope(self, line, text, scope, occurrence=0):
        for i, scopes in enumerate(self.scopes(line, text, occurrence)):
            assert any(s == scope or s.startswith(scope + ".") for s in scopes), (
                f"{text!r} (char {i}) on line {line} has scopes {scopes}, expected {scope}")

    def assert_not_scope(self, line, text, scope, occurrence=0):
        for scopes in self.scopes(line, text, occurrence):
            assert not any(s == scope or s.startswith(scope + ".") for s in scopes), (
                f"{text!r} on line {line} has scopes {scopes}, did not expect {scope}")


def sample(name):
    return (SAMPLES / name).read_text()


def line_of(source, needle):
    for number, line in enumerate(source.split("\n")):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in sample")


def test_grammar_is_valid_json_with_scope_and_file_type():
    grammar = json.loads(GRAMMAR.read_text())
    assert grammar["scopeName"] == "source.taxpro"
    assert grammar["fileTypes"] == ["tax"]
    assert grammar["patterns"]
    # Every include names a repository entry that exists.
    text = GRAMMAR.read_text()
    for include in re.findall(r'"include":\s*"#([^"]+)"', text):
        assert include in grammar["repository"], include


def test_comments_and_documentation_comments(tokenize):
    src = sample("formulas.tax")
    t = tokenize(src)
    summary = line_of(src, "## Tax owed to one province")
    t.assert_scope(summary, "## Tax owed to one province", "comment.line.documentation")
    t.assert_scope(summary, "##", "punctuation.definition.comment")
    for field in ("definition", "instruction", "tip", "topic", "reference"):
        line = line_of(src, f"## {field}:")
        t.assert_scope(line, field + ":", "comment.line.documentation")
        t.assert_scope(line, field, "keyword.other.documentation")
    note = line_of(src, "## note:")
    t.assert_scope(note, "note", "keyword.other.documentation")
    t.assert_scope(note, "`18%`", "markup.inline.raw")
    t.assert_not_scope(note, "18%", "constant.numeric")
    url_line = line_of(src, "## reference:")
    t.assert_scope(url_line, "https://www.canada.ca/en/revenue-agency.html", "markup.underline.link")
    t.assert_scope(url_line, "https://www.canada.ca/en/revenue-agency.html", "comment.line.documentation")
    topic = line_of(src, "## topic:")
    t.assert_scope(topic, "/", "punctuation.separator.topic")
    # A documentation comment inside a formula's parameter list.
    t.assert_scope(line_of(src, "## Taxable income"), "## Taxable income", "comment.line.documentation")
    trailing = line_of(src, "# a top-level constant")
    t.assert_scope(trailing, "# a top-level constant", "comment.line.number-sign")
    t.assert_not_scope(trailing, "# a top-level constant", "comment.line.documentation")
    t.assert_scope(trailing, "5.05%", "constant.numeric.rate")


def test_documentation_fields_only_at_the_start_of_the_comment(tokenize):
    t = tokenize("## tipping point: no field here\n## example: `1 + 2`\n##tip:short\n")
    t.assert_not_scope(0, "tipping", "keyword")
    t.assert_scope(1, "example", "keyword.other.documentation")
    t.assert_scope(2, "tip", "keyword.other.documentation")


def test_keywords(tokenize):
    src = sample("formulas.tax")
    t = tokenize(src)
    line = line_of(src, "if owed > $0")
    for word in ("if", "then", "else"):
        t.assert_scope(line, word, "keyword.control.conditional")
    for word in ("and", "not"):
        t.assert_scope(line, word, "keyword.operator.logical")
    t.assert_scope(line_of(src, "refund > $0 or false"), "or", "keyword.operator.logical")
    t.assert_scope(line_of(src, "income: Money in"), "in", "keyword.operator")
    t.assert_scope(line_of(src, "formula rrsp_refund"), "formula", "keyword.declaration.formula")
    t.assert_scope(line_of(src, "let before"), "let", "keyword.declaration.let")
    test_line = line_of(src, "test \"Ontario")
    t.assert_scope(test_line, "test", "keyword.declaration.test")
    t.assert_scope(test_line, "year", "keyword.declaration.year")
    t.assert_scope(test_line, "2025", "constant.numeric")
    t.assert_scope(test_line, '"Ontario tax on $85,000"', "string.quoted.double")
    t.assert_not_scope(test_line, "$85,000", "constant.numeric.money")


def test_keywords_are_whole_words(tokenize):
    t = tokenize("let iffy = formula_count + income_tax + letter + ONTARIO + ON_x\n")
    for word in ("iffy", "formula_count", "income_tax", "letter", "ONTARIO", "ON_x"):
        t.assert_not_scope(0, word, "keyword")
        t.assert_not_scope(0, word, "support")
        t.assert_scope(0, word, "variable.other")


def test_declarations_and_their_names(tokenize):
    src = sample("formulas.tax")
    t = tokenize(src)
    line = line_of(src, "formula provincial_tax(")
    t.assert_scope(line, "provincial_tax", "entity.name.function")
    t.assert_not_scope(line, "provincial_tax", "entity.name.function.call")
    t.assert_scope(line_of(src, "let ontario_credit"), "ontario_credit", "variable.other.constant")

    src = sample("jurisdictions.tax")
    t = tokenize(src)
    line = line_of(src, "parameters Province {")
    t.assert_scope(line, "parameters", "keyword.declaration.parameters")
    t.assert_scope(line, "Province", "entity.name.type.interface")
    t.assert_scope(line_of(src, "  income_tax: Brackets"), "income_tax", "variable.other.member")
    t.assert_scope(line_of(src, "  income_tax: Brackets"), "Brackets", "support.type")
    t.assert_scope(line_of(src, "parameters Federal"), "Federal", "entity.name.type.interface")
    line = line_of(src, 'province ON "Ontario"')
    t.assert_scope(line, "province", "keyword.declaration.province")
    t.assert_scope(line, "ON", "entity.name.type.province")
    t.assert_scope(line, '"Ontario"', "string.quoted.double")
    line = line_of(src, 'federal "Canada"')
    t.assert_scope(line, "federal", "keyword.declaration.federal")
    t.assert_scope(line_of(src, "year 2025"), "year", "keyword.declaration.year")
    line = line_of(src, "income_tax = brackets {")
    t.assert_scope(line, "income_tax", "variable.other.member")
    t.assert_scope(line, "brackets", "keyword.declaration.brackets")
    t.assert_scope(line_of(src, "surtax_threshold_1 ="), "surtax_threshold_1", "variable.other.member")


def test_province_as_a_parameter_name_is_not_a_declaration(tokenize):
    t = tokenize("formula f(province: Province = ON): Rate = province.credit_rate\n")
    t.assert_scope(0, "province", "variable.parameter")
    t.assert_not_scope(0, "province", "keyword")
    t.assert_scope(0, "Province", "support.type")
    t.assert_not_scope(0, "province", "keyword", occurrence=1)
    t.assert_scope(0, "credit_rate", "variable.other.member")


def test_types(tokenize):
    t = tokenize("formula f(a: Money, b: Rate, c: Number, d: Bool, e: Text, p: Province, "
                 "t: Brackets): Money = a\n")
    for name in ("Money", "Rate", "Number", "Bool", "Text", "Province", "Brackets"):
        t.assert_scope(0, name, "support.type")


def test_money_literals(tokenize):
    src = sample("jurisdictions.tax")
    t = tokenize(src)
    line = line_of(src, "$52,886  -> 9.15%")
    t.assert_scope(line, "$52,886", "constant.numeric.money")
    t.assert_scope(line, "->", "keyword.operator.arrow")
    t.assert_scope(line, "9.15%", "constant.numeric.rate")
    t = tokenize("let a = $85,000.00 + $0.50 + $85000 + $85_000 + $1,234,567.89 - -$12\n")
    for literal in ("$85,000.00", "$0.50", "$85000", "$85_000", "$1,234,567.89", "$12"):
        t.assert_scope(0, literal, "constant.numeric.money")
        t.assert_not_scope(0, literal, "invalid")
    t.assert_scope(0, "-", "keyword.operator.arithmetic", occurrence=1)


def test_malformed_money_is_marked_invalid(tokenize):
    t = tokenize("let a = $1,23.00 + $0.015 + $12,3456\n")
    for literal in ("$1,23.00", "$0.015", "$12,3456"):
        t.assert_scope(0, literal, "invalid.illegal")


def test_money_ranges_and_argument_lists(tokenize):
    t = tokenize("formula f(x: Money in $0..$100,000,000): Money = max($1,$2, x)\n")
    t.assert_scope(0, "$0", "constant.numeric.money")
    t.assert_scope(0, "..", "keyword.operator.range")
    t.assert_scope(0, "$100,000,000", "constant.numeric.money")
    t.assert_scope(0, "$1", "constant.numeric.money")
    t.assert_scope(0, "$2", "constant.numeric.money")
    t.assert_scope(0, ",", "punctuation.separator", occurrence=2)  # the one in $1,$2


def test_rates_and_numbers(tokenize):
    t = tokenize("let a = 13% + 5.05% + 15.0198% * 1_000 / 2.5 + 3\nlet r = 1..5\n")
    for rate in ("13%", "5.05%", "15.0198%"):
        t.assert_scope(0, rate, "constant.numeric.rate")
    for number in ("1_000", "2.5", "3"):
        t.assert_scope(0, number, "constant.numeric")
        t.assert_not_scope(0, number, "constant.numeric.rate")
        t.assert_not_scope(0, number, "constant.numeric.money")
    # A `.` is a decimal point only when a digit follows it.
    t.assert_scope(1, "1", "constant.numeric")
    t.assert_scope(1, "..", "keyword.operator.range")
    t.assert_scope(1, "5", "constant.numeric")


def test_strings_and_escapes(tokenize):
    src = sample("formulas.tax")
    t = tokenize(src)
    line = line_of(src, "let greeting")
    t.assert_scope(line, '"Tax \\"owed\\" in\\tOntario\\n"', "string.quoted.double")
    for escape in ('\\"', "\\t", "\\n"):
        t.assert_scope(line, escape, "constant.character.escape")
    t = tokenize('let s = "a # not a comment \\\\ \\q" # a comment\n')
    t.assert_not_scope(0, "# not a comment", "comment")
    t.assert_scope(0, "\\\\", "constant.character.escape")
    t.assert_scope(0, "\\q", "invalid.illegal")
    t.assert_scope(0, "# a comment", "comment.line.number-sign")


def test_unterminated_string_stops_at_end_of_line(tokenize):
    t = tokenize('let s = "open\nlet n = 3\n')
    t.assert_scope(1, "let", "keyword.declaration.let")
    t.assert_scope(1, "3", "constant.numeric")


def test_booleans_and_operators(tokenize):
    t = tokenize("let b = true == false != (1 <= 2) and 3 >= 4 or 1 < 2 or 2 > 1\n"
                 "let m = 1 + 2 - 3 * 4 / 5\n")
    t.assert_scope(0, "true", "constant.language.boolean")
    t.assert_scope(0, "false", "constant.language.boolean")
    for op in ("==", "!=", "<=", ">="):
        t.assert_scope(0, op, "keyword.operator.comparison")
    t.assert_scope(0, "<", "keyword.operator.comparison", occurrence=1)
    t.assert_scope(0, "=", "keyword.operator.assignment")
    for op in ("+", "-", "*", "/"):
        t.assert_scope(1, op, "keyword.operator.arithmetic")


def test_builtin_functions_and_calls(tokenize):
    src = sample("formulas.tax")
    t = tokenize(src)
    line = line_of(src, "let capped = clamp(")
    for name in ("clamp", "min", "max", "round", "abs"):
        t.assert_scope(line, name, "support.function.builtin")
    t.assert_scope(line_of(src, "  tax(province.income_tax"), "tax", "support.function.builtin")
    line = line_of(src, "marginal_rate(ON.income_tax")
    t.assert_scope(line, "marginal_rate", "support.function.builtin")
    t.assert_scope(line, "average_rate", "support.function.builtin")
    line = line_of(src, "(floor($2.75)")
    t.assert_scope(line, "floor", "support.function.builtin")
    t.assert_scope(line, "ceil", "support.function.builtin")
    line = line_of(src, "let refund = rrsp_refund(")
    t.assert_scope(line, "rrsp_refund", "entity.name.function.call")
    t.assert_scope(line, "contribution", "variable.parameter")
    # A built-in's name that is not called is a plain name.
    t = tokenize("let tax = 1\nlet y = tax + 1\n")
    t.assert_not_scope(1, "tax", "support.function")


def test_province_codes_federal_and_members(tokenize):
    t = tokenize("let codes = f(" + ", ".join(PROVINCES) + ")\n"
                 "let x = ON.income_tax + federal.basic_personal_amount + QC.name\n")
    for code in PROVINCES:
        t.assert_scope(0, code, "support.constant.province")
    t.assert_scope(1, "ON", "support.constant.province")
    t.assert_scope(1, ".", "punctuation.accessor")
    t.assert_scope(1, "income_tax", "variable.other.member")
    t.assert_scope(1, "federal", "support.constant.federal")
    t.assert_scope(1, "basic_personal_amount", "variable.other.member")
    t.assert_scope(1, "name", "variable.other.member")


def test_every_token_of_the_samples_is_scoped(tokenize):
    """No visible character of the samples is left with only the root scope or marked invalid."""
    for name in ("formulas.tax", "jurisdictions.tax", "indent.tax", "mistake.tax"):
        src = sample(name)
        t = tokenize(src)
        for number, line in enumerate(src.split("\n")):
            for column, char in enumerate(line):
                if char.isspace():
                    continue
                scopes = t.chars.get((number, column), [])
                assert len(scopes) > 1, f"{name}:{number + 1}:{column + 1} {char!r} is unscoped"
                assert not any(s.startswith("invalid") for s in scopes), (
                    f"{name}:{number + 1}:{column + 1} {char!r}: {scopes}")


EXAMPLES = sorted((GRAMMAR.parent.parent / "examples").glob("*.tax"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_files_are_tokenized_with_the_right_scopes(tokenize, path):
    """Every example file: comments, documentation comments, keywords, money, rates and strings get their scopes,
    and no visible character is left unscoped or marked invalid."""
    source = path.read_text()
    tokens = tokenize(source)

    def scopes_at(line, column):
        return tokens.chars.get((line, column), [])

    def has(scopes, prefix):
        return any(s == prefix or s.startswith(prefix + ".") for s in scopes)

    checked = {"comment": 0, "keyword": 0, "money": 0, "rate": 0, "string": 0}
    for number, line in enumerate(source.split("\n")):
        for column, char in enumerate(line):
            if not char.isspace():
                scopes = scopes_at(number, column)
                assert len(scopes) > 1, f"{path.name}:{number + 1}:{column + 1} {char!r} is unscoped"
                assert not any(s.startswith("invalid") for s in scopes), f"{path.name}:{number + 1}: {scopes}"
        stripped = line.lstrip()
        if stripped.startswith("#"):
            column = line.index("#")
            expected = "comment.line.documentation" if stripped.startswith("##") else "comment.line"
            assert has(scopes_at(number, column), expected), f"{path.name}:{number + 1}: {scopes_at(number, column)}"
            checked["comment"] += 1
            continue
        code = line.split("#", 1)[0] if '"' not in line else line
        for match in re.finditer(r"(?<![\w$])(formula|let|test|if|then|else|and|or|not)(?!\w)", code):
            if has(scopes_at(number, match.start()), "string"):
                continue
            assert has(scopes_at(number, match.start()), "keyword") or has(
                scopes_at(number, match.start()), "storage"), f"{path.name}:{number + 1}: {match.group()}"
            checked["keyword"] += 1
        for match in re.finditer(r"\$[0-9][0-9,_]*(\.[0-9]{1,2})?", code):
            if has(scopes_at(number, match.start()), "string"):
                continue
            assert has(scopes_at(number, match.start()), "constant.numeric"), f"{path.name}:{number + 1}: {match.group()}"
            checked["money"] += 1
        for match in re.finditer(r"(?<![\w.$])[0-9][0-9_]*(\.[0-9_]+)?%", code):
            if has(scopes_at(number, match.start()), "string"):
                continue
            assert has(scopes_at(number, match.start()), "constant.numeric"), f"{path.name}:{number + 1}: {match.group()}"
            checked["rate"] += 1
        for match in re.finditer(r'"(?:[^"\\]|\\.)*"', code):
            assert has(scopes_at(number, match.start()), "string"), f"{path.name}:{number + 1}: {match.group()}"
            checked["string"] += 1
    assert checked["comment"] > 0 and checked["keyword"] > 0, checked
