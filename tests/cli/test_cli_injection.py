"""Source text a crafted file puts in front of the user is shown with its control characters escaped (issue 15: a
`.tax` file set the terminal's title through a diagnostic)."""

from __future__ import annotations

ESCAPES = b"\x1b]0;pwned\x07\x1b[2J\xc2\x9b"


def visible(text: str) -> bool:
    return not any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F for c in text)


def test_diagnostics_and_explanations_escape_control_characters(taxpro, tmp_path):
    clean = tmp_path / "crafted.tax"
    clean.write_bytes(
        b"## Doubles it.\n## definition: twice " + ESCAPES + b"\n"
        b"formula f(a: Money, label: Text): Money =\n  let shown = label\n  a * 2\n"
        b'let t = "' + ESCAPES + b'"\n')
    broken = tmp_path / "broken.tax"
    broken.write_bytes(b'let t = "' + ESCAPES + b'"\nlet bad = t + 1 # ' + ESCAPES + b"\n")
    result = taxpro.run("check", str(broken))
    assert result.returncode == 1
    assert "\\u{1B}]0;pwned\\u{7}" in result.stderr and visible(result.stderr), result.stderr
    for expression in ("f($5, t)", "t"):
        result = taxpro.run("explain", expression, str(clean))
        assert result.returncode == 0, result.stderr
        assert "\\u{1B}]0;pwned\\u{7}" in result.stdout and visible(result.stdout), result.stdout
