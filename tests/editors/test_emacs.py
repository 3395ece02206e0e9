"""Emacs in batch mode: taxpro-mode byte-compiles without warnings, opens .tax files, highlights
them, re-indents a flattened copy of the indentation sample exactly, and lists imenu entries."""

import json
import shutil

import pytest

from editor_support import EDITORS, SAMPLES, run

MODE = EDITORS / "emacs" / "taxpro-mode.el"


def emacs_eval(tmp_path, body, *, file=None, site_lisp=False):
    """Load taxpro-mode (from a copy, so no .elc lands in the repository), optionally visit
    `file`, run the Lisp `body` and return the JSON it printed to RESULT. With `site_lisp`, the
    system's site-start files are loaded (Debian's elpa-eglot is found through them)."""
    mode_dir = tmp_path / "mode"
    mode_dir.mkdir(exist_ok=True)
    shutil.copy(MODE, mode_dir / MODE.name)
    out = tmp_path / "result.json"
    script = tmp_path / "script.el"
    script.write_text(f"""
(require 'json)
(add-to-list 'load-path {json.dumps(str(mode_dir))})
(require 'taxpro-mode)
(defun result (value)
  (with-temp-file {json.dumps(str(out))} (insert (json-encode value))))
{"(find-file " + json.dumps(str(file)) + ")" if file else ""}
(condition-case err
    (progn {body})
  (error (result (list (cons 'lisp-error (format "%S" err))))))
""")
    proc = run(["emacs", "-batch"] + ([] if site_lisp else ["-Q"]) + ["-l", script])
    assert out.exists(), f"emacs wrote no result:\n{proc.stdout}\n{proc.stderr}"
    data = json.loads(out.read_text())
    assert not (isinstance(data, dict) and "lisp-error" in data), data
    return data


def test_byte_compiles_without_warnings(tmp_path):
    shutil.copy(MODE, tmp_path / MODE.name)
    proc = run(["emacs", "-batch", "-Q", "-L", tmp_path,
                "--eval", "(setq byte-compile-error-on-warn t)",
                "-f", "batch-byte-compile", tmp_path / MODE.name])
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "Warning" not in output and "Error" not in output, output
    assert (tmp_path / "taxpro-mode.elc").exists()


def test_mode_for_tax_files_and_comment_settings(tmp_path):
    data = emacs_eval(tmp_path, """
(result (list (cons 'mode major-mode)
              (cons 'derived (and (derived-mode-p 'prog-mode) t))
              (cons 'comment-start comment-start)
              (cons 'indent-offset taxpro-indent-offset)
              (cons 'tabs indent-tabs-mode)
              (cons 'syntax-hash (string (char-syntax ?#)))))
""", file=SAMPLES / "formulas.tax")
    assert data["mode"] == "taxpro-mode"
    assert data["derived"] is True
    assert data["comment-start"] == "# "
    assert data["indent-offset"] == 2
    assert data["tabs"] is None
    assert data["syntax-hash"] == "<"


FACE_CASES = [
    # (sample, text to find, occurrence, expected face)
    ("formulas.tax", "## Tax owed", 0, "font-lock-doc-face"),
    ("formulas.tax", "definition:", 0, "taxpro-doc-field-face"),
    ("formulas.tax", "topic:", 0, "taxpro-doc-field-face"),
    ("formulas.tax", "https://www.canada.ca", 0, "taxpro-doc-url-face"),
    ("formulas.tax", "a top-level constant", 0, "font-lock-comment-face"),
    ("formulas.tax", "formula provincial_tax", 0, "font-lock-keyword-face"),
    ("formulas.tax", "provincial_tax(\n", 0, "font-lock-function-name-face"),
    ("formulas.tax", "let before", 0, "font-lock-keyword-face"),
    ("formulas.tax", "if owed", 0, "font-lock-keyword-face"),
    ("formulas.tax", "then owed", 0, "font-lock-keyword-face"),
    ("formulas.tax", "and not", 0, "font-lock-keyword-face"),
    ("formulas.tax", "in $0", 0, "font-lock-keyword-face"),
    ("formulas.tax", "test \"", 0, "font-lock-keyword-face"),
    ("formulas.tax", "Money in", 0, "font-lock-type-face"),
    ("formulas.tax", "$100,000,000", 0, "taxpro-money-face"),
    ("formulas.tax", "$5,609.17", 0, "taxpro-money-face"),
    ("formulas.tax", "5.05%", 0, "taxpro-rate-face"),
    ("formulas.tax", "1_000", 0, "taxpro-number-face"),
    ("formulas.tax", "2.5", 0, "taxpro-number-face"),
    ("formulas.tax", "\"Tax", 0, "font-lock-string-face"),
    ("formulas.tax", "\\t", 0, "taxpro-escape-face"),
    ("formulas.tax", "false", 0, "font-lock-constant-face"),
    ("formulas.tax", "clamp(", 0, "font-lock-builtin-face"),
    ("formulas.tax", "tax(province", 0, "font-lock-builtin-face"),
    ("formulas.tax", "rrsp_refund($85", 0, "taxpro-function-call-face"),
    ("formulas.tax", "ON)", 0, "font-lock-constant-face"),
    ("formulas.tax", "federal.income_tax", 0, "font-lock-constant-face"),
    ("formulas.tax", "income_tax, income)", 0, "taxpro-member-face"),
    ("formulas.tax", "income: Money in", 0, "font-lock-variable-name-face"),
    ("formulas.tax", "==", 0, "taxpro-operator-face"),
    ("jurisdictions.tax", "province ON", 0, "font-lock-keyword-face"),
    ("jurisdictions.tax", "ON \"Ontario\"", 0, "font-lock-constant-face"),
    ("jurisdictions.tax", "federal \"Canada\"", 0, "font-lock-keyword-face"),
    ("jurisdictions.tax", "parameters Province", 0, "font-lock-keyword-face"),
    ("jurisdictions.tax", "Province {", 0, "font-lock-type-face"),
    ("jurisdictions.tax", "brackets {", 0, "font-lock-keyword-face"),
    ("jurisdictions.tax", "$52,886", 0, "taxpro-money-face"),
    ("jurisdictions.tax", "9.15%", 0, "taxpro-rate-face"),
    ("jurisdictions.tax", "->", 0, "taxpro-operator-face"),
]


