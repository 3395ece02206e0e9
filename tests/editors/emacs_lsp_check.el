;;; emacs_lsp_check.el --- Batch Emacs: taxpro-mode + Eglot against a TaxPro language server  -*- lexical-binding: t; -*-
;;
;; Environment: CHECK_MODE_DIR (editors/emacs), CHECK_SERVER (the taxpro executable),
;; CHECK_FILE (a .tax file with a mistake), CHECK_OUT (JSON result), CHECK_TIMEOUT (seconds).
;; Opens the file in taxpro-mode, connects Eglot through the mode's registration in
;; `eglot-server-programs', waits for Flymake diagnostics and writes what it saw.

(require 'json)
(unless (require 'eglot nil t)
  (require 'package)
  (package-initialize)
  (require 'eglot))
(require 'flymake)
(load (expand-file-name "taxpro-mode.el" (getenv "CHECK_MODE_DIR")) nil t)

(defvar check-result nil)
(defvar check-errors nil)
(defvar check-timeout (string-to-number (or (getenv "CHECK_TIMEOUT") "20")))

(defun check-write ()
  (with-temp-file (getenv "CHECK_OUT")
    (insert (json-encode (append check-result
                                 (list (cons 'errors (vconcat (reverse check-errors)))))))))

(condition-case err
    (progn
      (setq taxpro-server-program (getenv "CHECK_SERVER"))
      ;; The file's directory is the project, even without version control.
      (add-hook 'project-find-functions (lambda (dir) (cons 'transient dir)) 90)
      (find-file (getenv "CHECK_FILE"))
      (push (cons 'mode major-mode) check-result)
      (let* ((entry (assq 'taxpro-mode eglot-server-programs))
             (contact (and entry (funcall (cdr entry) nil))))
        (push (cons 'contact (vconcat (seq-take-while #'stringp contact))) check-result))
      (apply #'eglot (eglot--guess-contact))
      (push (cons 'managed (and (eglot-current-server) t)) check-result)
      (let ((deadline (+ (float-time) check-timeout)))
        (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
          (flymake-start)
          (accept-process-output nil 0.1)))
      (push (cons 'diagnostics
                  (vconcat
                   (mapcar (lambda (d)
                             (let ((beg (flymake-diagnostic-beg d)))
                               (list (cons 'line (line-number-at-pos beg))
                                     (cons 'column (save-excursion (goto-char beg) (current-column)))
                                     (cons 'type (format "%s" (flymake-diagnostic-type d)))
                                     (cons 'text (flymake-diagnostic-text d)))))
                           (flymake-diagnostics))))
            check-result)
      (ignore-errors (eglot-shutdown (eglot-current-server))))
  (error (push (format "%S" err) check-errors)))
(check-write)
(kill-emacs 0)
