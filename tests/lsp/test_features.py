"""The language server's features, end to end, for each impersonated client (see conftest.py)."""

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from lsp_support import (apply_edits, decode_semantic_tokens, diagnostics, edits_by_uri, open_document, position_of,
                         uri)

# Anything the client's capabilities rule out (Markdown for a plain-text client…) fails the test.
pytestmark = [pytest.mark.asyncio,
              pytest.mark.filterwarnings("error::pytest_lsp.checks.LspSpecificationWarning")]


def doc(client, name):
    return types.TextDocumentIdentifier(uri=uri(client, name))


async def test_capabilities_are_advertised_honestly(client: LanguageClient):
    capabilities = client.init_result.capabilities
    assert capabilities.position_encoding in (None, types.PositionEncodingKind.Utf16)
    sync = capabilities.text_document_sync
    assert sync.open_close and sync.change == types.TextDocumentSyncKind.Incremental
    for provider in ("hover_provider", "definition_provider", "references_provider", "rename_provider",
                     "document_symbol_provider", "workspace_symbol_provider", "document_formatting_provider",
                     "folding_range_provider", "selection_range_provider", "inlay_hint_provider",
                     "code_action_provider", "code_lens_provider", "semantic_tokens_provider",
                     "signature_help_provider", "document_highlight_provider"):
        assert getattr(capabilities, provider), provider
    assert set(capabilities.execute_command_provider.commands) == {"taxpro.runTest", "taxpro.explain"}
    # Pull diagnostics only for a client that can pull and be asked to pull again; the others get them pushed.
    workspace = client.capabilities.workspace
    can_pull = client.capabilities.text_document.diagnostic is not None and bool(
        workspace and workspace.diagnostics and workspace.diagnostics.refresh_support)
    assert (capabilities.diagnostic_provider is not None) == can_pull


async def test_diagnostics_on_open_and_after_a_fix(client: LanguageClient):
    content = open_document(client, "fixes.tax")
    found = await diagnostics(client, "fixes.tax", until=lambda d: len(d) == 2)
    unknown = next(d for d in found if "incme" in d.message)
    assert unknown.range.start == position_of(content, "incme")
    assert unknown.severity == types.DiagnosticSeverity.Error
    assert unknown.code == "unknown-name"
    assert "did you mean 'income'" in unknown.message
    # Fix both mistakes with incremental edits.
    start = position_of(content, "incme")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "fixes.tax"), version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=start, end=types.Position(line=start.line, character=start.character + 5)),
            text="income")]))
    start = position_of(content, "1200")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "fixes.tax"), version=3),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=start, end=start), text="$")]))
    assert await diagnostics(client, "fixes.tax", until=lambda d: d == []) == []


async def test_failing_test_is_a_diagnostic_with_both_sides(client: LanguageClient):
    content = open_document(client, "uses.tax").replace("== $0", "== $1")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "uses.tax"), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=content)]))
    found = await diagnostics(client, "uses.tax", until=lambda d: any(x.code == "test-failed" for x in d))
    failure = next(d for d in found if d.code == "test-failed")
    assert "left side:  $0.00" in failure.message and "right side: $1.00" in failure.message


async def test_related_information_points_at_the_other_place(client: LanguageClient):
    content = "formula twice(x: Money): Money = x\nformula twice(y: Money): Money = y\n"
    open_document(client, "twice.tax", content)
    found = await diagnostics(client, "twice.tax", until=lambda d: len(d) >= 1)
    duplicate = next(d for d in found if d.code == "duplicate-definition")
    related = duplicate.related_information[0]
    assert related.location.uri == uri(client, "twice.tax")
    assert related.location.range.start == position_of(content, "twice")


async def test_hover_shows_type_and_documentation(client: LanguageClient):
    content = open_document(client, "uses.tax")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=doc(client, "uses.tax"), position=position_of(content, "take_home", 2, occurrence=1)))
    assert hover.contents.kind == types.MarkupKind.Markdown
    value = hover.contents.value
    assert "formula take_home(income: Money, province: Province = ON): Money" in value
    assert "**Definition.** What is left of income" in value
    assert "**Tip.**" in value


