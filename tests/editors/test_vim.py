"""Vim and Neovim, headless: filetype detection, syntax groups, indentation and filetype settings
of editors/vim and editors/nvim, plus the rule that the Neovim copies of the Vim-script files are
identical to their sources in editors/vim."""

import json

import pytest

from editor_support import EDITORS, HERE, SAMPLES, run

PROBE = HERE / "vim_probe.vim"


def probe(editor, package, tmp_path, sample="formulas.tax", indent="indent.tax"):
    out = tmp_path / f"{editor}-probe.json"
    env = {
        "PROBE_RTP": str(package),
        "PROBE_FILE": str(SAMPLES / sample),
        "PROBE_INDENT": str(tmp_path / "indent-copy.tax"),
        "PROBE_OUT": str(out),
    }
    (tmp_path / "indent-copy.tax").write_text((SAMPLES / indent).read_text())
    if editor == "vim":
        cmd = ["vim", "-Nu", "NONE", "-i", "NONE", "-n", "-es", "-S", PROBE]
    else:
        cmd = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-S", PROBE]
    result = run(cmd, env=env)
    assert out.exists(), f"{editor} wrote no result (exit {result.returncode}):\n{result.stdout}\n{result.stderr}"
    data = json.loads(out.read_text())
    assert data["errors"] == [], data["errors"]
    return data


EDITOR_PACKAGES = [("vim", EDITORS / "vim"), ("nvim", EDITORS / "nvim")]


@pytest.fixture(scope="module", params=EDITOR_PACKAGES, ids=["vim", "nvim"])
def formulas(request, tmp_path_factory):
    editor, package = request.param
    return editor, probe(editor, package, tmp_path_factory.mktemp(editor))


@pytest.fixture(scope="module", params=EDITOR_PACKAGES, ids=["vim", "nvim"])
def jurisdictions(request, tmp_path_factory):
    editor, package = request.param
    return probe(editor, package, tmp_path_factory.mktemp(editor), sample="jurisdictions.tax")


def group_at(data, sample, needle, offset=0, occurrence=0):
    """The syntax group at the first character of the `occurrence`th `needle` in `sample`."""
    lines = (SAMPLES / sample).read_text().split("\n")
    seen = 0
    for number, line in enumerate(lines):
        start = line.find(needle)
        while start >= 0:
            if seen == occurrence:
                return data["groups"][number][start + offset]
            seen += 1
            start = line.find(needle, start + 1)
    raise AssertionError(f"{needle!r} not in {sample}")


def groups_over(data, sample, needle):
    lines = (SAMPLES / sample).read_text().split("\n")
    for number, line in enumerate(lines):
        start = line.find(needle)
        if start >= 0:
            return set(data["groups"][number][start:start + len(needle)])
    raise AssertionError(f"{needle!r} not in {sample}")


def test_filetype_and_settings(formulas):
    _, data = formulas
    assert data["filetype"] == "taxpro"
    assert data["syntax_name"] == "taxpro"
    assert data["commentstring"] == "# %s"
    assert data["shiftwidth"] == 2
    assert data["expandtab"] in (1, True)
    assert data["indentexpr"] == "GetTaxproIndent()"
    assert ":##" in data["comments"].split(",")


@pytest.mark.parametrize("needle, group", [
    ("## Tax owed", "taxproDocComment"),
    ("definition:", "taxproDocField"),
    ("https://www.canada.ca", "taxproDocUrl"),
    ("# a top-level constant", "taxproComment"),
    ("formula provincial_tax", "taxproDeclaration"),
    ("let before", "taxproDeclaration"),
    ("test \"Ontario", "taxproDeclaration"),
    ("year 2025", "taxproDeclaration"),
    ("if owed", "taxproConditional"),
    ("then owed", "taxproConditional"),
    ("and not", "taxproLogical"),
    ("in $0", "taxproIn"),
    ("Money in", "taxproType"),
    ("Province = ON", "taxproType"),
    ("$0..", "taxproMoney"),
    ("$100,000,000", "taxproMoney"),
    ("$5,609.17", "taxproMoney"),
    ("$0.50", "taxproMoney"),
    ("5.05%", "taxproRate"),
    ("18% *", "taxproRate"),
    ("1_000", "taxproNumber"),
    ("2.5", "taxproNumber"),
    ("\"Tax", "taxproString"),
    ("\\t", "taxproEscape"),
    ("tax(province", "taxproBuiltin"),
    ("clamp(", "taxproBuiltin"),
    ("marginal_rate(", "taxproBuiltin"),
    ("rrsp_refund($85", "taxproCall"),
    ("ON)", "taxproProvince"),
    ("federal.income_tax", "taxproFederal"),
    ("income_tax, income)", "taxproMember"),
    ("false", "taxproBoolean"),
    ("==", "taxproOperator"),
    ("..$", "taxproOperator"),
])
def test_syntax_groups(formulas, needle, group):
    _, data = formulas
    assert group_at(data, "formulas.tax", needle) == group, needle


