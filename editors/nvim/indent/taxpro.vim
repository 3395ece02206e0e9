" Vim indent file
" Language:     TaxPro (formula files, *.tax)
" Note:         editors/vim/indent/taxpro.vim is the source of truth; editors/nvim/indent/taxpro.vim
"               is an identical copy (tests/editors/test_vim.py fails when they differ).
"
" The indentation `taxpro fmt` gives (the rules of editors/README.md, shared with
" editors/emacs/taxpro-mode.el), worked out from the lines above:
" - a line starting with `}` or `)` lines up with the line of its opening bracket;
" - inside `( )` or `{ }` a statement (an argument, a check, a parameter) starts at the opening
"   line's indentation + 2; at top level at the left margin, except in a formula's body;
" - the body of `formula … =` is indented 2; it goes on while its statements are `let`s, and the
"   line after its final expression is back at the left margin;
" - `if … then` at the end of a line: the branch below is indented 2; `else` and `else if … then`
"   line up with the line of their `if`, and the branch after them is indented 2;
" - a line starting with a binary operator followed by a space (`+ x`, `/ $100`, `and ok`)
"   continues the statement above: 4 more than the statement's first line, and the same as the
"   line above when that is such a continuation too (`-x` with no space is a negation, a new
"   statement);
" - after a line ending with an operator, `=` or `->`, the next line is indented the same way;
" - declarations (`formula`, `test`, `parameters`, `province`, `federal`) and `##` documentation
"   comments at top level start at the left margin.

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
" A binary operator followed by a space or the end of the line, at the start of a line.
let s:operator_start = '^\s*\%(\%([-+*/]\|[=!<>]=\|[<>]\)\%(\s\|$\)\|\%(and\|or\)\>\)'
" Code that ends so that the next line continues its expression.
let s:operator_end = '\%([-+*/<>=]\|\<\%(and\|or\|not\|in\)\)$'
let s:branch_end = '\<\%(then\|else\)$'
let s:branch_start = '^\s*\%(then\|else\)\>'

" The code of line {lnum}: text literals blanked out, the comment and trailing blanks removed.
" (Text literals and comments never span lines in TaxPro.)
function! s:Code(lnum) abort
  return s:Summary(getline(a:lnum)).code
endfunction

" What the indentation needs to know of a line's text, computed once per distinct text (a
" re-indent of a whole file asks about each line many times): its code, and its brackets left
" open after matching those inside the line: `closers` unmatched `)`/`}` (on the left) and
" `openers`, the unmatched `(`/`{` as [column, char] from left to right.
let s:summaries = {}

function! s:Summary(text) abort
  let cached = get(s:summaries, a:text, {})
  if !empty(cached)
    return cached
  endif
  let out = ''
  let i = 0
  let n = strlen(a:text)
  let in_text = 0
  while i < n
    let c = a:text[i]
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
  let code = substitute(out, '\s\+$', '', '')
  let openers = []
  let closers = 0
  let i = 0
  while i < strlen(code)
    let c = code[i]
    if c ==# '(' || c ==# '{'
      call add(openers, [i + 1, c])
    elseif c ==# ')' || c ==# '}'
      if empty(openers)
        let closers += 1
      else
        call remove(openers, -1)
      endif
    endif
    let i += 1
  endwhile
  if len(s:summaries) > 10000
    let s:summaries = {}
  endif
  let summary = {'code': code, 'openers': openers, 'closers': closers}
  let s:summaries[a:text] = summary
  return summary
endfunction

" The innermost bracket still open at the start of line {lnum}: [line, column, char], or
" [0, 0, ''] at top level. The search stops at a top-level declaration in the first column.
function! s:Opener(lnum) abort
  let depth = 0
  let l = a:lnum - 1
  while l >= 1
    let summary = s:Summary(getline(l))
    let open_count = len(summary.openers)
    if open_count > depth
      let [column, char] = summary.openers[open_count - 1 - depth]
      return [l, column, char]
    endif
    let depth += summary.closers - open_count
    if depth == 0 && summary.code =~# s:top_level
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

" The next line with code after line {lnum}; 0 when there is none.
function! s:NextCode(lnum) abort
  let l = a:lnum + 1
  let last = line('$')
  while l <= last
    if s:Code(l) !~# '^\s*$'
      return l
    endif
    let l += 1
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

