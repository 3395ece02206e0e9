;;; 50taxpro.el --- TaxPro's major mode for .tax files (from the taxpro package)

;; taxpro-mode.el lies in /usr/share/emacs/site-lisp/taxpro/; load it when a .tax file is opened.
(let ((dir "/usr/share/emacs/site-lisp/taxpro"))
  (when (file-directory-p dir)
    (add-to-list 'load-path dir)
    (autoload 'taxpro-mode "taxpro-mode" "Major mode for editing TaxPro formula files." t)
    (add-to-list 'auto-mode-alist '("\\.tax\\'" . taxpro-mode))))
