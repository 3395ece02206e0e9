"""Helpers shared by the language-server tests."""

import asyncio
from pathlib import Path

from lsprotocol import types
from lsprotocol.converters import get_converter

TIMEOUT = 15
CONVERTER = get_converter()


def uri(client, name):
    return (Path(client.project) / name).as_uri()


def text(client, name):
    return (Path(client.project) / name).read_text()


def open_document(client, name, content=None, version=1):
    content = text(client, name) if content is None else content
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(client, name), language_id="taxpro", version=version,
                                                 text=content)))
    return content


def position_of(content, needle, offset=0, occurrence=0):
    """The LSP position (UTF-16) of the `occurrence`-th `needle` in `content`, plus `offset` characters."""
    index = -1
    for _ in range(occurrence + 1):
        index = content.index(needle, index + 1)
    index += offset
    line = content.count("\n", 0, index)
    line_start = content.rfind("\n", 0, index) + 1
    character = len(content[line_start:index].encode("utf-16-le")) // 2
    return types.Position(line=line, character=character)


def uses_pull(client):
    return client.init_result.capabilities.diagnostic_provider is not None


def last_pushed(client, document_uri):
    """The params of the last `publishDiagnostics` the server sent for a document, or None."""
    for message in reversed(getattr(client.protocol, "received", [])):
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == document_uri:
            return message["params"]
    return None


async def diagnostics(client, name, until=lambda found: True, version=None):
    """The diagnostics of a document, pulled or pushed depending on what the server chose for this client, once
    `until` accepts them (pushed diagnostics arrive when they arrive). With `version`, pushed diagnostics count only
    once the last ones sent for the document are for that version of it: a late "clear" for a closed document, which
    has no version, is not taken for the diagnostics of the document opened again."""
    document_uri = uri(client, name)
    deadline = asyncio.get_event_loop().time() + TIMEOUT
    while True:
        if uses_pull(client):
            report = await client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=document_uri)))
            found = list(report.items)
        elif version is not None:
            pushed = last_pushed(client, document_uri)
            found = None if pushed is None or pushed.get("version") != version else \
                list(CONVERTER.structure(pushed, types.PublishDiagnosticsParams).diagnostics)
        else:
            found = list(client.diagnostics.get(document_uri, [])) if document_uri in client.diagnostics else None
        if found is not None and until(found):
            return found
        if asyncio.get_event_loop().time() > deadline:
            raise AssertionError(f"no acceptable diagnostics for {name}: {found}")
        await asyncio.sleep(0.05)


def apply_edits(content, edits):
    """Applies LSP text edits (UTF-16 ranges) to a text, as a client would."""
    lines = content.split("\n")

    def offset(position):
        line = min(position.line, len(lines))
        start = sum(len(l) + 1 for l in lines[:line])
        if line >= len(lines):
            return len(content)
        units = lines[line].encode("utf-16-le")[: position.character * 2].decode("utf-16-le")
        return start + len(units)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = offset(edit.range.start), offset(edit.range.end)
        content = content[:start] + edit.new_text + content[end:]
    return content


def edits_by_uri(workspace_edit):
    result = {}
    if workspace_edit.document_changes:
        for change in workspace_edit.document_changes:
            result.setdefault(change.text_document.uri, []).extend(change.edits)
    for document_uri, edits in (workspace_edit.changes or {}).items():
        result.setdefault(document_uri, []).extend(edits)
    return result


def decode_semantic_tokens(data, legend, content):
    """(text, type, modifiers) of each token."""
    lines = content.split("\n")
    result = []
    line = character = 0
    for index in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[index:index + 5]
        line += delta_line
        character = character + delta_start if delta_line == 0 else delta_start
        utf16 = lines[line].encode("utf-16-le")
        token = utf16[character * 2:(character + length) * 2].decode("utf-16-le")
        names = [name for bit, name in enumerate(legend.token_modifiers) if modifiers & (1 << bit)]
        result.append((token, legend.token_types[kind], names))
    return result
