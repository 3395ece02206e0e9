#!/usr/bin/env python3
"""Writes the manual page taxpro-language(7) from docs/LANGUAGE.md, so that the page and the reference are one text.

    python3 packaging/markdown_to_man.py docs/LANGUAGE.md VERSION > taxpro-language.7

It reads the Markdown the reference is written in — headings, paragraphs, bullet lists (nested, with continued
lines and paragraphs), fenced code, pipe tables, `code`, **bold** and *emphasis* — and writes roff for the man
macros, with tables for tbl (the page starts with the line that asks man to run it). Anything else is an error, so a
construct the page cannot show is noticed when the package is built, not by a reader.
"""

from __future__ import annotations

import re
import sys


class Unsupported(Exception):
    pass


def escape(text: str, code: bool = False) -> str:
    """Roff text: backslashes escaped, a minus sign in code (and in options), non-ASCII as groff's \\[uXXXX]."""
    out = []
    for char in text:
        if char == "\\":
            out.append("\\e")
        elif char == "-" and code:
            out.append("\\-")
        elif ord(char) > 127:
            out.append(f"\\[u{ord(char):04X}]")
        else:
            out.append(char)
    return "".join(out)


#: A word of inline code longer than this gets a break point (groff's `\\:`, which prints nothing) after every so many
#: characters, so that a long literal in the text wraps instead of running past the margin.
LONGEST_UNBROKEN = 40


def breakable(code: str) -> str:
    """Inline code as roff, with break points inside words longer than LONGEST_UNBROKEN."""
    words = re.split(r"(\s+)", code)
    pieces = []
    for word in words:
        chunks = [word[start:start + LONGEST_UNBROKEN] for start in range(0, len(word), LONGEST_UNBROKEN)] or [""]
        pieces.append("\\:".join(escape(chunk, code=True) for chunk in chunks))
    return "".join(pieces)


INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|\[([^\]]+)\]\(([^)]+)\)")


def inline(text: str) -> str:
    """Markdown inline markup as fonts: code and strong in bold, emphasis in italics, a link as its text and address."""
    out = []
    position = 0
    for match in INLINE.finditer(text):
        out.append(escape(text[position:match.start()]))
        code, strong, emphasis, link_text, link = match.groups()
        if code is not None:
            out.append("\\fB" + breakable(code) + "\\fR")
        elif strong is not None:
            out.append("\\fB" + inline(strong) + "\\fR")
        elif emphasis is not None:
            out.append("\\fI" + inline(emphasis) + "\\fR")
        else:
            out.append(inline(link_text) + " <" + escape(link) + ">")
        position = match.end()
    out.append(escape(text[position:]))
    return "".join(out)


def text_line(line: str) -> str:
    """A line of text that roff will not take for a request."""
    return "\\&" + line if line.startswith((".", "'")) else line


def text_lines(markdown: str) -> str:
    """Markdown text (a paragraph, an item, a cell; its lines joined first, so that markup may span them) as roff
    lines."""
    return "\n".join(text_line(line) for line in inline(markdown).split("\n"))


#: A table whose columns before the last need more than this many characters at their widest is written as a list:
#: tbl gives each text block a share of the line, and in such a table a code cell cannot wrap within its share.
WIDEST_TABLE = 64


def plain_width(cell: str) -> int:
    return len(re.sub(r"[`*]", "", cell))


