"""End-to-end tests of `taxpro lsp` with pytest-lsp: the real server binary ($TAXPRO) as a child process, driven
by a real LSP client that impersonates the capability sets of VS Code, Neovim and Emacs.

Every message the server sends is recorded raw and, when the test ends, structured with lsprotocol's converter
into the type the LSP 3.17 specification gives for its method (the response type of the request it answers, the
params type of a notification or server request), then turned back into JSON, which must equal what was received:
a missing required field, a wrong type or a field the specification does not have fails the test.
"""

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.lsp.client import LanguageClient as _Unused  # noqa: F401  (pygls must be importable)
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import register_lsp_features
from pytest_lsp.protocol import LanguageClientProtocol

HERE = Path(__file__).resolve().parent
PROJECT = HERE / "project"
TAXPRO = os.environ.get("TAXPRO", "").strip()

if not TAXPRO:
    pytest.skip("set TAXPRO to the taxpro executable to run the language-server tests", allow_module_level=True)

# "+pull" adds pull-diagnostics support to VS Code 1.65's capabilities (newer VS Code pulls).
CLIENTS = ["visual-studio-code", "neovim", "emacs", "visual-studio-code+pull"]
CONVERTER = get_converter()


class RecordingProtocol(LanguageClientProtocol):
    """Keeps every message the server sent, and the method of every request the client sent."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.received = []
        self.sent_methods = {}

    def structure_message(self, data):
        # pygls parses with this as the `object_hook`: only the outermost object is a message.
        if "jsonrpc" in data:
            self.received.append(json.loads(json.dumps(data)))
        return super().structure_message(data)

    def send_request(self, method, params=None, callback=None, msg_id=None):
        import uuid

        msg_id = msg_id or str(uuid.uuid4())
        self.sent_methods[msg_id] = method
        return super().send_request(method, params, callback, msg_id)


def make_client():
    client = LanguageClient(protocol_cls=RecordingProtocol, converter_factory=get_converter)
    register_lsp_features(client)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params):  # noqa: ARG001
        return None

    for method in ("workspace/inlayHint/refresh", "workspace/codeLens/refresh", "workspace/semanticTokens/refresh"):
        client.feature(method)(lambda params: None)  # noqa: ARG005
    return client


def spec_type(message, sent_methods):
    """The lsprotocol type a received message must structure into."""
    if "method" in message:
        entry = types.METHOD_TO_TYPES.get(message["method"])
        assert entry is not None, f"the server sent a method outside LSP 3.17: {message['method']}"
        return entry[0]
    if "error" in message:
        return types.ResponseErrorMessage
    method = sent_methods.get(message.get("id"))
    assert method is not None, f"a response to a request the client never sent: {message}"
    entry = types.METHOD_TO_TYPES[method]
    return entry[1]


def drop_nulls(value):
    if isinstance(value, dict):
        return {k: drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_nulls(v) for v in value]
    return value


def validate(message, sent_methods):
    kind = spec_type(message, sent_methods)
    structured = CONVERTER.structure(message, kind)
    round_trip = CONVERTER.unstructure(structured, kind)
    # `null` is meaningful only for results (a `null` hover); elsewhere absent and null are the same.
    expected, actual = drop_nulls(message), drop_nulls(round_trip)
    if "result" in message and message["result"] is None:
        actual.setdefault("result", None)
        expected["result"] = None
    assert actual == expected, (
        f"{kind.__name__} does not round-trip:\n received {json.dumps(message)[:2000]}\n"
        f" as spec  {json.dumps(round_trip)[:2000]}")


def validate_all(client):
    protocol = client.protocol
    for message in protocol.received:
        validate(message, protocol.sent_methods)
    return len(protocol.received)


@pytest.fixture
def project(tmp_path):
    """A copy of tests/lsp/project, so tests may change files on disk."""
    target = tmp_path / "project"
    shutil.copytree(PROJECT, target)
    return target


def capabilities_of(client_name):
    name, _, extra = client_name.partition("+")
    capabilities = client_capabilities(name)
    if extra == "pull":
        capabilities.text_document.diagnostic = types.DiagnosticClientCapabilities(related_document_support=False)
        capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return capabilities


def initialize_params(client_name, root, *, year=None, inlay_hints=True):
    return types.InitializeParams(
        capabilities=capabilities_of(client_name),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="project")],
        initialization_options={"year": year, "inlayHints": inlay_hints},
    )


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[TAXPRO, "lsp"], client_factory=make_client),
    params=CLIENTS,
)
async def client(request, lsp_client: LanguageClient, project):
    lsp_client.client_name = request.param
    lsp_client.project = project
    lsp_client.init_result = await lsp_client.initialize_session(initialize_params(request.param, project))
    yield
    await lsp_client.shutdown_session()
    validate_all(lsp_client)
    assert lsp_client.error is None, lsp_client.error
