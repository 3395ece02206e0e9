" Vim syntax file
" Language:     TaxPro (formula files, *.tax)
" Reference:    docs/LANGUAGE.md
" Note:         editors/vim/syntax/taxpro.vim is the source of truth; editors/nvim/syntax/taxpro.vim
"               is an identical copy (tests/editors/test_vim.py fails when they differ).

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match
syn iskeyword a-z,A-Z,48-57,_

" Plain identifiers first: everything defined later wins at the same position.
syn match taxproParam      /\<\h\w*\ze\s*:/
syn match taxproMemberDef  /^\s*\zs\h\w*\ze\s*=\%(=\)\@!/
syn match taxproMember     /\%(\%(^\|[^.]\)\.\s*\)\@<=\h\w*/
syn match taxproCall       /\<\h\w*\ze\s*(/
syn match taxproBuiltin    /\<\%(min\|max\|abs\|round\|floor\|ceil\|clamp\|tax\|marginal_rate\|average_rate\|sqrt\|ln\|exp\|log10\)\ze\s*(/

" Types, jurisdictions and declaration names.
syn match taxproType          /\<\%(Money\|Rate\|Number\|Bool\|Text\|Province\|Brackets\)\>/
syn match taxproProvince      /\<\%(AB\|BC\|MB\|NB\|NL\|NS\|NT\|NU\|ON\|PE\|QC\|SK\|YT\)\>/
syn match taxproFederal       /\<federal\>/
syn match taxproFormulaName   /\%(\<formula\s\+\)\@<=\h\w*/
syn match taxproLetName       /\%(\<let\s\+\)\@<=\h\w*/
syn match taxproInterfaceName /\%(\<parameters\s\+\)\@<=\h\w*/
syn match taxproProvinceName  /\%(\<province\s\+\)\@<=\h\w*/

" Keywords. `province` and `federal` are keywords only where they declare a jurisdiction:
" `province ON "Ontario" {`, `federal "Canada" {`. Elsewhere `province` may name a parameter
" and `federal` is the federal jurisdiction (`federal.income_tax`).
syn keyword taxproConditional if then else
syn keyword taxproLogical     and or not
syn keyword taxproArithmetic  mod of
syn keyword taxproIn          in
syn keyword taxproBoolean     true false
syn keyword taxproDeclaration formula let test parameters year brackets
syn match   taxproDeclaration /\<province\ze\s\+\%(\%(if\|then\|else\|and\|or\|not\|in\|true\|false\)\>\)\@!\h/
syn match   taxproDeclaration /\<federal\ze\s*["{]/

" Operators.
syn match taxproOperator /->\|\.\.\|[=!<>]=\|[-+*\/<>=^×÷−]/

" Numbers, rates and money: 3  1_000  2.5  5.05%  $85,000  $0.50.
" A `.` is a decimal point only when a digit follows it (1..5 is 1 .. 5). Money groups digits
" with commas in threes only and has at most two decimals; anything else is an error.
syn match taxproNumber     /\<\d[0-9_]*\%(\.\d[0-9_]*\)\=/
syn match taxproRate       /\<\d[0-9_]*\%(\.\d[0-9_]*\)\=%/
syn match taxproMoneyError /\$\d[0-9_,]*\%(\.\d[0-9_]*\)\=/
syn match taxproMoney      /\$\%(\d\{1,3}\%(,\d\{3}\)\+\|\d[0-9_]*\)\%(\.\d\{1,2}\)\=\%([0-9_]\|,\d\|\.\d\)\@!/

" Text with escapes \" \\ \n \t.
syn match  taxproEscape    /\\["\\nt]/ contained
syn match  taxproBadEscape /\\[^"\\nt]/ contained
syn region taxproString    start=/"/ skip=/\\\\\|\\"/ end=/"\|$/ contains=taxproEscape,taxproBadEscape

" Comments: `# text`, and `## text` documentation comments (Markdown) with their fields.
syn keyword taxproTodo       TODO FIXME XXX contained
syn match   taxproDocField   /\%(##\s*\)\@<=\%(definition\|instruction\|tip\|topic\|reference\|note\|example\|parts\):/ contained
syn match   taxproDocUrl     /\<https\=:\/\/[^ \t<>"'`()\[\]]*[^ \t<>"'`()\[\].,;:!?]/ contained
syn match   taxproDocCode    /`[^`]*`/ contained
syn match   taxproComment    /#.*$/ contains=taxproTodo,@Spell
syn match   taxproDocComment /##.*$/ contains=taxproDocField,taxproDocUrl,taxproDocCode,taxproTodo,@Spell

hi def link taxproComment       Comment
hi def link taxproDocComment    SpecialComment
hi def link taxproDocField      Keyword
hi def link taxproDocUrl        Underlined
hi def link taxproDocCode       String
hi def link taxproTodo          Todo
hi def link taxproConditional   Conditional
hi def link taxproLogical       Operator
hi def link taxproArithmetic    Operator
hi def link taxproIn            Operator
hi def link taxproBoolean       Boolean
hi def link taxproDeclaration   Keyword
hi def link taxproType          Type
hi def link taxproInterfaceName Type
hi def link taxproFormulaName   Function
hi def link taxproLetName       Identifier
hi def link taxproProvinceName  Constant
hi def link taxproProvince      Constant
hi def link taxproFederal       Constant
hi def link taxproMoney         Number
hi def link taxproMoneyError    Error
hi def link taxproRate          Number
hi def link taxproNumber        Number
hi def link taxproString        String
hi def link taxproEscape        SpecialChar
hi def link taxproBadEscape     Error
hi def link taxproBuiltin       Function
hi def link taxproCall          Function
hi def link taxproMember        Identifier
hi def link taxproMemberDef     Identifier
hi def link taxproParam         Identifier
hi def link taxproOperator      Operator

let b:current_syntax = 'taxpro'

let &cpo = s:cpo_save
unlet s:cpo_save
