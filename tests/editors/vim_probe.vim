" Headless probe for Vim and Neovim, sourced with -S after `-u NONE`:
"   PROBE_RTP     the package folder (editors/vim or editors/nvim), put first on 'runtimepath'
"   PROBE_FILE    a .tax file: its filetype, options and the syntax group of every character
"   PROBE_INDENT  a .tax file: flattened and re-indented with gg=G
"   PROBE_OUT     where the JSON result is written
set nocompatible
let s:out = {'errors': []}

function! s:Check(step) abort
  if v:errmsg !=# ''
    call add(s:out.errors, a:step . ': ' . v:errmsg)
    let v:errmsg = ''
  endif
endfunction

try
  let &runtimepath = $PROBE_RTP . ',' . &runtimepath
  filetype plugin indent on
  syntax on
  call s:Check('setup')

  execute 'edit ' . fnameescape($PROBE_FILE)
  call s:Check('edit')
  let s:out.filetype = &filetype
  let s:out.syntax_name = get(b:, 'current_syntax', '')
  let s:out.commentstring = &commentstring
  let s:out.comments = &comments
  let s:out.shiftwidth = &shiftwidth
  let s:out.expandtab = &expandtab
  let s:out.indentexpr = &indentexpr
  " groups[line][col]: the syntax group of each character (empty for none).
  let s:out.groups = []
  for s:lnum in range(1, line('$'))
    let s:row = []
    for s:col in range(1, strlen(getline(s:lnum)))
      call add(s:row, synIDattr(synID(s:lnum, s:col, 1), 'name'))
    endfor
    call add(s:out.groups, s:row)
  endfor
  call s:Check('syntax')

  if $PROBE_INDENT !=# ''
    execute 'edit ' . fnameescape($PROBE_INDENT)
    silent %s/^\s\+//e
    normal! gg=G
    let s:out.reindented = getline(1, '$')
    call s:Check('indent')
  endif
catch
  call add(s:out.errors, v:exception . ' @ ' . v:throwpoint)
endtry

call writefile([json_encode(s:out)], $PROBE_OUT)
qall!
