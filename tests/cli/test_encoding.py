"""A file that is not UTF-8 (saved as Latin-1, say) is read with each bad byte sequence as U+FFFD, and every command
that reports a file's warnings says so once, with a `not-utf8` warning at the first one: `check` (whole, streamed and
`--syntax`) and `test`. The file still runs (`eval`, like the REPL's `:load`, keeps a file's warnings for `check`);
`fmt` refuses it (tests/cli/test_cli_files.py)."""

from __future__ import annotations


LATIN1 = b'## Caf\xe9 tax\nlet k = $5\nlet town = "Montr\xe9al"\n'


def test_check_warns_once_at_the_first_bad_byte_and_passes(taxpro, tmp_path):
    path = tmp_path / "latin.tax"
    path.write_bytes(LATIN1)
    # Streamed; and loaded whole (a path named twice is read once).
    for arguments in (["check", str(path)], ["check", str(path), str(path)]):
        result = taxpro.run(*arguments)
        assert result.returncode == 0, result.stderr
        assert result.stderr.count("warning[not-utf8]") == 1, result.stderr
        assert f"{path}:1:7: warning[not-utf8]: not valid UTF-8 (byte 0xE9; 2 places in all)" in result.stderr
        assert "1 warning" in result.stderr


def test_the_warning_comes_before_the_files_own_problems(taxpro, tmp_path):
    """A bad byte in a name is also an unexpected character: the warning says why, first."""
    clean = tmp_path / "a.tax"
    clean.write_text("let a = $1 +\n")
    latin = tmp_path / "b.tax"
    latin.write_bytes(b"let caf\xe9 = $5\n")
    for arguments in (["check", str(clean), str(latin)], ["check", "--syntax", str(clean), str(latin)]):
        result = taxpro.run(*arguments)
        assert result.returncode == 1
        lines = [line for line in result.stderr.splitlines() if "error[" in line or "warning[" in line]
        assert [line.split(": ", 1)[0] for line in lines] == [f"{clean}:2:1", f"{latin}:1:8", f"{latin}:1:8"], lines
        assert "warning[not-utf8]" in lines[1] and "error[unexpected-character]" in lines[2], lines


def test_a_valid_file_with_a_replacement_character_of_its_own_is_not_warned_about(taxpro, tmp_path):
    path = tmp_path / "fine.tax"
    path.write_text('let t = "Qu\ufffdbec \u00e9t\u00e9 \U0001F341"\n', encoding="utf-8")
    result = taxpro.run("check", str(path))
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_the_file_still_runs_and_test_says_so(taxpro, tmp_path):
    path = tmp_path / "latin.tax"
    path.write_bytes(LATIN1 + b'test "k" {\n  k == $5\n}\n')
    result = taxpro.run("eval", "k * 2", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "$10.00"
    assert taxpro.run("eval", "town", str(path)).stdout.strip() == "Montr\ufffdal"
    result = taxpro.run("test", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (result.stdout + result.stderr).count("warning[not-utf8]") == 1, result.stdout + result.stderr
