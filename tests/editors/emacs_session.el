;;; emacs_session.el --- Batch Emacs: taxpro-mode + Eglot as a user runs them  -*- lexical-binding: t; -*-
;;
;; One scenario of tests/editors/test_sessions.py.  The server is `taxpro lsp' with the mode's defaults (found
;; on PATH); the project is whatever Eglot makes of a folder without version control.
;; Environment: CHECK_MODE_DIR (editors/emacs), CHECK_DIR (the folder of .tax files), CHECK_SCENARIO
;; (navigate | rename | year | recovery | examples), CHECK_OUT (JSON result), CHECK_TIMEOUT (seconds).

(require 'json)
(unless (require 'eglot nil t)
  (require 'package)
  (package-initialize)
  (require 'eglot))
(require 'flymake)
(require 'xref)
(load (expand-file-name "taxpro-mode.el" (getenv "CHECK_MODE_DIR")) nil t)

(defvar check-result nil)
(defvar check-errors nil)
(defvar check-timeout (string-to-number (or (getenv "CHECK_TIMEOUT") "20")))
(defvar check-dir (file-name-as-directory (getenv "CHECK_DIR")))

(defun check-put (key value) (push (cons key value) check-result))

(defun check-wait (predicate)
  "Wait until PREDICATE returns non-nil or the timeout passes; return its last value."
  (let ((deadline (+ (float-time) check-timeout)) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.1))
    value))

(defun check-open (name)
  "Visit NAME in the folder and connect Eglot to it; return the buffer."
  (find-file (expand-file-name name check-dir))
  (unless (eglot-current-server)
    (apply #'eglot (eglot--guess-contact)))
  (check-wait #'eglot-current-server)
  (current-buffer))

(defun check-goto (needle)
  (goto-char (point-min))
  (search-forward needle)
  (goto-char (match-beginning 0)))

(defun check-request (method params)
  (condition-case err
      (jsonrpc-request (eglot-current-server) method params)
    (error (push (format "%s: %S" method err) check-errors) nil)))

(defun check-hover-text (needle)
  (check-goto needle)
  (let* ((result (check-request :textDocument/hover (eglot--TextDocumentPositionParams)))
         (contents (and result (plist-get result :contents))))
    (cond ((null contents) nil)
          ((stringp contents) contents)
          ((plist-get contents :value))
          (t (mapconcat (lambda (part) (if (stringp part) part (plist-get part :value))) contents "\n")))))

(defun check-hover-until (needle accept)
  (let (text)
    (check-wait (lambda () (setq text (check-hover-text needle)) (and text (funcall accept text))))
    text))

(defun check-diagnostics (buffer)
  (with-current-buffer buffer
    (flymake-start)
    (vconcat
     (mapcar (lambda (d)
               (list (cons 'line (line-number-at-pos (flymake-diagnostic-beg d)))
                     (cons 'type (format "%s" (flymake-diagnostic-type d)))
                     (cons 'text (flymake-diagnostic-text d))))
             (flymake-diagnostics)))))

(defun check-navigate ()
  (let ((b (check-open "b.tax")))
    (check-put 'managed (and (eglot-current-server) t))
    (check-put 'root (let ((project (eglot--project (eglot-current-server))))
                       (expand-file-name (project-root project))))
    (check-put 'hover_sibling (check-hover-until "helper(x)" (lambda (text) (string-match-p "Doubles" text))))
    (check-put 'b_diagnostics (progn (accept-process-output nil 1) (check-diagnostics b)))
    ;; M-. on `helper' in b.tax.
    (check-goto "helper(x)")
    (forward-char 2)
    (xref-find-definitions (xref-backend-identifier-at-point (xref-find-backend)))
    (check-put 'gd_file (file-name-nondirectory (or (buffer-file-name) "")))
    (check-put 'gd_line (1- (line-number-at-pos)))))

(defun check-rename ()
  (let ((a (check-open "a.tax"))
        (b (check-open "b.tax")))
    (check-put 'managed (and (eglot-current-server) t))
    (check-put 'hover_sibling (check-hover-until "helper(x)" (lambda (text) (string-match-p "Doubles" text))))
    (accept-process-output nil 1)
    (check-put 'b_before (check-diagnostics b))
    (with-current-buffer a
      (check-goto "helper")
      (delete-char (length "helper"))
      (insert "helper_two")
      ;; Eglot sends the change when Emacs is idle, which it never is in batch mode: send it as that timer would.
      (eglot--signal-textDocument/didChange))
    (check-wait (lambda () (> (length (check-diagnostics b)) 0)))
    (check-put 'b_after (check-diagnostics b))))

(defun check-year ()
  (check-open "year.tax")
  (check-put 'managed (and (eglot-current-server) t))
  (let ((latest (check-hover-until "basic_personal_amount" (lambda (text) (string-match-p "\\$" text))))
        after-2025 after-reset)
    (check-put 'latest latest)
    (taxpro-set-year 2025)
    (check-wait (lambda () (setq after-2025 (check-hover-text "basic_personal_amount"))
                  (not (equal after-2025 latest))))
    (check-put 'after_2025 after-2025)
    (taxpro-set-year nil)
    (check-wait (lambda () (setq after-reset (check-hover-text "basic_personal_amount"))
                  (not (equal after-reset after-2025))))
    (check-put 'after_reset after-reset)))

(defun check-recovery ()
  (let ((r (check-open "recovery.tax"))
        (identifier (list :uri (eglot--path-to-uri (expand-file-name "recovery.tax" check-dir)))))
    (check-put 'managed (and (eglot-current-server) t))
    (check-wait (lambda () (> (length (check-diagnostics r)) 0)))
    (check-put 'diagnostics (check-diagnostics r))
    (check-put 'symbols (vconcat (mapcar (lambda (symbol) (plist-get symbol :name))
                                         (check-request :textDocument/documentSymbol
                                                        (list :textDocument identifier)))))
    (check-put 'hover (list (cons "double($2)" (check-hover-text "double($2)"))
                            (cons "triple($1)" (check-hover-text "triple($1)"))))
    (let ((hints (check-request :textDocument/inlayHint
                                (list :textDocument identifier
                                      :range (list :start (list :line 0 :character 0)
                                                   :end (list :line (count-lines (point-min) (point-max))
                                                              :character 0))))))
      (check-put 'hint_lines (vconcat (mapcar (lambda (hint) (plist-get (plist-get hint :position) :line))
                                              hints))))))

(defun check-examples ()
  "Every example (CHECK_FILES, separated by colons), then a sentinel with one known error: once its error has
arrived, the server has analysed the folder, and the examples' diagnostics are what the user sees."
  (let* ((buffers (mapcar (lambda (name) (cons name (check-open name)))
                          (split-string (or (getenv "CHECK_FILES") "") ":" t)))
         (sentinel (check-open "zz_sentinel.tax")))
    (check-put 'sentinel (and (check-wait (lambda () (> (length (check-diagnostics sentinel)) 0))) t))
    (accept-process-output nil 1)
    (check-put 'examples (mapcar (lambda (entry) (cons (car entry) (check-diagnostics (cdr entry)))) buffers))))

(condition-case err
    (funcall (intern (concat "check-" (getenv "CHECK_SCENARIO"))))
  (error (push (format "%S" err) check-errors)))
(with-temp-file (getenv "CHECK_OUT")
  (insert (json-encode (append check-result (list (cons 'errors (vconcat (reverse check-errors))))))))
(ignore-errors (eglot-shutdown (eglot-current-server)))
(kill-emacs 0)
