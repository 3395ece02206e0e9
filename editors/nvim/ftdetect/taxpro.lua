-- TaxPro formula files (*.tax).
if vim.filetype and vim.filetype.add then
  -- Neovim 0.7+ (the Lua filetype detection, default from 0.8).
  vim.filetype.add({ extension = { tax = 'taxpro' } })
end
-- The classic detection, for Neovim versions or set-ups that use filetype.vim.
vim.cmd([[autocmd BufNewFile,BufRead *.tax setfiletype taxpro]])