async def test_hover_on_a_parameter_shows_its_value_for_the_year(client: LanguageClient):
    content = "let rate = ON.credit_rate\nlet bpa = federal.basic_personal_amount\n"
    open_document(client, "params.tax", content)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=doc(client, "params.tax"), position=position_of(content, "credit_rate", 1)))
    assert "ON.credit_rate: Rate" in hover.contents.value
    assert "**ON.credit_rate in 2026:** `5.05%`" in hover.contents.value
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"taxpro": {"year": 2025, "inlayHints": True}}))
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=doc(client, "params.tax"), position=position_of(content, "basic_personal_amount", 1)))
    assert "federal.basic_personal_amount in 2025:** `$16,129.00`" in hover.contents.value


async def test_definition_across_files_and_into_the_library(client: LanguageClient):
    content = open_document(client, "uses.tax")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(client, "uses.tax"), position=position_of(content, "take_home", 1, occurrence=1)))
    found = found if isinstance(found, list) else [found]
    assert found[0].uri == uri(client, "main.tax")
    main = (Path(client.project) / "main.tax").read_text()
    assert found[0].range.start == position_of(main, "take_home")

    main = open_document(client, "main.tax")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(client, "main.tax"), position=position_of(main, "income_tax", 1)))
    found = found if isinstance(found, list) else [found]
    library = Path(found[0].uri.removeprefix("file://"))
    assert library.name == "interfaces.tax" and library.exists()
    line = library.read_text().split("\n")[found[0].range.start.line]
    assert line.strip().startswith("income_tax")


async def test_references_and_highlight(client: LanguageClient):
    content = open_document(client, "main.tax")
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=doc(client, "main.tax"), position=position_of(content, "take_home"),
        context=types.ReferenceContext(include_declaration=True)))
    places = sorted((Path(l.uri).name, l.range.start.line) for l in found)
    assert places == [("main.tax", 6), ("main.tax", 14), ("main.tax", 15), ("uses.tax", 1)]
    highlights = await client.text_document_document_highlight_async(types.DocumentHighlightParams(
        text_document=doc(client, "main.tax"), position=position_of(content, "owed", 1, occurrence=1)))
    assert [(h.range.start.line, h.kind) for h in highlights] == [
        (7, types.DocumentHighlightKind.Write), (8, types.DocumentHighlightKind.Read)]


async def test_rename_across_files_and_refusal_for_the_library(client: LanguageClient):
    content = open_document(client, "main.tax")
    prepared = await client.text_document_prepare_rename_async(types.PrepareRenameParams(
        text_document=doc(client, "main.tax"), position=position_of(content, "take_home", 3)))
    assert prepared.placeholder == "take_home"
    edit = await client.text_document_rename_async(types.RenameParams(
        text_document=doc(client, "main.tax"), position=position_of(content, "take_home", 3), new_name="net_pay"))
    changes = edits_by_uri(edit)
    renamed_main = apply_edits(content, changes[uri(client, "main.tax")])
    assert "take_home" not in renamed_main and renamed_main.count("net_pay") == 3
    uses = (Path(client.project) / "uses.tax").read_text()
    assert "net_pay(income)" in apply_edits(uses, changes[uri(client, "uses.tax")])

    with pytest.raises(Exception, match="standard library"):
        await client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=doc(client, "main.tax"), position=position_of(content, "income_tax")))
    with pytest.raises(Exception, match="already defined"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(client, "main.tax"), position=position_of(content, "let threshold", 4),
            new_name="take_home"))


async def test_a_formula_body_is_read_when_asked(client: LanguageClient):
    # The server keeps no checked formula bodies; it checks one when a query reads it. Here: a `let`'s inferred type
    # for hover, at its definition and at its use, and the body's own names for a rename that would clash with them.
    content = open_document(client, "main.tax")
    for occurrence in (0, 1):
        hover = await client.text_document_hover_async(types.HoverParams(
            text_document=doc(client, "main.tax"), position=position_of(content, "owed", 1, occurrence=occurrence)))
        assert "let owed: Money" in hover.contents.value
    with pytest.raises(Exception, match="a name in 'take_home'"):
        await client.text_document_rename_async(types.RenameParams(
            text_document=doc(client, "main.tax"), position=position_of(content, "province: Province", 1),
            new_name="owed"))


async def test_document_and_workspace_symbols(client: LanguageClient):
    open_document(client, "main.tax")
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=doc(client, "main.tax")))
    names = [(s.name, s.kind) for s in symbols]
    assert names == [("take_home", types.SymbolKind.Function), ("threshold", types.SymbolKind.Constant),
                     ("take-home pay is below income", types.SymbolKind.Method)]
    assert [c.name for c in symbols[0].children] == ["income", "province", "owed"]

    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="take"))
    found = [(s.name, Path(s.location.uri).name) for s in found]
    assert found[0] == ("take_home", "main.tax") and ("doubled_take_home", "uses.tax") in found
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="basic_personal_amount"))
    assert {s.container_name for s in found} >= {"Province", "ON 2026", "federal 2025"}


