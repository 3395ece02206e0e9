"""A Pygments lexer for TaxPro, so that notebooks, nbconvert and Sphinx highlight `.tax` code and REPL cells.

It follows the TextMate grammar (grammar/taxpro.tmLanguage.json): the same keywords, literals and names, plus the
REPL's `:commands` at the start of a line, which cells use. tests/jupyter/test_lexer.py holds its word lists to the
grammar's.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

__all__ = ["TaxProLexer"]

#: Words that declare something.
DECLARATION_KEYWORDS = ("formula", "let", "test", "parameters", "province", "federal", "year", "brackets")
#: Words of expressions.
EXPRESSION_KEYWORDS = ("if", "then", "else", "and", "or", "not", "in", "of", "mod")
CONSTANTS = ("true", "false")
TYPES = ("Money", "Rate", "Number", "Bool", "Text", "Province", "Brackets")
BUILTINS = ("min", "max", "abs", "round", "floor", "ceil", "clamp", "tax", "marginal_rate", "average_rate",
            "sqrt", "ln", "exp", "log10")
JURISDICTIONS = ("AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT")
#: The labels of `##` documentation lines.
DOC_LABELS = ("definition", "instruction", "tip", "topic", "reference", "note", "example", "parts")

NAME = r"[A-Za-z_][A-Za-z0-9_]*"


class TaxProLexer(RegexLexer):
    """TaxPro formula files and REPL input."""

    name = "TaxPro"
    aliases = ["taxpro"]
    filenames = ["*.tax"]
    mimetypes = ["text/x-taxpro"]

    tokens = {
        "root": [
            # A REPL command: `:explain …` at the start of a line; its argument is code.
            (r"^([ \t]*)(:[A-Za-z?]+)", bygroups(Whitespace, Keyword.Pseudo)),
            include("code"),
        ],
        "code": [
            (r"\n", Whitespace),
            (r"[ \t\r]+", Whitespace),
            (r"(##)([ \t]*)(" + "|".join(DOC_LABELS) + r")(:)(.*?)$",
             bygroups(Comment.Special, Whitespace, Comment.Special, Comment.Special, String.Doc)),
            (r"##.*?$", String.Doc),
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            # Money: `$85,000`, `$1,234.56`, `$85_000`; then rates (`13%`) and numbers.
            (r"\$(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)(?:\.\d{1,2})?", Number.Float),
            (r"\d[\d_]*(?:\.\d[\d_]*)?%", Number.Float),
            (r"\d[\d_]*\.\d[\d_]*", Number.Float),
            (r"\d[\d_]*", Number.Integer),
            (r"(formula)(\s+)(" + NAME + r")", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(parameters)(\s+)(" + NAME + r")", bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r"(province)(\s+)(" + NAME + r")", bygroups(Keyword.Declaration, Whitespace, Name.Constant)),
            (words(DECLARATION_KEYWORDS, suffix=r"\b"), Keyword.Declaration),
            (words(EXPRESSION_KEYWORDS, suffix=r"\b"), Keyword),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (words(BUILTINS, prefix=r"\b", suffix=r"(?=\s*\()"), Name.Builtin),
            (words(JURISDICTIONS, prefix=r"\b", suffix=r"\b"), Name.Constant),
            (r"\bans\b", Name.Builtin.Pseudo),
            (r"(\.)(" + NAME + r")", bygroups(Punctuation, Name.Attribute)),
            (NAME + r"(?=\s*\()", Name.Function),
            (NAME, Name),
            (r"->|\.\.|==|!=|<=|>=|[<>=+\-*/×÷]", Operator),
            (r"[{}(),:]", Punctuation),
            (r".", Text),
        ],
        "string": [
            (r'\\["\\nt]', String.Escape),
            (r'[^"\\\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Whitespace, "#pop"),
            (r"\\", String.Double),
        ],
    }
