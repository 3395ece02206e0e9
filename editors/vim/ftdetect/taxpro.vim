" TaxPro formula files.
autocmd BufNewFile,BufRead *.tax setfiletype taxpro
