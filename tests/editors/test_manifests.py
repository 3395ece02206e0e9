"""VS Code and Helix packaging: the manifests parse and start `taxpro lsp`, the grammar they use
is the one in grammar/, the language configuration's rules do what they say, and the extension's
JavaScript starts the server and forwards settings (run under Node with stand-ins for the `vscode`
and `vscode-languageclient` modules)."""

import json
import re
import subprocess
import tomllib

import pytest

from editor_support import EDITORS, GRAMMAR, HERE, run

VSCODE = EDITORS / "vscode"


@pytest.fixture(scope="module")
def package_json():
    return json.loads((VSCODE / "package.json").read_text())


def test_package_json_contributes_the_language(package_json):
    languages = package_json["contributes"]["languages"]
    assert len(languages) == 1
    language = languages[0]
    assert language["id"] == "taxpro"
    assert language["extensions"] == [".tax"]
    assert "TaxPro" in language["aliases"]
    assert (VSCODE / language["configuration"]).is_file()
    assert "onLanguage:taxpro" in package_json["activationEvents"]
    assert (VSCODE / package_json["main"]).is_file()
    assert "vscode-languageclient" in package_json["dependencies"]


def test_package_json_grammar_is_the_repository_grammar(package_json):
    grammars = package_json["contributes"]["grammars"]
    assert grammars == [{"language": "taxpro", "scopeName": "source.taxpro",
                         "path": "./syntaxes/taxpro.tmLanguage.json"}]
    shipped = VSCODE / grammars[0]["path"]
    assert json.loads(shipped.read_text())["scopeName"] == "source.taxpro"
    assert shipped.read_bytes() == GRAMMAR.read_bytes(), (
        "editors/vscode/syntaxes/taxpro.tmLanguage.json differs from grammar/taxpro.tmLanguage.json: "
        "run `node editors/vscode/scripts/copy-grammar.js`")
    assert "copy-grammar.js" in package_json["scripts"]["vscode:prepublish"]


def test_package_json_settings(package_json):
    properties = package_json["contributes"]["configuration"]["properties"]
    assert properties["taxpro.serverPath"]["default"] == "taxpro"
    assert properties["taxpro.serverPath"]["type"] == "string"
    assert properties["taxpro.year"]["default"] is None
    assert set(properties["taxpro.year"]["type"]) == {"integer", "null"}
    assert properties["taxpro.inlayHints.enabled"]["default"] is True
    assert properties["taxpro.inlayHints.enabled"]["type"] == "boolean"


@pytest.fixture(scope="module")
def language_configuration():
    return json.loads((VSCODE / "language-configuration.json").read_text())


def test_language_configuration_comments_and_pairs(language_configuration):
    config = language_configuration
    assert config["comments"] == {"lineComment": "#"}
    assert ["{", "}"] in config["brackets"] and ["(", ")"] in config["brackets"]
    opens = {pair["open"] for pair in config["autoClosingPairs"]}
    assert {"{", "(", '"'} <= opens
    assert ["\"", "\""] in config["surroundingPairs"]


def js_regex_matches(pattern, lines):
    """Which of `lines` match `pattern` with JavaScript's RegExp, as VS Code uses it."""
    script = ("const re = new RegExp(process.argv[1]);"
              "process.stdout.write(JSON.stringify(JSON.parse(process.argv[2]).map(l => re.test(l))));")
    proc = subprocess.run(["node", "-e", script, pattern, json.dumps(lines)],
                          capture_output=True, text=True, check=True)
    return dict(zip(lines, json.loads(proc.stdout)))


def test_language_configuration_indentation_rules(language_configuration):
    rules = language_configuration["indentationRules"]
    increase = js_regex_matches(rules["increaseIndentPattern"], [
        "province ON \"Ontario\" {",
        "formula provincial_tax(",
        "formula f(x: Money): Money =",
        "): Money =",
        "  let x = if a > $0 then",
        "    else",
        "  income_tax = brackets {   # a comment",
        "  let x = 1",
        "  tax(province.income_tax, income)",
        "let a = 1  # total =",
        "}",
    ])
    assert increase == {
        "province ON \"Ontario\" {": True,
        "formula provincial_tax(": True,
        "formula f(x: Money): Money =": True,
        "): Money =": True,
        "  let x = if a > $0 then": True,
        "    else": True,
        "  income_tax = brackets {   # a comment": True,
        "  let x = 1": False,
        "  tax(province.income_tax, income)": False,
        "let a = 1  # total =": False,
        "}": False,
    }
    decrease = js_regex_matches(rules["decreaseIndentPattern"], ["}", "  )", "): Money =", "  x"])
    assert decrease == {"}": True, "  )": True, "): Money =": True, "  x": False}


def test_language_configuration_continues_documentation_comments(language_configuration):
    rules = language_configuration["onEnterRules"]
    doc = [r for r in rules if r["action"].get("appendText") == "## "]
    assert doc, rules
    matches = js_regex_matches(doc[0]["beforeText"], ["## Tax owed", "  ## income", "# plain", "x ## y"])
    assert matches == {"## Tax owed": True, "  ## income": True, "# plain": False, "x ## y": False}


def test_extension_starts_taxpro_lsp_and_forwards_settings():
    proc = run(["node", HERE / "vscode_extension_check.js", VSCODE / "src" / "extension.js"])
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    first = record["clients"][0]
    assert first["id"] == "taxpro"
    assert first["serverOptions"]["command"] == "taxpro"
    assert first["serverOptions"]["args"] == ["lsp"]
    assert first["clientOptions"]["initializationOptions"] == {"year": None, "inlayHints": True}
    assert {"scheme": "file", "language": "taxpro"} in first["clientOptions"]["documentSelector"]
    assert first["started"] and first["stopped"]
    # Year and inlay-hint changes are forwarded; other settings are not.
    assert record["notifications"] == [
        {"method": "workspace/didChangeConfiguration",
         "params": {"settings": {"taxpro": {"year": 2025, "inlayHints": True}}}},
        {"method": "workspace/didChangeConfiguration",
         "params": {"settings": {"taxpro": {"year": 2025, "inlayHints": False}}}},
    ]
    # A new server path restarts the server with it.
    second = record["clients"][1]
    assert second["serverOptions"]["command"] == "/opt/taxpro/bin/taxpro"
    assert second["clientOptions"]["initializationOptions"] == {"year": 2025, "inlayHints": False}
    assert "taxpro.restartServer" in record["commands"]
    assert record["messages"] == []


def test_extension_sources_are_valid_javascript():
    for path in [VSCODE / "src" / "extension.js", VSCODE / "scripts" / "copy-grammar.js"]:
        proc = run(["node", "--check", path])
        assert proc.returncode == 0, proc.stderr


def test_helix_languages_toml():
    config = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text())
    language = next(l for l in config["language"] if l["name"] == "taxpro")
    assert language["file-types"] == ["tax"]
    assert language["comment-token"] == "#"
    assert language["indent"] == {"tab-width": 2, "unit": "  "}
    assert language["language-servers"] == ["taxpro"]
    server = config["language-server"]["taxpro"]
    assert server["command"] == "taxpro"
    assert server["args"] == ["lsp"]
    assert server["config"]["inlayHints"] is True


def test_every_editor_readme_has_install_steps():
    for editor in ("vscode", "nvim", "vim", "emacs", "helix"):
        readme = (EDITORS / editor / "README.md").read_text()
        assert re.search(r"^## Install", readme, re.M), f"editors/{editor}/README.md has no Install section"
