"""The Debian package and the release archive: lintian's verdict, what they hold and where, the dependencies the
binary really has, and the extracted program working on its own in an empty folder.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import tarfile
from pathlib import Path

from packaging_support import REPO, clean_environment, data_years


def run(command, **options) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=300, **options)


def test_lintian_reports_no_errors(packages):
    result = run(["lintian", "--tag-display-limit", "0", "--display-info", *map(str, packages.debs)])
    tags = result.stdout.splitlines()
    errors = [tag for tag in tags if tag.startswith("E:")]
    assert not errors, "\n".join(tags)
    # Warnings are not refused by the issue, but each one is a packaging mistake: keep the list empty.
    warnings = [tag for tag in tags if tag.startswith("W:")]
    assert not warnings, "\n".join(tags)


def fields(deb: Path) -> dict[str, str]:
    control = run(["dpkg-deb", "-f", str(deb)]).stdout
    return dict(re.findall(r"^([\w-]+): (.*(?:\n .*)*)", control, re.M))


def test_the_control_fields(packages):
    control = fields(packages.deb)
    assert control["Package"] == "taxpro"
    assert control["Version"] == packages.version
    assert control["Architecture"] == run(["dpkg", "--print-architecture"]).stdout.strip()
    assert packages.deb.name == f"taxpro_{packages.version}_{control['Architecture']}.deb"
    files = set(listed(packages.deb))
    installed_kib = sum(path.lstat().st_size for path in packages.root.rglob("*")
                        if (path.is_file() or path.is_symlink()) and "/" + str(path.relative_to(packages.root)) in files
                        ) / 1024
    assert abs(int(control["Installed-Size"]) - installed_kib) <= 0.05 * installed_kib + 64


def test_the_dependencies_are_the_libraries_the_binary_loads(packages):
    """Every shared library the extracted binary loads comes from a package the .deb depends on, and it depends
    on nothing else: what ldd says the program needs, as dpkg names it."""
    depends = {re.match(r"[\w.+-]+", part.strip()).group(0)
               for part in fields(packages.deb)["Depends"].split(",")}
    assert {"libc6", "libedit2"} <= depends, depends
    ldd = run(["ldd", str(packages.root / "usr/bin/taxpro")]).stdout
    assert "not found" not in ldd, ldd
    libraries = re.findall(r"=> (/\S+)", ldd)
    needed = run(["readelf", "-d", str(packages.root / "usr/bin/taxpro")]).stdout
    direct = set(re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", needed))
    providers = set()
    for library in libraries:
        if Path(library).name not in direct:
            continue  # loaded by another library, whose package brings it
        owner = run(["dpkg", "-S", os.path.realpath(library)])
        if owner.returncode != 0:
            owner = run(["dpkg", "-S", library])
        assert owner.returncode == 0, f"{library} comes from no Debian package"
        providers.add(owner.stdout.split(":")[0])
    assert providers == depends, (providers, depends)


def listed(deb: Path) -> dict[str, str]:
    """The package's paths (without the leading .), each with its tar listing line."""
    lines = run(["dpkg-deb", "-c", str(deb)]).stdout.splitlines()
    return {line.split()[5].removeprefix("."): line for line in lines}


def test_the_files_are_where_debian_tools_look(packages):
    paths = listed(packages.deb)
    for path in ["/usr/bin/taxpro", "/usr/share/man/man1/taxpro.1.gz", "/usr/share/man/man7/taxpro-language.7.gz",
                 "/usr/share/bash-completion/completions/taxpro", "/usr/share/zsh/vendor-completions/_taxpro",
                 "/usr/share/fish/vendor_completions.d/taxpro.fish", "/usr/share/doc/taxpro/copyright",
                 "/usr/share/doc/taxpro/changelog.gz"]:
        assert path in paths, path
    assert paths["/usr/bin/taxpro"].startswith("-rwxr-xr-x root/root")
    assert all(" root/root " in line for line in paths.values())
    # Everything editors/ holds is under /usr/share/taxpro/editors, and the Vim, Neovim and Emacs files are also
    # where those editors look.
    tracked = run(["git", "-C", str(REPO), "ls-files", "editors"]).stdout.split() or \
        [str(path.relative_to(REPO)) for path in (REPO / "editors").rglob("*") if path.is_file()]
    for file in tracked:
        if packages.kernel_deb and file.startswith("editors/jupyter/"):
            continue  # the kernel is a package of its own (test_editor_files.py)
        assert "/usr/share/taxpro/" + file in paths, file
    for editor, place in [("vim", "/usr/share/vim/vimfiles"), ("nvim", "/usr/share/nvim/site")]:
        runtime = [path for path in (REPO / "editors" / editor).rglob("*")
                   if path.is_file() and len(path.relative_to(REPO / "editors" / editor).parts) > 1]
        assert runtime, editor
        for path in runtime:
            installed = packages.root / (place.lstrip("/") + "/" + str(path.relative_to(REPO / "editors" / editor)))
            assert installed.is_symlink() and installed.read_bytes() == path.read_bytes(), installed
    for path in (REPO / "editors" / "emacs").glob("*.el"):
        installed = packages.root / "usr/share/emacs/site-lisp/taxpro" / path.name
        assert installed.read_bytes() == path.read_bytes()
    assert "/etc/emacs/site-start.d/50taxpro.el" in paths
    conffiles = run(["dpkg-deb", "-I", str(packages.deb), "conffiles"]).stdout.split()
    assert conffiles == ["/etc/emacs/site-start.d/50taxpro.el"]


