"""What a notebook shows of TaxPro's outputs: each output of an `execute` reply (docs/REPL_JSON.md) as a MIME bundle.

Values as text and as HTML with money right-aligned; explanations (the object of docs/EXPLAIN_JSON.md) as HTML:
each formula call a collapsible section, each bracket computation a table — the brackets the income reaches, the
income in each, its rate and its tax, the total and the rates. Figures come as exact decimal strings and are
formatted with `decimal`, never through binary floating point.
"""

from __future__ import annotations

import html
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

__all__ = ["EXPLANATION_MIME", "bundle", "error_fields", "money", "rate"]

#: The explanation's data, kept in the notebook beside its HTML for tools that read notebooks.
EXPLANATION_MIME = "application/vnd.taxpro.explanation+json"

RIGHT = 'style="text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap"'
LEFT = 'style="text-align:left"'
MUTED = 'style="color:#6a6a6a"'


def escape(text: Any) -> str:
    return html.escape(str(text), quote=True)


def decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text)
    except (InvalidOperation, TypeError, ValueError):
        return None


def money(text: str, exact: bool = False) -> str:
    """`"52886"` → `$52,886.00`; with `exact`, the digits beyond the cent stay (`$2,670.743`), as TaxPro's own
    explanation shows a bracket's unrounded tax."""
    amount = decimal(text)
    if amount is None:
        return text
    sign = "-" if amount < 0 else ""
    amount = abs(amount)
    if exact and amount != amount.quantize(Decimal("0.01")):
        whole, _, fraction = format(amount.normalize(), "f").partition(".")
        return f"{sign}${int(whole):,}.{fraction}"
    return f"{sign}${amount.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):,.2f}"


def rate(text: str) -> str:
    """A fraction as a percentage with at most four decimals and no trailing zeros: `"0.0505"` → `5.05%`."""
    fraction = decimal(text)
    if fraction is None:
        return text
    percent = (fraction * 100).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP).normalize()
    return f"{percent:f}%"


def value_text(value: dict[str, Any]) -> str:
    return str(value.get("text", ""))


def value_html(value: dict[str, Any]) -> str:
    """A value with its type beside it; money and other figures right-aligned in their cell. A bracket table is a
    table: each row's threshold and the rate on income above it."""
    if value.get("type") == "Brackets" and value.get("rows"):
        rows = [f"<tr><th {RIGHT}>income above</th><th {RIGHT}>rate</th></tr>"]
        rows += [
            f"<tr><td {RIGHT}>{escape(money(row.get('threshold', '')))}</td><td {RIGHT}>{escape(rate(row.get('rate', '')))}</td></tr>"
            for row in value["rows"]
        ]
        return f'<table class="taxpro-value taxpro-brackets">{"".join(rows)}</table>'
    text = escape(value_text(value))
    kind = escape(value.get("type", ""))
    aligned = RIGHT if value.get("type") in ("Money", "Rate", "Number") else LEFT
    return (
        f'<table class="taxpro-value"><tr><td {aligned}><code>{text}</code></td>'
        f'<td {MUTED}>{kind}</td></tr></table>'
    )


# MARK: Explanations


def explanation_html(explanation: dict[str, Any]) -> str:
    value = explanation.get("value", {})
    parts = [
        '<div class="taxpro-explanation">',
        f"<p><code>{escape(explanation.get('expression', ''))}</code> = <b>{escape(value_text(value))}</b>"
        f' <span {MUTED}>(tax year {escape(explanation.get("year", ""))})</span></p>',
    ]
    parts += [step_html(step, depth=0) for step in explanation.get("steps", [])]
    documentation = explanation.get("documentation") or {}
    for label, key in (("Definition", "definition"), ("Tip", "tip")):
        if documentation.get(key):
            parts.append(f"<p><b>{label}.</b> {escape(documentation[key])}</p>")
    parts.append("</div>")
    return "\n".join(parts)


def arguments_text(arguments: dict[str, Any]) -> str:
    return ", ".join(f"{escape(name)} = {escape(value_text(value))}" for name, value in arguments.items())


def children_html(step: dict[str, Any], depth: int) -> str:
    children = step.get("steps", [])
    if not children:
        return ""
    inner = "\n".join(step_html(child, depth + 1) for child in children)
    return f'<div style="margin-left:1.5em">{inner}</div>'


