"""Edits re-parse and re-check only what they touched: after each of a chain of incremental edits, the server must
answer exactly as it does for the same text opened afresh."""

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_support import diagnostics, position_of, uri

pytestmark = [pytest.mark.asyncio,
              pytest.mark.filterwarnings("error::pytest_lsp.checks.LspSpecificationWarning")]

NAME = "edited.tax"

TEXT = """## The base amount.
formula base(income: Money): Money =
  let part = income * 10%
  part + $1,000

formula uses(income: Money): Money =
  base(income) * 2

formula later(x: Money): Money =
  uses(x) + base(x)

test "uses" {
  uses($10,000) == $4,000
}
"""

# (text to find, text to put in its place): one-digit changes, lines added above later declarations, an error made
# and mended, a test made to fail, a change to the same text.
EDITS = [
    ("10%", "20%"),
    ("  part + $1,000", "  let extra = part * 2\n  part + extra + $1,000"),
    ("base(income) * 2", "base(incme) * 2"),
    ("base(incme) * 2", "base(income) * 3"),
    ("$4,000", "$2,200"),
    ("uses(x) + base(x)", "uses(x) + base(x) + later(x)"),
    ("uses(x) + base(x) + later(x)", "uses(x) - base(x)"),
    # A change that leaves the text as it was: the previous program is kept.
    ("uses(x) - base(x)", "uses(x) - base(x)"),
    ("$2,200", "$2,100"),
]


def change(client, text, needle, replacement, version):
    start = position_of(text, needle)
    end = position_of(text, needle, offset=len(needle))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, NAME), version=version),
        content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end),
                                                                text=replacement)]))
    return text.replace(needle, replacement, 1)


async def answers(client, text, version):
    """What the server says about the document now: its diagnostics, semantic tokens, and hover and definition at
    each use of `base`."""
    document = types.TextDocumentIdentifier(uri=uri(client, NAME))
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(text_document=document))
    found = await diagnostics(client, NAME, version=version)
    result = {
        "diagnostics": sorted((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character,
                               str(d.code), d.message) for d in found),
        "tokens": list(tokens.data) if tokens else None,
        "places": [],
    }
    for occurrence in range(text.count("base(")):
        position = position_of(text, "base(", offset=1, occurrence=occurrence)
        hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=position))
        definition = await client.text_document_definition_async(
            types.DefinitionParams(text_document=document, position=position))
        result["places"].append((str(hover.contents) if hover else None, str(definition)))
    return result


def forget_diagnostics(client):
    """Drops the pushed diagnostics of the document, so that the next ones waited for are new."""
    client.diagnostics.pop(uri(client, NAME), None)


async def test_a_chain_of_edits_answers_as_a_fresh_open(client: LanguageClient):
    texts = []
    incremental = []
    text = TEXT
    forget_diagnostics(client)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri(client, NAME), language_id="taxpro", version=1, text=text)))
    await answers(client, text, 1)
    for version, (needle, replacement) in enumerate(EDITS, start=2):
        forget_diagnostics(client)
        text = change(client, text, needle, replacement, version)
        texts.append(text)
        incremental.append(await answers(client, text, version))
    version = len(EDITS) + 2
    for step, text in enumerate(texts):
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri(client, NAME))))
        forget_diagnostics(client)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri(client, NAME), language_id="taxpro", version=version, text=text)))
        assert await answers(client, text, version) == incremental[step], f"after edit {step}: {EDITS[step]}"
        version += 1


def typed_document(count):
    """Formulas that each use the one before, with an error in every tenth (diagnostics all through the text)."""
    parts = []
    for i in range(count):
        uses = f" + f{i - 1}(income) / 100" if i else ""
        wrong = " + incme" if i % 10 == 7 else ""
        parts.append(f"## Formula {i}.\nformula f{i}(income: Money): Money =\n"
                     f"  let base = income * {i % 90 + 1}%\n  base + ${i}.25{uses}{wrong}\n")
    parts.append('test "last" {\n  f%d($1,000) > $0\n}\n' % (count - 1))
    return "".join(parts)


async def far_answers(client, text, version, probes):
    """Diagnostics, and hover and definition at uses of formulas far after the edits."""
    document = types.TextDocumentIdentifier(uri=uri(client, NAME))
    found = await diagnostics(client, NAME, version=version)
    result = {
        "diagnostics": sorted((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character,
                               str(d.code), d.message) for d in found),
        "places": [],
    }
    for needle in probes:
        position = position_of(text, needle, offset=1)
        hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=position))
        definition = await client.text_document_definition_async(
            types.DefinitionParams(text_document=document, position=position))
        result["places"].append((str(hover.contents) if hover else None, str(definition)))
    return result


async def test_typing_that_moves_the_rest_answers_as_a_fresh_open(client: LanguageClient):
    """Typing characters in and out of a body (each edit moving everything after it) leaves the diagnostics, hover
    and definition far after the edit where a fresh open of the same text puts them."""
    text = typed_document(120)
    probes = ["f118(income)", "f97(income)", "f60(income)", "f119($1,000)"]
    forget_diagnostics(client)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri(client, NAME), language_id="taxpro", version=1, text=text)))
    await far_answers(client, text, 1, probes)
    # Digits typed before a digit and deleted again, a line added and taken away, in bodies near the start.
    steps = [("income * 12%", "income * 712%"), ("income * 712%", "income * 12%"),
             ("  base + $20.25", "  let more = base\n  base + $20.25"), ("$5.25", "$15.25"),
             ("income * 3%", "income * 33%"), ("  let more = base\n", "")]
    version = 1
    for needle, replacement in steps:
        version += 1
        forget_diagnostics(client)
        text = change(client, text, needle, replacement, version)
        typed = await far_answers(client, text, version, probes)
    version += 1
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri(client, NAME))))
    forget_diagnostics(client)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri(client, NAME), language_id="taxpro", version=version, text=text)))
    fresh = await far_answers(client, text, version, probes)
    assert typed == fresh
    # The diagnostics far after the edits are there (every tenth formula's misspelt name, and where the test's run
    # met the last formula with errors), and the probes answer.
    assert [(line, code) for line, _, _, _, code, _ in fresh["diagnostics"]] == \
        [(40 * i + 31, "unknown-name") for i in range(12)] + [(475, "has-errors")]
    for needle, (hover, definition) in zip(probes, fresh["places"]):
        name = needle.split("(")[0]
        line = 4 * int(name[1:]) + 1
        assert hover is not None and f"formula {name}(" in hover
        assert definition.endswith(f"{NAME}:{line}:8-{line}:{8 + len(name)}]"), definition