def table(rows: list[str]) -> list[str]:
    """A pipe table as tbl: a header row in bold, a rule, every cell a text block so that long cells wrap. One too
    wide for that (WIDEST_TABLE) becomes a list: each row's first cell the tag, its last cell the text, and the cells
    between as `header: value` under it."""
    cells = [[cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
             for row in rows]
    if len(cells) < 2 or not all(re.fullmatch(r":?-+:?", cell) for cell in cells[1]):
        raise Unsupported(f"a table needs a header and a separator row: {rows[0]!r}")
    columns = len(cells[0])
    body = [cells[0]] + cells[2:]
    widths = [max(plain_width(row[k]) if k < len(row) else 0 for row in body) for k in range(columns)]
    if columns > 2 and sum(widths[:-1]) + 3 * (columns - 1) > WIDEST_TABLE:
        return table_as_list(body[0], body[1:])
    out = [".PP", ".TS", "tab(|);", " ".join(["lb"] * columns),
           " ".join(["l"] * (columns - 1) + ["lx"]) + "."]
    for index, row in enumerate(body):
        row = (row + [""] * columns)[:columns]
        out.append("|".join("T{\n" + text_lines(cell) + "\nT}" for cell in row))
        if index == 0:
            out.append("_")
    out.append(".TE")
    return out


def table_as_list(header: list[str], rows: list[list[str]]) -> list[str]:
    out = [".PP"]
    columns = len(header)
    for row in rows:
        row = (row + [""] * columns)[:columns]
        out += [".TP", text_lines(row[0]), text_lines(row[-1])]
        details = [f"{header[k]}: {row[k]}" for k in range(1, columns - 1) if row[k] and row[k] != "\u2014"]
        if details:
            out += [".br", text_lines("; ".join(details))]
    return out


def convert(markdown: str, version: str) -> str:
    lines = markdown.splitlines()
    out = [
        "'\\\" t",
        f'.TH TAXPRO\\-LANGUAGE 7 "" "taxpro {escape(version)}" "TaxPro Manual"',
        # Code and names read badly hyphenated or stretched: no hyphenation, ragged right.
        ".nh",
        ".ad l",
        ".SH NAME",
        "taxpro\\-language \\- the TaxPro language for tax formulas: types, literals, operators, declarations",
        ".SH DESCRIPTION",
    ]
    index = 0
    list_depth = 0  # nesting of the bullet list we are in (0: none)

    def end_lists() -> None:
        nonlocal list_depth
        while list_depth > 1:
            out.append(".RE")
            list_depth -= 1
        list_depth = 0

    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped:
            index += 1
            continue
        if line.startswith("# "):
            index += 1
            continue
        heading = re.match(r"(#{2,3}) (.*)", line)
        if heading:
            end_lists()
            raw = heading.group(2).strip()
            if heading.group(1) == "##":
                out.append('.SH "' + inline(raw.upper()).replace('"', "") + '"')
            else:
                out.append('.SS "' + inline(raw).replace('"', "") + '"')
            index += 1
            continue
        fence = re.match(r"(\s*)```", line)
        if fence:
            indent = len(fence.group(1))
            index += 1
            code = []
            while index < len(lines) and not lines[index].strip().startswith("```"):
                code.append(lines[index][indent:] if lines[index][:indent].strip() == "" else lines[index])
                index += 1
            if index == len(lines):
                raise Unsupported("a code block is not closed")
            index += 1
            if indent == 0:
                end_lists()
                out.append(".PP")
            out += [".RS 4" if indent == 0 else ".RS 2", ".nf", *(text_line(escape(c, code=True)) for c in code),
                    ".fi", ".RE"]
            continue
        if stripped.startswith("|"):
            end_lists()
            rows = []
            while index < len(lines) and lines[index].strip().startswith("|"):
                rows.append(lines[index])
                index += 1
            out += table(rows)
            continue
        bullet = re.match(r"(\s*)[-*] (.*)", line)
        if bullet:
            depth = len(bullet.group(1)) // 2 + 1
            if depth > list_depth + 1:
                raise Unsupported(f"a list item nested too deep: {line!r}")
            while list_depth > depth:
                out.append(".RE")
                list_depth -= 1
            if depth > list_depth and list_depth > 0:
                out.append(".RS 2")
            list_depth = depth
            out.append(".IP \\(bu 2")
            item = [bullet.group(2).strip()]
            index += 1
            # Continued lines of the item: indented text that is not a new item or a code block.
            while index < len(lines) and lines[index].strip() and lines[index].startswith("  ") \
                    and not re.match(r"\s*([-*] |```|\|)", lines[index]):
                item.append(lines[index].strip())
                index += 1
            out.append(text_lines("\n".join(item)))
            continue
        if line.startswith("  ") and list_depth:
            # A further paragraph of the item above.
            out.append(".IP \"\" 2")
            paragraph = []
            while index < len(lines) and lines[index].strip() and not re.match(r"\s*([-*] |```|\|)", lines[index]):
                paragraph.append(lines[index].strip())
                index += 1
            out.append(text_lines("\n".join(paragraph)))
            continue
        end_lists()
        out.append(".PP")
        paragraph = []
        while index < len(lines) and lines[index].strip() and not re.match(r"(\s*([-*] |```|\|)|#)", lines[index]):
            paragraph.append(lines[index].strip())
            index += 1
        out.append(text_lines("\n".join(paragraph)))
    end_lists()
    out += [".SH \"SEE ALSO\"", ".BR taxpro (1)"]
    return "\n".join(out) + "\n"


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: markdown_to_man.py LANGUAGE.md VERSION", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8") as file:
        markdown = file.read()
    try:
        sys.stdout.write(convert(markdown, sys.argv[2]))
    except Unsupported as problem:
        print(f"markdown_to_man.py: {sys.argv[1]}: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
