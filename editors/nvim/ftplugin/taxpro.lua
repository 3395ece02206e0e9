-- Neovim filetype plugin for TaxPro (*.tax).
if vim.b.did_ftplugin then
  return
end
vim.b.did_ftplugin = 1

local opt = vim.opt_local
-- `# comment`; `## documentation` lines continue when you press Enter or `o` in them.
opt.commentstring = '# %s'
opt.comments = ':##,:#'
opt.formatoptions:remove('t')
opt.formatoptions:append('croql')
-- Two spaces per level (indent/taxpro.vim computes the indentation).
opt.expandtab = true
opt.shiftwidth = 2
opt.softtabstop = 2
opt.iskeyword = 'a-z,A-Z,48-57,_'
opt.suffixesadd = '.tax'

vim.b.undo_ftplugin = 'setlocal commentstring< comments< formatoptions< expandtab< shiftwidth<'
  .. ' softtabstop< iskeyword< suffixesadd<'