def step_html(step: dict[str, Any], depth: int) -> str:
    kind = step.get("kind")
    value = escape(value_text(step.get("value", {})))
    if kind == "formula":
        summary = f"<code>{escape(step.get('name', ''))}({arguments_text(step.get('arguments', {}))})</code> = <b>{value}</b>"
        note = f"<div {MUTED}>{escape(step['summary'])}</div>" if step.get("summary") else ""
        opened = " open" if depth == 0 else ""
        return f"<details{opened}><summary>{summary}</summary>{note}{children_html(step, depth)}</details>"
    if kind == "let":
        expression = f" = <code>{escape(step['expression'])}</code>" if step.get("expression") else ""
        line = f"<div>let <code>{escape(step.get('name', ''))}</code>{expression} = <b>{value}</b></div>"
        return line + children_html(step, depth)
    if kind == "parameter":
        where = f"{escape(step.get('jurisdictionName', step.get('jurisdiction', '')))}, {escape(step.get('year', ''))}"
        return (
            f"<div><code>{escape(step.get('jurisdiction', ''))}.{escape(step.get('name', ''))}</code> = {value}"
            f" <span {MUTED}>({where})</span></div>"
        )
    if kind == "constant":
        return f"<div><code>{escape(step.get('name', ''))}</code> = {value}</div>"
    if kind == "brackets":
        return brackets_html(step) + children_html(step, depth)
    if kind == "builtin":
        arguments = ", ".join(escape(value_text(argument)) for argument in step.get("arguments", []))
        return f"<div><code>{escape(step.get('name', ''))}({arguments})</code> = {value}</div>" + children_html(step, depth)
    if kind == "arithmetic":
        left = escape(value_text(step.get("left", {})))
        right = escape(value_text(step.get("right", {})))
        if step.get("operation") in ("addPercentage", "subtractPercentage"):
            sign = "+" if step["operation"] == "addPercentage" else "-"
            return f"<div>{left} {sign} {right} of {left} = {value}</div>"
        return f"<div>{left} {escape(step.get('symbol', ''))} {right} = {value}</div>"
    if kind == "comparison":
        left = escape(value_text(step.get("left", {})))
        right = escape(value_text(step.get("right", {})))
        return f"<div>{left} {escape(step.get('operator', ''))} {right} is {value}</div>"
    if kind == "condition":
        branch = "then" if step.get("taken") else "else"
        condition = f"<code>if {escape(step['condition'])}</code>: " if step.get("condition") else ""
        return f"<div>{condition}the <i>{branch}</i> branch applies</div>" + children_html(step, depth)
    return f"<div>{escape(kind)} = {value}</div>" + children_html(step, depth)


def brackets_html(step: dict[str, Any]) -> str:
    """One bracket computation: what a student works through by hand."""
    table = step.get("table")
    where = ""
    if step.get("jurisdictionName") and step.get("tableYear"):
        where = f" ({escape(step['jurisdictionName'])}, {escape(step['tableYear'])})"
    heading = (
        f"<code>{escape(step.get('function', 'tax'))}</code> on {escape(money(step.get('amount', '')))}"
        + (f" under <code>{escape(table.split(' (')[0])}</code>{where}" if table else "")
        + ", bracket by bracket:"
    )
    rows = [
        "<tr>"
        f"<th {LEFT}>bracket</th><th {RIGHT}>income in it</th><th {RIGHT}>rate</th><th {RIGHT}>tax</th>"
        "</tr>"
    ]
    for bracket in step.get("brackets", []):
        lower = money(bracket.get("lower", ""))
        upper = bracket.get("upper")
        span = f"{lower} to {money(upper)}" if upper is not None else f"over {lower}"
        rows.append(
            "<tr>"
            f"<td {LEFT}>{escape(span)}</td>"
            f"<td {RIGHT}>{escape(money(bracket.get('portion', '')))}</td>"
            f"<td {RIGHT}>{escape(rate(bracket.get('rate', '')))}</td>"
            f"<td {RIGHT}>{escape(money(bracket.get('tax', ''), exact=True))}</td>"
            "</tr>"
        )
    rows.append(
        "<tr>"
        f"<td {LEFT}><b>total</b></td><td {RIGHT}>{escape(money(step.get('amount', '')))}</td><td></td>"
        f"<td {RIGHT}><b>{escape(money(step.get('exactTotal', ''), exact=True))}</b></td>"
        "</tr>"
    )
    notes = []
    if step.get("exactTotal") and decimal(step["exactTotal"]) != decimal(step.get("total", "")):
        notes.append(f"rounded to the cent: {escape(money(step.get('total', '')))}")
    upcoming = step.get("nextBracket")
    if upcoming:
        notes.append(
            f"the next bracket, at {escape(rate(upcoming.get('rate', '')))}, starts at "
            f"{escape(money(upcoming.get('threshold', '')))}"
        )
    notes.append(
        f"marginal rate {escape(rate(step.get('marginalRate', '')))}, "
        f"average rate {escape(rate(step.get('averageRate', '')))}"
    )
    return (
        f"<div>{heading}</div>"
        f'<table class="taxpro-brackets">{"".join(rows)}</table>'
        f"<div {MUTED}>{'; '.join(notes)}.</div>"
    )


# MARK: Bundles


def bundle(output: dict[str, Any]) -> dict[str, Any] | None:
    """The MIME bundle of a `value`, `explanation` or `image` output; None for the others (streams and errors)."""
    kind = output.get("kind")
    text = output.get("text", "").rstrip("\n")
    if kind == "value":
        value = output.get("value", {})
        return {"text/plain": text, "text/html": value_html(value)}
    if kind == "explanation" and output.get("explanation"):
        explanation = output["explanation"]
        return {"text/plain": text, "text/html": explanation_html(explanation), EXPLANATION_MIME: explanation}
    if kind == "image" and output.get("data"):
        return {output.get("mimeType", "image/svg+xml"): output["data"], "text/plain": text}
    return None


def error_fields(output: dict[str, Any]) -> tuple[str, str, list[str]]:
    """`ename`, `evalue` and `traceback` of an output that is an error: diagnostics (the caret rendering as the
    traceback), a command's complaint, failed tests, an interruption."""
    kind = output.get("kind")
    traceback = output.get("text", "").rstrip("\n").split("\n")
    if kind == "diagnostics" or kind == "tests":
        errors = [d for d in output.get("diagnostics", []) if d.get("severity") == "error"]
        if kind == "tests" and not errors:
            return "test-failed", traceback[-1], traceback
        first = errors[0] if errors else {}
        return first.get("code", "error"), first.get("message", traceback[0]), traceback
    if kind == "cancelled":
        return "Interrupted", "the evaluation was cancelled", traceback
    return "error", output.get("message", traceback[0]), traceback