def test_whole_literals_have_one_group(formulas):
    _, data = formulas
    # The first provincial_tax of the sample is the one that `formula` declares.
    assert groups_over(data, "formulas.tax", "provincial_tax") == {"taxproFormulaName"}
    assert groups_over(data, "formulas.tax", "$1,234.56") == {"taxproMoney"}
    assert groups_over(data, "formulas.tax", "## reference: ") == {"taxproDocComment", "taxproDocField"}
    assert groups_over(data, "formulas.tax", "# a top-level constant") == {"taxproComment"}


def test_jurisdiction_syntax_groups(jurisdictions):
    data = jurisdictions
    assert group_at(data, "jurisdictions.tax", "parameters Province") == "taxproDeclaration"
    assert group_at(data, "jurisdictions.tax", "Province {") == "taxproInterfaceName"
    assert group_at(data, "jurisdictions.tax", "province ON") == "taxproDeclaration"
    assert group_at(data, "jurisdictions.tax", "ON \"Ontario\"") == "taxproProvinceName"
    assert group_at(data, "jurisdictions.tax", "federal \"Canada\"") == "taxproDeclaration"
    assert group_at(data, "jurisdictions.tax", "brackets {") == "taxproDeclaration"
    assert group_at(data, "jurisdictions.tax", "->") == "taxproOperator"
    assert group_at(data, "jurisdictions.tax", "$52,886") == "taxproMoney"
    assert group_at(data, "jurisdictions.tax", "9.15%") == "taxproRate"
    assert group_at(data, "jurisdictions.tax", "credit_rate =") == "taxproMemberDef"


def test_malformed_money_and_escapes(tmp_path):
    sample = tmp_path / "bad.tax"
    sample.write_text('let a = $1,23.00 + $0.015\nlet s = "a#b \\q"\n')
    for editor, package in EDITOR_PACKAGES:
        out = tmp_path / f"{editor}.json"
        env = {"PROBE_RTP": str(package), "PROBE_FILE": str(sample), "PROBE_INDENT": "",
               "PROBE_OUT": str(out)}
        if editor == "vim":
            cmd = ["vim", "-Nu", "NONE", "-i", "NONE", "-n", "-es", "-S", PROBE]
        else:
            cmd = ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-S", PROBE]
        run(cmd, env=env)
        data = json.loads(out.read_text())
        assert data["errors"] == []
        line0, line1 = data["groups"][0], data["groups"][1]
        assert line0[8] == "taxproMoneyError"    # $1,23.00
        assert line0[19] == "taxproMoneyError"   # $0.015
        assert line1[10] == "taxproString"       # the # inside the text is not a comment
        assert line1[13] == "taxproBadEscape"    # \q


def test_reindenting_a_flattened_file_restores_it(formulas):
    editor, data = formulas
    expected = (SAMPLES / "indent.tax").read_text().rstrip("\n").split("\n")
    actual = data["reindented"]
    mismatches = [(n + 1, e, a) for n, (e, a) in enumerate(zip(expected, actual)) if e != a]
    assert not mismatches and len(expected) == len(actual), (
        f"{editor}: first differences (line, expected, got): {mismatches[:5]}")


@pytest.mark.parametrize("relative", ["syntax/taxpro.vim", "indent/taxpro.vim"])
def test_nvim_copies_are_identical_to_the_vim_sources(relative):
    source = (EDITORS / "vim" / relative).read_bytes()
    copy = (EDITORS / "nvim" / relative).read_bytes()
    assert copy == source, (
        f"editors/nvim/{relative} differs from editors/vim/{relative} (the source of truth): "
        f"cp editors/vim/{relative} editors/nvim/{relative}")


def test_nvim_lua_module_loads_and_builds_the_command(tmp_path):
    out = tmp_path / "module.json"
    script = tmp_path / "module.lua"
    script.write_text(f"""
vim.opt.runtimepath:prepend({json.dumps(str(EDITORS / "nvim"))})
local taxpro = require('taxpro')
local result = {{
  command = taxpro.command(taxpro.defaults),
  options = taxpro.server_options(taxpro.defaults),
  pinned = taxpro.server_options(vim.tbl_extend('force', taxpro.defaults, {{ year = 2025, inlay_hints = false }})),
  root = taxpro.find_root(0, {{ 'marker.txt' }}),
}}
local f = io.open({json.dumps(str(out))}, 'w')
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd('qall!')
""")
    (tmp_path / "proj" / "sub").mkdir(parents=True)
    (tmp_path / "proj" / "marker.txt").write_text("")
    target = tmp_path / "proj" / "sub" / "a.tax"
    target.write_text("let a = 1\n")
    run(["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", target, "-c", f"luafile {script}"])
    data = json.loads(out.read_text())
    assert data["command"] == ["taxpro", "lsp"]
    assert data["options"] == {"year": None, "inlayHints": True}
    assert data["pinned"] == {"year": 2025, "inlayHints": False}
    assert data["root"] == str(tmp_path / "proj")
