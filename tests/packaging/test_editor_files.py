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
from pathlib import Path

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


def test_the_packaged_kernel_runs_cells_with_the_packaged_taxpro(packages, tmp_path, monkeypatch):
    """Jupyter starts the kernel from the package's spec, Python imports it from the package's dist-packages, and it
    runs the package's /usr/bin/taxpro: a cell's figure is that program's `eval`. The lexer is found through the
    package's entry point, as nbconvert and JupyterLab look it up."""
    if packages.kernel_deb is None:
        pytest.skip("editors/jupyter has no kernel yet")
    jupyter_client = pytest.importorskip("jupyter_client.manager")
    psutil = pytest.importorskip("psutil")
    modules = packages.root / "usr/lib/python3/dist-packages"
    bin_folder = packages.root / "usr/bin"
    for name, value in {
        "JUPYTER_PATH": str(packages.root / "usr/share/jupyter"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"), "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "IPYTHONDIR": str(tmp_path / "ipython"),
        "HOME": str(tmp_path / "home"), "PYTHONPATH": str(modules), "NO_COLOR": "1", "PYTHONWARNINGS": "ignore",
        # The kernel finds taxpro on PATH, as it finds /usr/bin/taxpro once the packages are installed.
        "PATH": os.pathsep.join([str(bin_folder), os.path.dirname(sys.executable), "/usr/bin", "/bin"]),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("TAXPRO_LIBRARY", raising=False)
    (tmp_path / "home").mkdir()
    notebook_folder = tmp_path / "notebook"
    notebook_folder.mkdir()
    manager, client = jupyter_client.start_new_kernel(kernel_name="taxpro", cwd=str(notebook_folder))
    try:
        assert manager.kernel_spec.resource_dir.startswith(str(packages.root)), manager.kernel_spec.resource_dir
        info = client.kernel_info(reply=True, timeout=60)["content"]
        assert info["language_info"]["name"] == "taxpro"
        assert info["language_info"]["version"] == packages.version
        assert info["language_info"]["pygments_lexer"] == "taxpro"
        [taxpro] = [child for child in psutil.Process(manager.provisioner.process.pid).children(recursive=True)
                    if "taxpro" in child.name()]
        assert Path(taxpro.exe()) == bin_folder / "taxpro"
        outputs = []
        reply = client.execute_interactive(":year 2025\ntax(ON.income_tax, $85,000)", timeout=60,
                                           output_hook=outputs.append)
        assert reply["content"]["status"] == "ok"
        [result] = [m for m in outputs if m["msg_type"] == "execute_result"]
        expected = run([str(bin_folder / "taxpro"), "eval", "--year", "2025", "tax(ON.income_tax, $85,000)"],
                       env=clean_environment(tmp_path / "eval-home")).stdout.strip()
        assert result["content"]["data"]["text/plain"] == expected
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    found = run([sys.executable, "-c",
                 "import pygments.lexers as p; lexer = p.get_lexer_by_name('taxpro');"
                 "print(lexer.name, p.get_lexer_for_filename('a.tax').name, type(lexer).__module__,"
                 " __import__(type(lexer).__module__, fromlist=['_']).__file__)"],
                env=dict(clean_environment(tmp_path / "home"), PYTHONPATH=str(modules)))
    name, by_file, module, path = found.stdout.split()
    assert (name, by_file, module) == ("TaxPro", "TaxPro", "taxpro_kernel.lexer"), found.stderr
    assert path.startswith(str(modules))