async def test_formatting_gives_the_canonical_layout(client: LanguageClient):
    messy = "formula   f( x :Money ):Money=\n      x*2\nlet   c=f( $1 )\n"
    open_document(client, "messy.tax", messy)
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=doc(client, "messy.tax"), options=options))
    formatted = apply_edits(messy, edits)
    assert formatted == "formula f(x: Money): Money =\n  x * 2\n\nlet c = f($1)\n" or "formula f(x: Money)" in formatted
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "messy.tax"), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=formatted)]))
    again = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=doc(client, "messy.tax"), options=options))
    assert not again


async def test_inlay_hints_show_test_values_and_constants(client: LanguageClient):
    content = open_document(client, "main.tax")
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc(client, "main.tax"),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100, character=0))))
    labels = [(h.position.line, h.label) for h in hints]
    assert (11, "= $50,000.00") in labels
    assert (14, "= true") in labels and (16, "= true") in labels
    assert any(line == 15 and label.startswith("= $") for line, label in labels)

    failing = content.replace("quebec > $0", "quebec > $1,000,000")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri(client, "main.tax"), version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=failing)]))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc(client, "main.tax"),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100, character=0))))
    failed = next(h for h in hints if h.position.line == 16)
    assert failed.label.startswith("= false (left $") and failed.label.endswith("right $1,000,000.00)")

    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"taxpro": {"year": None, "inlayHints": False}}))
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc(client, "main.tax"),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100, character=0))))
    assert not hints


async def test_code_actions_apply_the_fixes(client: LanguageClient):
    content = open_document(client, "fixes.tax")
    found = await diagnostics(client, "fixes.tax", until=lambda d: len(d) == 2)
    for needle, title, expected in (("incme", "Change to 'income'", "= income * 2"),
                                    ("1200", "Write '$1200'", "let sum = $1200 + $5")):
        position = position_of(content, needle, 1)
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc(client, "fixes.tax"), range=types.Range(start=position, end=position),
            context=types.CodeActionContext(diagnostics=found)))
        action = next(a for a in actions if a.title == title)
        assert action.kind == types.CodeActionKind.QuickFix
        fixed = apply_edits(content, edits_by_uri(action.edit)[uri(client, "fixes.tax")])
        assert expected in fixed


async def test_code_action_adds_a_missing_province_parameter(client: LanguageClient):
    content = ('province ZZ "Test" {\n  year 2026 {\n    income_tax = brackets { $0 -> 10% }\n'
               '    basic_personal_amount = $10,000\n    dtc_eligible = 10%\n    dtc_noneligible = 2%\n'
               '    age_amount = $5,000\n    age_amount_threshold = $40,000\n    age_amount_reduction_rate = 15%\n'
               '    pension_income_amount = $1,000\n  }\n}\n')
    open_document(client, "zz.tax", content)
    found = await diagnostics(client, "zz.tax", until=lambda d: len(d) == 1)
    assert "does not define 'credit_rate'" in found[0].message
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=doc(client, "zz.tax"), range=found[0].range,
        context=types.CodeActionContext(diagnostics=found)))
    fixed = apply_edits(content, edits_by_uri(actions[0].edit)[uri(client, "zz.tax")])
    assert "    credit_rate = 0%\n  }" in fixed


async def test_code_lens_and_execute_command(client: LanguageClient):
    open_document(client, "main.tax")
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc(client, "main.tax")))
    commands = [(l.range.start.line, l.command.command, list(l.command.arguments)) for l in lenses]
    assert (6, "taxpro.explain", ["take_home(income: $50,000)"]) in commands
    run = next(c for c in commands if c[1] == "taxpro.runTest")
    assert run[2] == [uri(client, "main.tax"), "take-home pay is below income"]

    output = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="taxpro.runTest", arguments=run[2]))
    assert "passed, 2 checks" in output
    output = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="taxpro.explain", arguments=["take_home(income: $50,000)"]))
    assert output.startswith("take_home(income: $50,000) = $")
    assert "Definition: What is left of income" in output
    with pytest.raises(Exception, match="taxpro.runTest takes"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command="taxpro.runTest"))


