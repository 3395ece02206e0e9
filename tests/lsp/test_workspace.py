"""The workspace as editors really use it: an edit in one file changes another's diagnostics whatever the client
(issue 11, item 1), and copies of a file keep every feature (item 7)."""

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_support import diagnostics, open_document, position_of, uri, uses_pull

pytestmark = [pytest.mark.asyncio,
              pytest.mark.filterwarnings("error::pytest_lsp.checks.LspSpecificationWarning")]

HELPER = "## Half of an amount.\nformula helper(x: Money): Money = x / 2\n"
CALLER = "let half = helper($100)\n"


def edit(client, name, version, old, new, content):
    """Replaces the first `old` in `content` with `new` through an incremental change; returns the new text."""
    start = position_of(content, old)
    end = types.Position(line=start.line, character=start.character + len(old))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, name), version=version),
        content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text=new)]))
    return content.replace(old, new, 1)


async def test_renaming_in_one_file_shows_in_the_other(client: LanguageClient):
    # Neovim 0.11 declares pull diagnostics but cannot be asked to pull again, and pulls only for the file it edits:
    # the server must push to it, or b.tax would keep its old (empty) diagnostics.
    if uses_pull(client):
        # A pulling client asks again for the other files only when it can be told to (or, as VS Code, because the
        # server says files depend on each other, which the helper below stands in for by pulling).
        workspace = client.capabilities.workspace
        assert workspace.diagnostics and workspace.diagnostics.refresh_support, "pulling offered to a client that " \
            "cannot be asked to pull again: the other file would keep its old diagnostics"
        assert client.init_result.capabilities.diagnostic_provider.inter_file_dependencies
    a = open_document(client, "a.tax", HELPER)
    open_document(client, "b.tax", CALLER)
    assert await diagnostics(client, "b.tax", until=lambda d: d == []) == []
    edit(client, "a.tax", 2, "helper", "halve", a)
    found = await diagnostics(client, "b.tax", until=lambda d: any(x.code == "unknown-name" for x in d))
    unknown = next(x for x in found if x.code == "unknown-name")
    assert "'helper'" in unknown.message


async def test_both_copies_of_a_file_keep_hover_and_definition(client: LanguageClient):
    text = HELPER + CALLER
    project = client.project
    (project / "original.tax").write_text(text)
    (project / "original copy.tax").write_text(text)  # as a file manager names a copy
    for name in ("original.tax", "original copy.tax"):
        open_document(client, name)
    copy = await diagnostics(client, "original copy.tax", until=lambda d: len(d) >= 1)
    assert any(d.code == "duplicate-definition" and "already defined" in d.message for d in copy)
    for name in ("original.tax", "original copy.tax"):
        document = types.TextDocumentIdentifier(uri=uri(client, name))
        use = position_of(text, "helper", 1, occurrence=1)
        hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=use))
        assert hover is not None and "formula helper(x: Money): Money" in hover.contents.value, name
        found = await client.text_document_definition_async(types.DefinitionParams(text_document=document,
                                                                                    position=use))
        found = found if isinstance(found, list) else [found]
        assert [(f.uri, f.range.start) for f in found] == [(uri(client, name), position_of(text, "helper"))], name
        highlights = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
            text_document=document, position=use))
        assert len(highlights) == 2, name
