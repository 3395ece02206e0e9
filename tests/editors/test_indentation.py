"""Re-indenting code gives what `taxpro fmt` prints, in Vim, Neovim (Debian's 0.7 and PyPI's 0.11) and Emacs: every
example and tests/editors/samples/indent.tax (canonical itself) is flattened (all indentation removed) and
re-indented as a whole (gg=G, indent-region), and must come back exactly as `taxpro fmt` formats it."""

import json
import shutil
import subprocess

import pytest

from editor_support import (EDITORS, HERE, REPO, SAMPLES, pypi_neovim, requires_taxpro, run, system_neovim,
                            taxpro_server)

pytestmark = requires_taxpro

FILES = sorted((REPO / "examples").glob("*.tax")) + [SAMPLES / "indent.tax"]


def formatted(path):
    result = subprocess.run([taxpro_server(), "fmt", "-"], input=path.read_text(), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_indentation_sample_is_canonical():
    sample = SAMPLES / "indent.tax"
    assert formatted(sample) == sample.read_text()


def copies(tmp_path):
    folder = tmp_path / "files"
    folder.mkdir()
    paths = []
    for path in FILES:
        target = folder / path.name
        shutil.copy(path, target)
        paths.append(target)
    return paths


def reindent_in_vim(binary, package, tmp_path):
    paths = copies(tmp_path)
    out = tmp_path / "errors.json"
    env = {"PROBE_RTP": str(package), "PROBE_FILES": "\n".join(map(str, paths)), "PROBE_OUT": str(out)}
    if binary == "vim":
        cmd = ["vim", "-Nu", "NONE", "-i", "NONE", "-n", "-es", "-S", HERE / "reindent.vim"]
    else:
        cmd = [binary, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-S", HERE / "reindent.vim"]
    proc = run(cmd, env=env, timeout=600)
    assert out.exists(), f"{binary} wrote no result:\n{proc.stdout}\n{proc.stderr}"
    assert json.loads(out.read_text()) == []
    return {path.name: (path.parent / (path.name + ".out")).read_text() for path in paths}


def reindent_in_emacs(tmp_path):
    paths = copies(tmp_path)
    mode_dir = tmp_path / "mode"
    mode_dir.mkdir()
    shutil.copy(EDITORS / "emacs" / "taxpro-mode.el", mode_dir)
    files = " ".join(json.dumps(str(path)) for path in paths)
    script = tmp_path / "reindent.el"
    script.write_text(f"""
(add-to-list 'load-path {json.dumps(str(mode_dir))})
(require 'taxpro-mode)
(dolist (file (list {files}))
  (find-file file)
  (goto-char (point-min))
  (while (re-search-forward "^[ \\t]+" nil t) (replace-match ""))
  (indent-region (point-min) (point-max))
  (write-region (point-min) (point-max) (concat file ".out")))
""")
    proc = run(["emacs", "-batch", "-Q", "-l", script], timeout=600)
    assert proc.returncode == 0, proc.stderr
    return {path.name: (path.parent / (path.name + ".out")).read_text() for path in paths}


EDITOR_RUNS = [
    pytest.param(lambda tmp: reindent_in_vim("vim", EDITORS / "vim", tmp), id="vim"),
    pytest.param(lambda tmp: reindent_in_vim(system_neovim(), EDITORS / "nvim", tmp), id="neovim-debian"),
    pytest.param(lambda tmp: reindent_in_vim(pypi_neovim(), EDITORS / "nvim", tmp), id="neovim-pypi"),
    pytest.param(reindent_in_emacs, id="emacs"),
]


@pytest.mark.parametrize("reindent", EDITOR_RUNS)
def test_reindenting_every_example_gives_what_fmt_prints(reindent, tmp_path):
    results = reindent(tmp_path)
    differences = {}
    for path in FILES:
        expected = formatted(path).rstrip("\n").split("\n")
        actual = results[path.name].rstrip("\n").split("\n")
        wrong = [(n + 1, e, a) for n, (e, a) in enumerate(zip(expected, actual)) if e != a]
        if wrong or len(expected) != len(actual):
            differences[path.name] = wrong[:3] or f"{len(actual)} lines, fmt prints {len(expected)}"
    assert not differences, f"(line, fmt, editor): {differences}"