async def test_semantic_tokens(client: LanguageClient):
    content = open_document(client, "main.tax")
    legend = client.init_result.capabilities.semantic_tokens_provider.legend
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        text_document=doc(client, "main.tax")))
    decoded = decode_semantic_tokens(tokens.data, legend, content)
    assert ("take_home", "function", ["declaration"]) in decoded
    assert ("income", "parameter", ["declaration"]) in decoded
    assert ("tax", "function", ["defaultLibrary"]) in decoded
    assert ("income_tax", "property", ["readonly"]) in decoded
    assert ("Money", "type", []) in decoded
    assert ("formula", "keyword", []) in decoded and ("test", "keyword", []) in decoded
    assert ("$85,000", "number", []) in decoded
    assert ("## A round figure to compare with.", "comment", ["documentation"]) in decoded
    assert ("QC", "enumMember", []) in decoded


async def test_folding_and_selection_ranges(client: LanguageClient):
    content = open_document(client, "main.tax")
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(
        text_document=doc(client, "main.tax")))
    spans = {(f.start_line, f.end_line, f.kind) for f in folds}
    assert (6, 8, types.FoldingRangeKind.Region) in spans  # the formula
    assert (2, 5, types.FoldingRangeKind.Comment) in spans  # its documentation
    assert (13, 16, types.FoldingRangeKind.Region) in spans  # the test block, less its closing brace

    position = position_of(content, "owed", 1, occurrence=1)
    ranges = await client.text_document_selection_range_async(types.SelectionRangeParams(
        text_document=doc(client, "main.tax"), positions=[position]))
    chain = []
    current = ranges[0]
    while current:
        chain.append(current.range)
        current = current.parent
    assert chain[0].start == position_of(content, "owed", occurrence=1)
    assert chain[-1].start == types.Position(line=0, character=0)
    assert len(chain) >= 4


async def test_signature_help_while_typing_a_call(client: LanguageClient):
    content = "let a = take_home($1, province: "
    open_document(client, "typing.tax", content)
    help = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=doc(client, "typing.tax"), position=position_of(content, "province:", 10)))
    signature = help.signatures[0]
    assert signature.label == "take_home(income: Money, province: Province = ON): Money"
    assert help.active_parameter == 1
    start, end = signature.parameters[1].label
    assert signature.label[start:end] == "province: Province = ON"

    content = "let b = tax(ON.income_tax, "
    open_document(client, "typing2.tax", content)
    help = await client.text_document_signature_help_async(types.SignatureHelpParams(
        text_document=doc(client, "typing2.tax"), position=types.Position(line=0, character=len(content))))
    assert help.signatures[0].label.startswith("tax(b: Brackets, amount: Money)")
    assert help.active_parameter == 1


async def test_a_year_without_figures_is_reported(client: LanguageClient):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"taxpro": {"year": 2031, "inlayHints": True}}))
    # A request after the notification: the message was sent before its answer.
    await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="take_home"))
    assert any("no figures for 2031" in message.message for message in client.messages)


async def test_watched_files_keep_the_workspace_current(client: LanguageClient):
    extra = Path(client.project) / "extra.tax"
    extra.write_text("formula tripled(x: Money): Money = x * 3\n")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=extra.as_uri(), type=types.FileChangeType.Created)]))
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="tripled"))
    assert [Path(s.location.uri).name for s in found] == ["extra.tax"]
    extra.unlink()
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=extra.as_uri(), type=types.FileChangeType.Deleted)]))
    assert await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="tripled")) == []


async def test_library_files_open_read_only(client: LanguageClient):
    main = open_document(client, "main.tax")
    found = await client.text_document_definition_async(types.DefinitionParams(
        text_document=doc(client, "main.tax"), position=position_of(main, "income_tax", 1)))
    found = found if isinstance(found, list) else [found]
    library_uri = found[0].uri
    library_text = Path(library_uri.removeprefix("file://")).read_text()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=library_uri, language_id="taxpro", version=1, text=library_text)))
    identifier = types.TextDocumentIdentifier(uri=library_uri)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=identifier))
    assert "Province" in [s.name for s in symbols]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=identifier, position=position_of(library_text, "income_tax: Brackets")))
    assert "income_tax: Brackets" in hover.contents.value
    with pytest.raises(Exception, match="read-only"):
        await client.text_document_prepare_rename_async(types.PrepareRenameParams(
            text_document=identifier, position=position_of(library_text, "income_tax: Brackets")))
