" Vim filetype plugin
" Language:     TaxPro (formula files, *.tax)

if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

" `# comment`; `## documentation` lines continue when you press Enter or `o` in them.
setlocal commentstring=#\ %s
setlocal comments=:##,:#
setlocal formatoptions-=t formatoptions+=croql
" Two spaces per level.
setlocal expandtab shiftwidth=2 softtabstop=2
setlocal iskeyword=a-z,A-Z,48-57,_
setlocal suffixesadd=.tax

let b:undo_ftplugin = 'setlocal commentstring< comments< formatoptions< expandtab< shiftwidth<'
      \ . ' softtabstop< iskeyword< suffixesadd<'
