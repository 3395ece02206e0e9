" Headless Vim or Neovim: flatten each file (every line's indentation removed) and re-indent it with gg=G.
"   PROBE_RTP    the package folder (editors/vim or editors/nvim), put first on 'runtimepath'
"   PROBE_FILES  the files, one a line: each is read, re-indented and written to FILE.out
"   PROBE_OUT    a JSON list of the errors met
set nocompatible
let s:errors = []
try
  let &runtimepath = $PROBE_RTP . ',' . &runtimepath
  filetype plugin indent on
  for s:file in split($PROBE_FILES, "\n")
    execute 'edit! ' . fnameescape(s:file)
    silent %s/^\s\+//e
    silent normal! gg=G
    call writefile(getline(1, '$'), s:file . '.out')
    if v:errmsg !=# ''
      call add(s:errors, s:file . ': ' . v:errmsg)
      let v:errmsg = ''
    endif
  endfor
catch
  call add(s:errors, v:exception . ' @ ' . v:throwpoint)
endtry
call writefile([json_encode(s:errors)], $PROBE_OUT)
qall!
