"""Completion through the core's engine (the REPL's too), end to end."""

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_support import apply_edits, diagnostics, open_document, uri

# Anything the client's capabilities rule out (Markdown for a plain-text client…) fails the test.
pytestmark = [pytest.mark.asyncio,
              pytest.mark.filterwarnings("error::pytest_lsp.checks.LspSpecificationWarning")]


def documentation(item):
    """Markdown or plain text, or a bare string for a client that names no format (Emacs)."""
    value = item.documentation
    return value if isinstance(value, str) else value.value


def items_of(result):
    return result.items if isinstance(result, types.CompletionList) else result


async def complete(client, name, content):
    """Completion at the end of `content`, opened as document `name`."""
    open_document(client, name, content)
    lines = content.split("\n")
    position = types.Position(line=len(lines) - 1, character=len(lines[-1].encode("utf-16-le")) // 2)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(client, name)), position=position,
        context=types.CompletionContext(trigger_kind=types.CompletionTriggerKind.TriggerCharacter,
                                        trigger_character=".") if content.endswith(".") else None))
    return items_of(result)


async def test_completion_is_advertised_with_the_dot_trigger(client: LanguageClient):
    assert "." in client.init_result.capabilities.completion_provider.trigger_characters


async def test_members_after_a_province_code(client: LanguageClient):
    items = await complete(client, "members.tax", "let a = ON.")
    by_label = {item.label: item for item in items}
    assert {"income_tax", "basic_personal_amount", "credit_rate"} <= set(by_label)
    income_tax = by_label["income_tax"]
    assert income_tax.kind == types.CompletionItemKind.Field
    assert "Brackets" in income_tax.detail
    assert "bracket" in documentation(income_tax).lower()
    # Inserted after the dot, replacing nothing.
    assert apply_edits("let a = ON.", [income_tax.text_edit]) == "let a = ON.income_tax"


async def test_formula_names_with_documentation_in_broken_code(client: LanguageClient):
    content = "formula broken(x: Money): Money = x + take_h"
    items = await complete(client, "broken.tax", content)
    labels = [item.label for item in items]
    assert "take_home" in labels
    take_home = next(item for item in items if item.label == "take_home")
    assert take_home.kind == types.CompletionItemKind.Function
    assert "take_home(income: Money" in take_home.detail
    assert "What is left of income" in documentation(take_home)
    assert apply_edits(content, [take_home.text_edit]).endswith("x + take_home")
    # Parameters of the formula being written are there too.
    items = await complete(client, "broken2.tax", "formula broken(income: Money): Money = inc")
    assert "income" in [item.label for item in items]


async def test_completion_right_after_an_edit_uses_the_new_text(client: LanguageClient):
    content = open_document(client, "typing.tax", "let a = $1\n")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "typing.tax"), version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=1, character=0), end=types.Position(line=1, character=0)),
            text="let b = federal.")]))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(client, "typing.tax")),
        position=types.Position(line=1, character=16)))
    labels = [item.label for item in items_of(result)]
    assert "income_tax" in labels and "basic_personal_amount" in labels
    assert content


ZED = """province ZZ "Zedland" {{
  year 2025 {{
    ## {wording}
    {name} = $1
  }}
}}
let a = ZZ.zz"""


async def test_members_follow_an_edit_of_the_jurisdiction(client: LanguageClient):
    """The server keeps a jurisdiction's members between completions (`CompletionCache`); an edit that renames a
    parameter and rewords its documentation shows in the next completion once the edit is analysed."""

    async def members(version, content):
        # Completion reads the last analysed program: wait for the version's diagnostics first.
        await diagnostics(client, "zed.tax", until=lambda found: len(found) > 0, version=version)
        lines = content.split("\n")
        result = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(client, "zed.tax")),
            position=types.Position(line=len(lines) - 1, character=len(lines[-1]))))
        return {item.label: documentation(item) for item in items_of(result)}

    first = open_document(client, "zed.tax", ZED.format(wording="First wording.", name="zz_figure"))
    before = await members(1, first)
    assert list(before) == ["zz_figure"] and "First wording." in before["zz_figure"]
    # Asked again, from what the server kept: the same answer.
    assert await members(1, first) == before

    second = ZED.format(wording="Second wording.", name="zz_renamed")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "zed.tax"), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=second)]))
    after = await members(2, second)
    assert list(after) == ["zz_renamed"]
    assert "Second wording." in after["zz_renamed"] and "First wording." not in after["zz_renamed"]


MANY = "".join(f"## Formula {n}, documented.\nformula f{n}(x: Money): Money = x * {n % 7}\n" for n in range(300))


async def test_a_long_list_holds_the_best_items_and_is_marked_incomplete(client: LanguageClient):
    """A word that matches hundreds of names gets the best 200 (with their signatures and documentation), marked
    incomplete so that the editor asks again as the word grows; a longer word gets every match."""
    content = MANY + "formula g(y: Money): Money = f"
    open_document(client, "many.tax", content)
    # Completion reads the last analysed program: wait until it holds the document's formulas.
    await diagnostics(client, "many.tax", until=lambda found: len(found) > 0, version=1)
    end = types.Position(line=content.count("\n"), character=len(content.split("\n")[-1]))
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(client, "many.tax")), position=end))
    assert isinstance(result, types.CompletionList) and result.is_incomplete
    assert len(result.items) == 200
    by_label = {item.label: item for item in result.items}
    # Best first: names that start with the word, local and global before keywords, then alphabetically.
    assert [item.label for item in result.items[:4]] == ["f0", "f1", "f10", "f100"]
    assert by_label["f100"].detail == "f100(x: Money): Money"
    assert "Formula 100, documented." in documentation(by_label["f100"])
    assert [item.sort_text for item in result.items] == sorted(item.sort_text for item in result.items)

    longer = content + "29"
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "many.tax"), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=longer)]))
    end = types.Position(line=end.line, character=end.character + 2)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(client, "many.tax")), position=end))
    assert not result.is_incomplete
    assert sorted(item.label for item in result.items) == ["f29"] + [f"f{n}" for n in range(290, 300)]