def test_copyright_and_changelog(packages):
    doc = packages.root / "usr/share/doc/taxpro"
    copyright_text = (doc / "copyright").read_text()
    assert copyright_text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    changelog = gzip.decompress((doc / "changelog.gz").read_bytes()).decode()
    assert changelog.startswith(f"taxpro ({packages.version}) ")
    parsed = run(["dpkg-parsechangelog", "-l", "-", "-S", "Version"], input=changelog)
    assert parsed.stdout.strip() == packages.version, parsed.stderr
    commit = run([str(packages.root / "usr/bin/taxpro"), "--version"]).stdout.split("\n")[1].split()[1]
    assert f"commit {commit}" in changelog


def test_the_extracted_program_works_alone_in_an_empty_folder(packages, empty_folder, tmp_path):
    """The program from the package, with nothing of the build around it: an empty folder, a clean environment."""
    taxpro = str(packages.root / "usr/bin/taxpro")
    environment = clean_environment(tmp_path / "home")
    result = run([taxpro, "eval", "--year", "2025", "tax(ON.income_tax, $85,000)"], cwd=empty_folder, env=environment)
    assert (result.returncode, result.stdout, result.stderr) == (0, "$5,609.17\n", "")
    result = run([taxpro, "eval", "0.1 + 0.2"], cwd=empty_folder, env=environment)
    assert result.stdout == "0.3\n"
    version = run([taxpro, "--version"], cwd=empty_folder, env=environment).stdout.splitlines()
    assert version[0] == f"taxpro {packages.version}"
    assert version[2] == "tax years " + ", ".join(map(str, data_years()))
    assert list(empty_folder.iterdir()) == []


def lsp_message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp_messages(data: bytes) -> list[dict]:
    messages = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", header).group(1))
        messages.append(json.loads(rest[:length]))
        data = rest[length:]
    return messages


def test_the_extracted_language_server_initializes(packages, empty_folder, tmp_path):
    requests = b"".join(lsp_message(message) for message in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": empty_folder.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ])
    result = subprocess.run([str(packages.root / "usr/bin/taxpro"), "lsp"], input=requests, capture_output=True,
                            timeout=120, cwd=empty_folder, env=clean_environment(tmp_path / "home"))
    assert result.returncode == 0, result.stderr
    replies = {message["id"]: message for message in lsp_messages(result.stdout) if "id" in message}
    capabilities = replies[1]["result"]["capabilities"]
    assert capabilities["completionProvider"] and capabilities["hoverProvider"]
    assert replies[1]["result"]["serverInfo"]["name"] == "taxpro"
    assert replies[2]["result"] is None


def test_the_archive_has_the_same_files_under_one_folder(packages):
    with tarfile.open(packages.archive) as archive:
        members = archive.getmembers()
    arch = run(["uname", "-m"]).stdout.strip()
    top = f"taxpro-{packages.version}-linux-{arch}"
    assert packages.archive.name == top + ".tar.gz"
    assert {member.name.split("/")[0] for member in members} == {top}
    in_archive = {member.name.removeprefix(top) for member in members if not member.isdir()}
    in_debs = {path for deb in packages.debs for path, line in listed(deb).items() if not line.startswith("d")}
    assert in_archive == in_debs | {"/README"}
    assert all(member.uid == 0 and member.gid == 0 for member in members)
    binary = next(member for member in members if member.name == top + "/usr/bin/taxpro")
    assert binary.mode & 0o111