" Whether the line above {anchor} (in the same brackets) ends with an operator, so that {anchor}
" continues its expression; the `=` of a formula's header starts the body instead.
function! s:AfterOperator(anchor, open) abort
  let prev = s:PrevCode(a:anchor, a:open[0])
  return prev && s:Code(prev) =~# s:operator_end
        \ && !(s:Code(prev) =~# '=$' && s:FormulaHeader(s:Anchor(prev, a:open)))
endfunction

" Whether {anchor} continues an expression with an operator: it starts with one, or the line
" above ends with one.
function! s:OperatorContinuation(anchor, open) abort
  return getline(a:anchor) =~# s:operator_start || s:AfterOperator(a:anchor, a:open)
endfunction

" Whether {anchor} belongs to the statement above: an operator continuation, an `else` (or a
" user's `then`) line, or a branch below `then` or `else`.
function! s:Continuation(anchor, open) abort
  if s:OperatorContinuation(a:anchor, a:open) || getline(a:anchor) =~# s:branch_start
    return 1
  endif
  let prev = s:PrevCode(a:anchor, a:open[0])
  return prev && s:Code(prev) =~# s:branch_end
endfunction

function! s:StatementStart(anchor, open) abort
  let start = a:anchor
  while s:Continuation(start, a:open)
    let prev = s:PrevCode(start, a:open[0])
    if prev == 0
      break
    endif
    let start = s:Anchor(prev, a:open)
  endwhile
  return start
endfunction

" The line of the `if` that the `then` or `else` at the start of line {lnum} belongs to: going
" up, each `else` passed over needs one more `if`. 0 when there is none in the statement.
function! s:MatchingIf(lnum, open) abort
  let depth = 0
  let l = a:lnum - 1
  while l > a:open[0]
    let code = s:Code(l)
    let words = []
    call substitute(code, '\<\%(if\|else\)\>', '\=add(words, submatch(0))', 'g')
    for word in reverse(words)
      if word ==# 'else'
        let depth += 1
      elseif depth == 0
        return l
      else
        let depth -= 1
      endif
    endfor
    if !a:open[0] && code =~# s:top_level
      break
    endif
    let l -= 1
  endwhile
  return 0
endfunction

function! GetTaxproIndent(...) abort
  let lnum = a:0 ? a:1 : v:lnum
  let sw = shiftwidth()
  let line = getline(lnum)
  let open = s:Opener(lnum)
  if open[0] && line =~# '^\s*[)}]'
    return indent(open[0])
  endif
  let top = open[0] == 0
  let base = top ? 0 : indent(open[0]) + sw
  if top && line =~# '^\s*##'
    " Documentation goes where what it documents goes: a `let` of a formula's body is indented.
    let next = s:NextCode(lnum)
    return next ? GetTaxproIndent(next) : 0
  endif
  if top && line =~# s:declaration
    return 0
  endif
  let prev = s:PrevCode(lnum, open[0])
  if prev == 0
    return base
  endif
  let summary = s:Summary(getline(prev))
  " A line with no brackets of its own starts in the brackets of the line below it.
  let anchor = empty(summary.openers) && summary.closers == 0 ? prev : s:Anchor(prev, open)
  let code = summary.code
  if line =~# s:branch_start
    let if_line = s:MatchingIf(lnum, open)
    if if_line
      let if_anchor = s:Anchor(if_line, open)
      let fmt_style = line =~# '^\s*else\>' && s:Code(if_line) =~# '\<then$'
      return indent(if_anchor) + (fmt_style ? 0 : 2 * sw)
    endif
  endif
  if code =~# s:branch_end
    return indent(anchor) + sw
  endif
  if line =~# s:operator_start
    return indent(anchor) + (getline(anchor) =~# s:operator_start ? 0 : 2 * sw)
  endif
  if code =~# s:operator_end
    if code =~# '=$' && s:FormulaHeader(anchor)
      return indent(anchor) + sw
    endif
    return indent(anchor) + (s:OperatorContinuation(anchor, open) ? 0 : 2 * sw)
  endif
  if !top
    return base
  endif
  let start = s:StatementStart(anchor, open)
  return getline(start) =~# '^\s*let\>' ? indent(start) : 0
endfunction

let &cpo = s:cpo_save
unlet s:cpo_save
