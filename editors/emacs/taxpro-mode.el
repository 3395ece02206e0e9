;;; taxpro-mode.el --- Major mode for TaxPro formula files  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages
;; URL: https://example.invalid/taxpro

;; This file is not part of GNU Emacs.

;;; Commentary:

;; TaxPro is a small, statically typed language for Canadian tax formulas
;; (files ending in .tax).  This mode provides:
;;
;; - highlighting of comments, documentation comments (## ...) and their fields
;;   (definition:, tip:, ...), keywords, declarations, types, money ($85,000.00),
;;   rates (5.05%), numbers, text, built-in functions, calls, province codes and
;;   members (ON.income_tax);
;; - indentation as `taxpro fmt' lays code out (2 spaces inside { } and ( ), for a
;;   formula's body and an `if' branch; 4 for a line continuing with an operator);
;; - comment settings, imenu (formulas, provinces, parameters, tests, constants);
;; - Eglot registration for the language server `taxpro lsp'.
;;
;; Install: put this file on `load-path' and add (require 'taxpro-mode), or see
;; editors/emacs/README.md for use-package.

;;; Code:

(require 'subr-x)

(defgroup taxpro nil
  "Major mode for TaxPro formula files."
  :group 'languages
  :prefix "taxpro-")

(defcustom taxpro-indent-offset 2
  "Number of spaces for each indentation step in `taxpro-mode'."
  :type 'integer
  :safe #'integerp)

(defcustom taxpro-server-program "taxpro"
  "The `taxpro' executable that runs the language server (`taxpro lsp')."
  :type 'string)

(defcustom taxpro-lsp-year nil
  "Tax year the language server uses for parameters, or nil for the latest year."
  :type '(choice (const :tag "Latest year with data" nil) integer))

(defcustom taxpro-lsp-inlay-hints t
  "Whether the language server sends inlay hints (values of tests and constants)."
  :type 'boolean)

;;;; Faces

(defface taxpro-money-face
  `((t :inherit ,(if (facep 'font-lock-number-face) 'font-lock-number-face 'font-lock-constant-face)))
  "Face for money literals such as $85,000.00.")

(defface taxpro-rate-face
  `((t :inherit ,(if (facep 'font-lock-number-face) 'font-lock-number-face 'font-lock-constant-face)))
  "Face for rate literals such as 5.05%.")

(defface taxpro-number-face
  `((t :inherit ,(if (facep 'font-lock-number-face) 'font-lock-number-face 'font-lock-constant-face)))
  "Face for number literals such as 1_000 and 2.5.")

(defface taxpro-invalid-face
  '((t :inherit font-lock-warning-face))
  "Face for malformed literals such as $1,23.00 or $0.015.")

(defface taxpro-doc-field-face
  `((t :inherit ,(if (facep 'font-lock-doc-markup-face) 'font-lock-doc-markup-face 'font-lock-keyword-face)))
  "Face for documentation fields such as `definition:' and `tip:'.")

(defface taxpro-doc-url-face
  '((t :inherit (link font-lock-doc-face)))
  "Face for URLs in documentation comments.")

(defface taxpro-doc-code-face
  `((t :inherit ,(if (facep 'font-lock-doc-markup-face) 'font-lock-doc-markup-face 'font-lock-constant-face)))
  "Face for `code' spans in documentation comments.")

(defface taxpro-escape-face
  `((t :inherit ,(if (facep 'font-lock-escape-face) 'font-lock-escape-face 'font-lock-regexp-grouping-backslash)))
  "Face for escapes such as \\n in text literals.")

(defface taxpro-function-call-face
  `((t :inherit ,(if (facep 'font-lock-function-call-face) 'font-lock-function-call-face 'font-lock-function-name-face)))
  "Face for calls of formulas.")

(defface taxpro-member-face
  `((t :inherit ,(if (facep 'font-lock-property-use-face) 'font-lock-property-use-face 'font-lock-variable-name-face)))
  "Face for members after a dot, such as income_tax in ON.income_tax.")

(defface taxpro-operator-face
  `((t :inherit ,(if (facep 'font-lock-operator-face) 'font-lock-operator-face 'default)))
  "Face for operators such as -> .. == and +.")

;;;; Syntax

(defvar taxpro-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?\( "()" table)
    (modify-syntax-entry ?\) ")(" table)
    (modify-syntax-entry ?\{ "(}" table)
    (modify-syntax-entry ?\} "){" table)
    (modify-syntax-entry ?\[ "." table)
    (modify-syntax-entry ?\] "." table)
    (dolist (c '(?$ ?% ?+ ?- ?* ?/ ?= ?< ?> ?! ?. ?, ?: ?' ?`))
      (modify-syntax-entry c "." table))
    table)
  "Syntax table for `taxpro-mode'.")

(defconst taxpro--identifier "[A-Za-z_][A-Za-z0-9_]*")

(defconst taxpro--expression-keywords
  '("if" "then" "else" "and" "or" "not" "in" "mod" "of" "true" "false")
  "Keywords that can follow `province' without it declaring a province.")

(defconst taxpro-builtins
  '("min" "max" "abs" "round" "floor" "ceil" "clamp" "tax" "marginal_rate" "average_rate" "sqrt"
    "ln" "exp" "log10")
  "Built-in functions.")

(defconst taxpro-types '("Money" "Rate" "Number" "Bool" "Text" "Province" "Brackets")
  "Built-in types.")

(defconst taxpro-provinces
  '("AB" "BC" "MB" "NB" "NL" "NS" "NT" "NU" "ON" "PE" "QC" "SK" "YT")
  "The thirteen province and territory codes.")

(defconst taxpro-doc-fields
  '("definition" "instruction" "tip" "topic" "reference" "note" "example" "parts")
  "Fields of a documentation comment.")

(defconst taxpro--money-token
  "\\$[0-9]\\(?:[0-9_]\\|,[0-9]\\)*\\(?:\\.[0-9][0-9_]*\\)?"
  "A money token as the lexer reads it, valid or not.")

(defconst taxpro--valid-money
  "\\`\\$\\(?:[0-9]\\{1,3\\}\\(?:,[0-9]\\{3\\}\\)+\\|[0-9][0-9_]*\\)\\(?:\\.[0-9]\\{1,2\\}\\)?\\'"
  "A well-formed money literal.
Commas group digits in threes; at most two decimals.")

;;;; Font lock

(defun taxpro--in-doc-comment-p (pos)
  "Return non-nil if POS is inside a `##' documentation comment."
  (let ((state (save-excursion (syntax-ppss pos))))
    (and (nth 4 state)
         (save-excursion
           (goto-char (nth 8 state))
           (looking-at-p "##")))))

(defun taxpro--doc-matcher (regexp)
  "Return a font-lock matcher for REGEXP inside documentation comments."
  (lambda (limit)
    (let (found)
      (while (and (not found) (re-search-forward regexp limit t))
        (when (taxpro--in-doc-comment-p (match-end 0))
          (setq found t)))
      found)))

(defun taxpro--code-matcher (regexp)
  "Return a font-lock matcher for REGEXP outside comments and strings."
  (lambda (limit)
    (let (found)
      (while (and (not found) (re-search-forward regexp limit t))
        (let ((state (save-excursion (syntax-ppss (match-beginning 0)))))
          (unless (or (nth 3 state) (nth 4 state))
            (setq found t))))
      found)))

(defun taxpro--string-escape-matcher (limit)
  "Font-lock matcher for escapes inside text literals, up to LIMIT."
  (let (found)
    (while (and (not found) (re-search-forward "\\\\." limit t))
      (when (nth 3 (save-excursion (syntax-ppss (match-beginning 0))))
        (setq found t)))
    found))

(defun taxpro--province-declaration-matcher (limit)
  "Font-lock matcher for `province NAME', up to LIMIT.
Elsewhere `province' may name a parameter (`province: Province')."
  (let (found)
    (while (and (not found)
                (re-search-forward
                 (concat "\\_<\\(province\\)[ \t]+\\(" taxpro--identifier "\\)")
                 limit t))
      (unless (member (match-string 2) taxpro--expression-keywords)
        (setq found t)))
    found))

(defun taxpro--money-face ()
  "Face for the money token just matched."
  (if (string-match-p taxpro--valid-money (match-string 0))
      'taxpro-money-face
    'taxpro-invalid-face))

(defvar taxpro-font-lock-keywords
  (let ((id taxpro--identifier))
    `(
      ;; Documentation comments: fields, URLs, `code'.
      (,(taxpro--doc-matcher
         (concat "##[ \t]*\\(" (regexp-opt taxpro-doc-fields) ":\\)"))
       1 'taxpro-doc-field-face t)
      (,(taxpro--doc-matcher
         "\\_<https?://[^] \t\n<>\"'`()[]*[^] \t\n<>\"'`()[.,;:!?]")
       0 'taxpro-doc-url-face t)
      (,(taxpro--doc-matcher "`[^`\n]*`") 0 'taxpro-doc-code-face t)
      ;; Escapes in text.
      (taxpro--string-escape-matcher
       0 (if (memq (char-after (1+ (match-beginning 0))) '(?\" ?\\ ?n ?t))
             'taxpro-escape-face
           'taxpro-invalid-face)
       t)
      ;; Declarations and their names.
      (,(concat "\\_<\\(formula\\)\\_>\\(?:[ \t]+\\(" id "\\)\\)?")
       (1 'font-lock-keyword-face) (2 'font-lock-function-name-face nil t))
      (,(concat "\\_<\\(let\\)\\_>\\(?:[ \t]+\\(" id "\\)\\)?")
       (1 'font-lock-keyword-face) (2 'font-lock-variable-name-face nil t))
      (,(concat "\\_<\\(parameters\\)\\_>\\(?:[ \t]+\\(" id "\\)\\)?")
       (1 'font-lock-keyword-face) (2 'font-lock-type-face nil t))
      (taxpro--province-declaration-matcher
       (1 'font-lock-keyword-face) (2 'font-lock-constant-face))
      ("\\_<\\(federal\\)[ \t]*[\"{]" 1 'font-lock-keyword-face)
      (,(regexp-opt '("test" "year" "brackets" "if" "then" "else" "and" "or" "not" "in" "mod" "of") 'symbols)
       . 'font-lock-keyword-face)
      ;; Literals.
      (,(taxpro--code-matcher taxpro--money-token) 0 (taxpro--money-face))
      ("\\_<[0-9][0-9_]*\\(?:\\.[0-9][0-9_]*\\)?%" . 'taxpro-rate-face)
      ("\\_<[0-9][0-9_]*\\(?:\\.[0-9][0-9_]*\\)?" . 'taxpro-number-face)
      (,(regexp-opt '("true" "false") 'symbols) . 'font-lock-constant-face)
      ;; Types, jurisdictions.
      (,(regexp-opt taxpro-types 'symbols) . 'font-lock-type-face)
      (,(regexp-opt (cons "federal" taxpro-provinces) 'symbols) . 'font-lock-constant-face)
      ;; Calls.
      (,(concat (regexp-opt taxpro-builtins 'symbols) "[ \t]*(") 1 'font-lock-builtin-face)
      (,(concat "\\_<\\(" id "\\)[ \t]*(") 1 'taxpro-function-call-face)
      ;; Members, parameters.
      (,(concat "[^.]\\.[ \t]*\\(" id "\\)") 1 'taxpro-member-face)
      (,(concat "^[ \t]*\\(" id "\\)[ \t]*=\\(?:[^=]\\|$\\)") 1 'taxpro-member-face)
      (,(concat "\\_<\\(" id "\\)[ \t]*:") 1 'font-lock-variable-name-face)
      ;; Operators.
      ("->\\|\\.\\.\\|[=!<>]=\\|[-+*/<>=^×÷−]" . 'taxpro-operator-face)))
  "Font-lock keywords for `taxpro-mode'.")

(defun taxpro--syntactic-face (state)
  "Face for the string or comment described by syntax STATE."
  (cond ((nth 3 state) 'font-lock-string-face)
        ((save-excursion
           (goto-char (nth 8 state))
           (looking-at-p "##"))
         'font-lock-doc-face)
        (t 'font-lock-comment-face)))

;;;; Indentation
;;
;; The indentation `taxpro fmt' gives, worked out from the lines above (the rules of
;; editors/README.md, shared with editors/vim/indent/taxpro.vim):
;; - a line starting with `}' or `)' lines up with the line of its opening bracket;
;; - inside ( ) or { } a statement (an argument, a check, a parameter) starts at the opening
;;   line's indentation + 2; at top level at the left margin, except in a formula's body;
;; - the body of `formula ... =' is indented 2; it goes on while its statements are `let's,
;;   and the line after its final expression is back at the left margin;
;; - `if ... then' at the end of a line: the branch below is indented 2; `else' and
;;   `else if ... then' line up with the line of their `if', and the branch after them is
;;   indented 2;
;; - a line starting with a binary operator followed by a space (`+ x', `/ $100', `and ok')
;;   continues the statement above: 4 more than the statement's first line, and the same as
;;   the line above when that is such a continuation too (`-x' with no space is a negation);
;; - after a line ending with an operator, `=' or `->', the next line is indented the same way;
;; - declarations (formula, test, parameters, province, federal) and `##' documentation
;;   comments at top level start at the left margin.

(defconst taxpro--operator-start-re
  (concat "[ \t]*\\(?:\\(?:[-+*/]\\|[=!<>]=\\|[<>]\\)\\(?:[ \t]\\|$\\)"
          "\\|\\(?:and\\|or\\)\\_>\\)")
  "Matches a line that starts with a binary operator followed by a space.")

(defconst taxpro--operator-end-re
  "\\(?:[-+*/<>=]\\|\\_<\\(?:and\\|or\\|not\\|in\\)\\)\\'"
  "Matches code that ends so that the next line continues its expression.")

(defconst taxpro--branch-start-re "[ \t]*\\(?:then\\|else\\)\\_>"
  "Matches a line that starts with `then' or `else'.")

(defconst taxpro--branch-end-re "\\_<\\(?:then\\|else\\)\\'"
  "Matches code that ends with `then' or `else': a branch follows on the next line.")

(defconst taxpro--top-level-re
  "\\(?:formula\\|test\\|parameters\\|province\\|federal\\|let\\)\\_>"
  "Matches a line that starts a top-level declaration in the first column.")

(defconst taxpro--declaration-re
  (concat "[ \t]*\\(?:##\\|\\(?:formula\\|test\\|parameters\\)\\_>"
          "\\|province[ \t]+[A-Za-z_]\\|federal[ \t]*[\"{]\\)")
  "Matches a line that starts a top-level declaration or its documentation.")

(defun taxpro--line-code (pos)
  "The code of the line at POS.
Text literals are blanked out; the comment and trailing blanks are removed."
  (save-excursion
    (goto-char pos)
    (let* ((text (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
           (n (length text))
           (i 0)
           (in-text nil)
           (out (make-string n ?\s))
           (end n))
      (while (< i n)
        (let ((c (aref text i)))
          (cond
           (in-text
            (cond ((eq c ?\\) (setq i (1+ i)))
                  ((eq c ?\") (setq in-text nil) (aset out i c))))
           ((eq c ?#) (setq end i i n))
           (t (when (eq c ?\") (setq in-text t))
              (aset out i c))))
        (setq i (1+ i)))
      (string-trim-right (substring out 0 (min end n))))))

(defun taxpro--code-line-p ()
  "Non-nil if the current line holds code (not blank, not only a comment)."
  (not (string-empty-p (string-trim (taxpro--line-code (point))))))

(defun taxpro--previous-code-line (limit)
  "Beginning of the previous code line after LIMIT, or nil."
  (save-excursion
    (let (found)
      (while (and (not found)
                  (zerop (forward-line -1))
                  (> (line-end-position) (or limit 0)))
        (when (taxpro--code-line-p)
          (setq found (line-beginning-position))))
      (and found (or (null limit) (> found limit)) found))))

(defun taxpro--anchor (pos depth)
  "Beginning of the line where the statement part at POS starts.
When the line at POS begins inside brackets deeper than DEPTH, that is the line
of the outermost such bracket."
  (save-excursion
    (goto-char pos)
    (let ((opens (nth 9 (syntax-ppss (line-beginning-position)))))
      (when (> (length opens) depth)
        (goto-char (nth depth opens)))
      (line-beginning-position))))

(defun taxpro--looking-at-line-p (pos regexp)
  "Non-nil if the line at POS starts with REGEXP (from its first column)."
  (save-excursion
    (goto-char pos)
    (beginning-of-line)
    (looking-at-p regexp)))

(defun taxpro--formula-header-p (pos)
  "Non-nil if the line at POS begins with `formula'."
  (taxpro--looking-at-line-p pos "[ \t]*formula\\_>"))

(defun taxpro--after-operator-p (anchor limit depth)
  "Non-nil if the code line above ANCHOR ends with an operator that it continues.
The `=' of a formula's header starts the body instead.  LIMIT is the enclosing
bracket (or nil) and DEPTH its depth."
  (let* ((prev (save-excursion (goto-char anchor) (taxpro--previous-code-line limit)))
         (code (and prev (taxpro--line-code prev))))
    (and code
         (string-match-p taxpro--operator-end-re code)
         (not (and (string-match-p "=\\'" code)
                   (taxpro--formula-header-p (taxpro--anchor prev depth)))))))

(defun taxpro--operator-continuation-p (anchor limit depth)
  "Non-nil if the line at ANCHOR continues an expression with an operator.
It starts with one, or the line above ends with one."
  (or (taxpro--looking-at-line-p anchor taxpro--operator-start-re)
      (taxpro--after-operator-p anchor limit depth)))

(defun taxpro--continuation-p (anchor limit depth)
  "Non-nil if the line at ANCHOR belongs to the statement above.
That is an operator continuation, an `else' (or `then') line, or a branch below
`then' or `else'.  LIMIT is the enclosing bracket (or nil) and DEPTH its depth."
  (or (taxpro--operator-continuation-p anchor limit depth)
      (taxpro--looking-at-line-p anchor taxpro--branch-start-re)
      (let ((prev (save-excursion (goto-char anchor) (taxpro--previous-code-line limit))))
        (and prev (string-match-p taxpro--branch-end-re (taxpro--line-code prev))))))

(defun taxpro--statement-start (anchor limit depth)
  "First line of the statement that the line at ANCHOR belongs to.
LIMIT is the enclosing bracket (or nil) and DEPTH its depth."
  (let ((start anchor))
    (while (and (taxpro--continuation-p start limit depth)
                (let ((prev (save-excursion (goto-char start) (taxpro--previous-code-line limit))))
                  (when prev
                    (setq start (taxpro--anchor prev depth))))))
    start))

(defun taxpro--matching-if (pos limit)
  "Beginning of the line of the `if' for a `then' or `else' line at POS.
Going up, each `else' passed over needs one more `if'.  Nil when there is none
after LIMIT (the enclosing bracket) or, at top level, in the declaration."
  (save-excursion
    (goto-char pos)
    (let ((depth 0) found)
      (while (and (not found)
                  (zerop (forward-line -1))
                  (or (null limit) (> (line-beginning-position) limit)))
        (let ((code (taxpro--line-code (point)))
              (words nil)
              (start 0))
          (while (string-match "\\_<\\(if\\|else\\)\\_>" code start)
            (push (match-string 1 code) words)
            (setq start (match-end 0)))
          ;; `words' is now from the right to the left.
          (while (and words (not found))
            (if (string= (car words) "else")
                (setq depth (1+ depth))
              (if (zerop depth)
                  (setq found (line-beginning-position))
                (setq depth (1- depth))))
            (setq words (cdr words)))
          (when (and (not found) (null limit) (looking-at-p taxpro--top-level-re))
            (goto-char (point-min)))))
      found)))

(defun taxpro--next-code-line ()
  "Beginning of the next line with code after the current one, or nil."
  (save-excursion
    (let (found)
      (while (and (not found) (zerop (forward-line 1)) (not (eobp)))
        (unless (string-match-p "\\`[ \t]*\\'" (taxpro--line-code (point)))
          (setq found (line-beginning-position))))
      found)))

(defun taxpro--indentation-at (pos)
  "Indentation of the line at POS."
  (save-excursion (goto-char pos) (current-indentation)))

(defun taxpro-calculate-indentation ()
  "Return the column the current line should be indented to, or nil to leave it."
  (save-excursion
    (beginning-of-line)
    (let* ((state (syntax-ppss))
           (open (nth 1 state))
           (depth (car state))
           (step taxpro-indent-offset))
      (cond
       ((nth 3 state) nil)
       ((and open (looking-at-p "[ \t]*[])}]"))
        (taxpro--indentation-at open))
       (t
        (let* ((top (null open))
               (base (if top 0 (+ (taxpro--indentation-at open) step)))
               (prev (taxpro--previous-code-line open)))
          (cond
           ((and top (looking-at-p "[ \t]*##"))
            ;; Documentation goes where what it documents goes: a `let' of a formula's body is indented.
            (let ((next (taxpro--next-code-line)))
              (or (and next (save-excursion (goto-char next) (taxpro-calculate-indentation))) 0)))
           ((and top (looking-at-p taxpro--declaration-re)) 0)
           ((null prev) base)
           (t
            (let* ((anchor (taxpro--anchor prev depth))
                   (indent (taxpro--indentation-at anchor))
                   (code (taxpro--line-code prev))
                   (if-line (and (looking-at-p taxpro--branch-start-re)
                                 (taxpro--matching-if (point) open))))
              (cond
               (if-line
                ;; `else' under a line ending in `then' lines up with it; a user's
                ;; `if c' / `then a' / `else b' indents `then' and `else' as continuations.
                (+ (taxpro--indentation-at (taxpro--anchor if-line depth))
                   (if (and (looking-at-p "[ \t]*else\\_>")
                            (string-match-p "\\_<then\\'" (taxpro--line-code if-line)))
                       0
                     (* 2 step))))
               ((string-match-p taxpro--branch-end-re code) (+ indent step))
               ((looking-at-p taxpro--operator-start-re)
                (+ indent (if (taxpro--looking-at-line-p anchor taxpro--operator-start-re) 0 (* 2 step))))
               ((string-match-p taxpro--operator-end-re code)
                (cond ((and (string-match-p "=\\'" code) (taxpro--formula-header-p anchor))
                       (+ indent step))
                      ((taxpro--operator-continuation-p anchor open depth) indent)
                      (t (+ indent (* 2 step)))))
               ((not top) base)
               (t
                (let ((start (taxpro--statement-start anchor open depth)))
                  (if (taxpro--looking-at-line-p start "[ \t]*let\\_>")
                      (taxpro--indentation-at start)
                    0)))))))))))))

(defun taxpro-indent-line ()
  "Indent the current line as TaxPro code."
  (interactive)
  (let ((column (taxpro-calculate-indentation))
        (offset (- (current-column) (current-indentation))))
    (when column
      (indent-line-to (max 0 column))
      (when (> offset 0)
        (move-to-column (+ column offset))))))

;;;; Imenu

(defvar taxpro-imenu-generic-expression
  `(("Constants" ,(concat "^let[ \t]+\\(" taxpro--identifier "\\)") 1)
    ("Tests" "^[ \t]*test[ \t]+\"\\([^\"\n]*\\)\"" 1)
    ("Parameters" ,(concat "^[ \t]*parameters[ \t]+\\(" taxpro--identifier "\\)") 1)
    ("Provinces" ,(concat "^[ \t]*province[ \t]+\\(" taxpro--identifier "\\)") 1)
    ("Provinces" "^[ \t]*\\(federal\\)[ \t]*[\"{]" 1)
    ("Formulas" ,(concat "^[ \t]*formula[ \t]+\\(" taxpro--identifier "\\)") 1))
  "Imenu entries for `taxpro-mode'.")

;;;; Language server (Eglot)

(defvar eglot-server-programs)
(declare-function eglot-current-server "eglot" ())
(declare-function jsonrpc-notify "jsonrpc" (connection method params))

(defun taxpro--lsp-options ()
  "The initializationOptions and settings sent to `taxpro lsp'."
  (list :year taxpro-lsp-year
        :inlayHints (if taxpro-lsp-inlay-hints t :json-false)))

(defun taxpro-eglot-contact (&rest _)
  "How Eglot starts the TaxPro language server: `taxpro lsp'."
  (list taxpro-server-program "lsp"
        :initializationOptions (taxpro--lsp-options)))

(defun taxpro-set-year (year)
  "Use tax YEAR (nil for the latest) and tell the running language server."
  (interactive (list (let ((s (read-string "Tax year (empty for latest): ")))
                       (unless (string-empty-p s) (string-to-number s)))))
  (setq taxpro-lsp-year year)
  (when-let ((server (and (fboundp 'eglot-current-server) (eglot-current-server))))
    (jsonrpc-notify server :workspace/didChangeConfiguration
                    (list :settings (list :taxpro (taxpro--lsp-options))))))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(taxpro-mode . taxpro-eglot-contact)))

;;;; Mode

;;;###autoload
(define-derived-mode taxpro-mode prog-mode "TaxPro"
  "Major mode for editing TaxPro formula files.

\\{taxpro-mode-map}"
  :syntax-table taxpro-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "#+[ \t]*")
  (setq-local comment-use-syntax t)
  (setq-local font-lock-defaults
              '(taxpro-font-lock-keywords nil nil nil nil
                (font-lock-syntactic-face-function . taxpro--syntactic-face)))
  (setq-local indent-line-function #'taxpro-indent-line)
  (setq-local indent-tabs-mode nil)
  (setq-local tab-width taxpro-indent-offset)
  (setq-local electric-indent-chars (append '(?\} ?\)) electric-indent-chars))
  (setq-local imenu-generic-expression taxpro-imenu-generic-expression)
  (setq-local imenu-case-fold-search nil))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.tax\\'" . taxpro-mode))

(provide 'taxpro-mode)

;;; taxpro-mode.el ends here
