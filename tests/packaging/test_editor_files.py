"""The editor files where the package puts them are found by the editors themselves: Vim through Debian's
runtimepath, Neovim through XDG_DATA_DIRS, Emacs through site-lisp and the site-start.d snippet, Jupyter through its
kernel path — each pointed at the extracted package instead of /usr, and nothing else.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from packaging_support import REPO, clean_environment


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "sample.tax"
    path.write_text("formula f(income: Money): Money =\n  income * 2\n")
    return path


def run(command, **options):
    return subprocess.run(command, capture_output=True, text=True, timeout=120, **options)


@pytest.mark.skipif(not shutil.which("vim"), reason="vim is not installed")
def test_vim_finds_the_files_in_vimfiles(packages, sample, tmp_path):
    """Debian's Vim has /usr/share/vim/vimfiles on its runtimepath; here that entry points into the package."""
    vimfiles = packages.root / "usr/share/vim/vimfiles"
    output = tmp_path / "vim.out"
    result = run(["vim", "-N", "-i", "NONE", "-n", "-es",
                  "--cmd", f"let &rtp = substitute(&rtp, '/usr/share/vim/vimfiles', '{vimfiles}', 'g')",
                  "-c", "filetype plugin indent on", "-c", "syntax on", "-c", f"edit {sample}",
                  "-c", f"call writefile([&filetype, b:current_syntax, &indentexpr], '{output}')", "-c", "qa!"],
                 env=clean_environment(tmp_path / "home"))
    assert output.exists(), result.stdout + result.stderr
    filetype, syntax, indent = output.read_text().splitlines()
    assert (filetype, syntax) == ("taxpro", "taxpro")
    assert indent, "the indent script set no indentexpr"


@pytest.mark.skipif(not shutil.which("nvim"), reason="nvim is not installed")
def test_neovim_finds_the_files_in_site(packages, sample, tmp_path):
    """Neovim's runtimepath has DIR/nvim/site for each DIR of XDG_DATA_DIRS (/usr/share among them)."""
    output = tmp_path / "nvim.out"
    environment = clean_environment(tmp_path / "home", XDG_DATA_DIRS=f"{packages.root}/usr/share",
                                    XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"),
                                    XDG_STATE_HOME=str(tmp_path / "state"))
    result = run(["nvim", "--headless", "-i", "NONE", "-n", f"{sample}",
                  "-c", f"lua vim.fn.writefile({{vim.bo.filetype, vim.b.current_syntax or '', "
                        f"tostring(type(require('taxpro')) == 'table')}}, '{output}')", "-c", "qa!"],
                 env=environment)
    assert output.exists(), result.stdout + result.stderr
    assert output.read_text().splitlines() == ["taxpro", "taxpro", "true"]


@pytest.mark.skipif(not shutil.which("emacs"), reason="emacs is not installed")
def test_emacs_opens_tax_files_in_taxpro_mode(packages, sample, tmp_path):
    """The site-start.d snippet, read as Debian's Emacs reads it, with its folder in the package instead of /usr."""
    snippet = (packages.root / "etc/emacs/site-start.d/50taxpro.el").read_text()
    site_lisp = "/usr/share/emacs/site-lisp/taxpro"
    assert site_lisp in snippet
    moved = tmp_path / "50taxpro.el"
    moved.write_text(snippet.replace(site_lisp, str(packages.root / site_lisp.lstrip("/"))))
    result = run(["emacs", "-batch", "-Q", "-l", str(moved), "--eval",
                  f'(progn (find-file "{sample}") (princ (format "%s %s" major-mode (locate-library "taxpro-mode"))))'],
                 env=clean_environment(tmp_path / "home"))
    mode, library = result.stdout.split()
    assert mode == "taxpro-mode", result.stdout + result.stderr
    assert library.startswith(str(packages.root)), library


def test_the_jupyter_kernel_is_a_package_of_its_own(packages, tmp_path):
    kernelspec = REPO / "editors/jupyter/kernelspec/taxpro/kernel.json"
    package = REPO / "editors/jupyter/taxpro_kernel"
    if not (kernelspec.exists() and package.is_dir()):
        pytest.skip("editors/jupyter has no kernel yet (kernelspec/taxpro/kernel.json and taxpro_kernel/): "
                    "scripts/package makes taxpro-jupyter from them when they are there")
    assert packages.kernel_deb and packages.kernel_deb.name == f"taxpro-jupyter_{packages.version}_all.deb"
    # It needs what taxpro does not: Python and ipykernel (and taxpro itself, this very version).
    control = run(["dpkg-deb", "-f", str(packages.kernel_deb), "Depends"]).stdout
    assert f"taxpro (= {packages.version})" in control and "python3" in control and "python3-ipykernel" in control
    assert "python" not in run(["dpkg-deb", "-f", str(packages.deb), "Depends"]).stdout
    installed = packages.root / "usr/share/jupyter/kernels/taxpro/kernel.json"
    assert json.loads(installed.read_text()) == json.loads(kernelspec.read_text())
    modules = packages.root / "usr/lib/python3/dist-packages"
    for path in package.glob("*.py"):
        assert (modules / "taxpro_kernel" / path.name).read_bytes() == path.read_bytes()
    # Python imports the kernel from where Debian's python3 looks (here, the package's copy of that folder).
    imported = run([sys.executable, "-c", "import taxpro_kernel; print(taxpro_kernel.__file__)"],
                   env=dict(clean_environment(tmp_path / "home"), PYTHONPATH=str(modules)))
    assert imported.returncode == 0 and imported.stdout.startswith(str(modules)), imported.stderr
    jupyter = shutil.which("jupyter", path=os.path.dirname(sys.executable)) or shutil.which("jupyter")
    if jupyter:
        # Jupyter finds the spec in its data path, as it finds /usr/share/jupyter/kernels.
        listing = run([jupyter, "kernelspec", "list", "--json"],
                      env=dict(os.environ, JUPYTER_PATH=str(packages.root / "usr/share/jupyter")))
        assert "taxpro" in json.loads(listing.stdout)["kernelspecs"], listing.stdout + listing.stderr
