"""The post-lexer for grammar/taxpro.lark: line breaks that end statements become _NL tokens.

It implements the rule stated at the top of taxpro.lark, the same rule as the Swift lexer's `StatementEnds`
(Sources/TaxProCore/Syntax/Lexer.swift). Lark ignores all whitespace; this post-lexer looks at the line numbers of
consecutive tokens to find line breaks.
"""

from lark import Token
from lark.lark import PostLex

# Tokens that can end a statement (a line break after one may end it).
ENDERS = {"NAME", "NUMBER", "MONEY", "RATE", "STRING", "RPAR", "RBRACE", "TRUE", "FALSE", "FEDERAL"}
# Tokens that can begin one (a line break before one may end the statement before).
STARTERS = {"NAME", "NUMBER", "MONEY", "RATE", "STRING", "LPAR", "MINUS", "DOT", "NOT", "IF", "LET", "FORMULA",
            "BRACKETS", "FEDERAL", "TRUE", "FALSE"}

# A word at the left margin followed by one of these starts a declaration (contextual keywords by what follows them).
DECLARATION_STARTS = {"test": ("STRING",), "province": ("NAME",), "parameters": ("NAME",),
                      "federal": ("STRING", "LBRACE")}


def kind(token):
    """A token's role, independent of how Lark named the terminal."""
    value = token.value
    if token.type in ("NAME", "NUMBER", "MONEY", "RATE", "STRING"):
        return token.type
    if token.type in ("PROVINCE", "PARAMETERS", "TEST", "YEAR"):
        return "NAME"  # to the line-break rule these are names, as in the Swift lexer
    if token.type == "COMPARE":
        return token.type
    names = {"(": "LPAR", ")": "RPAR", "{": "LBRACE", "}": "RBRACE", ".": "DOT", "-": "MINUS", "\u2212": "MINUS", "not": "NOT",
             "if": "IF", "let": "LET", "formula": "FORMULA", "brackets": "BRACKETS", "federal": "FEDERAL",
             "true": "TRUE", "false": "FALSE"}
    return names.get(value, "OTHER:" + value)


class StatementEnds(PostLex):
    """Inserts _NL tokens; needs the source text (for line indentation), given with `reset`."""

    always_accept = ()

    def __init__(self):
        self.lines = []

    def reset(self, text):
        self.lines = text.split("\n")

    def indent(self, line):
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return len(text) - len(text.lstrip(" \t"))

    @staticmethod
    def contextual_keywords(tokens):
        """`province`, `parameters`, `test` and `year` are keywords only where their construct starts, recognised by
        what follows them (as the Swift parser does): `province NAME`, `parameters NAME {`, `test STRING`,
        `year NUMBER`. Elsewhere they are names."""
        for index, token in enumerate(tokens):
            if token.value not in ("province", "parameters", "test", "year"):
                continue
            following = [t.type for t in tokens[index + 1:index + 3]]
            keyword = {
                "province": following[:1] == ["NAME"],
                "parameters": following[:2] == ["NAME", "LBRACE"],
                "test": following[:1] == ["STRING"],
                "year": following[:1] == ["NUMBER"],
            }[token.value]
            token.type = token.value.upper() if keyword else "NAME"
        return tokens

    def process(self, stream):
        # The basic lexer does not depend on the parser's state, so the whole stream can be read ahead. Line breaks are
        # decided first (contextual keywords count as names there), then the keywords, by what follows them on the line.
        tokens = list(stream)
        for token in tokens:
            if token.type in ("PROVINCE", "PARAMETERS", "TEST", "YEAR"):
                token.type = "NAME"
        return iter(self.contextual_keywords(list(self.statement_ends(tokens))))

    def documented(self, line):
        """Whether the line above `line` is a `##` comment at the left margin."""
        return line >= 2 and self.lines[line - 2].startswith("##")

    def statement_ends(self, tokens):
        nesting = []
        previous = None
        statement_indent = None
        starts_statement = True
        pending = None  # `test`, `province`, `parameters` or `federal` just seen at the left margin
        for token in tokens:
            role = kind(token)
            starts_line = previous is None or token.line > previous.end_line
            column = token.column - 1
            # A declaration at the left margin closes open brackets: `formula`, `let`, and `test "…"`, `province XX`,
            # `parameters Name`, `federal "…"`, `federal {` from the token after the word on.
            if starts_line and column == 0 and role in ("FORMULA", "LET"):
                nesting.clear()
            if pending is not None:
                if role in DECLARATION_STARTS[pending]:
                    nesting.clear()
                pending = None
            if starts_line and column == 0 and token.value in ("test", "province", "parameters", "federal"):
                pending = token.value
            if starts_statement:
                statement_indent = self.indent(token.line)
                starts_statement = False
            if (starts_line and previous is not None and (not nesting or nesting[-1] != "(")
                    and kind(previous) in ENDERS and role in STARTERS
                    and not (role in ("MINUS", "DOT") and column > statement_indent)):
                yield Token.new_borrow_pos("_NL", "\n", previous)
                statement_indent = self.indent(token.line)
            if role == "LET" and starts_line and column == 0 and self.documented(token.line):
                # A documented `let` at the left margin is a constant: it cannot be a test's or a formula's own.
                yield Token.new_borrow_pos("_DOC", "##", token)
            if role == "LPAR":
                nesting.append("(")
            elif role == "LBRACE":
                nesting.append("{")
                starts_statement = True
            elif role == "RPAR":
                if "(" in nesting:
                    index = len(nesting) - 1 - nesting[::-1].index("(")
                    if "{" not in nesting[index:]:
                        del nesting[index:]
            elif role == "RBRACE":
                if "{" in nesting:
                    index = len(nesting) - 1 - nesting[::-1].index("{")
                    del nesting[index:]
            yield token
            previous = token


def make_parser():
    """A Lark parser for TaxPro files. Call `parse(text)` on the result of `parser_for`."""
    import pathlib
    from lark import Lark

    grammar = (pathlib.Path(__file__).parent / "taxpro.lark").read_text()
    postlex = StatementEnds()
    parser = Lark(grammar, parser="lalr", lexer="basic", postlex=postlex, propagate_positions=True,
                  maybe_placeholders=False)

    def parse(text):
        # Line breaks are \n, \r\n and a lone \r (as in the Swift lexer); Lark counts lines at \n only.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        postlex.reset(text)
        return parser.parse(text)

    return parse