@pytest.mark.parametrize("sample", ["formulas.tax", "jurisdictions.tax"])
def test_font_lock_faces(tmp_path, sample):
    cases = [c for c in FACE_CASES if c[0] == sample]
    lisp_cases = " ".join(f"({json.dumps(text)} {occurrence})" for _, text, occurrence, _ in cases)
    data = emacs_eval(tmp_path, f"""
(font-lock-ensure)
(result
 (vconcat
  (mapcar (lambda (case)
            (goto-char (point-min))
            (dotimes (_ (1+ (cadr case))) (search-forward (car case)))
            (let ((face (get-text-property (match-beginning 0) 'face)))
              (format "%s" (if (listp face) (car face) face))))
          '({lisp_cases}))))
""", file=SAMPLES / sample)
    got = {text: face for (_, text, _, _), face in zip(cases, data)}
    expected = {text: face for _, text, _, face in cases}
    assert got == expected


def test_malformed_money_is_a_warning(tmp_path):
    sample = tmp_path / "bad.tax"
    sample.write_text('let a = $1,23.00 + $0.015 + $1,234.56\n')
    data = emacs_eval(tmp_path, """
(font-lock-ensure)
(result (vconcat (mapcar (lambda (text)
                           (goto-char (point-min))
                           (search-forward text)
                           (format "%s" (get-text-property (match-beginning 0) 'face)))
                         '("$1,23.00" "$0.015" "$1,234.56"))))
""", file=sample)
    assert data == ["taxpro-invalid-face", "taxpro-invalid-face", "taxpro-money-face"]


def test_reindenting_a_flattened_file_restores_it(tmp_path):
    expected = (SAMPLES / "indent.tax").read_text()
    data = emacs_eval(tmp_path, """
(goto-char (point-min))
(while (re-search-forward "^[ \\t]+" nil t) (replace-match ""))
(indent-region (point-min) (point-max))
(result (buffer-substring-no-properties (point-min) (point-max)))
""", file=SAMPLES / "indent.tax")
    expected_lines, actual_lines = expected.split("\n"), data.split("\n")
    mismatches = [(n + 1, e, a) for n, (e, a) in enumerate(zip(expected_lines, actual_lines)) if e != a]
    assert not mismatches and len(expected_lines) == len(actual_lines), (
        f"first differences (line, expected, got): {mismatches[:5]}")


def test_imenu_lists_formulas_provinces_and_tests(tmp_path):
    data = emacs_eval(tmp_path, """
(require 'imenu)
(result (mapcar (lambda (group) (cons (car group) (vconcat (mapcar #'car (cdr group)))))
                (funcall imenu-create-index-function)))
""", file=SAMPLES / "indent.tax")
    assert data["Formulas"] == ["sample_tax", "sample_refund", "net_tax"]
    assert data["Provinces"] == ["ON"]
    assert data["Tests"] == ["Ontario tax on $85,000"]
    assert data["Parameters"] == ["Sample"]
    assert data["Constants"] == ["ontario_credit", "big", "small"]

    data = emacs_eval(tmp_path, """
(require 'imenu)
(result (mapcar (lambda (group) (cons (car group) (vconcat (mapcar #'car (cdr group)))))
                (funcall imenu-create-index-function)))
""", file=SAMPLES / "jurisdictions.tax")
    assert sorted(data["Provinces"]) == ["ON", "federal"]
    assert data["Parameters"] == ["Province", "Federal"]


def test_eglot_registration(tmp_path):
    """With Eglot loaded, the mode's entry in eglot-server-programs runs `taxpro lsp`."""
    data = emacs_eval(tmp_path, """
(unless (require 'eglot nil t) (package-initialize) (require 'eglot))
(let* ((entry (assq 'taxpro-mode eglot-server-programs))
       (contact (funcall (cdr entry) nil)))
  (result (list (cons 'program (car contact))
                (cons 'args (vconcat (seq-take-while #'stringp (cdr contact))))
                (cons 'init (json-encode (plist-get contact :initializationOptions))))))
""", site_lisp=True)
    assert data["program"] == "taxpro"
    assert data["args"] == ["lsp"]
    assert json.loads(data["init"]) == {"year": None, "inlayHints": True}
