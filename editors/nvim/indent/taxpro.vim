" Vim indent file
" Language:     TaxPro (formula files, *.tax)
" Note:         editors/vim/indent/taxpro.vim is the source of truth; editors/nvim/indent/taxpro.vim
"               is an identical copy (tests/editors/test_vim.py fails when they differ).
"
" The rules are those of editors/emacs/taxpro-mode.el:
" - a line starting with `}` or `)` lines up with the line of its opening bracket;
" - inside ( ): the opening line's indentation + 2 (one 'shiftwidth');
" - inside { } or at top level, a line continues the statement above when that line ends with
"   `=`, `->`, `,`, a binary operator, `then`, `else`, `and`, `or`, `not` or `in`, or when it
"   starts with `then`, `else`, `and`, `or` or a binary operator; a continuation is indented one
"   step more than the statement's first line;
" - the body of `formula ... =` is indented one step; it goes on while its statements are
"   `let`s, and the line after its final expression is back at the left margin;
" - declarations and `##` documentation comments at top level start at the left margin.

if exists('b:did_indent')
  finish
endif
let b:did_indent = 1

setlocal indentexpr=GetTaxproIndent()
setlocal indentkeys=0{,0},0),!^F,o,O,e,=then,=else
setlocal autoindent
let b:undo_indent = 'setlocal indentexpr< indentkeys< autoindent<'

if exists('*GetTaxproIndent')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

let s:declaration = '^\s*\%(##\|\%(formula\|test\|parameters\)\>\|province\s\+\h\|federal\s*["{]\)'
let s:top_level = '^\%(formula\|test\|parameters\|province\|federal\|let\)\>'
let s:continues_end = '\%([-+*/<>=,]\|\<\%(then\|else\|and\|or\|not\|in\)\)$'
let s:continues_start = '^\s*\%([-+*/<>=!]\|\%(then\|else\|and\|or\)\>\)'

" The code of line {lnum}: text literals blanked out, the comment and trailing blanks removed.
" (Text literals and comments never span lines in TaxPro.)
function! s:Code(lnum) abort
  let line = getline(a:lnum)
  let out = ''
  let i = 0
  let n = strlen(line)
  let in_text = 0
  while i < n
    let c = line[i]
    if in_text
      if c ==# '\'
        let out .= '  '
        let i += 2
        continue
      endif
      if c ==# '"'
        let in_text = 0
        let out .= c
      else
        let out .= ' '
      endif
    elseif c ==# '#'
      break
    else
      if c ==# '"'
        let in_text = 1
      endif
      let out .= c
    endif
    let i += 1
  endwhile
  return substitute(out, '\s\+$', '', '')
endfunction

" The innermost bracket still open at the start of line {lnum}: [line, column, char], or
" [0, 0, ''] at top level. The search stops at a top-level declaration in the first column.
function! s:Opener(lnum) abort
  let depth = 0
  let l = a:lnum - 1
  while l >= 1
    let code = s:Code(l)
    let i = strlen(code) - 1
    while i >= 0
      let c = code[i]
      if c ==# ')' || c ==# '}'
        let depth += 1
      elseif c ==# '(' || c ==# '{'
        if depth == 0
          return [l, i + 1, c]
        endif
        let depth -= 1
      endif
      let i -= 1
    endwhile
    if depth == 0 && code =~# s:top_level
      break
    endif
    let l -= 1
  endwhile
  return [0, 0, '']
endfunction

function! s:After(pos, other) abort
  return a:pos[0] > a:other[0] || (a:pos[0] == a:other[0] && a:pos[1] > a:other[1])
endfunction

" The previous line with code, after line {limit}; 0 when there is none.
function! s:PrevCode(lnum, limit) abort
  let l = a:lnum - 1
  while l > a:limit
    if s:Code(l) !~# '^\s*$'
      return l
    endif
    let l -= 1
  endwhile
  return 0
endfunction

" The line where the statement part at line {lnum} starts: when {lnum} begins inside brackets
" opened after {open}, the line of the outermost of them.
function! s:Anchor(lnum, open) abort
  let l = a:lnum
  let op = s:Opener(l)
  while op[0] && s:After(op, a:open)
    let l = op[0]
    let op = s:Opener(l)
  endwhile
  return l
endfunction

function! s:FormulaHeader(lnum) abort
  return getline(a:lnum) =~# '^\s*formula\>'
endfunction

function! s:EndsContinued(lnum) abort
  return s:Code(a:lnum) =~# s:continues_end
endfunction

function! s:StartsContinued(lnum) abort
  return getline(a:lnum) =~# s:continues_start
endfunction

function! s:ContinuationLine(anchor, open) abort
  if s:StartsContinued(a:anchor)
    return 1
  endif
  let prev = s:PrevCode(a:anchor, a:open[0])
  return prev && s:EndsContinued(prev) && !s:FormulaHeader(s:Anchor(prev, a:open))
endfunction

function! s:StatementStart(anchor, open) abort
  let start = a:anchor
  while s:ContinuationLine(start, a:open)
    let prev = s:PrevCode(start, a:open[0])
    if prev == 0
      break
    endif
    let start = s:Anchor(prev, a:open)
  endwhile
  return start
endfunction

function! GetTaxproIndent(...) abort
  let lnum = a:0 ? a:1 : v:lnum
  let sw = shiftwidth()
  let line = getline(lnum)
  let open = s:Opener(lnum)
  if open[0] && line =~# '^\s*[)}]'
    return indent(open[0])
  endif
  if open[0] && open[2] ==# '('
    return indent(open[0]) + sw
  endif
  let top = open[0] == 0
  let base = top ? 0 : indent(open[0]) + sw
  if top && line =~# s:declaration
    return 0
  endif
  let prev = s:PrevCode(lnum, open[0])
  if prev == 0
    return base
  endif
  let anchor = s:Anchor(prev, open)
  let anchor_indent = indent(anchor)
  let prev_continued = s:ContinuationLine(anchor, open)
  if s:EndsContinued(prev)
    if s:FormulaHeader(anchor)
      return anchor_indent + sw
    endif
    return prev_continued ? anchor_indent : anchor_indent + sw
  endif
  if line =~# s:continues_start
    return prev_continued ? anchor_indent : anchor_indent + sw
  endif
  if !top
    return base
  endif
  let start = s:StatementStart(anchor, open)
  return getline(start) =~# '^\s*let\>' ? indent(start) : 0
endfunction

let &cpo = s:cpo_save
unlet s:cpo_save
