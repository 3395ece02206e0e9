"""The user's files, written and read as the real binary does it: concurrent REPLs saving at once lose nothing,
writes keep modes, links and special files as they are, and every failure names its cause (issue 15)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest


def repl(taxpro, data_home: Path, stdin=subprocess.PIPE) -> subprocess.Popen:
    """A REPL reading its input from `stdin` (a pipe by default), with its files under `data_home`."""
    environment = dict(os.environ, NO_COLOR="1", XDG_DATA_HOME=str(data_home))
    return subprocess.Popen([taxpro.path, "repl"], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=environment)


def test_two_repls_saving_at_once_lose_no_record_and_no_profile_key(taxpro, tmp_path):
    inputs = []
    for session in ("a", "b"):
        lines = []
        for number in range(100):
            lines += [f"{number} + 1", f":save {session}{number}", f":profile {session}{number} {number}"]
        script = tmp_path / f"{session}.txt"
        script.write_text("\n".join(lines) + "\n")
        inputs.append(open(script))
    # Both read their whole script from a file at once, so their saves interleave.
    processes = [repl(taxpro, tmp_path, stdin=handle) for handle in inputs]
    outputs = [process.communicate(timeout=300) for process in processes]
    for handle in inputs:
        handle.close()
    for process, (out, err) in zip(processes, outputs):
        assert process.returncode == 0, err
        assert out.count("saved ") == 100 and "(saved)" in out, err
    records = json.loads((tmp_path / "taxpro" / "records.json").read_text())["records"]
    assert sorted(record["name"] for record in records) == sorted(f"{s}{n}" for s in "ab" for n in range(100))
    values = json.loads((tmp_path / "taxpro" / "profile.json").read_text())["values"]
    assert values == {f"{s}{n}": str(n) for s in "ab" for n in range(100)}


def test_a_symlinked_profile_is_written_through_and_a_newer_one_is_kept(taxpro, tmp_path):
    home = tmp_path / "data" / "taxpro"
    home.mkdir(parents=True)
    synced = tmp_path / "synced.json"
    (home / "profile.json").symlink_to(synced)
    out, err = repl(taxpro, tmp_path / "data").communicate(":profile income $85,000\n", timeout=60)
    assert "(saved)" in out, err
    assert (home / "profile.json").is_symlink()
    assert json.loads(synced.read_text())["values"] == {"income": "$85,000.00"}

    newer = '{"version": 9, "values": {"income": {"cents": 1}}}\n'
    synced.write_text(newer)
    out, err = repl(taxpro, tmp_path / "data").communicate(":profile province ON\n:profile\n", timeout=60)
    assert "written by a newer version of TaxPro (format 9" in err
    assert "damaged" not in err
    assert synced.read_text() == newer
    assert sorted(path.name for path in home.iterdir()) == ["profile.json"]


def test_fmt_keeps_mode_links_and_refuses_what_it_cannot_rewrite(taxpro, tmp_path):
    target = tmp_path / "rates.tax"
    target.write_text("let a =  1\n")
    target.chmod(0o600)
    os.link(target, tmp_path / "hard.tax")
    (tmp_path / "soft.tax").symlink_to("rates.tax")
    result = taxpro.run("fmt", str(tmp_path / "soft.tax"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "soft.tax").is_symlink()
    assert target.read_text() == "let a = 1\n"
    assert (tmp_path / "hard.tax").read_text() == "let a = 1\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.stat().st_nlink == 2

    latin = tmp_path / "latin.tax"
    latin.write_bytes(b'let b = "caf\xe9"\n')
    result = taxpro.run("fmt", str(latin))
    assert result.returncode == 1
    assert "not valid UTF-8 (byte 0xE9)" in result.stderr and ":1:13:" in result.stderr
    assert latin.read_bytes() == b'let b = "caf\xe9"\n'


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give files to another user")
def test_fmt_keeps_the_owner(taxpro, tmp_path):
    """Issue 15: a rewrite keeps the file's owner, whether the writer may give the new file away (root: the
    replacement is chowned) or not (another user: the file is rewritten in place)."""
    given = tmp_path / "given.tax"
    given.write_text("let a =  1\n")
    os.chown(given, 65534, 65534)
    result = taxpro.run("fmt", str(given))
    assert result.returncode == 0, result.stderr
    assert given.read_text() == "let a = 1\n"
    assert (given.stat().st_uid, given.stat().st_gid) == (65534, 65534)

    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    if shutil.which("setpriv") is None or subprocess.run([*nobody, taxpro.path, "--version"],
                                                         capture_output=True).returncode != 0:
        pytest.skip("the binary cannot be run by another user here")
    # pytest's own directories are private to root: the other user gets one of its own under the system's /tmp.
    with tempfile.TemporaryDirectory() as directory:
        shared = Path(directory)
        shared.chmod(0o777)
        rooted = shared / "rooted.tax"
        rooted.write_text("let b =  2\n")
        rooted.chmod(0o666)
        before = rooted.stat()
        result = subprocess.run([*nobody, taxpro.path, "fmt", str(rooted)], capture_output=True, text=True,
                                timeout=60)
        assert result.returncode == 0, result.stderr
        after = rooted.stat()
        assert rooted.read_text() == "let b = 2\n"
        assert (after.st_uid, after.st_gid, after.st_ino) == (0, before.st_gid, before.st_ino)
        assert stat.S_IMODE(after.st_mode) == 0o666
        assert sorted(path.name for path in shared.iterdir()) == ["rooted.tax"]


def test_plot_refuses_special_files(taxpro, tmp_path):
    fifo = tmp_path / "chart.svg"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO"), (Path("/dev/full"), "a character device")):
        result = taxpro.run("plot", "x * 2", "--over", "x=0..10", "--svg", str(path))
        assert result.returncode == 1
        assert f"not a regular file ({kind})" in result.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_read_errors_name_their_cause(taxpro, tmp_path):
    (tmp_path / "a.tax").symlink_to("b.tax")
    (tmp_path / "b.tax").symlink_to("a.tax")
    os.mkfifo(tmp_path / "pipe.tax")
    cases = {
        "a.tax": "symbolic link loop",
        "pipe.tax": "not a regular file (a FIFO)",
        "missing.tax": "no such file or directory",
    }
    for name, cause in cases.items():
        for command in (["check"], ["fmt"], ["eval", "1"]):
            result = taxpro.run(*command, str(tmp_path / name))
            assert result.returncode == 2 and cause in result.stderr, (command, name, result.stderr)
    result = taxpro.run("check", "/dev/zero")
    assert result.returncode == 2 and "not a regular file (a character device)" in result.stderr


def test_a_file_in_a_directory_that_cannot_be_read_is_skipped_with_why(taxpro, tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub.tax").mkdir(parents=True)  # a directory named like a file: searched, not read
    (tree / "good.tax").write_text('formula half(x: Money): Money = x / 2\ntest "h" { half($4) == $2 }\n')
    (tree / "sub.tax" / "bad.tax").write_text("let a = $1 +\n")
    (tree / "a.tax").symlink_to("b.tax")
    (tree / "b.tax").symlink_to("a.tax")
    os.mkfifo(tree / "pipe.tax")
    for command in (["check"], ["check", "--syntax"], ["test"]):
        result = taxpro.run(*command, str(tree))
        assert result.returncode == 1, (command, result.stderr)
        assert f"taxpro: cannot read '{tree}/a.tax': a symbolic link loop" in result.stderr
        assert f"cannot read '{tree}/pipe.tax': not a regular file (a FIFO); skipped" in result.stderr
        # The rest is still checked: the error in the subdirectory is reported.
        assert f"{tree}/sub.tax/bad.tax:2:1: error[syntax]" in result.stderr, (command, result.stderr)
    assert "1 passed" in taxpro.run("test", str(tree)).stdout
    # Without the unreadable files, the tree's only problem is its syntax error; and a clean tree passes.
    for name in ("a.tax", "b.tax", "pipe.tax"):
        (tree / name).unlink()
    result = taxpro.run("check", str(tree))
    assert result.returncode == 1 and "skipped" not in result.stderr and "1 error" in result.stderr
    (tree / "sub.tax" / "bad.tax").unlink()
    assert taxpro.run("check", str(tree)).returncode == 0


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root to change user")
def test_permission_denied_is_named(taxpro, tmp_path):
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    if subprocess.run([*nobody, taxpro.path, "--version"], capture_output=True).returncode != 0:
        pytest.skip("the binary cannot be run by another user here")
    secret = tmp_path / "secret.tax"
    secret.write_text("let a = 1\n")
    secret.chmod(0o600)
    tmp_path.chmod(0o755)
    result = subprocess.run([*nobody, taxpro.path, "check", str(secret)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "permission denied" in result.stderr, result.stderr


def test_disk_full_is_named(taxpro, tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        filler = mount / "filler"
        with open(filler, "wb") as handle:
            try:
                handle.write(b"x" * (1 << 20))
            except OSError:
                pass
        result = taxpro.run("plot", "x * 2", "--over", "x=0..10", "--svg", str(mount / "chart.svg"))
        assert result.returncode == 1
        assert "disk is full" in result.stderr and "512" not in result.stderr, result.stderr
        assert not (mount / "chart.svg").exists()
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)
